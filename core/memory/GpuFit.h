// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/LayerPlan.h"
#include "core/config/ModelConfig.h"
#include "core/config/Scenario.h"
#include "core/memory/KvCache.h"

#include <cstdint>
#include <string>
#include <vector>

namespace archplay::core {

/// A common accelerator memory size.
struct GpuMemorySize {
    std::string label;       ///< "80 GiB"
    std::uint64_t bytes = 0; ///< nominal capacity, label x 2^30 (HBM and GDDR come in binary sizes). Units: bytes.
    std::string examples;    ///< "A100 80GB, H100"
};

/// 24, 40, 48, 80, 141 and 192 GiB, smallest first (FORMULAS.md §8). Nominal: drivers and the CUDA
/// context take a little of it.
const std::vector<GpuMemorySize>& gpuMemorySizes();

/// "24, 40, 48, 80, 141, 192": the listed sizes in GiB, for messages.
std::string gpuMemorySizeList();

/// The memory size of gpuMemorySizes() whose capacity is `gib` x 2^30 bytes, or nullptr.
const GpuMemorySize* findGpuMemorySize(std::uint64_t gib);

/// Weights plus KV cache against a number of devices of one memory size, split evenly (tensor
/// parallel): the scenario's GPU. Activations and runtime overhead are not included.
struct DeviceFit {
    GpuMemorySize gpu;
    std::uint64_t devices = 1;
    std::uint64_t capacityBytes = 0; ///< devices x gpu.bytes, saturating
    std::uint64_t requiredBytes = 0; ///< weights + cache, saturating
    bool fits = false;               ///< requiredBytes <= capacityBytes
    std::uint64_t devicesNeeded = 0; ///< ceil(required / gpu.bytes): the fewest devices of this size
};

[[nodiscard]] DeviceFit deviceFit(const GpuMemorySize& gpu, std::uint64_t devices, std::uint64_t weightBytes,
                                  std::uint64_t kvBytes);

/// Whether weights and KV cache fit on one device of a memory size.
struct GpuFit {
    GpuMemorySize gpu;
    std::uint64_t weightBytes = 0;
    std::uint64_t kvBytes = 0;
    std::uint64_t totalBytes = 0;    ///< weights + cache, saturating
    std::uint64_t roomBytes = 0;     ///< capacity left for the cache beside the weights; 0 when they do not fit
    bool fits = false;               ///< totalBytes <= capacity
    std::uint64_t devicesNeeded = 0; ///< ceil(total / capacity): the fewest devices if both split evenly
    /// Longest sequence whose cache fits beside the weights on one device at the scenario's batch;
    /// 0 when the weights alone do not fit. Units: tokens.
    std::uint64_t maxSequenceLength = 0;
    bool unbounded = false; ///< every layer is window-capped and the capped cache fits: any length fits
};

/// Weights plus the scenario's cache on each memory size of gpuMemorySizes(). Activations and runtime
/// overhead (FORMULAS.md §6.4) are not included.
[[nodiscard]] std::vector<GpuFit> gpuFits(const ModelConfig& config, const ModelPlan& plan, std::uint64_t weightBytes,
                                          const Scenario& scenario);

} // namespace archplay::core
