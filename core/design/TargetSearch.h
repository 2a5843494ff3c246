// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Search for a target (issue 15): decoders (dense or mixture-of-experts, grouped-query or latent
// attention) whose exact parameter count meets a target, filtered by the cache, the device fit and
// the FLOPs they cost, and ranked by how closely they follow the rules published models follow.

#include "core/analysis/Analysis.h"
#include "core/analysis/DesignFigures.h"
#include "core/design/DesignShape.h"
#include "core/scenario/Scenario.h"
#include "core/validate/Diagnostic.h"

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace archplay::core {

/// The decoders a target search ranges over. Every design is a pre-norm RMSNorm, RoPE, SwiGLU,
/// bias-free decoder: model_type "llama" when dense with grouped-query attention, "qwen3_moe" when
/// MoE with grouped-query attention (per-head q/k norms, dense-first layers as mlp_only_layers, no
/// shared experts), "deepseek_v3" with latent attention (always MoE). The query heads follow from
/// the width: hidden / head_dim.
struct TargetSpace {
    DesignRange layers = DesignRange::span(8, 128);              ///< num_hidden_layers
    DesignRange hiddenSize = DesignRange::span(512, 16384, 128); ///< hidden_size
    std::vector<std::int64_t> headDims = {128};                  ///< head_dim: 64, 128 or 256 are published
    /// num_key_value_heads of grouped-query attention (1 is MQA); each must divide the query heads.
    std::vector<std::int64_t> kvHeads = {1, 2, 4, 8, 16};
    bool multiHead = true; ///< also as many KV heads as query heads (MHA)
    /// Dense FFN widths (and dense-first layers of MoE): llamaFfnWidth(hidden, multiplier, ffnMultiple).
    std::vector<double> ffnMultipliers = {1.0, 1.3, 1.5};
    std::int64_t ffnMultiple = 256;
    std::vector<std::int64_t> vocabSizes = {128256};
    std::vector<bool> tiedEmbeddings = {false, true};
    std::int64_t maxPositions = 8192; ///< max_position_embeddings; changes no count

    bool moe = false;                                      ///< mixture-of-experts decoders instead of dense ones
    bool mla = false;                                      ///< DeepSeek-style multi-head latent attention (implies moe)
    std::vector<std::int64_t> experts = {8, 64, 128, 256}; ///< routed experts
    std::vector<std::int64_t> topK = {2, 8};               ///< experts per token; must not exceed the experts
    std::vector<std::int64_t> sharedExperts = {0, 1};      ///< always-on experts (latent attention only)
    std::vector<std::int64_t> denseFirstLayers = {0, 1, 3}; ///< leading layers with a dense FFN
    /// Expert width as a fraction of hidden_size, rounded up to a multiple of 128 (DeepSeek-V3 0.29,
    /// Qwen3-30B-A3B 0.375, Mixtral 3.5).
    std::vector<double> expertWidthRatios = {0.25, 0.375, 0.75, 3.5};
    std::vector<std::int64_t> kvLoraRanks = {512};    ///< kv_lora_rank of latent attention
    std::vector<std::int64_t> qLoraRanks = {0, 1536}; ///< q_lora_rank; 0: a plain q_proj
};

/// The figures of a candidate a Pareto front or a table can be drawn on, beside the DesignFigures.
enum class CandidateFigure {
    Distance,     ///< |total - target| (+ |active - active target|). Units: parameters.
    Plausibility, ///< the sum of the rule penalties (0: follows every rule)
    Score,        ///< plausibility + distance as a fraction of the accepted distance: the rank
};

/// One axis: a figure of the analysis or of the candidate.
using SearchAxis = std::variant<DesignFigure, CandidateFigure>;

/// The order candidates are ranked in.
enum class SearchRank {
    Rules,    ///< by score: the rule penalties plus the distance as a fraction of the accepted one
    Distance, ///< nearest the target first, then least KV cache per token (`archplay-cli design`)
};

/// What a design must meet, and the scenario its cache, weights, fit and FLOPs are taken in.
struct SearchTargets {
    std::uint64_t params = 7'000'000'000;            ///< total unique parameters (FORMULAS.md §0)
    std::optional<std::uint64_t> activeParams;       ///< parameters one token uses (MoE)
    double tolerance = 0.05;                         ///< accepted distance from each count, as a fraction of it
    std::optional<std::uint64_t> maxKvBytesPerToken; ///< at scenario.kvDType. Units: bytes.
    /// Most KV cache at scenario.sequenceLength x scenario.batch. Units: bytes.
    std::optional<std::uint64_t> maxKvBytesScenario;
    /// Weights (scenario.weightFormat) plus that cache fit on scenario.gpuCount x scenario.gpu
    /// (deviceFit(), the rule of Analysis::devices).
    bool fitServing = false;
    /// Training fits on scenario.gpuCount x scenario.gpu (Analysis::trainingGpusNeeded). Checked
    /// with analyze() on the best 8 x top candidates only (training memory is not composed).
    bool fitTraining = false;
    std::optional<std::uint64_t> maxFlopsPerToken; ///< forward FLOPs of a decode step at the sequence length
    std::optional<double> minAspect;               ///< least hidden_size / num_hidden_layers
    std::optional<double> maxAspect;               ///< most hidden_size / num_hidden_layers
    Scenario scenario;                             ///< weight format, KV precision, context, batch, GPUs
    std::size_t top = 10;                          ///< candidates returned
    SearchRank rank = SearchRank::Rules;
    SearchAxis paretoX = CandidateFigure::Distance;
    SearchAxis paretoY = DesignFigure::KvBytesPerToken;
    /// Called before each width with the fraction of widths done (0 to 1); returning false stops the
    /// search, which then returns the best found so far with a warning. For a window's progress bar
    /// and cancel button; runs on the searching thread.
    std::function<bool(double)> progress;
};

/// The rules learned from published models (FORMULAS.md §9.3).
enum class DesignRule {
    HiddenMultiple, ///< hidden_size a multiple of 128
    TensorParallel, ///< query heads a multiple of 8; KV heads a multiple or a divisor of 8
    GqaGroup,       ///< 4 to 8 query heads per KV head
    FfnRatio,       ///< dense FFN width 2.6 to 3.6 x hidden, a multiple of 128
    DepthWidth,     ///< hidden / layers within 25% of the presets' curve (depthWidthReference())
    HeadDim,        ///< head_dim 128
    Embeddings,     ///< untied above 5B parameters, tied below 2B
    Experts,        ///< routed experts a multiple of 8 (expert parallelism), top-k at most experts / 4
};

/// What a rule asks, for a legend or a tooltip.
struct DesignRuleInfo {
    DesignRule rule;
    std::string_view key;         ///< "tensor_parallel", as in RulePenalty and the JSON
    std::string_view label;       ///< "Tensor parallelism"
    std::string_view description; ///< "query heads a multiple of 8; KV heads a multiple or a divisor of 8"
};
/// Every rule, in DesignRule order.
[[nodiscard]] const std::vector<DesignRuleInfo>& designRules();
[[nodiscard]] const DesignRuleInfo& ruleInfo(DesignRule rule);

/// One rule a candidate breaks, with its cost in the ranking.
struct RulePenalty {
    DesignRule rule;
    std::string_view key; ///< "tensor_parallel"
    double penalty = 0;   ///< added to the plausibility; about 1 per clear break
    std::string text;     ///< "40 query heads do not split over 8 GPUs"
};

/// A design found, with its exact figures.
struct TargetCandidate {
    DesignShape shape;
    std::uint64_t params = 0;           ///< total, exactly analyze()'s
    std::uint64_t activeParams = 0;     ///< exactly analyze()'s
    std::uint64_t kvBytesPerToken = 0;  ///< at scenario.kvDType. Units: bytes.
    std::uint64_t kvBytesScenario = 0;  ///< at the scenario's context and batch. Units: bytes.
    std::uint64_t weightBytes = 0;      ///< in the scenario's format. Units: bytes.
    std::uint64_t flopsPerToken = 0;    ///< one decode step at the scenario's sequence length. Units: FLOPs.
    std::uint64_t distance = 0;         ///< |total - target| (+ |active - active target|)
    double plausibility = 0;            ///< sum of the penalties
    double score = 0;                   ///< plausibility + distance / accepted distance: lower ranks first
    std::vector<RulePenalty> penalties; ///< the rules it breaks, largest first
    bool pareto = false;                ///< non-dominated on (paretoX, paretoY) among the candidates returned
    AnalysisPtr analysis;               ///< analyze(designConfig(shape), scenario): every other figure
};

/// The outcome of a search.
struct TargetSearchResult {
    Diagnostics diagnostics;                 ///< errors: nothing searched; warnings: skipped shapes
    std::vector<TargetCandidate> candidates; ///< best first (SearchTargets::rank)
    std::uint64_t spaceSize = 0;             ///< candidates enumerated (depth x dense-first x embeddings x shapes)
    std::uint64_t evaluated = 0;             ///< candidates whose figures were composed and tested
    std::uint64_t matched = 0;               ///< evaluated candidates meeting every composed target
};

/// The largest space a target search takes, in candidates and in shapes (candidates without depth,
/// dense-first count and embeddings, each analyzed once). At about 10 to 20 million candidates a
/// second, a search takes at most a few minutes.
inline constexpr std::uint64_t kMaxTargetCandidates = 2'000'000'000;
inline constexpr std::uint64_t kMaxTargetShapes = 1'000'000;

/// The reference depth-to-width curve: hidden / layers = exp(a) x params^b, fitted by least squares
/// on log-log over the built-in presets of dense attention-only decoders with a gated FFN.
struct DepthWidthCurve {
    double intercept = 0; ///< a
    double slope = 0;     ///< b
    std::size_t models = 0;
    /// The reference hidden / layers at `params` parameters.
    double aspect(double params) const;
};
/// The curve, derived once from builtinPresets() and analyze().
[[nodiscard]] const DepthWidthCurve& depthWidthReference();

/// The designers' seed: d_model from params = 12 L d^2 with L = d / 100 (d = (100 P / 12)^(1/3),
/// rounded to 128), head_dim 128, MHA when under 32 heads else 8 KV heads, FFN 8/3 x d rounded up to
/// 256, L = round(d / 100), untied, the space's first vocabulary. Exact figures from analyze().
struct SeedDesign {
    DesignShape shape;
    AnalysisPtr analysis;
};
[[nodiscard]] SeedDesign seedDesign(const SearchTargets& targets, std::int64_t vocabSize = 128256);

/// Errors naming the field (config.json keys, else target_params, active_params, tolerance, ...).
[[nodiscard]] Diagnostics validateTargetSearch(const TargetSpace& space, const SearchTargets& targets);

/// Searches the space. No second formula: each shape but its depth, dense-first count and
/// embeddings is analyzed (analyze()) as a 1-layer config (and a 1-layer dense-first one for MoE)
/// minus the outer part of its width, vocabulary and tying (embeddings, final norm, LM head; taken
/// once from a 2-layer config), and the figures of L layers of which d dense-first are composed as
/// outer + d x dense layer + (L - d) x MoE layer (FORMULAS.md §12.1). Every returned candidate is analyzed in full and
/// its composed figures checked against it (a mismatch is an error, never a silent number).
[[nodiscard]] TargetSearchResult searchTargets(const TargetSpace& space, const SearchTargets& targets);

/// The plausibility rules a shape breaks, largest penalty first.
[[nodiscard]] std::vector<RulePenalty> designPenalties(const DesignShape& shape, std::uint64_t params,
                                                       std::uint64_t activeParams);

/// Every axis a table column or a chart can use: the candidate figures, then designFigures().
[[nodiscard]] std::vector<SearchAxis> searchAxes();
/// An axis's value for a candidate; nullopt when the analysis has none.
[[nodiscard]] std::optional<double> axisValue(const TargetCandidate& candidate, const SearchAxis& axis);
[[nodiscard]] std::string_view axisKey(const SearchAxis& axis);
[[nodiscard]] std::string_view axisLabel(const SearchAxis& axis);
[[nodiscard]] bool axisLowerIsBetter(const SearchAxis& axis);
/// The axis named `key` (a DesignFigure key, "distance", "plausibility" or "score"), or nullopt.
[[nodiscard]] std::optional<SearchAxis> axisFromKey(std::string_view key);

/// For each candidate, whether no other candidate is at least as good on both axes and better on
/// one (each axis in its own direction). Candidates without a value on an axis are never on it.
[[nodiscard]] std::vector<bool> paretoFront(const std::vector<TargetCandidate>& candidates, const SearchAxis& x,
                                            const SearchAxis& y);

/// {"targets", "depth_width_curve": {"intercept", "slope", "models"}, "space_size", "evaluated", "matched",
/// "diagnostics", "seed", "candidates": [{"total", "active", "kv_bytes_per_token", ..., "score", "plausibility",
/// "penalties": [{"rule", "penalty", "text"}], "pareto", "config"}]}.
[[nodiscard]] nlohmann::json targetSearchJson(const TargetSearchResult& result, const SearchTargets& targets,
                                              const SeedDesign* seed = nullptr);

} // namespace archplay::core
