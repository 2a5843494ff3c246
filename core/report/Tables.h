// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/Analysis.h"

#include <cstdint>
#include <string>
#include <vector>

namespace archplay::core {

/// One line of the model summary: what the summary cards show and what reports print.
struct SummaryRow {
    std::string key;   ///< stable machine name, e.g. "total_params"
    std::string label; ///< "Total parameters"
    std::string value; ///< short, with units: "8.03B", "128 KiB", "GQA 8/32"
    std::string exact; ///< the exact figure: "8,030,261,248", or the value again for text rows
};

/// The summary of an analysis: parameters (total, active), layers, d_head, attention, KV cache per
/// token and for the scenario, FFN type, weight memory at the scenario's precision.
std::vector<SummaryRow> summaryRows(const Analysis& analysis);
/// "estimate: ignores num_experts, moe_k": shown beside every figure of a config read as an
/// estimate; empty for an exact config.
std::string estimateLabel(const ModelConfig& config);
/// "counts the language model only; not counted: vision": empty unless parts are left out.
std::string uncountedLabel(const ModelConfig& config);
/// "Gated DeltaNet 36 + attention 12": the token mixers of a hybrid stack; empty when all attention.
std::string mixerLabel(const ModelConfig& config);
/// "2 x 80 GiB": the scenario's devices.
std::string devicesLabel(const Scenario& scenario);
/// "fits, 23% used" or "needs 9 x 80 GiB".
std::string fitVerdict(const DeviceFit& fit);

/// "32", or "12 + 12" (encoder + decoder).
std::string layersLabel(const ModelConfig& config);
/// "128", or "128+64" for MLA (qk_nope_head_dim + qk_rope_head_dim).
std::string headDimLabel(const ModelConfig& config);
/// "GQA 8/32", "MHA 32", "MQA 1/71", "MLA 128": the family with its key/value and query heads.
std::string attentionLabel(const ModelConfig& config);
/// "global on every layer", "window 1,024, 1 global in 6", "latent rank 512".
std::string attentionDetail(const ModelConfig& config);
/// "SwiGLU", "GELU MLP", "MoE 2/8" (top-k of the routed experts).
std::string ffnKindLabel(const ModelConfig& config);
/// "SwiGLU 14336", "GELU MLP 3072", "MoE 8x14336 top-2".
std::string ffnLabel(const ModelConfig& config);

/// The breakdown tree as CSV: path, parameters, share of total (percent), shape. RFC 4180 quoting.
std::string breakdownCsv(const ParamReport& params);
/// The breakdown tree as a Markdown table with indented names and exact counts.
std::string breakdownMarkdown(const ParamReport& params);
/// Summary rows as CSV (key, label, value, exact) and as a Markdown table.
std::string summaryCsv(const Analysis& analysis);
std::string summaryMarkdown(const Analysis& analysis);

/// RFC 4180 field: quoted when it holds a comma, quote or line break.
std::string csvField(const std::string& text);
/// Markdown table cell: pipes escaped, line breaks turned into spaces.
std::string markdownCell(const std::string& text);

} // namespace archplay::core
