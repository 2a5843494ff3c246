// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/report/Summary.h"

#include <cstdint>
#include <string>
#include <vector>

namespace archplay::core {

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

/// A layer kind's row as one layer times its layers: "218,112,000 × 32 layers" ("× 1 layer"), the
/// figure the row's total is the product of; empty for a row outside the layers. The one wording of
/// the window's breakdown, its exports and the CLI.
[[nodiscard]] std::string perLayerText(const ParamNode& node);
/// perLayerText() with the total: "218,112,000 × 32 layers = 6,979,584,000"; empty outside the layers.
[[nodiscard]] std::string perLayerEquation(const ParamNode& node);

/// The breakdown tree as CSV: path, parameters, share of total (percent), shape, and for the rows of a
/// layer kind the parameters of one layer and the layers (per_layer x layers = parameters; both empty
/// for other rows). RFC 4180 quoting.
std::string breakdownCsv(const ParamReport& params);
/// The breakdown tree as a Markdown table with indented names, exact counts and, beside the count of
/// a layer kind's row, one layer's count times the layers (perLayerText()).
std::string breakdownMarkdown(const ParamReport& params);

/// RFC 4180 field: quoted when it holds a comma, quote or line break.
[[nodiscard]] std::string csvField(const std::string& text);
/// Markdown table cell: pipes escaped, line breaks turned into spaces.
[[nodiscard]] std::string markdownCell(const std::string& text);

/// A column of a Markdown table: its title and whether its cells are right-aligned (numbers).
struct MarkdownColumn {
    std::string title;
    bool right = false;
};
/// The title row and the alignment row of a Markdown table: "| A | B |\n|---|---:|\n".
[[nodiscard]] std::string markdownHeader(const std::vector<MarkdownColumn>& columns);
/// One row of a Markdown table, each cell escaped with markdownCell(): "| a | b |\n".
[[nodiscard]] std::string markdownRow(const std::vector<std::string>& cells);

} // namespace archplay::core
