// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The shape of a designed decoder, the ranges a search takes it over, and its config: what the
// target search (TargetSearch.h) finds, and what the window and the exports make of a design.

#include "core/config/ModelConfig.h"

#include <cstdint>
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

    /// Number of values; 0 when the range is malformed (see validateTargetSearch()).
    std::uint64_t size() const;
    /// The values in order; empty when the range is malformed.
    std::vector<std::int64_t> expand() const;
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
    // Mixture of experts and latent attention (the target search); 0 in a dense design.
    std::int64_t numExperts = 0;             ///< n_routed_experts; 0: a dense FFN in every layer
    std::int64_t topK = 0;                   ///< num_experts_per_tok
    std::int64_t expertIntermediateSize = 0; ///< moe_intermediate_size
    std::int64_t sharedExperts = 0;          ///< n_shared_experts (latent attention only)
    std::int64_t denseFirstLayers = 0;       ///< leading layers with a dense FFN of intermediateSize
    std::int64_t kvLoraRank = 0;             ///< kv_lora_rank; 0: grouped-query attention
    std::int64_t qLoraRank = 0;              ///< q_lora_rank; 0: a plain q_proj

    bool operator==(const DesignShape&) const = default;
};

/// The family a shape is written as: llama when dense with grouped-query attention, qwen3_moe when
/// MoE with grouped-query attention, deepseek_v3 with latent attention (always MoE).
enum class DesignFamily { Llama, Qwen3Moe, DeepseekV3 };
[[nodiscard]] DesignFamily designFamily(const DesignShape& shape);

/// Llama's FFN width for a model width (meta-llama/llama3 `model.py`, FeedForward): 8/3 x hidden
/// rounded down, times the multiplier rounded down, rounded up to a multiple of `multipleOf`.
/// Llama 3 8B: (4096, 1.3, 1024) -> 14336; Llama 2 7B: (4096, 1.0, 256) -> 11008. 0 when an input is
/// not positive or the width exceeds 2^40.
[[nodiscard]] std::int64_t llamaFfnWidth(std::int64_t hiddenSize, double multiplier, std::int64_t multipleOf);

/// The full config of a design, ready to analyze, export or load in the window: its family's config
/// as that family's config.json reader builds it from {"model_type": ...} alone (every convention,
/// q/k norms, router rule, biases, as the family sets it), then sized. Dense-first layers are
/// mlp_only_layers in qwen3_moe and first_k_dense_replace in deepseek_v3.
[[nodiscard]] ModelConfig designConfig(const DesignShape& shape);

} // namespace archplay::core
