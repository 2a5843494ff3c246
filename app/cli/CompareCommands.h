// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/cli/CliCommands.h"

#include <string>
#include <vector>

namespace archplay::cli {

/// The usage lines of compare and heads, for the tool's usage text.
extern const char* const kCompareUsage;

/// `archplay-cli compare A B [C D] [--json|--csv|--md|--latex] [scenario flags]` (`args` starts with
/// "compare"): two to four configs side by side in one scenario, the first the baseline
/// (core::compareAnalyses). Throws UsageError for fewer than two or more than four configs; the
/// command exits 1 naming the first config that cannot be read or is invalid.
[[nodiscard]] CommandRunner parseCompare(const std::vector<std::string>& args);

/// `archplay-cli heads CONFIG [--kv-dtype D] [--json]`: every valid split of the attention into heads
/// for the config's hidden size, with exact counts and KV cache (core::listHeadConfigs).
[[nodiscard]] CommandRunner parseHeads(const std::vector<std::string>& args);

} // namespace archplay::cli
