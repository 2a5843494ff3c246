// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace archplay::ui::window {

/// Whether the settings can be kept: writes the settings version and reads back QSettings' status.
/// Empty, or what a read-only or full settings folder costs the user.
QString settingsProblem();

} // namespace archplay::ui::window
