// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/LayerPlan.h"
#include "core/config/ModelConfig.h"
#include "core/mask/AttentionMask.h"
#include "core/params/Tensors.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace archplay::core {

/// How much of a layer's activations training recomputes in the backward pass.
enum class Recompute {
    None,      ///< keep every activation
    Selective, ///< recompute the attention core (softmax, its dropout, scores x V): Korthikanti et al. 2022
    Full,      ///< keep each layer's input only and run the forward again
};
std::string_view toString(Recompute recompute);
std::optional<Recompute> parseRecompute(std::string_view name);

/// The forward-pass cost of one kind of layer. FLOPs count a multiply-add as 2.
struct LayerKindCompute {
    LayerPlan kind;
    std::int64_t layers = 0;
    std::uint64_t mixerWeights = 0; ///< 2 x the weights of the token mixer one token multiplies
    std::uint64_t ffnWeights = 0;   ///< 2 x the FFN weights one token multiplies: active experts only
    /// FLOPs per attended key: QK^T and scores x V, 2·heads·(d_qk + d_v); MLA as transformers computes it
    /// (d_qk = qk_nope + qk_rope, d_v = v_head_dim); 0 without softmax attention.
    std::uint64_t perKey = 0;
    std::uint64_t indexerPerKey = 0; ///< DeepSeek sparse attention: the indexer scores every key, 2·n_idx·d_idx
    std::uint64_t keyLimit = 0;      ///< keys the indexer lets through (index_topk); 0 = no limit
    std::uint64_t crossPerKey = 0;   ///< cross-attention FLOPs per encoder key
    /// 2 x the cross-attention key and value weights: each encoder token multiplies them once per layer.
    std::uint64_t crossSourceWeights = 0;
    /// A linear-attention or state-space mixer's recurrence per token, constant in the context: Gated
    /// DeltaNet 7·Hv·dk·dv, lightning attention 5·h·d², Mamba-2 5·h·P·N (recurrent form).
    std::uint64_t statePerToken = 0;
    MaskSpec mask; ///< which keys a query attends
};

/// FLOPs of the forward pass and of training (FORMULAS.md §5). Causal convention: the token at
/// position p (counting from 1) attends to the p keys up to and including itself, or its window; a
/// prefill of S tokens sums over p = 1..S. Encoder tokens attend to the whole source (or their window).
struct ComputeReport {
    std::uint64_t context = 0;      ///< S: the scenario's sequence length. Units: tokens.
    std::uint64_t sourceTokens = 0; ///< encoder tokens of an encoder-decoder model
    /// 2 x the weights one token multiplies, by component: active experts only, the LM head even when
    /// tied, no embedding lookup. Units: FLOPs per token.
    std::array<std::uint64_t, kComponentCount> weightsByComponent{};
    std::uint64_t weights = 0;   ///< the sum. Units: FLOPs per token.
    std::uint64_t attention = 0; ///< score and value products of one token at position S. Units: FLOPs.
    std::uint64_t state = 0;     ///< recurrences of linear-attention and state-space layers. Units: FLOPs.
    std::uint64_t perToken = 0;  ///< weights + attention + state: one decode step at position S
    double prefill = 0;          ///< forward of S tokens (and an encoder-decoder's source). Units: FLOPs.
    double prefillAttention = 0; ///< its attention part. Units: FLOPs.
    std::vector<LayerKindCompute> kinds;
    bool encoderDecoder = false; ///< the encoder's layers run per source token, not per token

    // Training (FORMULAS.md §5.3-5.6): sequences of S tokens, backward = 2 x forward.
    std::uint64_t trainingTokens = 0;
    Recompute recompute = Recompute::None;
    double trainingFlops = 0;     ///< D / S x (3 x forward + recomputation). Units: FLOPs.
    double trainingAttention = 0; ///< its attention part. Units: FLOPs.
    /// 6 x weights a token multiplies x D: the rule of thumb without attention. Units: FLOPs.
    double sixND = 0;
    std::uint64_t chinchillaTokens = 0; ///< 20 x total parameters (Hoffmann et al. 2022)
    double chinchillaFlops = 0;         ///< trainingFlops at chinchillaTokens. Units: FLOPs.
    double trainingSeconds = 0;         ///< trainingFlops / (GPUs x peak x MFU). Units: s.
    bool overflow = false;

    std::uint64_t component(Component c) const { return weightsByComponent[static_cast<std::size_t>(c)]; }
};

/// The attention keys one query at position `position` (from 1) attends in a layer kind, its window,
/// chunk or index_topk applied, out of `context` keys.
std::uint64_t attendedKeyCount(const LayerKindCompute& kind, std::uint64_t position);

/// The FLOPs of one token at one position of the context, split as the compute view draws them
/// (FORMULAS.md §5): the weights and the recurrent states cost the same at every position; attention
/// grows with the keys each layer sees and stops growing at a window, a chunk or index_topk.
/// Units: FLOPs.
struct TokenFlops {
    /// p: the position of a decoder's token (from 1); for an encoder-only model, the sequence length,
    /// whose tokens' attention is averaged as compute() averages it over S.
    std::uint64_t position = 0;
    double weights = 0;
    double attention = 0;
    double state = 0;
    double total = 0; ///< weights + attention + state
};

/// Positions to draw the FLOPs-per-token curve through: four per octave from 1 to `maxPosition`, and
/// every window, key limit and chunk edge of `report`'s layer kinds (so the bend where a window stops
/// the growth, or the drop after a chunk, is exact), and `current`. Sorted, without duplicates.
[[nodiscard]] std::vector<std::uint64_t> flopsCurvePositions(const ComputeReport& report, std::uint64_t maxPosition,
                                                             std::uint64_t current);

/// FLOPs per token at each of `positions`, by the sums compute() makes at position S: at p = S the
/// point equals report.weights, .attention, .state and .perToken (the attention of an encoder-only
/// model up to compute()'s rounding to whole FLOPs). Decoder self-attention sees
/// attendedKeyCount(kind, p) keys; cross-attention every source token, flat in p.
[[nodiscard]] std::vector<TokenFlops> flopsPerTokenCurve(const ComputeReport& report,
                                                         const std::vector<std::uint64_t>& positions);

/// What a token is, as the compute view's bars split it.
enum class FlopsKind {
    Weights,   ///< 2 x the weights it multiplies
    Attention, ///< scores and values over the keys it attends
    State,     ///< recurrences of linear-attention and state-space layers
};

/// One part of the FLOPs of a token at position S, by component.
struct FlopsPart {
    std::string name; ///< "Feed-forward", "Attention scores and values", "Recurrent states"
    FlopsKind kind = FlopsKind::Weights;
    Component component = Component::Attention; ///< the weights' component (kind Weights only)
    std::uint64_t flops = 0;                    ///< Units: FLOPs.
};

/// The FLOPs of a token at position S: the weights by component (those that multiply anything),
/// then attention, then the recurrent states. The parts sum to report.perToken.
[[nodiscard]] std::vector<FlopsPart> flopsByComponent(const ComputeReport& report);

/// The FLOPs of a token at position S that one kind of layer spends, all its layers together.
struct KindFlops {
    std::string name;        ///< layerKindName(); "Outside the layers" for the LM head and projections
    bool outside = false;    ///< the tensors outside the layers (no kind)
    std::int64_t layers = 0; ///< layers of this kind that run per token
    std::uint64_t weights = 0;
    std::uint64_t attention = 0;
    std::uint64_t state = 0;
    std::uint64_t total = 0; ///< weights + attention + state. Units: FLOPs.
};

/// The FLOPs of a token at position S by kind of layer, in plan order, then the tensors outside the
/// layers. Only the layers a token runs through: an encoder-decoder's encoder runs once per source
/// token and is left out, as in report.perToken, which the totals sum to (the attention of an
/// encoder-only model up to rounding).
[[nodiscard]] std::vector<KindFlops> flopsByLayerKind(const ModelConfig& config, const ComputeReport& report);

/// What the scenario's training needs besides the model.
struct TrainingSetup {
    std::uint64_t tokens = 0;
    Recompute recompute = Recompute::None;
    std::uint64_t gpus = 1;
    double peakFlops = 0; ///< per GPU. Units: FLOP/s.
    double mfu = 0.4;     ///< model FLOPs utilisation, 0..1
};

/// FLOPs per token, prefill of `context` tokens (and `sourceTokens` for an encoder-decoder) and
/// training for `training`. `totalParams` sizes the Chinchilla budget.
[[nodiscard]] ComputeReport compute(const ModelConfig& config, const ModelPlan& plan, std::uint64_t context,
                                    std::uint64_t sourceTokens, std::uint64_t totalParams,
                                    const TrainingSetup& training);

} // namespace archplay::core
