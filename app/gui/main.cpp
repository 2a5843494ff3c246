// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/Benchmark.h"
#include "app/gui/CommandLine.h"
#include "app/gui/Screenshot.h"
#include "ui/theme/Theme.h"
#include "ui/window/MainWindow.h"

#include <QApplication>

#include <chrono>
#include <cstdint>
#include <cstdio>

namespace {

void print(FILE* stream, const QString& text) {
    const QByteArray bytes = text.toLocal8Bit();
    std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), stream);
    std::fflush(stream);
}

} // namespace

int main(int argc, char* argv[]) {
    using namespace archplay::app;
    namespace ui = archplay::ui;
    const std::int64_t mainStartNs =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
    // Screenshots and benchmarks need no display: offscreen unless the caller chose a platform.
    if (runsOffscreen(argc, argv) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication::setHighDpiScaleFactorRoundingPolicy(Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
    // It times paint events for --bench only; otherwise it adds one flag test per event.
    PaintTimingApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("archplay"));
    QApplication::setApplicationName(QStringLiteral("archplay"));
    QApplication::setApplicationDisplayName(QStringLiteral("archplay"));
    QApplication::setApplicationVersion(QStringLiteral(ARCHPLAY_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("archplay"));

    const CommandLineResult parsed = parseCommandLine(QApplication::arguments());
    if (parsed.action == CommandLineResult::Action::Exit) {
        print(stdout, parsed.output);
        print(stderr, parsed.error);
        return parsed.exitCode;
    }
    const GuiOptions& options = parsed.options;

    QString error;
    if (options.bench) {
        const int status = runBenchmark(app, options, mainStartNs, &error);
        if (status != 0) {
            print(stderr, QStringLiteral("archplay: %1\n").arg(error));
        }
        return status;
    }
    if (!options.screenshotPath.isEmpty()) {
        const int status = runScreenshot(options, &error);
        if (status != 0) {
            print(stderr, QStringLiteral("archplay: %1\n").arg(error));
        }
        return status;
    }

    ui::theme::applyTheme(ui::theme::ThemeMode::System);
    ui::window::MainWindow window;
    if (options.theme) {
        window.setThemeMode(*options.theme);
    }
    if (applyOptions(window, options, &error) != 0) {
        print(stderr, QStringLiteral("archplay: %1\n").arg(error));
        return 2;
    }
    window.show();
    return QApplication::exec();
}
