// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// "Will it run?" as rows and JSON (archplay-cli fit): capacity()'s answers for the scenario's devices.

#include "core/analysis/Analysis.h"
#include "core/report/Summary.h"

#include <nlohmann/json_fwd.hpp>

#include <string_view>
#include <vector>

namespace archplay::core {

/// What fits means here, the one label every answer carries: "weights plus the architecture's own
/// cache, split evenly over the devices; activations and an engine's own overhead are not included"
/// (the cache as the scenario's allocator holds it).
std::string fitRuleLabel(KvAllocator allocator);
/// "Will it run?" at a glance, the overview's rows, most telling first: vLLM's concurrency (under
/// its allocator), the largest batch at the scenario's length, the longest sequence at its batch, the
/// decode at the batch, the fewest devices and the time to first token (upper bounds, labelled so).
[[nodiscard]] std::vector<SummaryRow> willItRunRows(const Analysis& analysis);
/// vLLM's own answer under KvAllocator::Vllm: the cache it gets on each GPU, "GPU KV cache size" in
/// tokens and the maximum concurrency it prints, and whether it starts; empty under other allocators.
[[nodiscard]] std::vector<SummaryRow> vllmRows(const Analysis& analysis);
/// The verdict for the scenario, the largest batch at its length, the longest sequence at its batch,
/// the fewest devices, and the widest weight format that fits; empty for an invalid analysis.
[[nodiscard]] std::vector<SummaryRow> fitRows(const Analysis& analysis);
/// The same answers, with every format: {"gpu", "gpu_count", "capacity_bytes", "sequence_length",
/// "batch", "fits", "devices_needed", "largest_batch" (null: any), "longest_sequence", "length_limit"
/// ("tokens", "no_cache", "cache_stops_growing", "beyond_search"), "model_context",
/// "widest_fitting_format", "formats": [{"format", "weight_bytes", "required_bytes", "fits",
/// "devices_needed"}]}.
[[nodiscard]] nlohmann::json fitJson(const Analysis& analysis);

} // namespace archplay::core
