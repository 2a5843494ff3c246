// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/cli/Flags.h"

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace archplay::cli {

/// Exit codes of archplay-cli. InvalidConfig also covers output that could not be written.
enum ExitCode : int { Success = 0, InvalidConfig = 1, BadUsage = 2 };

/// A command, read and checked, ready to run: it reads and writes files only when called. Usage errors
/// that depend on the config (a --layer beyond its layers) are found when it runs.
using CommandRunner = std::function<int(std::ostream& out, std::ostream& err)>;

/// A command line as parseCommandLine() read it: the command, or why it cannot run.
struct ParsedCommandLine {
    CommandRunner run;               ///< empty when `error` is set
    std::optional<UsageError> error; ///< the message for a command line that cannot run
    std::string_view usage;          ///< the usage text `error` is printed with
};

/// Reads a command line (arguments without the program name) without running anything: no file
/// is read or written. Never throws a UsageError.
[[nodiscard]] ParsedCommandLine parseCommandLine(const std::vector<std::string>& args);

/// Runs one archplay-cli invocation (arguments without the program name), writing results to
/// `out` and problems to `err`. Never throws. Flushes `out` at the end: when it cannot be written,
/// says so on `err` and never returns Success.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace archplay::cli
