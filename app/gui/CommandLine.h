// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/io/ViewKind.h"
#include "ui/theme/Theme.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

namespace archplay::app {

/// Options of the `archplay` executable.
struct GuiOptions {
    QString screenshotPath; ///< --screenshot FILE.png: render offscreen and exit
    QString presetId;       ///< --preset ID
    QString configPath;     ///< --config FILE (or a lone positional file)
    std::optional<core::ViewKind>
        view; ///< --view NAME: the tab to show (with --screenshot: render only it; with --bench: measure only it)
    QSize size{1280, 800};                     ///< --size WxH
    std::optional<ui::theme::ThemeMode> theme; ///< --theme light|dark|system

    bool bench = false;       ///< --bench: measure slider-to-pixels latency offscreen and exit
    QStringList benchPresets; ///< --preset ID, repeatable, with --bench (empty: the default set)
    bool benchJson = false;   ///< --json: print one JSON object
    QString benchOutPath;     ///< --out FILE: also write the result there, atomically
    int benchSteps = 6;       ///< --steps N: mouse positions per slider sweep, each way
};

struct CommandLineResult {
    enum class Action { Run, Exit };
    Action action = Action::Run;
    int exitCode = 0; ///< for Exit: 0 after --help/--version, 2 for bad arguments
    QString output;   ///< text for stdout (help, version)
    QString error;    ///< text for stderr
    GuiOptions options;
};

/// Parses the arguments (argv[0] first). Checks everything that can be checked without a window:
/// unknown options, malformed sizes and themes, unknown presets, --preset with --config.
CommandLineResult parseCommandLine(const QStringList& arguments);

/// True when argv asks for a run without a window on screen (--screenshot, --bench, --help,
/// --version: they work without a display), so that
/// main() can choose the offscreen platform before the QApplication exists.
bool runsOffscreen(int argc, const char* const* argv);

} // namespace archplay::app
