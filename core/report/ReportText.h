// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/derivation/Derivation.h"
#include "core/io/Presets.h"
#include "core/io/ViewKind.h"
#include "core/report/Tables.h"
#include "core/report/ZooPlots.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace archplay::core {

/// What a report says about where its config came from and when it was made: its title block.
struct ReportInfo {
    std::string title;                ///< the config's name: preset name, file name, or "Untitled"
    std::string origin;               ///< one line, e.g. "preset llama-3-8b" or "file /data/config.json"
    std::string date;                 ///< ISO 8601 day the report was made, e.g. "2025-11-21"
    std::optional<PresetInfo> preset; ///< the preset the config started from, when there is one
    bool modified = false;            ///< edited since it was loaded from its preset or file
};

/// One line of the configuration table.
struct ConfigRow {
    std::string key;   ///< stable machine name, the config.json key where one exists, e.g. "num_key_value_heads"
    std::string label; ///< "KV heads"
    std::string value; ///< "8"
};

/// The configuration as a reader checks it against a paper: sizes, attention, FFN or MoE, norms,
/// positions, windows, tying. Rows that do not apply (MoE fields of a dense model) are left out.
std::vector<ConfigRow> configRows(const ModelConfig& config);

/// One run of identical decoder layers in the KV cache.
struct KvRow {
    std::string layers; ///< indices in the decoder stack, "0-31" or "5"
    std::string kind;   ///< core::layerKindName of the run
    std::uint64_t layerCount = 0;
    std::uint64_t elementsPerToken = 0;      ///< cached K and V (or MLA latent) elements per token, one layer
    std::uint64_t cachedTokens = 0;          ///< tokens one layer holds: the sequence, capped by a window
    std::uint64_t crossElementsPerToken = 0; ///< cross-attention K and V per encoder token, one layer
    std::uint64_t bytesPerLayer = 0;         ///< one layer for the whole scenario. Units: bytes
    std::uint64_t bytes = 0;                 ///< every layer of the run. Units: bytes (saturating)
};

/// The KV cache by runs of identical decoder layers (encoder layers cache nothing).
std::vector<KvRow> kvRows(const Analysis& analysis);
/// The headline KV figures (per token, whole cache, MLA expanded, cross-attention), as summary rows.
std::vector<SummaryRow> kvFigures(const Analysis& analysis);
/// The KV cache as one CSV table with one header line (long format), so that every CSV reader takes
/// it whole: `row,layers,kind,layer_count,elements_per_token,cached_tokens,cross_elements_per_token,
/// bytes_per_layer,bytes`. First a row per headline figure of kvFigures(), named by its key in `row`
/// ("bytes_per_token", "total_bytes", ...) with its value in `bytes` and the layer columns empty;
/// then a row per run of kvRows(), `row` = "layers". Units: bytes.
std::string kvCsv(const Analysis& analysis);
/// kvFigures then kvRows as two Markdown tables, a blank line between them.
std::string kvMarkdown(const Analysis& analysis);

/// What the summary says of the config's origin: the preset's published count, or what it was modified from.
SummaryContext summaryContext(const ReportInfo& info);
/// The summary as one JSON object: exact numbers under their keys ("total_params", "active_params",
/// "kv_bytes_per_token", "kv_total_bytes", "weight_bytes", ...), the scenario, and the rows as shown.
nlohmann::json summaryJson(const Analysis& analysis, const SummaryContext& context = {});
/// Everything a report holds as one JSON object: info, scenario, config, summary, params, kv,
/// diagnostics and the counting convention.
[[nodiscard]] nlohmann::json reportJson(const Analysis& analysis, const ReportInfo& info);

/// The scenario in words: "4,096 tokens, batch 1, weights bf16, KV cache bf16".
std::string scenarioLine(const Analysis& analysis);
/// The caption every exported figure carries, in the window's exports, the reports and the command
/// line's alike: the model and the scenario, "Llama 3 8B · 4,096 tokens, batch 1, weights bf16, KV
/// cache bf16, on 1 x H100 80 GB"; "(modified)" follows an edited model's name.
std::string figureCaption(const Analysis& analysis, const ReportInfo& info);
/// How parameters, active parameters, KV cache and byte sizes are counted, as a paragraph.
std::string countingConvention();
/// Where the config comes from: the preset's name, repository or paper, published count and its
/// source and notes; or the origin line. One sentence per entry.
std::vector<std::string> sourceLines(const ReportInfo& info);
/// "Layer 3", "Encoder layer 2", "Decoder layer 5" for a position in plan.layers; empty when out of range.
std::string layerName(const ModelPlan& plan, std::int64_t position);

/// The parts of a report, in order.
enum class ReportPart {
    Configuration,
    Summary,
    Breakdown,
    LayerStack,
    Layer,
    AttentionMask,
    KvCache,
    MoeRouting,
    Compute,
    Memory,
    Speed,
    Zoo,
    DiagnosticList,
    Derivation,
    CostExplanation,
    Source,
};

/// One section of a report as both the PDF and the Markdown report lay it out.
struct ReportSection {
    ReportPart part = ReportPart::Configuration;
    std::string title;
    std::optional<ViewKind> figure; ///< the view drawn as the section's figure, if any
    std::string caption;            ///< under the figure
    std::vector<ZooPlot> zooPlots;  ///< the zoo's plots, each a figure with zooPlotCaption() (ReportPart::Zoo)
};

/// The sections of a report for this analysis: MoE routing only for mixture-of-experts models, the
/// KV cache only for models that have one; compute, memory and speed (with the rows of core/report/
/// Costs) for every model, and their explanation after the forward pass. `layer` is the position in plan.layers of the
/// layer whose matrices are shown. `zoo`: a section placing the design among the zoo's models (every
/// zoo plot, and the nearest models), after the speed.
std::vector<ReportSection> reportSections(const Analysis& analysis, std::int64_t layer, bool zoo = false);

/// A figure written beside a Markdown report.
struct ReportFigure {
    std::variant<ViewKind, ZooPlot> figure; ///< the view drawn (ReportSection::figure) or a zoo plot
    std::string path;                       ///< relative to the Markdown file, with forward slashes
};

/// A zoo plot of every row of `zoo` with the report's design ("this design") marked, placed today on
/// the vocabulary plot.
[[nodiscard]] ZooPlotData zooReportPlot(const ModelZoo& zoo, const Analysis& analysis, ZooPlot plot);
/// The zoo section's opening sentence: how many models, which kinds of source, and the scenario.
[[nodiscard]] std::string zooReportIntro(const ModelZoo& zoo);
/// The zoo section's table: the design, then its eight nearest models by total parameters, with the
/// zooNeighbourColumns() texts.
[[nodiscard]] std::vector<ZooRow> zooReportRows(const ModelZoo& zoo, const Analysis& analysis);

/// The whole report as Markdown: title, every section of reportSections() with its tables, the
/// figures linked from `figures` (sections whose figure is missing get none), the derivation with
/// $..$ maths, the source and the counting convention. With `zoo`, the section among its models.
[[nodiscard]] std::string reportMarkdown(const Analysis& analysis, const ReportInfo& info, std::int64_t layer,
                                         const std::vector<ReportFigure>& figures, const ModelZoo* zoo = nullptr);

/// The derivation as a complete LaTeX document (article, amsmath, amssymb) that compiles alone;
/// toLatex() gives the fragment.
[[nodiscard]] std::string derivationLatexDocument(const Derivation& derivation);

} // namespace archplay::core
