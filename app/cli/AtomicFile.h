// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/util/Status.h"

#include <string>
#include <string_view>

namespace archplay::cli {

/// Writes `bytes` to `path` through a temporary file in the same directory that is renamed over the
/// target once complete, so nobody sees a half-written file and a failure leaves an existing file
/// as it was. An existing file keeps its permissions. Returns success, or a failure saying why
/// ("the directory /x does not exist", "Permission denied", ...).
core::Status writeFileAtomically(const std::string& path, std::string_view bytes);

} // namespace archplay::cli
