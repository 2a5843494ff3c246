// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/io/Presets.h"

#include <nlohmann/json_fwd.hpp>

namespace archplay::core {

/// {"name", "params", "shape"?, "children"} for one breakdown node, recursively.
nlohmann::json toJson(const ParamNode& node);
/// {"total", "active", "active_compute", "by_component", "breakdown", "extras"?}.
nlohmann::json paramsJson(const ParamReport& params);
/// {"dtype", "sequence_length", "batch", "bytes_per_token", "total_bytes", ... , "layers"}.
nlohmann::json kvJson(const Analysis& analysis);
/// Adds "exact", "ignored_fields" (and "uncounted_parts" for a multimodal wrapper) to a JSON report.
void addExactness(nlohmann::json& out, const ModelConfig& config);
/// [{"severity", "field", "message"}].
/// Weights plus cache against the scenario's GPUs.
nlohmann::json deviceFitJson(const Analysis& analysis);
nlohmann::json diagnosticsJson(const Diagnostics& diagnostics);
/// {"id", "name", "family", "source", "published_params", ...}.
nlohmann::json presetJson(const PresetInfo& info);

} // namespace archplay::core
