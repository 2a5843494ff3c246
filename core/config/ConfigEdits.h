// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/ModelConfig.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace archplay::core::edits {

/// Editing aids that are not part of the config: snapping, and the FFN width following the hidden size.
struct EditContext {
    bool snap = false;
    bool keepFfnRatio = false;
    double ffnRatio = 0.0; ///< intermediate_size / hidden_size when the lock was taken
};

/// intermediate_size / hidden_size, 0 when the hidden size is not positive.
double ffnRatio(const ModelConfig& config);

// Edits that change more than one field, so that switching a kind leaves a coherent config
// instead of one the user has to repair field by field. Pure functions.

/// MHA: KV heads = heads. GQA: the largest divisor of the heads up to a quarter of them (32 -> 8).
/// MQA: one KV head. MLA: DeepSeek's latent defaults, KV heads = heads. Leaving MLA drops the latent.
void setAttentionFamily(ModelConfig& config, AttentionFamily family);

/// Sets the hidden size; with the ratio lock on, the FFN width follows at its ratio (snapped to
/// kFfnSnap when snapping is on).
void setHiddenSize(ModelConfig& config, std::int64_t hiddenSize, const EditContext& context);

/// head_dim following hidden/heads (absent from config.json) or held at its current value.
void setHeadDimFollows(ModelConfig& config, bool follows);

/// Encoder-decoder gains as many encoder layers as decoder layers; the others drop them.
void setArchitecture(ModelConfig& config, ArchitectureKind kind);

/// Switching to MoE gives the experts the dense width; top-k stays within the experts.
void setFfnKind(ModelConfig& config, FfnKind kind);

/// Sets the routed experts, keeping top-k within them.
void setNumExperts(ModelConfig& config, std::int64_t experts);

/// Sets the query heads. MHA and MLA: the KV heads follow; MQA: one KV head. GQA keeps its KV head
/// count while it divides the new heads (32/4 -> 36/4), else takes the divisor nearest to it below
/// the heads (32/4 -> 33/3), so GQA never turns into MHA on its own.
void setNumHeads(ModelConfig& config, std::int64_t heads);

/// "0, 5, 7" -> {0, 5, 7}. nullopt when any entry is not a non-negative integer.
std::optional<std::vector<std::int64_t>> parseLayerList(std::string_view text);
std::string formatLayerList(const std::vector<std::int64_t>& layers);

/// "S S S S S G" (also "sliding", "local", "global", "full", "chunked") -> layer kinds.
std::optional<std::vector<LayerAttention>> parseLayerTypes(std::string_view text);
std::string formatLayerTypes(const std::vector<LayerAttention>& layers);

/// "D D D A" -> token mixers: A attention, D Gated DeltaNet, L lightning attention, M Mamba-2,
/// C short convolution, P attention and Mamba-2 in parallel (also the native names, "gated_deltanet").
std::optional<std::vector<TokenMixer>> parseMixers(std::string_view text);
std::string formatMixers(const std::vector<TokenMixer>& mixers);

} // namespace archplay::core::edits
