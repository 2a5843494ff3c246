// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/Gpus.h"
#include "core/validate/Diagnostic.h"

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace archplay::core {

/// A device as JSON, in the vendors' units: {"id", "name", "memory_gib", "bandwidth_gb_s",
/// "bf16_tflops", "fp8_tflops", "source", "estimated"}.
nlohmann::json gpuJson(const Gpu& gpu);
/// Reads what gpuJson() writes; false with a diagnostic naming `field` and the key at fault.
bool readGpu(const nlohmann::json& object, Gpu& gpu, Diagnostics& diagnostics, const std::string& field);

/// The most devices a user's catalogue holds, and the longest id, name and source it keeps (in
/// bytes of UTF-8): a device list is a few lines, and every device becomes a row of a list.
inline constexpr std::size_t kMaxUserGpus = 1000;
inline constexpr std::size_t kMaxGpuIdBytes = 64;
inline constexpr std::size_t kMaxGpuNameBytes = 128;
inline constexpr std::size_t kMaxGpuSourceBytes = 2000;

/// Devices as a JSON document: {"archplay_gpus": 1, "gpus": [...]}.
std::string gpuCatalogueToJson(const std::vector<Gpu>& gpus);
/// The user's devices from such a document (or a bare array). Devices whose id is a built-in one or
/// repeats an earlier one, or whose id, name or source is longer than the limits above, are refused
/// with a diagnostic; the others are read. A list of more than kMaxUserGpus is refused whole.
struct GpuCatalogueRead {
    std::vector<Gpu> gpus;
    Diagnostics diagnostics;
    bool ok() const { return !hasErrors(diagnostics); }
};
[[nodiscard]] GpuCatalogueRead gpuCatalogueFromJson(std::string_view text);
/// The user's devices checked as gpuCatalogueFromJson() checks a file (ids unique and none a built-in
/// one, every figure in range), and normalised as a file would hold them: what a catalogue keeps
/// after an edit. The diagnostics name "gpus[i].<key>".
[[nodiscard]] GpuCatalogueRead checkUserGpus(const std::vector<Gpu>& gpus);

/// A device's figures in the units vendors print and device files use, for a form to show and edit.
struct GpuFigures {
    std::string id;
    std::string name;
    double memoryGiB = 0;    ///< Units: GiB (a whole number).
    double bandwidthGBs = 0; ///< Units: GB/s (decimal).
    double bf16Tflops = 0;   ///< Units: TFLOPS, dense.
    double fp8Tflops = 0;    ///< Units: TFLOPS, dense; 0 without FP8 units.
    std::string source;
    bool estimated = false;
    /// Measured bandwidth, lowest and highest (0, 0: none), and where from. Units: TB/s (decimal).
    double measuredLowTBs = 0;
    double measuredHighTBs = 0;
    std::string measuredSource;
};
GpuFigures gpuFigures(const Gpu& gpu);
/// The device `figures` describe, read as readGpu() reads a file; false with a diagnostic naming the
/// key at fault ("memory_gib", "bandwidth_gb_s", ...).
[[nodiscard]] bool gpuFromFigures(const GpuFigures& figures, Gpu& gpu, Diagnostics& diagnostics);

} // namespace archplay::core
