// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace archplay::cli {

/// Exit codes of archplay-cli. InvalidConfig also covers output that could not be written.
enum ExitCode : int { Success = 0, InvalidConfig = 1, BadUsage = 2 };

/// Runs one archplay-cli invocation (arguments without the program name), writing results to
/// `out` and problems to `err`. Never throws. Flushes `out` at the end: when it cannot be written,
/// says so on `err` and never returns Success.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace archplay::cli
