// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace archplay::cli {

/// A command line that cannot be run as written; the commands print it with their usage and exit 2.
struct UsageError {
    std::string message;
    bool showUsage = true; ///< false when the command is well formed but asks for something that makes no sense
};

/// Prints a subcommand's UsageError: the message, then the subcommand's `usage` when the error asks
/// for it. Returns the exit code for bad usage, 2.
int printUsageError(const UsageError& error, std::string_view usage, std::ostream& err);

/// A request core refused, as a UsageError printed without the usage: its errors on one line, each
/// under the flag that sets its field ("--layers: must be at least 1; --hidden: ..."). `flagOf`
/// names the flag of a core field.
UsageError refusedRequest(const core::Diagnostics& diagnostics,
                          const std::function<std::string(const std::string& field)>& flagOf);

/// Options after the command: flags with values, boolean switches and positional arguments.
struct Options {
    std::vector<std::string> positional;
    std::map<std::string, std::string> values;
    std::set<std::string> switches; ///< the switches given, e.g. "--csv"
    bool json = false;              ///< --json, which every command takes
    bool bestEffort = false;        ///< --best-effort: read an uncountable config as a labelled estimate

    /// The value of a flag, or nullptr when it is absent.
    const std::string* value(const std::string& flag) const;
};

/// Reads the arguments after the command (`args` starts with it). `valueFlags` take a value,
/// `switches` stand alone. Throws UsageError for an unknown option or a missing value.
Options parseOptions(const std::vector<std::string>& args, const std::vector<std::string>& valueFlags,
                     const std::vector<std::string>& switches = {});

/// Throws UsageError unless the command was given exactly one CONFIG.
void requireOneConfig(const Options& options);

/// A flag's text as a whole number; zero only when `allowZero`. Throws UsageError naming the flag.
std::uint64_t wholeNumber(const std::string& flag, const std::string& text, bool allowZero);

/// A flag's text as a positive count: "7B", "1.5B", "350M", "7000000000" (core::parseCount).
/// Throws UsageError naming the flag.
std::uint64_t countNumber(const std::string& flag, const std::string& text);

/// A flag's text as a fraction: a percentage "5%" or a plain fraction "0.05". Throws UsageError naming the flag.
/// A byte size: whole bytes, or a number with KiB, MiB, GiB or TiB. Throws UsageError naming the flag.
std::uint64_t byteSize(const std::string& flag, const std::string& text);
double fractionNumber(const std::string& flag, const std::string& text);

/// A flag's text "MIN:MAX" as two whole numbers (a single number N means N:N). The order is not
/// checked here. Throws UsageError naming the flag.
std::pair<std::uint64_t, std::uint64_t> wholeRange(const std::string& flag, const std::string& text);

/// A flag's text as a number format: fp32, fp16, bf16, fp8, int8 or int4. Throws UsageError naming the flag.
core::DType dtypeName(const std::string& flag, const std::string& text);

/// The flags that set a scenario, each followed by a value.
const std::vector<std::string>& scenarioFlags();

/// The scenario the flags describe: absent flags keep core::Scenario's defaults, and the encoder
/// length follows --seq unless --encoder-seq is given. Throws UsageError naming a bad flag.
core::Scenario scenarioFromFlags(const std::map<std::string, std::string>& values);

} // namespace archplay::cli
