// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/ExportGraphics.h"

#include "ui/Strings.h"
#include "ui/design/DesignExport.h"
#include "ui/export/HeadlessExport.h"
#include "ui/session/AtomicWrite.h"
#include "ui/theme/Theme.h"
#include "ui/views/charts/ZooChart.h"

#include <QApplication>
#include <qcustomplot.h>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <memory>
#include <ostream>

namespace archplay::cli {
namespace {

QtMessageHandler g_previousHandler = nullptr;

/// Qt's notes about the session (no runtime directory on a server) are noise on a command line.
void quietHandler(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (type != QtCriticalMsg && type != QtFatalMsg && message.contains(QLatin1String("XDG_RUNTIME_DIR"))) {
        return;
    }
    if (g_previousHandler) {
        g_previousHandler(type, context, message);
    }
}

/// The application the views need. Created once, on the offscreen platform unless the caller chose
/// one, and kept until the process ends: Qt does not support a second QApplication after the first
/// is gone, and the command line may run several exports in one process (the tests do). It is
/// destroyed at exit, before the Qt globals it created (fonts, the platform), so nothing leaks.
void ensureApplication() {
    if (QCoreApplication::instance()) {
        return;
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    g_previousHandler = qInstallMessageHandler(quietHandler);
    static int argc = 1;
    static char name[] = "archplay-cli";
    static char* argv[] = {name, nullptr};
    static const std::unique_ptr<QApplication> application = std::make_unique<QApplication>(argc, argv);
}

} // namespace

int exportGraphics(const core::Analysis& analysis, const GraphicsRequest& request, std::ostream& err) {
    ensureApplication();
    const ui::theme::ThemeMode theme = request.dark ? ui::theme::ThemeMode::Dark : ui::theme::ThemeMode::Light;
    if (!qobject_cast<QApplication*>(QCoreApplication::instance())) {
        fmt::print(err,
                   "archplay-cli: cannot write {}: drawing needs a QApplication, and another kind of "
                   "application object exists\n",
                   request.path);
        return 1;
    }
    ui::theme::applyTheme(theme);
    ui::exports::ExportRequest job;
    job.what = request.what;
    job.format = request.format;
    job.path = ui::qs(request.path);
    if (request.width && request.height) {
        job.size = QSize(*request.width, *request.height);
    }
    job.scale = request.scale;
    job.theme = theme;
    job.paper = request.letter ? QPageSize::Letter : QPageSize::A4;
    job.layer = request.layer;
    job.info = request.info;
    job.zoo = request.zoo;
    job.readOnly = request.replaceReadOnly ? core::ReadOnlyTarget::Replace : core::ReadOnlyTarget::Refuse;
    if (const core::Status written = ui::exports::exportAnalysis(analysis, job); !written.ok()) {
        fmt::print(err, "archplay-cli: cannot write {}: {}\n", request.path, written.error());
        return 1;
    }
    return 0;
}

int exportZooPlot(const core::ZooPlotData& data, const ZooPlotRequest& request, std::ostream& err) {
    ensureApplication();
    const ui::theme::ThemeMode theme = request.dark ? ui::theme::ThemeMode::Dark : ui::theme::ThemeMode::Light;
    ui::theme::applyTheme(theme);
    const std::unique_ptr<QCustomPlot> chart =
        ui::views::plot::zooChart(data, QSize(1600, 1000), ui::theme::themePalette(theme), QApplication::font());
    QString error;
    const QByteArray bytes = ui::design::chartBytes({chart.get(), ui::qs(request.caption)}, request.format, &error);
    if (bytes.isEmpty()) {
        fmt::print(err, "archplay-cli: cannot write {}: {}\n", request.path, error.toStdString());
        return 1;
    }
    const core::ReadOnlyTarget readOnly =
        request.replaceReadOnly ? core::ReadOnlyTarget::Replace : core::ReadOnlyTarget::Refuse;
    if (const core::Status written = ui::session::writeAtomically(ui::qs(request.path), bytes, readOnly);
        !written.ok()) {
        fmt::print(err, "archplay-cli: cannot write {}: {}\n", request.path, written.error());
        return 1;
    }
    return 0;
}

} // namespace archplay::cli
