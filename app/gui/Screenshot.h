// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/gui/CommandLine.h"

#include <QString>

namespace archplay::ui::window {
class MainWindow;
}

namespace archplay::app {

/// Applies --preset, --config and --view to a window. Returns 0, or 2 with `error` set.
int applyOptions(ui::window::MainWindow& window, const GuiOptions& options, QString* error);

/// `archplay --screenshot`: builds a window without touching the settings, renders it (or the
/// chosen view) at options.size, writes the PNG. Returns the exit status: 0, 1 when the file
/// cannot be written, 2 for bad arguments; `error` says why.
int runScreenshot(const GuiOptions& options, QString* error);

} // namespace archplay::app
