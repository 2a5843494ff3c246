// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace archplay::cli {

/// Exit codes of archplay-cli.
enum ExitCode : int { Success = 0, InvalidConfig = 1, BadUsage = 2 };

/// Runs one archplay-cli invocation (arguments without the program name), writing results to
/// `out` and problems to `err`. Never throws.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace archplay::cli
