// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "config/ModelConfig.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace archplay::ui {

struct EditContext;

/// Edits that change more than one field, so that switching a kind leaves a coherent config
/// instead of one the user has to repair field by field. Pure functions, tested without widgets.
namespace edits {

/// MHA: KV heads = heads. GQA: the largest divisor of the heads up to a quarter of them (32 -> 8).
/// MQA: one KV head. MLA: DeepSeek's latent defaults, KV heads = heads. Leaving MLA drops the latent.
void setAttentionFamily(core::ModelConfig& config, core::AttentionFamily family);

/// Sets the hidden size; with the ratio lock on, the FFN width follows at its ratio (snapped to
/// multiples of 128 when snapping is on).
void setHiddenSize(core::ModelConfig& config, std::int64_t hiddenSize, const EditContext& context);

/// head_dim following hidden/heads (absent from config.json) or held at its current value.
void setHeadDimFollows(core::ModelConfig& config, bool follows);

/// Encoder-decoder gains as many encoder layers as decoder layers; the others drop them.
void setArchitecture(core::ModelConfig& config, core::ArchitectureKind kind);

/// Switching to MoE gives the experts the dense width; top-k stays within the experts.
void setFfnKind(core::ModelConfig& config, core::FfnKind kind);

/// Sets the routed experts, keeping top-k within them.
void setNumExperts(core::ModelConfig& config, std::int64_t experts);

/// Sets the query heads; KV heads follow MHA/MQA, and GQA keeps a divisor of the new heads.
void setNumHeads(core::ModelConfig& config, std::int64_t heads);

/// "0, 5, 7" -> {0, 5, 7}. nullopt when any entry is not a non-negative integer.
std::optional<std::vector<std::int64_t>> parseLayerList(const QString& text);
QString formatLayerList(const std::vector<std::int64_t>& layers);

/// "S S S S S G" (also "sliding", "local", "global", "full", "chunked") -> layer kinds.
std::optional<std::vector<core::LayerAttention>> parseLayerTypes(const QString& text);
QString formatLayerTypes(const std::vector<core::LayerAttention>& layers);

/// "D D D A" -> token mixers: A attention, D Gated DeltaNet, L lightning attention, M Mamba-2,
/// C short convolution, P attention and Mamba-2 in parallel (also the native names, "gated_deltanet").
std::optional<std::vector<core::TokenMixer>> parseMixers(const QString& text);
QString formatMixers(const std::vector<core::TokenMixer>& mixers);

} // namespace edits
} // namespace archplay::ui
