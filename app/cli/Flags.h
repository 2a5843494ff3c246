// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/Analysis.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace archplay::cli {

/// A command line that cannot be run as written; the commands print it with their usage and exit 2.
struct UsageError {
    std::string message;
    bool showUsage = true; ///< false when the command is well formed but asks for something that makes no sense
};

/// A flag's text as a whole number; zero only when `allowZero`. Throws UsageError naming the flag.
std::uint64_t wholeNumber(const std::string& flag, const std::string& text, bool allowZero);

/// The flags that set a scenario, each followed by a value.
const std::vector<std::string>& scenarioFlags();

/// The scenario the flags describe: absent flags keep core::Scenario's defaults, and the encoder
/// length follows --seq unless --encoder-seq is given. Throws UsageError naming a bad flag.
core::Scenario scenarioFromFlags(const std::map<std::string, std::string>& values);

/// One line for the usage texts.
inline constexpr const char* kScenarioUsage =
    "--seq N --batch B --encoder-seq N --kv-dtype D --weight-dtype D --gpu GB --gpus N";

} // namespace archplay::cli
