// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/io/Presets.h"

#include <nlohmann/json_fwd.hpp>

namespace archplay::core {

/// A byte size or count as every JSON report writes it: the number, or null for kSaturated (a figure
/// beyond 2^64 - 1 is not a size), beside an "overflow" or "beyond" flag.
nlohmann::json figureJson(std::uint64_t value);
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
/// FLOPs (FORMULAS.md §5): {"sequence_length", "flops_per_token", "weight_flops_per_token",
/// "attention_flops_per_token", "state_flops_per_token", "by_component", "prefill_flops",
/// "prefill_attention_flops", "training_tokens", "training_flops", "six_nd_flops", "chinchilla_tokens",
/// "chinchilla_flops", "training_seconds", "recompute", "layer_kinds"}. FLOPs above 2^53 are doubles.
nlohmann::json computeJson(const Analysis& analysis);
/// Memory (FORMULAS.md §6). Serving, or training when `training`, sets "total_bytes",
/// "per_gpu_bytes" and "gpus_needed"; "serving" and "training" hold both in full.
nlohmann::json memoryJson(const Analysis& analysis, bool training);
/// Roofline speed (FORMULAS.md §7), upper bounds: {"gpu", "gpus", "batch", "sequence_length",
/// "decode_tokens_per_s", "decode_tokens_per_s_per_sequence", "bound", "prefill_seconds",
/// "time_to_first_token_s", "compute_bound_batch", "ridge_flops_per_byte", "curve", ...}.
nlohmann::json rooflineJson(const Analysis& analysis);
/// {"id", "name", "family", "source", "published_params", ...}.
nlohmann::json presetJson(const PresetInfo& info);

} // namespace archplay::core
