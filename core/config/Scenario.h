// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/DType.h"

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

} // namespace archplay::core
