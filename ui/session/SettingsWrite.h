// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/util/Status.h"

#include <functional>

class QSettings;

namespace archplay::ui::session {

/// Writes the application's settings through `write`, then makes QSettings write them to disk and
/// reads back its status: a failure says why they were not kept ("the settings file
/// /x/archplay.conf cannot be written"). Every write of settings goes through here, so that none
/// fails without a word.
[[nodiscard]] core::Status writeSettings(const std::function<void(QSettings&)>& write);

} // namespace archplay::ui::session
