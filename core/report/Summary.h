// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The model summary: one list of rows that the summary cards, the CLI and every export print, so
// that no two of them can disagree.

#include "core/analysis/Analysis.h"
#include "core/io/Presets.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace archplay::core {

/// How a row's detail line reads: a verdict the user should notice, or plain information.
enum class Tone { Normal, Good, Caution, Bad };

/// One line of the model summary.
struct SummaryRow {
    std::string key;    ///< stable machine name, e.g. "total_params"
    std::string label;  ///< "Total parameters"
    std::string value;  ///< short, with units: "8.03B", "128 KiB", "GQA 8/32"
    std::string exact;  ///< the exact figure: "8,030,261,248", or the value again for text rows
    std::string detail; ///< one short line under the value: "per token · 4.9% of total"; may be empty
    Tone tone = Tone::Normal;
    std::vector<std::string> notes; ///< longer explanations, one per line (the cards' tooltips)
};

/// What the summary knows about where the config came from.
struct SummaryContext {
    std::optional<std::uint64_t> publishedParams;   ///< the preset's published count, when unmodified
    std::optional<PublishedActive> publishedActive; ///< the preset's published active count, when unmodified
    std::string modifiedFrom;                       ///< the preset or file the config was edited from
};

/// A published active count against archplay's figure counted the vendor's way.
struct PublishedVerdict {
    bool matches = false; ///< equal at the published precision
    std::string detail;   ///< a card's line: "✓ published 5.13B w/o embedding"
    std::string note;     ///< the figures in full, with the source
};
[[nodiscard]] PublishedVerdict publishedActiveVerdict(const ParamReport& params, const PublishedActive& published);

/// The summary of an analysis: parameters (total, active), layers, d_head, attention, KV cache per
/// token and for the scenario, fixed state, FFN type, weight memory and device fit. An invalid
/// analysis gives the config-only rows (layers, d_head, attention, FFN) and "—" for the figures.
[[nodiscard]] std::vector<SummaryRow> summaryRows(const Analysis& analysis, const SummaryContext& context = {});
/// A summary card: which row it shows, under which short title.
struct SummaryCardSpec {
    std::string_view key;
    std::string_view title;
};
/// The summary cards of the window, in display order: total, active, layers, d_head, attention,
/// KV per token, FFN, weights.
const std::vector<SummaryCardSpec>& summaryCardSpecs();
/// The row with this key, or nullptr.
const SummaryRow* findRow(const std::vector<SummaryRow>& rows, std::string_view key);

/// How many layers of each kind, most common first, naming only what differs between the kinds:
/// "52 sliding 1024 + 10 global", "58 MoE + 3 gated", "12 encoder + 12 decoder"; one kind is named
/// whole ("global · gated").
std::string layerKindsLabel(const ModelConfig& config, const ModelPlan& plan);
/// "estimate: ignores num_experts, moe_k": shown beside every figure of a config read as an
/// estimate; empty for an exact config.
std::string estimateLabel(const ModelConfig& config);
/// "counts the language model only; not counted: vision": empty unless parts are left out.
std::string uncountedLabel(const ModelConfig& config);
/// "Gated DeltaNet 36 + attention 12": the token mixers of a hybrid stack; empty when all attention.
std::string mixerLabel(const ModelConfig& config);
/// "2 x 80 GiB": the scenario's devices.
std::string devicesLabel(const Scenario& scenario);
/// How much of the devices weights and cache take: "23%" (floored, "<1%" below one percent) when
/// they fit, "2.5×" the capacity when they do not. The one rule for a device's use.
std::string deviceUseText(std::uint64_t requiredBytes, std::uint64_t capacityBytes);
/// "fits, 23% used" or "needs 9 x 80 GiB".
std::string fitVerdict(const DeviceFit& fit);
/// "8 x 80 GiB": the devices of a fit.
std::string devicesLabel(const DeviceFit& fit);

/// Why a model keeps no KV cache, in one line; empty when it keeps one.
std::string noKvCacheNote(const ModelConfig& config);

/// A device row of the KV view as text, from the rule of the weights card (deviceFit()).
struct GpuFitText {
    std::string label;   ///< "8 x 80 GiB"
    std::string verdict; ///< "fits · up to 163K tokens", "needs 9 x 80 GiB: the weights alone exceed it"
    std::string detail;  ///< "weights 625 GiB + cache 244 MiB = 97% of 8 x 80 GiB"
    Tone tone = Tone::Normal;
};
/// The text of a row of gpuFits(); `plan` says why a cache that stops growing stops (windows, fixed states).
[[nodiscard]] GpuFitText gpuFitText(const GpuFit& fit, const ModelPlan& plan);

/// Summary rows as CSV (key, label, value, exact, detail) and as a Markdown table.
std::string summaryCsv(const std::vector<SummaryRow>& rows);
std::string summaryMarkdown(const std::vector<SummaryRow>& rows);

} // namespace archplay::core
