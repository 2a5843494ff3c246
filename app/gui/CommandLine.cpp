// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/CommandLine.h"

#include "core/io/Presets.h"
#include "ui/Strings.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QRegularExpression>

#include <cstring>

namespace archplay::app {

namespace {

#ifndef ARCHPLAY_VERSION
#define ARCHPLAY_VERSION "0.0.0"
#endif

constexpr int kMinimumSide = 200;
constexpr int kMaximumSide = 8192;

CommandLineResult failure(const QString& message) {
    CommandLineResult result;
    result.action = CommandLineResult::Action::Exit;
    result.exitCode = 2;
    result.error = QStringLiteral("archplay: %1\nTry 'archplay --help' for more information.\n").arg(message);
    return result;
}

} // namespace

CommandLineResult parseCommandLine(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("archplay", "A playground for transformer architectures."));
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                  QCoreApplication::translate("archplay", "Show this help and exit."));
    const QCommandLineOption version(QStringLiteral("version"),
                                     QCoreApplication::translate("archplay", "Show the version and exit."));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QCoreApplication::translate("archplay", "Render the window (or --view) offscreen to a PNG and exit."),
        QStringLiteral("FILE.png"));
    const QCommandLineOption preset(
        QStringLiteral("preset"),
        QCoreApplication::translate("archplay", "Load a built-in preset, e.g. llama-3-8b. With --bench: measure this "
                                                "preset (repeatable)."),
        QStringLiteral("ID"));
    const QCommandLineOption config(QStringLiteral("config"),
                                    QCoreApplication::translate("archplay", "Load a config.json or session file."),
                                    QStringLiteral("FILE"));
    const QCommandLineOption view(
        QStringLiteral("view"),
        QCoreApplication::translate("archplay", "Show this view, e.g. breakdown (with --bench: measure only it)."),
        QStringLiteral("NAME"));
    const QCommandLineOption size(QStringLiteral("size"),
                                  QCoreApplication::translate("archplay", "Window size for --screenshot (default "
                                                                          "1280x800) and --bench (default 1600x1000)."),
                                  QStringLiteral("WxH"));
    const QCommandLineOption theme(QStringLiteral("theme"),
                                   QCoreApplication::translate("archplay", "light, dark or system."),
                                   QStringLiteral("THEME"));
    const QCommandLineOption bench(
        QStringLiteral("bench"),
        QCoreApplication::translate("archplay", "Measure slider-to-pixels latency, per-view paint time, start-up and "
                                                "memory in the real window, offscreen, and exit."));
    const QCommandLineOption json(QStringLiteral("json"),
                                  QCoreApplication::translate("archplay", "With --bench: print one JSON object."));
    const QCommandLineOption out(
        QStringLiteral("out"), QCoreApplication::translate("archplay", "With --bench: also write the result to FILE."),
        QStringLiteral("FILE"));
    const QCommandLineOption steps(
        QStringLiteral("steps"),
        QCoreApplication::translate("archplay",
                                    "With --bench: mouse positions per slider sweep, each way (default 6)."),
        QStringLiteral("N"));
    parser.addOptions({help, version, screenshot, preset, config, view, size, theme, bench, json, out, steps});
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QCoreApplication::translate("archplay", "A config.json or session file to open."),
                                 QStringLiteral("[file]"));

    if (!parser.parse(arguments)) {
        return failure(parser.errorText());
    }
    if (parser.isSet(help)) {
        CommandLineResult result;
        result.action = CommandLineResult::Action::Exit;
        result.output = parser.helpText();
        return result;
    }
    if (parser.isSet(version)) {
        CommandLineResult result;
        result.action = CommandLineResult::Action::Exit;
        result.output = QStringLiteral("archplay %1\n").arg(QStringLiteral(ARCHPLAY_VERSION));
        return result;
    }

    CommandLineResult result;
    GuiOptions& options = result.options;
    options.screenshotPath = parser.value(screenshot);
    options.bench = parser.isSet(bench);
    if (options.bench) {
        for (const QString& value : parser.values(preset)) {
            for (const QString& id : value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                if (core::findPreset(id.trimmed().toStdString()) == nullptr) {
                    return failure(QStringLiteral("unknown preset '%1'; 'archplay-cli presets' lists them").arg(id));
                }
                options.benchPresets << id.trimmed();
            }
        }
        if (parser.isSet(screenshot) || parser.isSet(config) || !parser.positionalArguments().isEmpty()) {
            return failure(
                QStringLiteral("--bench takes only --preset, --view, --size, --json, --out, --steps and --theme"));
        }
        options.benchJson = parser.isSet(json);
        options.benchOutPath = parser.value(out);
        if (parser.isSet(steps)) {
            bool ok = false;
            options.benchSteps = parser.value(steps).toInt(&ok);
            if (!ok || options.benchSteps < 1 || options.benchSteps > 1000) {
                return failure(
                    QStringLiteral("--steps expects a whole number from 1 to 1000, not '%1'").arg(parser.value(steps)));
            }
        }
        options.size = QSize(1600, 1000);
    } else {
        if (parser.isSet(json) || parser.isSet(out) || parser.isSet(steps)) {
            return failure(QStringLiteral("--json, --out and --steps go with --bench"));
        }
        if (parser.values(preset).size() > 1) {
            return failure(QStringLiteral("give one --preset (several go with --bench)"));
        }
        options.presetId = parser.value(preset);
    }
    options.configPath = parser.value(config);
    if (parser.isSet(view)) {
        options.view = core::parseViewKind(parser.value(view).toStdString());
        if (!options.view) {
            QStringList names;
            for (core::ViewKind kind : core::kAllViewKinds) {
                names << ui::qs(core::toString(kind));
            }
            return failure(QStringLiteral("unknown view '%1'; views: %2")
                               .arg(parser.value(view), names.join(QStringLiteral(", "))));
        }
    }
    if (parser.isSet(screenshot) && options.screenshotPath.isEmpty()) {
        return failure(QStringLiteral("--screenshot needs a file name"));
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        return failure(QStringLiteral("too many files: %1").arg(positional.join(QLatin1Char(' '))));
    }
    if (positional.size() == 1) {
        if (!options.configPath.isEmpty()) {
            return failure(QStringLiteral("give the file either with --config or on its own, not both"));
        }
        options.configPath = positional.front();
    }
    if (!options.presetId.isEmpty() && !options.configPath.isEmpty()) {
        return failure(QStringLiteral("--preset and --config exclude each other"));
    }
    if (!options.presetId.isEmpty() && core::findPreset(options.presetId.toStdString()) == nullptr) {
        QStringList ids;
        for (const core::Preset& p : core::builtinPresets()) {
            ids << QString::fromStdString(p.info.id);
        }
        return failure(QStringLiteral("unknown preset '%1'; known presets: %2")
                           .arg(options.presetId, ids.join(QStringLiteral(", "))));
    }
    if (parser.isSet(size)) {
        static const QRegularExpression pattern(QStringLiteral("^(\\d{1,5})[xX](\\d{1,5})$"));
        const QRegularExpressionMatch match = pattern.match(parser.value(size));
        if (!match.hasMatch()) {
            return failure(QStringLiteral("--size expects WxH, e.g. 1280x800, not '%1'").arg(parser.value(size)));
        }
        const int width = match.captured(1).toInt();
        const int height = match.captured(2).toInt();
        if (width < kMinimumSide || height < kMinimumSide || width > kMaximumSide || height > kMaximumSide) {
            return failure(
                QStringLiteral("--size must be between %1 and %2 pixels per side").arg(kMinimumSide).arg(kMaximumSide));
        }
        options.size = QSize(width, height);
    }
    if (parser.isSet(theme)) {
        options.theme = ui::theme::parseThemeMode(parser.value(theme));
        if (!options.theme) {
            return failure(QStringLiteral("--theme expects light, dark or system, not '%1'").arg(parser.value(theme)));
        }
    }
    if (!options.screenshotPath.isEmpty() &&
        !options.screenshotPath.endsWith(QLatin1String(".png"), Qt::CaseInsensitive)) {
        return failure(QStringLiteral("--screenshot writes PNG files; the name must end in .png"));
    }
    return result;
}

bool runsOffscreen(int argc, const char* const* argv) {
    for (int i = 1; i < argc; ++i) {
        for (const char* option : {"screenshot", "bench", "help", "h", "version"}) {
            const char* name = argv[i];
            name += std::strncmp(name, "--", 2) == 0 ? 2 : (name[0] == '-' ? 1 : 0);
            const std::size_t length = std::strlen(option);
            if (name != argv[i] && std::strncmp(name, option, length) == 0 &&
                (name[length] == '\0' || name[length] == '=')) {
                return true;
            }
        }
    }
    return false;
}

} // namespace archplay::app
