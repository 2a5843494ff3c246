// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/LayerPlan.h"
#include "core/config/ModelConfig.h"
#include "core/cost/Gpus.h"
#include "core/memory/KvCache.h"
#include "core/scenario/Scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace archplay::core {

/// A memory size of the device catalogue: a row of the KV view.
struct GpuMemorySize {
    std::string label;       ///< "80 GiB"
    std::uint64_t bytes = 0; ///< nominal capacity, label x 2^30. Units: bytes.
    std::string examples;    ///< the catalogue's devices of this size: "A100 80GB, H100 PCIe, H100 SXM"
};

/// The memory size of one device, the device as its example.
GpuMemorySize memorySizeOf(const Gpu& gpu);
/// The distinct memory sizes of builtinGpus() and `scenarioGpu`, smallest first, each with the
/// devices that have it (FORMULAS.md §8). Nominal: drivers and the CUDA context take a little of it.
std::vector<GpuMemorySize> gpuMemorySizes(const Gpu& scenarioGpu);

/// Weights plus KV cache against a number of devices of one memory size, split evenly (tensor
/// parallel): the scenario's GPU. Activations and runtime overhead are not included.
struct DeviceFit {
    GpuMemorySize gpu;
    std::uint64_t devices = 1;
    std::uint64_t capacityBytes = 0; ///< devices x gpu.bytes, saturating
    std::uint64_t requiredBytes = 0; ///< weights + cache; kSaturated when beyond
    /// Weights + cache exceed 2^64 - 1 bytes (or the cache did): no number of devices is given.
    bool beyond = false;
    bool fits = false;               ///< requiredBytes <= capacityBytes, never when beyond
    std::uint64_t devicesNeeded = 0; ///< ceil(required / gpu.bytes): the fewest devices of this size; 0 when beyond
};

/// The longest sequence a device fit searches: 2^40 tokens, longer than any context a config can declare.
inline constexpr std::uint64_t kLongestSearched = std::uint64_t{1} << 40;

[[nodiscard]] DeviceFit deviceFit(const GpuMemorySize& gpu, std::uint64_t devices, std::uint64_t weightBytes,
                                  std::uint64_t kvBytes);

/// Whether weights and the scenario's KV cache fit on the scenario's number of devices of one memory
/// size: a row of the KV view. `devices` applies the rule of Analysis::devices (deviceFit()), so the
/// row of the scenario's memory size says what the weights card says.
struct GpuFit {
    DeviceFit devices;             ///< weights + cache against gpuCount devices of this size
    std::uint64_t weightBytes = 0; ///< Units: bytes.
    std::uint64_t kvBytes = 0;     ///< the cache at the scenario's sequence length and batch. Units: bytes.
    /// Capacity of all the devices left for the cache beside the weights; 0 when the weights alone do
    /// not fit. Units: bytes.
    std::uint64_t roomBytes = 0;
    /// Longest sequence whose cache fits beside the weights at the scenario's batch; 0 when the
    /// weights alone do not fit. Units: tokens.
    std::uint64_t maxSequenceLength = 0;
    bool unbounded = false; ///< the cache stops growing (windows, fixed states) and fits: any length fits
    bool scenario = false;  ///< this is the scenario's memory size
};

/// Weights plus the scenario's cache on scenario.gpuCount devices of each memory size of
/// gpuMemorySizes(scenario.gpu). Activations and runtime overhead (FORMULAS.md §6.4) are not included.
[[nodiscard]] std::vector<GpuFit> gpuFits(const ModelConfig& config, const ModelPlan& plan, std::uint64_t weightBytes,
                                          const Scenario& scenario);

} // namespace archplay::core
