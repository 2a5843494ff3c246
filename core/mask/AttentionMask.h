// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/LayerPlan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace archplay::core {

/// Which (query, key) pairs an attention layer lets through. Positions are 0-based token indices;
/// query i and key j of the same sequence unless the kind is Cross.
enum class MaskKind {
    Causal,        ///< j <= i (decoder self-attention)
    Bidirectional, ///< every pair (encoder self-attention)
    SlidingWindow, ///< i - W < j <= i: the query and the W - 1 keys before it (Mistral, Gemma local layers)
    LocalWindow,   ///< |i - j| <= W / 2: a bidirectional window (an encoder layer with local attention, ModernBERT)
    Chunked,       ///< floor(i / C) == floor(j / C) and j <= i (Llama 4 chunked local attention)
    PrefixLm,      ///< j < P or j <= i: bidirectional over a prefix of P tokens, causal after it (T5 prefix-LM, UniLM)
    Cross,         ///< every decoder query sees every encoder key (encoder-decoder cross-attention)
    Recurrent,     ///< j <= i folded into a fixed state, no score matrix (Gated DeltaNet, lightning attention, Mamba-2)
    Convolution,   ///< i - K < j <= i through a causal convolution of kernel K, no score matrix (LFM2 short conv)
};

std::string_view toString(MaskKind kind);

/// A mask kind with its span. Units: tokens.
struct MaskSpec {
    MaskKind kind = MaskKind::Causal;
    std::uint64_t span = 0; ///< W for SlidingWindow and LocalWindow, C for Chunked, P for PrefixLm, K for Convolution

    bool operator==(const MaskSpec&) const = default;
};

/// Keys a query attends, as the half-open interval [first, last). Every kind above is an interval
/// whose ends never decrease as the query moves right, which the grid computation relies on.
struct KeyRange {
    std::uint64_t first = 0;
    std::uint64_t last = 0;

    std::uint64_t size() const { return last > first ? last - first : 0; }
};

/// Keys attended by `query` among `keyCount` keys (for Cross, keyCount is the encoder length).
[[nodiscard]] KeyRange attendedKeys(const MaskSpec& mask, std::uint64_t query, std::uint64_t keyCount);
/// Whether `query` attends `key` among `keyCount` keys.
[[nodiscard]] bool attends(const MaskSpec& mask, std::uint64_t query, std::uint64_t key, std::uint64_t keyCount);

/// (query, key) pairs a mask lets through for `queries` queries over `keyCount` keys: the size of the
/// score matrix that is actually computed (none for Recurrent and Convolution). Closed form;
/// saturates at 2^64 - 1. Causal over S tokens: S(S + 1) / 2.
[[nodiscard]] std::uint64_t attendedPairs(const MaskSpec& mask, std::uint64_t queries, std::uint64_t keyCount);

/// A coarse picture of a mask: `cells` x `cells` blocks of `tokensPerCell` x `tokensPerCell` token
/// pairs. coverage(row, column) is the fraction of the block's pairs that attend, in [0, 1], so a
/// window or chunk that does not fall on cell boundaries shows as partly filled cells. Exact up to
/// 1024 tokens per cell (windows up to 8192 at the usual scale); wider cells sample 1024 rows.
struct MaskGrid {
    MaskSpec mask;
    int cells = 0;
    std::uint64_t tokensPerCell = 1;
    std::vector<float> coverage; ///< row-major, query block rows by key block columns

    float at(int row, int column) const {
        return coverage[static_cast<std::size_t>(row) * static_cast<std::size_t>(cells) +
                        static_cast<std::size_t>(column)];
    }
    /// Tokens the grid spans on each axis.
    std::uint64_t tokens() const { return static_cast<std::uint64_t>(cells) * tokensPerCell; }
};

/// Computes the grid; work grows with the cells on a mask boundary, not with the tokens.
[[nodiscard]] MaskGrid maskGrid(const MaskSpec& mask, int cells, std::uint64_t tokensPerCell);

/// The self-attention mask of a planned layer: causal or bidirectional, sliding or chunked by its window.
MaskSpec selfAttentionMask(const LayerPlan& layer);
/// What a layer's token mixer lets each token see: its attention mask, or for a linear-attention or
/// state-space layer every earlier token through its fixed state, or for a short convolution its kernel.
[[nodiscard]] MaskSpec layerMask(const ModelConfig& config, const LayerPlan& layer);

/// A distinct mask used in a model, with the layers that use it.
struct MaskUse {
    MaskSpec mask;
    Stack stack = Stack::Decoder;
    bool cross = false;               ///< the cross-attention of decoder layers
    std::vector<std::int64_t> layers; ///< indices within the stack
    std::string name;                 ///< e.g. "Sliding window W = 4096", "Cross-attention"
};

/// Every distinct mask of the plan (layerMask of each layer), encoder masks first, then decoder
/// self-attention, then cross-attention. Empty for an empty plan.
[[nodiscard]] std::vector<MaskUse> modelMasks(const ModelConfig& config, const ModelPlan& plan);

/// The mask of every kind, for comparison with the model's own: spans follow the model's narrowest
/// window where it has one, else a quarter of the grid (`gridTokens` tokens wide).
[[nodiscard]] std::vector<MaskUse> referenceMasks(const std::vector<MaskUse>& modelMasks, std::uint64_t gridTokens);

/// Tokens per cell that makes a grid of `cells` cells show the narrowest span of `masks` about a
/// quarter of the grid wide: the power of two nearest span / (cells / 4), at least 1. 1 when no mask
/// has a span (every token gets its own cell).
std::uint64_t maskScale(const std::vector<MaskUse>& masks, int cells);

} // namespace archplay::core
