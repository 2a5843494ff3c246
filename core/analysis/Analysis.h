// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "config/LayerPlan.h"
#include "config/ModelConfig.h"
#include "memory/GpuFit.h"
#include "memory/KvCache.h"
#include "params/ParamCount.h"
#include "validate/Diagnostic.h"

#include <cstdint>
#include <optional>

namespace archplay::core {

/// The situation a model is looked at in: how much context, how many sequences, which precisions.
struct Scenario {
    std::uint64_t sequenceLength = 4096;       ///< tokens per sequence (decoder side)
    std::uint64_t encoderSequenceLength = 512; ///< source tokens (encoder-decoder only)
    std::uint64_t batch = 1;
    DType weightDType = DType::BF16;
    DType kvDType = DType::BF16;
    /// Precision of the fixed states of linear-attention / state-space layers; absent: the KV precision.
    std::optional<DType> stateDType;
    std::uint64_t gpuMemoryGiB = 80; ///< one of gpuMemorySizes(); the devices the model is served on
    std::uint64_t gpuCount = 1;      ///< devices sharing weights and cache evenly

    bool operator==(const Scenario&) const = default;
};

/// Everything the program shows about one config in one scenario, computed once per change and
/// handed to every view, so two views can never disagree.
struct Analysis {
    ModelConfig config;
    Scenario scenario;
    Diagnostics diagnostics;
    bool valid = false; ///< no errors; the figures below are computed only when valid
    ModelPlan plan;
    ParamReport params;
    KvCacheReport kv;
    std::uint64_t weightBytes = 0; ///< total parameters at the scenario's weight precision. Units: bytes.
    DeviceFit devices;             ///< weights + cache against the scenario's GPUs
};

/// Validates, plans and counts a config. Pure and fast (microseconds).
Analysis analyze(const ModelConfig& config, const Scenario& scenario);

} // namespace archplay::core
