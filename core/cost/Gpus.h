// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace archplay::core {

/// An accelerator as the cost figures need it: memory, bandwidth and dense peak throughput.
/// Peaks are the vendors' theoretical figures without 2:4 sparsity (FORMULAS.md §8).
/// Memory bandwidth measured on a device, the lowest and highest of the runs, with where from.
struct MeasuredBandwidth {
    double low = 0;  ///< Units: bytes/s.
    double high = 0; ///< Units: bytes/s.
    std::string source;
    bool operator==(const MeasuredBandwidth&) const = default;
};

struct Gpu {
    std::string id;              ///< "h100-sxm": what the command line and files name it by
    std::string name;            ///< "H100 SXM"
    std::uint64_t memoryGiB = 0; ///< nominal memory (HBM and GDDR come in binary sizes). Units: GiB.
    double bandwidth = 0;        ///< peak memory bandwidth. Units: bytes/s.
    double bf16Flops = 0;        ///< dense BF16 (or FP16) tensor throughput. Units: FLOP/s.
    double fp8Flops = 0;         ///< dense FP8 throughput; 0 without FP8 units. Units: FLOP/s.
    std::string source;          ///< where the figures come from
    bool estimated = false;      ///< the throughput is derived (cores x clock), not a vendor figure
    bool builtin = false;        ///< one of builtinGpus(); false for a device the user added
    /// What kernels achieve of `bandwidth` in published measurements; absent when none is known, and
    /// then no expected speed is given, only the bound.
    std::optional<MeasuredBandwidth> measuredBandwidth;

    std::uint64_t memoryBytes() const;
    /// Peak throughput at the precision the matmuls run in: FP8 when the weights are 8-bit or less
    /// and the device has FP8 units, else BF16.
    double peakFlops(bool fp8) const { return fp8 && fp8Flops > 0 ? fp8Flops : bf16Flops; }
    /// Arithmetic intensity at which the device turns from memory- to compute-bound: peak / bandwidth.
    /// Units: FLOP/byte. H100 SXM, BF16: 295.
    double ridgePoint(bool fp8) const { return bandwidth > 0 ? peakFlops(fp8) / bandwidth : 0; }

    bool operator==(const Gpu&) const = default;
};

/// RTX 3090 and 4090, L40S, A100 40/80 GB, H100 SXM and PCIe, H200, B200, MI300X, MI325X, Apple M3
/// Max and M2 Ultra, each with its source.
const std::vector<Gpu>& builtinGpus();
/// H100 SXM: the device a new scenario is served on.
const Gpu& defaultGpu();
/// The device named `id` in `gpus`, or nullptr.
const Gpu* findGpu(const std::vector<Gpu>& gpus, std::string_view id);
/// "rtx-3090, rtx-4090, ...": the ids of `gpus`, for messages.
std::string gpuIdList(const std::vector<Gpu>& gpus);
/// Why `gpu` cannot be used (an empty id, no memory, no bandwidth or no throughput), naming the
/// field; empty when it can.
std::string gpuProblem(const Gpu& gpu);

} // namespace archplay::core
