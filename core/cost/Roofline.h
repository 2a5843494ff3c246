// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/Compute.h"
#include "core/cost/Gpus.h"
#include "core/cost/WeightFormats.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace archplay::core {

/// One decode step of `batch` sequences, each at position S (FORMULAS.md §7). Upper bounds: the
/// device at its peaks, the GPUs splitting the work perfectly.
struct DecodeStep {
    std::uint64_t batch = 1;
    double weightBytes = 0;     ///< weights read once for the batch: experts actually hit. Units: bytes.
    double cacheBytes = 0;      ///< every sequence's KV cache and fixed state. Units: bytes.
    double flops = 0;           ///< batch x FLOPs per token at position S. Units: FLOPs.
    double expertsPerLayer = 0; ///< expected distinct routed experts a MoE layer reads: E·(1 - (1 - k/E)^B)
    double seconds = 0;         ///< max(bytes / bandwidth, FLOPs / peak). Units: s.
    double tokensPerSecond = 0; ///< batch / seconds: aggregate. Units: tokens/s.
    double perSequence = 0;     ///< 1 / seconds. Units: tokens/s.
    double intensity = 0;       ///< FLOPs / bytes. Units: FLOP/byte.
    bool computeBound = false;  ///< FLOPs / peak exceeds bytes / bandwidth
};

/// Speed on a device, as roofline upper bounds (Williams, Waterman & Patterson 2009).
/// A speed expected from measurements rather than peaks, as the range they give, with its source.
struct ExpectedRate {
    double low = 0;  ///< Units: tokens/s.
    double high = 0; ///< Units: tokens/s.
    std::string source;
};

struct RooflineReport {
    Gpu gpu;
    std::uint64_t gpus = 1;
    bool fp8 = false;     ///< the matmuls run in FP8 (an FP8 weight format on a device with FP8 units)
    double peakFlops = 0; ///< all GPUs. Units: FLOP/s.
    double bandwidth = 0; ///< all GPUs. Units: bytes/s.
    double ridge = 0;     ///< peak / bandwidth. Units: FLOP/byte.
    std::uint64_t context = 0;
    /// Most sequences of S tokens whose caches fit in the devices' memory beside the weights;
    /// kSaturated (any number) when no cache grows with the batch; 0 when the weights and one
    /// sequence do not fit. No speed is given beyond it.
    std::uint64_t largestBatch = 0;
    std::uint64_t cacheBytesPerSequence = 0; ///< at position S, fixed states included. Units: bytes.
    /// The scenario's batch fits (batch <= largestBatch): `scenario`, the prefill and the time to
    /// first token are speeds of a setup that runs. When false they are left out of every view.
    bool fits = false;
    /// Batch 1, 2, 4, ... 512, stopping at largestBatch, which ends the curve when it is below 512
    /// (empty when the weights alone do not fit).
    std::vector<DecodeStep> curve;
    DecodeStep scenario; ///< at the scenario's batch
    /// Decode at the scenario's batch at the bandwidth measured on the device (Gpu::measuredBandwidth):
    /// the bound times achieved / peak. Absent when nothing is measured for the device, when the step
    /// is compute-bound (no measured FLOP rate is known) or when the batch does not fit.
    std::optional<ExpectedRate> expectedDecode;
    /// Smallest batch whose decode step is compute-bound (up to 2^20), whether or not it fits; 0 when
    /// the cache reads keep it memory-bound at every batch.
    std::uint64_t computeBoundBatch = 0;
    double prefillFlops = 0;     ///< the batch's prompts of S tokens. Units: FLOPs.
    double prefillBytes = 0;     ///< weights read once plus the cache written. Units: bytes.
    double prefillSeconds = 0;   ///< Units: s.
    double prefillIntensity = 0; ///< Units: FLOP/byte.
    double timeToFirstToken = 0; ///< prefill plus one decode step (FORMULAS.md §7). Units: s.
};

/// The largest batch whose decode step a roofline report searches for compute-boundness: 2^20.
inline constexpr std::uint64_t kMostSequences = std::uint64_t{1} << 20;

/// What a decode step reads besides the computation.
struct RooflineInputs {
    const ModelConfig* config = nullptr;
    const ComputeReport* compute = nullptr;
    const WeightMemory* weights = nullptr;
    std::uint64_t cacheBytesPerSequence = 0; ///< at position S, fixed states included. Units: bytes.
    std::uint64_t batch = 1;
    /// Memory of all the devices, which the weights and every sequence's cache must fit in (the rule
    /// of Analysis::devices, core::deviceFit()). Units: bytes.
    std::uint64_t capacityBytes = 0;
};

/// A point of the roofline plot: a step's arithmetic intensity and the throughput it attains.
struct RooflinePoint {
    double intensity = 0;      ///< FLOPs / bytes read and written. Units: FLOP/byte.
    double flopsPerSecond = 0; ///< FLOPs / seconds: on the roof, the bound's own. Units: FLOP/s.
    bool computeBound = false;
};

/// The roof at `intensity`: min(peak, bandwidth x intensity), all GPUs. Units: FLOP/s.
[[nodiscard]] double attainableFlops(const RooflineReport& report, double intensity);
/// A decode step on the roofline plot.
[[nodiscard]] RooflinePoint rooflinePoint(const DecodeStep& step);
/// The prefill of the scenario's batch on the roofline plot.
[[nodiscard]] RooflinePoint prefillPoint(const RooflineReport& report);

[[nodiscard]] DecodeStep decodeStep(const RooflineInputs& in, const Gpu& gpu, std::uint64_t gpus, bool fp8,
                                    std::uint64_t batch);
[[nodiscard]] RooflineReport roofline(const RooflineInputs& in, const Gpu& gpu, std::uint64_t gpus, bool fp8);

} // namespace archplay::core
