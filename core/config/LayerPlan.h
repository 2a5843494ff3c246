// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/ModelConfig.h"

#include <cstdint>
#include <string>
#include <vector>

namespace archplay::core {

enum class Stack { Encoder, Decoder };

/// One layer as the config schedules it. Every count, cache and diagram is computed from these,
/// so heterogeneous stacks (dense first layers, local/global patterns, sparse steps) are exact.
struct LayerPlan {
    Stack stack = Stack::Decoder;
    std::int64_t index = 0;                   ///< index within its stack
    TokenMixer mixer = TokenMixer::Attention; ///< what mixes tokens; attention fields apply when it has attention
    LayerAttention attention = LayerAttention::Global;
    bool latent = false;          ///< multi-head latent attention (MLA)
    std::int64_t window = 0;      ///< tokens a sliding or chunked layer attends to; 0 = unbounded
    bool causal = true;           ///< false in encoder stacks
    bool crossAttention = false;  ///< decoder layer of an encoder-decoder model
    FfnKind ffn = FfnKind::Gated; ///< Mlp, Gated or Moe for this layer
    bool positional = true;       ///< false for a NoPE layer of a RoPE model

    /// True when the layer has softmax attention and so a per-token KV cache.
    bool attends() const { return hasAttention(mixer); }

    bool operator==(const LayerPlan&) const = default;
};

/// Layers of the same kind share their parameter count, cache per token and drawing.
bool sameKind(const LayerPlan& a, const LayerPlan& b);

/// A human name for a token mixer, e.g. "Gated DeltaNet".
std::string_view mixerName(TokenMixer mixer);

/// The one set of names for layer kinds, in the views, the reports and the CLI.
/// The token mixer: "global", "sliding 4096", "local 128" (an encoder's window), "chunked 8192",
/// "latent (MLA)", "Gated DeltaNet", "global + Mamba-2"; " (NoPE)" without rotary positions.
std::string attentionKindName(const LayerPlan& layer);
/// The feed-forward block: "MLP", "gated", "MoE 8 × top-2".
std::string ffnKindName(const ModelConfig& config, FfnKind kind);
/// The whole kind: "sliding 4096 · MoE 8 × top-2", "global + cross · MLP".
std::string layerKindName(const ModelConfig& config, const LayerPlan& layer);
/// "Layer 3 of 0–31", "Decoder layer 0 of 0–5": numbered from 0, in constant time.
std::string layerTitle(const ModelConfig& config, const LayerPlan& layer);

/// A run of consecutive layers of the same kind in one stack.
struct LayerRun {
    LayerPlan kind;         ///< the first layer of the run
    std::int64_t first = 0; ///< index within the stack
    std::int64_t count = 0;
};

/// The whole stack, encoder layers first, then decoder layers.
struct ModelPlan {
    std::vector<LayerPlan> layers;

    /// Consecutive runs of identical layers, in order (for legible diagrams of deep stacks).
    std::vector<LayerRun> runs() const;
};

/// Expands a config into its per-layer plan. The config should be valid (see validate()); sizes
/// that are not positive yield an empty stack rather than an error.
ModelPlan planLayers(const ModelConfig& config);

} // namespace archplay::core
