// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The names the window and the command line give the scenario's choices: devices, optimizers,
// recomputation and ZeRO stages.

#include "core/cost/Compute.h"
#include "core/cost/Gpus.h"
#include "core/cost/Memory.h"

#include <string>

namespace archplay::core {

/// "H100 SXM · 80 GiB": a device in a list of devices.
std::string gpuChoiceLabel(const Gpu& gpu);

inline constexpr Optimizer kAllOptimizers[] = {Optimizer::Adam16, Optimizer::Adam18};
/// "Adam, bf16 gradients: 16 B/param": the optimizer and the bytes it keeps per parameter (the 16-bit
/// weights, the gradients, fp32 master weights, m and v; FORMULAS.md §6.1).
std::string optimizerLabel(Optimizer optimizer);
/// The bytes per parameter the optimizer keeps: 16 or 18.
int optimizerBytesPerParam(Optimizer optimizer);

inline constexpr Recompute kAllRecomputes[] = {Recompute::None, Recompute::Selective, Recompute::Full};
/// "None", "Selective: attention core", "Full: layer inputs only".
std::string recomputeLabel(Recompute recompute);

/// ZeRO stages 0 to 3 (Rajbhandari et al. 2020).
inline constexpr int kZeroStages = 4;
/// What a ZeRO stage shards across the data-parallel GPUs: "0: nothing sharded", "1: optimizer state",
/// "2: optimizer state, gradients", "3: optimizer state, gradients, weights"; "stage 7" out of range.
std::string zeroStageLabel(int stage);

} // namespace archplay::core
