// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/cli/CliCommands.h"

#include <string>
#include <vector>

namespace archplay::cli {

/// The usage lines of compute, memory, roofline and gpus, for the tool's usage text.
extern const char* const kCostUsage;

/// `archplay-cli compute CONFIG [--seq N] [--tokens T] [scenario flags] [--json]` (`args` starts
/// with "compute"): FLOPs per token, prefill, training, Chinchilla. Throws UsageError.
[[nodiscard]] CommandRunner parseCompute(const std::vector<std::string>& args);
/// `archplay-cli memory CONFIG [--training] [scenario and training flags] [--json]`.
[[nodiscard]] CommandRunner parseMemory(const std::vector<std::string>& args);
/// `archplay-cli roofline CONFIG --gpu ID [--batch B] [--seq N] [--json]`.
[[nodiscard]] CommandRunner parseRoofline(const std::vector<std::string>& args);
[[nodiscard]] CommandRunner parseFit(const std::vector<std::string>& args);
/// `archplay-cli gpus [--json]`: the device catalogue with sources.
[[nodiscard]] CommandRunner parseGpus(const std::vector<std::string>& args);

} // namespace archplay::cli
