// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/ModelConfig.h"
#include "core/memory/KvCache.h"
#include "core/validate/Diagnostic.h"

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace archplay::core {

/// The whole numbers one design dimension takes: `values` when it is not empty, else the inclusive
/// arithmetic range min, min + step, ... up to max.
struct DesignRange {
    std::int64_t min = 1;
    std::int64_t max = 1;
    std::int64_t step = 1;
    std::vector<std::int64_t> values;

    static DesignRange span(std::int64_t min, std::int64_t max, std::int64_t step = 1) { return {min, max, step, {}}; }
    static DesignRange list(std::vector<std::int64_t> values) { return {1, 1, 1, std::move(values)}; }

    /// Number of values; 0 when the range is malformed (see validateDesign()).
    std::uint64_t size() const;
    /// The values in order; empty when the range is malformed.
    std::vector<std::int64_t> expand() const;
};

/// The dense decoders a search ranges over: Llama-style (RMSNorm before each sub-block, RoPE, SwiGLU
/// FFN, grouped-query attention, no biases). The query heads follow from the width: hidden / head_dim.
/// The defaults span small to large models.
struct DesignSpace {
    DesignRange layers = DesignRange::span(8, 128);              ///< num_hidden_layers
    DesignRange hiddenSize = DesignRange::span(512, 16384, 128); ///< hidden_size
    /// head_dim. 128 alone by default: 64 only adds twins (twice the heads, twice the KV heads) with
    /// the same count and cache.
    std::vector<std::int64_t> headDims = {128};
    std::vector<std::int64_t> kvHeads = {1, 2, 4, 8, 16}; ///< num_key_value_heads; must divide the heads
    /// Llama's ffn_dim_multiplier: the FFN width is llamaFfnWidth(hidden, multiplier, ffnMultiple).
    std::vector<double> ffnMultipliers = {1.0, 1.3, 1.5};
    std::int64_t ffnMultiple = 256;                   ///< Llama's multiple_of
    std::vector<std::int64_t> vocabSizes = {128256};  ///< vocab_size
    std::vector<bool> tiedEmbeddings = {false, true}; ///< tie_word_embeddings
    std::int64_t maxPositions = 8192;                 ///< max_position_embeddings; changes no count
};

/// What a design must meet.
struct DesignTargets {
    std::uint64_t params = 7'000'000'000; ///< total unique parameters (FORMULAS.md §0)
    double tolerance = 0.05;              ///< accepted distance from `params`, as a fraction of it (0 to 1)
    /// Most KV cache one token of context may cost at `kvDType` (all layers). Units: bytes.
    std::optional<std::uint64_t> maxKvBytesPerToken;
    DType kvDType = DType::BF16;
    std::optional<double> minAspect; ///< least hidden_size / num_hidden_layers (width per layer)
    std::optional<double> maxAspect; ///< most hidden_size / num_hidden_layers
    std::size_t top = 10;            ///< candidates returned
};

/// Every number the config of one design needs.
struct DesignShape {
    std::int64_t layers = 0;
    std::int64_t hiddenSize = 0;
    std::int64_t headDim = 0;
    std::int64_t numHeads = 0; ///< hiddenSize / headDim
    std::int64_t numKvHeads = 0;
    std::int64_t intermediateSize = 0;
    std::int64_t vocabSize = 0;
    bool tiedEmbeddings = false;
    std::int64_t maxPositions = 8192;
    // Mixture of experts and latent attention (the target search, TargetSearch.h); 0 in a dense design.
    std::int64_t numExperts = 0;             ///< n_routed_experts; 0: a dense FFN in every layer
    std::int64_t topK = 0;                   ///< num_experts_per_tok
    std::int64_t expertIntermediateSize = 0; ///< moe_intermediate_size
    std::int64_t sharedExperts = 0;          ///< n_shared_experts (latent attention only)
    std::int64_t denseFirstLayers = 0;       ///< leading layers with a dense FFN of intermediateSize
    std::int64_t kvLoraRank = 0;             ///< kv_lora_rank; 0: grouped-query attention
    std::int64_t qLoraRank = 0;              ///< q_lora_rank; 0: a plain q_proj

    bool operator==(const DesignShape&) const = default;
};

/// A design that meets the targets, with its figures.
struct DesignCandidate {
    DesignShape shape;
    double ffnMultiplier = 1.0;        ///< the first multiplier of the space that gives this FFN width
    std::uint64_t params = 0;          ///< total unique parameters, exactly what analyze() counts
    std::uint64_t kvBytesPerToken = 0; ///< at DesignTargets::kvDType, exactly analyze()'s. Units: bytes.
    std::uint64_t distance = 0;        ///< |params - target|
};

/// The outcome of a search. Every candidate of the space is either evaluated or skipped.
struct DesignSearchResult {
    Diagnostics diagnostics;                 ///< errors: nothing was searched; warnings: what was skipped
    std::vector<DesignCandidate> candidates; ///< best first: nearest the target, then least KV per token
    std::uint64_t spaceSize = 0;             ///< the product of the dimension sizes
    std::uint64_t evaluated = 0;             ///< candidates whose count and cache were composed and tested
    std::uint64_t skipped = 0;               ///< impossible or repeated shapes (see the warnings)
    std::uint64_t matched = 0;               ///< evaluated candidates meeting every target
};

/// The largest space searched, in candidates and in shapes (candidates without their depth). Each
/// shape costs one run of the core's counters (microseconds), each depth a few nanoseconds, so
/// these bound a search to seconds.
inline constexpr std::uint64_t kMaxDesignCandidates = 1'000'000'000;
inline constexpr std::uint64_t kMaxDesignShapes = 1'000'000;

/// Llama's FFN width for a model width (meta-llama/llama3 `model.py`, FeedForward): 8/3 x hidden
/// rounded down, times the multiplier rounded down, rounded up to a multiple of `multipleOf`.
/// Llama 3 8B: (4096, 1.3, 1024) -> 14336; Llama 2 7B: (4096, 1.0, 256) -> 11008. 0 when an input is
/// not positive or the width exceeds 2^40.
[[nodiscard]] std::int64_t llamaFfnWidth(std::int64_t hiddenSize, double multiplier, std::int64_t multipleOf);

/// The full config of a design, ready to analyze, export or load in the window: a Llama config for a
/// dense shape, targetConfig() (qwen3_moe or deepseek_v3) for a MoE or latent-attention one.
[[nodiscard]] ModelConfig designConfig(const DesignShape& shape);

/// Errors in a space or its targets, each naming its field (config.json keys where there is one:
/// num_hidden_layers, hidden_size, head_dim, num_key_value_heads, ffn_dim_multiplier, multiple_of,
/// vocab_size, tie_word_embeddings, max_position_embeddings; else target_params, tolerance,
/// max_kv_bytes_per_token, aspect, top, design_space).
[[nodiscard]] Diagnostics validateDesign(const DesignSpace& space, const DesignTargets& targets);

/// Searches a space for designs meeting the targets and returns the best `targets.top`.
/// No second formula: for each shape except depth, the core's own counters run on its 1-layer
/// config (countParameters: the per-layer figure and the rest) and its 1- and 2-layer configs
/// (kvCache), and the figures for L layers are composed as outer + L x per-layer, exact because a
/// uniform Llama stack is linear in its depth. Layers are the innermost loop, so a space costs about
/// 10 us per shape plus a few ns per depth. Invalid spaces return errors and evaluate nothing.
[[nodiscard]] DesignSearchResult searchDesigns(const DesignSpace& space, const DesignTargets& targets);

/// {"targets": {...}, "space_size", "evaluated", "skipped", "matched", "diagnostics": [...],
/// "candidates": [{"params", "distance", "kv_bytes_per_token", "num_hidden_layers", "hidden_size", ...,
/// "config": the candidate's config.json}]}.
[[nodiscard]] nlohmann::json designSearchJson(const DesignSearchResult& result, const DesignTargets& targets);

} // namespace archplay::core
