// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/cli/CliCommands.h"

#include <string>
#include <vector>

namespace archplay::cli {

/// The usage lines of the design command, for the tool's usage text.
extern const char* const kDesignUsage;

/// Reads `archplay-cli design --params COUNT [options]` (`args` starts with "design"); throws UsageError.
/// The command it returns lists the dense Llama-style designs nearest a parameter budget
/// (core::searchTargets ranked by distance), as a table or --json, and returns 0, also when no design meets the
/// targets; 2 for a space the core rejects.
[[nodiscard]] CommandRunner parseDesign(const std::vector<std::string>& args);

/// The usage lines of the search command.
extern const char* const kSearchUsage;

/// Reads `archplay-cli search --target-params COUNT [options]`; throws UsageError. The command lists
/// the designs core::searchTargets() ranks best (rule penalties + distance), with the seed
/// heuristic's design beside them, as a table or --json; 0 also when none meets the targets, 2 for
/// targets the core rejects.
[[nodiscard]] CommandRunner parseSearch(const std::vector<std::string>& args);

} // namespace archplay::cli
