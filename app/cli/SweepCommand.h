// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/cli/CliCommands.h"

#include <string>
#include <vector>

namespace archplay::cli {

/// The usage lines of the sweep command, for the tool's usage text.
extern const char* const kSweepUsage;

/// Reads `archplay-cli sweep CONFIG --field F --from X --to Y [options]` (`args` starts with "sweep");
/// throws UsageError. The command it returns sweeps one field (every design figure per value: a
/// table, --csv or --json) or, with --field2, two fields (one figure on a grid, its iso-lines and the
/// presets of the same kind). Exit 1 for an invalid CONFIG, 2 for a request the core rejects.
[[nodiscard]] CommandRunner parseSweep(const std::vector<std::string>& args);

} // namespace archplay::cli
