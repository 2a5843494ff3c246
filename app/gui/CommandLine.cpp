// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/CommandLine.h"

#include "core/io/Presets.h"
#include "ui/Strings.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QRegularExpression>

#include <cstring>
#include <optional>

namespace archplay::app {

namespace {

#ifndef ARCHPLAY_VERSION
#define ARCHPLAY_VERSION "0.0.0"
#endif

constexpr int kMinimumSide = 200;
constexpr int kMaximumSide = 8192;

/// Why the arguments were refused; nullopt when they are fine.
using Refusal = std::optional<QString>;

Refusal readScreenshot(const QStringList& values, GuiOptions& options) {
    options.screenshotPath = values.constLast();
    if (options.screenshotPath.isEmpty()) {
        return QStringLiteral("--screenshot needs a file name");
    }
    if (!options.screenshotPath.endsWith(QLatin1String(".png"), Qt::CaseInsensitive)) {
        return QStringLiteral("--screenshot writes PNG files; the name must end in .png");
    }
    return std::nullopt;
}

Refusal readPresets(const QStringList& values, GuiOptions& options) {
    if (!options.bench) {
        options.presetId = values.constLast();
        if (!options.presetId.isEmpty() && core::findPreset(options.presetId.toStdString()) == nullptr) {
            QStringList ids;
            for (const core::Preset& preset : core::builtinPresets()) {
                ids << ui::qs(preset.info.id);
            }
            return QStringLiteral("unknown preset '%1'; known presets: %2")
                .arg(options.presetId, ids.join(QStringLiteral(", ")));
        }
        return std::nullopt;
    }
    for (const QString& value : values) {
        for (const QString& id : value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            if (core::findPreset(id.trimmed().toStdString()) == nullptr) {
                return QStringLiteral("unknown preset '%1'; 'archplay-cli presets' lists them").arg(id);
            }
            options.benchPresets << id.trimmed();
        }
    }
    return std::nullopt;
}

Refusal readView(const QStringList& values, GuiOptions& options) {
    options.view = core::parseViewKind(values.constLast().toStdString());
    if (options.view) {
        return std::nullopt;
    }
    QStringList names;
    for (core::ViewKind kind : core::kAllViewKinds) {
        names << ui::qs(core::toString(kind));
    }
    return QStringLiteral("unknown view '%1'; views: %2").arg(values.constLast(), names.join(QStringLiteral(", ")));
}

Refusal readSize(const QStringList& values, GuiOptions& options) {
    static const QRegularExpression pattern(QStringLiteral("^(\\d{1,5})[xX](\\d{1,5})$"));
    const QRegularExpressionMatch match = pattern.match(values.constLast());
    if (!match.hasMatch()) {
        return QStringLiteral("--size expects WxH, e.g. 1280x800, not '%1'").arg(values.constLast());
    }
    const int width = match.captured(1).toInt();
    const int height = match.captured(2).toInt();
    if (width < kMinimumSide || height < kMinimumSide || width > kMaximumSide || height > kMaximumSide) {
        return QStringLiteral("--size must be between %1 and %2 pixels per side").arg(kMinimumSide).arg(kMaximumSide);
    }
    options.size = QSize(width, height);
    return std::nullopt;
}

Refusal readTheme(const QStringList& values, GuiOptions& options) {
    options.theme = ui::theme::parseThemeMode(values.constLast());
    if (!options.theme) {
        return QStringLiteral("--theme expects light, dark or system, not '%1'").arg(values.constLast());
    }
    return std::nullopt;
}

Refusal readSteps(const QStringList& values, GuiOptions& options) {
    bool ok = false;
    options.benchSteps = values.constLast().toInt(&ok);
    if (!ok || options.benchSteps < 1 || options.benchSteps > 1000) {
        return QStringLiteral("--steps expects a whole number from 1 to 1000, not '%1'").arg(values.constLast());
    }
    return std::nullopt;
}

/// One option of `archplay`: its names, its value (none for a switch), its line of --help, and how
/// its values go into GuiOptions (none for the options handled before: --help, --version, --bench,
/// and --config, which shares its rules with the positional file).
struct OptionRow {
    const char* name;
    const char* alias = nullptr;
    const char* valueName = nullptr;
    const char* help;
    Refusal (*read)(const QStringList& values, GuiOptions& options) = nullptr;
};

// In the order --help lists them.
constexpr OptionRow kOptions[] = {
    {.name = "help", .alias = "h", .help = QT_TRANSLATE_NOOP("archplay", "Show this help and exit.")},
    {.name = "version", .help = QT_TRANSLATE_NOOP("archplay", "Show the version and exit.")},
    {.name = "screenshot",
     .valueName = "FILE.png",
     .help = QT_TRANSLATE_NOOP("archplay", "Render the window (or --view) offscreen to a PNG and exit."),
     .read = readScreenshot},
    {.name = "preset",
     .valueName = "ID",
     .help = QT_TRANSLATE_NOOP(
         "archplay", "Load a built-in preset, e.g. llama-3-8b. With --bench: measure this preset (repeatable)."),
     .read = readPresets},
    {.name = "config",
     .valueName = "FILE",
     .help = QT_TRANSLATE_NOOP("archplay", "Load a config.json or session file.")},
    {.name = "view",
     .valueName = "NAME",
     .help = QT_TRANSLATE_NOOP("archplay", "Show this view, e.g. breakdown (with --bench: measure only it)."),
     .read = readView},
    {.name = "size",
     .valueName = "WxH",
     .help = QT_TRANSLATE_NOOP("archplay",
                               "Window size for --screenshot (default 1280x800) and --bench (default 1600x1000)."),
     .read = readSize},
    {.name = "theme",
     .valueName = "THEME",
     .help = QT_TRANSLATE_NOOP("archplay", "light, dark or system."),
     .read = readTheme},
    {.name = "bench",
     .help = QT_TRANSLATE_NOOP("archplay", "Measure slider-to-pixels latency, per-view paint time, start-up and memory "
                                           "in the real window, offscreen, and exit.")},
    {.name = "json",
     .help = QT_TRANSLATE_NOOP("archplay", "With --bench: print one JSON object."),
     .read = [](const QStringList&, GuiOptions& options) -> Refusal {
         options.benchJson = true;
         return std::nullopt;
     }},
    {.name = "out",
     .valueName = "FILE",
     .help = QT_TRANSLATE_NOOP("archplay", "With --bench: also write the result to FILE."),
     .read = [](const QStringList& values, GuiOptions& options) -> Refusal {
         options.benchOutPath = values.constLast();
         return std::nullopt;
     }},
    {.name = "steps",
     .valueName = "N",
     .help = QT_TRANSLATE_NOOP("archplay", "With --bench: mouse positions per slider sweep, each way (default 6)."),
     .read = readSteps},
};

QCommandLineOption toOption(const OptionRow& row) {
    QStringList names{QString::fromLatin1(row.name)};
    if (row.alias) {
        names.prepend(QString::fromLatin1(row.alias));
    }
    return QCommandLineOption(names, QCoreApplication::translate("archplay", row.help),
                              row.valueName ? QString::fromLatin1(row.valueName) : QString());
}

/// The file to open: the positional one, else --config's.
QString configPath(const QCommandLineParser& parser) {
    const QStringList positional = parser.positionalArguments();
    return positional.size() == 1 ? positional.front() : parser.value(QStringLiteral("config"));
}

/// The rules between options, and between --config and the positional file.
Refusal checkCombination(const QCommandLineParser& parser, bool bench) {
    const auto isSet = [&](const char* name) {
        return parser.isSet(QString::fromLatin1(name));
    };
    const QStringList positional = parser.positionalArguments();
    if (bench && (isSet("screenshot") || isSet("config") || !positional.isEmpty())) {
        return QStringLiteral("--bench takes only --preset, --view, --size, --json, --out, --steps and --theme");
    }
    if (!bench && (isSet("json") || isSet("out") || isSet("steps"))) {
        return QStringLiteral("--json, --out and --steps go with --bench");
    }
    if (!bench && parser.values(QStringLiteral("preset")).size() > 1) {
        return QStringLiteral("give one --preset (several go with --bench)");
    }
    if (positional.size() > 1) {
        return QStringLiteral("too many files: %1").arg(positional.join(QLatin1Char(' ')));
    }
    if (positional.size() == 1 && !parser.value(QStringLiteral("config")).isEmpty()) {
        return QStringLiteral("give the file either with --config or on its own, not both");
    }
    if (!bench && !parser.value(QStringLiteral("preset")).isEmpty() && !configPath(parser).isEmpty()) {
        return QStringLiteral("--preset and --config exclude each other");
    }
    return std::nullopt;
}

CommandLineResult exitWith(int exitCode, QString output, QString error) {
    CommandLineResult result;
    result.action = CommandLineResult::Action::Exit;
    result.exitCode = exitCode;
    result.output = std::move(output);
    result.error = std::move(error);
    return result;
}

CommandLineResult failure(const QString& message) {
    return exitWith(2, {}, QStringLiteral("archplay: %1\nTry 'archplay --help' for more information.\n").arg(message));
}

} // namespace

CommandLineResult parseCommandLine(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("archplay", "A playground for transformer architectures."));
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    for (const OptionRow& row : kOptions) {
        parser.addOption(toOption(row));
    }
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QCoreApplication::translate("archplay", "A config.json or session file to open."),
                                 QStringLiteral("[file]"));

    if (!parser.parse(arguments)) {
        return failure(parser.errorText());
    }
    if (parser.isSet(QStringLiteral("help"))) {
        return exitWith(0, parser.helpText(), {});
    }
    if (parser.isSet(QStringLiteral("version"))) {
        return exitWith(0, QStringLiteral("archplay %1\n").arg(QStringLiteral(ARCHPLAY_VERSION)), {});
    }

    CommandLineResult result;
    GuiOptions& options = result.options;
    options.bench = parser.isSet(QStringLiteral("bench"));
    if (options.bench) {
        options.size = QSize(1600, 1000);
    }
    if (const Refusal refusal = checkCombination(parser, options.bench)) {
        return failure(*refusal);
    }
    options.configPath = configPath(parser);
    for (const OptionRow& row : kOptions) {
        const QString name = QString::fromLatin1(row.name);
        if (row.read && parser.isSet(name)) {
            if (const Refusal refusal = row.read(parser.values(name), options)) {
                return failure(*refusal);
            }
        }
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
