// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace archplay::ui::window {

/// The version of the window's settings. 2: the scenario has its own dock, diagnostics start hidden
/// behind their badge, and the last session is stored whole (origin, view, selected layer) under
/// session/last. Settings of another version keep only what does not depend on the layout.
inline constexpr int kSettingsVersion = 2;

/// Whether the settings can be kept: writes the settings version and reads back QSettings' status.
/// Empty, or what a read-only or full settings folder costs the user.
QString settingsProblem();

} // namespace archplay::ui::window
