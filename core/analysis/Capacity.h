// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The inverse questions of a scenario, "will it run, and with how much?": what fits on its devices
// by the rule of Analysis::devices (weights in their format plus the architecture's own cache, split
// evenly over the devices; activations and an engine's overhead are not included).

#include "core/analysis/Analysis.h"
#include "core/cost/WeightFormats.h"

#include <cstdint>
#include <vector>

namespace archplay::core {

/// One weight format against the scenario's devices, at its context and batch.
struct FormatFit {
    WeightFormat format = WeightFormat::BF16;
    std::uint64_t weightBytes = 0; ///< kSaturated when beyond. Units: bytes.
    DeviceFit devices;             ///< weights in this format plus the scenario's cache
};

struct Capacity {
    /// Most sequences of the scenario's length whose caches fit beside the weights; kSaturated when
    /// no cache grows with the batch; 0 when the weights and one sequence do not fit.
    /// RooflineReport::largestBatch.
    std::uint64_t largestBatch = 0;
    /// How the sequence length is limited at the scenario's batch.
    enum class Length {
        Tokens,       ///< up to longestSequence tokens fit (0: the weights alone do not fit)
        NoCache,      ///< the model keeps no cache: any length fits beside the weights
        StopsGrowing, ///< sliding windows or fixed states stop the cache growing, and it fits
        Beyond,       ///< the cache grows but fits at the longest length searched (2^40 tokens)
    };
    Length lengthLimit = Length::Tokens;
    /// Longest sequence whose cache, for the scenario's batch, fits beside the weights; 0 when the
    /// weights alone do not fit; kLongestSearched for Beyond. Units: tokens.
    std::uint64_t longestSequence = 0;
    /// What the model reads at most: max_position_embeddings. Units: tokens.
    std::uint64_t modelContext = 0;
    /// Fewest of the scenario's devices for the weights and the scenario's cache; 0 when beyond.
    std::uint64_t fewestDevices = 0;
    /// Every format, most weight bytes first, and whether it fits.
    std::vector<FormatFit> formats;
    /// The format with the most weight bytes that fits (the least compression the devices need);
    /// nullptr when none does.
    const FormatFit* widestFitting() const;
};

/// The answers for a valid analysis with valid costs.
[[nodiscard]] Capacity capacity(const Analysis& analysis);

/// vLLM's cache on each GPU and what it holds: gpu_memory_utilization x the GPU's memory, less the
/// weights on it and the peak its start-up profiling measures (vllm/v1/worker/gpu_worker.py,
/// determine_available_memory), or exactly --kv-cache-memory-bytes when given.
struct VllmServing {
    std::uint64_t reservedBytes = 0; ///< gpu_memory_utilization x one GPU's memory. Units: bytes.
    std::uint64_t weightBytes = 0;   ///< the weights on each GPU, split evenly. Units: bytes.
    /// What vLLM's profiling measures (activations of a max_num_batched_tokens step, CUDA graphs,
    /// memory outside torch): archplay puts its prefill workspace per GPU in its place, an estimate.
    std::uint64_t workspaceBytes = 0;
    bool given = false; ///< the scenario sets the cache's size (--kv-cache-memory-bytes): no estimate
    VllmCapacity capacity;
    /// vLLM starts only when one request of the scenario's length fits (maximum concurrency >= 1).
    bool starts() const { return capacity.unsupported.empty() && capacity.maxConcurrency >= 1; }
};
/// For an analysis under KvAllocator::Vllm with valid costs; its capacity says why when unsupported.
[[nodiscard]] VllmServing vllmServing(const Analysis& analysis);

} // namespace archplay::core
