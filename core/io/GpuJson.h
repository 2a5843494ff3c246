// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/Gpus.h"
#include "core/validate/Diagnostic.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace archplay::core {

/// A device as JSON, in the vendors' units: {"id", "name", "memory_gib", "bandwidth_gb_s",
/// "bf16_tflops", "fp8_tflops", "source", "estimated"}.
nlohmann::json gpuJson(const Gpu& gpu);
/// Reads what gpuJson() writes; false with a diagnostic naming `field` and the key at fault.
bool readGpu(const nlohmann::json& object, Gpu& gpu, Diagnostics& diagnostics, const std::string& field);

/// Devices as a JSON document: {"archplay_gpus": 1, "gpus": [...]}.
std::string gpuCatalogueToJson(const std::vector<Gpu>& gpus);
/// The user's devices from such a document (or a bare array). Devices whose id is a built-in one or
/// repeats an earlier one are refused with a diagnostic; the others are read.
struct GpuCatalogueRead {
    std::vector<Gpu> gpus;
    Diagnostics diagnostics;
    bool ok() const { return !hasErrors(diagnostics); }
};
[[nodiscard]] GpuCatalogueRead gpuCatalogueFromJson(std::string_view text);

} // namespace archplay::core
