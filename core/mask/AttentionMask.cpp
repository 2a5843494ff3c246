// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/mask/AttentionMask.h"

#include "core/util/Checked.h"

#include <algorithm>
#include <cmath>

namespace archplay::core {
namespace {

/// Rows of a boundary cell counted one by one; wider cells (windows beyond 8192 tokens) are sampled.
constexpr std::uint64_t kExactRows = 1024;

/// n (n + 1) / 2, halving the even factor first so that the product only overflows when the result does.
Checked triangle(std::uint64_t n) {
    return n % 2 == 0 ? Checked(n / 2) * Checked(n + 1) : Checked(n) * Checked((n + 1) / 2);
}

/// Sum over q = 0 .. queries-1 of min(q + 1, cap): the keys of causal queries capped at `cap`.
Checked sumCapped(std::uint64_t queries, std::uint64_t cap) {
    if (queries <= cap) {
        return triangle(queries);
    }
    return triangle(cap) + Checked(queries - cap) * Checked(cap);
}

std::string spanName(const char* prefix, std::uint64_t span) {
    return prefix + std::to_string(span);
}

std::string maskName(const MaskSpec& mask) {
    switch (mask.kind) {
    case MaskKind::Causal:
        return "Causal";
    case MaskKind::Bidirectional:
        return "Bidirectional";
    case MaskKind::SlidingWindow:
        return spanName("Sliding window W = ", mask.span);
    case MaskKind::LocalWindow:
        return spanName("Local window W = ", mask.span);
    case MaskKind::Chunked:
        return spanName("Chunked C = ", mask.span);
    case MaskKind::PrefixLm:
        return spanName("Prefix-LM P = ", mask.span);
    case MaskKind::Cross:
        return "Cross-attention";
    case MaskKind::Recurrent:
        return "Fixed state";
    case MaskKind::Convolution:
        return spanName("Short convolution K = ", mask.span);
    }
    return {};
}

} // namespace

std::string_view toString(MaskKind kind) {
    switch (kind) {
    case MaskKind::Causal:
        return "causal";
    case MaskKind::Bidirectional:
        return "bidirectional";
    case MaskKind::SlidingWindow:
        return "sliding window";
    case MaskKind::LocalWindow:
        return "local window";
    case MaskKind::Chunked:
        return "chunked";
    case MaskKind::PrefixLm:
        return "prefix-LM";
    case MaskKind::Cross:
        return "cross-attention";
    case MaskKind::Recurrent:
        return "recurrent";
    case MaskKind::Convolution:
        return "convolution";
    }
    return {};
}

KeyRange attendedKeys(const MaskSpec& mask, std::uint64_t query, std::uint64_t keyCount) {
    const std::uint64_t causalEnd = std::min(query + 1, keyCount);
    KeyRange range{0, causalEnd};
    switch (mask.kind) {
    case MaskKind::Causal:
    case MaskKind::Recurrent:
        break;
    case MaskKind::Bidirectional:
    case MaskKind::Cross:
        range.last = keyCount;
        break;
    case MaskKind::SlidingWindow:
    case MaskKind::Convolution:
        if (mask.span > 0 && query + 1 > mask.span) {
            range.first = query + 1 - mask.span;
        }
        break;
    case MaskKind::LocalWindow:
        if (mask.span == 0) {
            range.last = keyCount;
            break;
        }
        range.first = query > mask.span / 2 ? query - mask.span / 2 : 0;
        range.last = std::min(keyCount, query + mask.span / 2 + 1);
        break;
    case MaskKind::Chunked:
        if (mask.span > 0) {
            range.first = query / mask.span * mask.span;
        }
        break;
    case MaskKind::PrefixLm:
        range.last = std::min(keyCount, std::max(mask.span, query + 1));
        break;
    }
    range.first = std::min(range.first, range.last);
    return range;
}

bool attends(const MaskSpec& mask, std::uint64_t query, std::uint64_t key, std::uint64_t keyCount) {
    const KeyRange range = attendedKeys(mask, query, keyCount);
    return key >= range.first && key < range.last;
}

std::uint64_t attendedPairs(const MaskSpec& mask, std::uint64_t queries, std::uint64_t keyCount) {
    switch (mask.kind) {
    case MaskKind::Recurrent:
    case MaskKind::Convolution:
        return 0;
    case MaskKind::Bidirectional:
    case MaskKind::Cross:
        return (Checked(queries) * Checked(keyCount)).value();
    case MaskKind::Causal:
        return sumCapped(queries, keyCount).value();
    case MaskKind::SlidingWindow:
        return sumCapped(queries, mask.span > 0 ? std::min(mask.span, keyCount) : keyCount).value();
    case MaskKind::Chunked: {
        if (mask.span == 0) {
            return sumCapped(queries, keyCount).value();
        }
        // Each whole chunk is a causal triangle; queries past the keys see no more than keyCount.
        const std::uint64_t inKeys = std::min(queries, keyCount);
        const Checked whole = Checked(inKeys / mask.span) * sumCapped(mask.span, mask.span);
        return (whole + sumCapped(inKeys % mask.span, mask.span)).value();
    }
    case MaskKind::PrefixLm: {
        const std::uint64_t prefix = std::min(mask.span, queries);
        const Checked inPrefix = Checked(prefix) * Checked(std::min(mask.span, keyCount));
        // Queries from the prefix on are causal: their counts are the causal ones past the prefix.
        const Checked after = sumCapped(queries, keyCount) - sumCapped(prefix, keyCount);
        return (inPrefix + after).value();
    }
    case MaskKind::LocalWindow: {
        if (mask.span == 0) {
            return (Checked(queries) * Checked(keyCount)).value();
        }
        // Query q sees [max(0, q - h), min(n, q + h + 1)): sum the two ends separately.
        const std::uint64_t half = mask.span / 2;
        const Checked ends = sumCapped(queries + half, keyCount) - sumCapped(half, keyCount);
        const Checked starts = queries > half + 1 ? triangle(queries - half - 1) : Checked(0);
        return (ends - starts).value();
    }
    }
    return 0;
}

MaskGrid maskGrid(const MaskSpec& mask, int cells, std::uint64_t tokensPerCell) {
    MaskGrid grid;
    grid.mask = mask;
    grid.cells = std::max(cells, 0);
    grid.tokensPerCell = std::max<std::uint64_t>(tokensPerCell, 1);
    grid.coverage.assign(static_cast<std::size_t>(grid.cells) * static_cast<std::size_t>(grid.cells), 0.0F);
    const std::uint64_t t = grid.tokensPerCell;
    const std::uint64_t keyCount = grid.tokens();
    const double pairsPerCell = static_cast<double>(t) * static_cast<double>(t);
    for (int row = 0; row < grid.cells; ++row) {
        const std::uint64_t q0 = static_cast<std::uint64_t>(row) * t;
        const std::uint64_t q1 = q0 + t;
        const KeyRange top = attendedKeys(mask, q0, keyCount);
        const KeyRange bottom = attendedKeys(mask, q1 - 1, keyCount);
        for (int column = 0; column < grid.cells; ++column) {
            const std::uint64_t k0 = static_cast<std::uint64_t>(column) * t;
            const std::uint64_t k1 = k0 + t;
            float& cell = grid.coverage[static_cast<std::size_t>(row) * static_cast<std::size_t>(grid.cells) +
                                        static_cast<std::size_t>(column)];
            // Both ends of the key range never decrease down the rows, so the block's first and last
            // rows bound every row in between.
            if (bottom.first <= k0 && top.last >= k1) {
                cell = 1.0F;
            } else if (bottom.last <= k0 || top.first >= k1) {
                cell = 0.0F;
            } else {
                // Exact up to kExactRows rows per cell; beyond, every step-th row stands for its step.
                const std::uint64_t step = t > kExactRows ? t / kExactRows : 1;
                double pairs = 0;
                for (std::uint64_t q = q0 + step / 2; q < q1; q += step) {
                    const KeyRange range = attendedKeys(mask, q, keyCount);
                    const std::uint64_t lo = std::max(range.first, k0);
                    const std::uint64_t hi = std::min(range.last, k1);
                    pairs += hi > lo ? static_cast<double>(hi - lo) * static_cast<double>(step) : 0.0;
                }
                cell = static_cast<float>(std::min(1.0, pairs / pairsPerCell));
            }
        }
    }
    return grid;
}

MaskSpec selfAttentionMask(const LayerPlan& layer) {
    const std::uint64_t window = layer.window > 0 ? static_cast<std::uint64_t>(layer.window) : 0;
    if (layer.attention == LayerAttention::Sliding && window > 0) {
        return {layer.causal ? MaskKind::SlidingWindow : MaskKind::LocalWindow, window};
    }
    if (layer.attention == LayerAttention::Chunked && window > 0) {
        return {layer.causal ? MaskKind::Chunked : MaskKind::LocalWindow, window};
    }
    return {layer.causal ? MaskKind::Causal : MaskKind::Bidirectional, 0};
}

MaskSpec layerMask(const ModelConfig& config, const LayerPlan& layer) {
    switch (layer.mixer) {
    case TokenMixer::Attention:
    case TokenMixer::AttentionWithMamba2:
        return selfAttentionMask(layer);
    case TokenMixer::GatedDeltaNet:
    case TokenMixer::LightningAttention:
    case TokenMixer::Mamba2:
    case TokenMixer::Mamba:
        return {MaskKind::Recurrent, 0};
    case TokenMixer::ShortConv:
        return {MaskKind::Convolution, static_cast<std::uint64_t>(std::max<std::int64_t>(config.shortConv.kernel, 0))};
    }
    return selfAttentionMask(layer);
}

std::vector<MaskUse> modelMasks(const ModelConfig& config, const ModelPlan& plan) {
    std::vector<MaskUse> self;
    MaskUse cross{{MaskKind::Cross, 0}, Stack::Decoder, true, {}, maskName({MaskKind::Cross, 0})};
    for (const LayerPlan& layer : plan.layers) {
        const MaskSpec mask = layerMask(config, layer);
        auto found = std::find_if(self.begin(), self.end(),
                                  [&](const MaskUse& use) { return use.stack == layer.stack && use.mask == mask; });
        if (found == self.end()) {
            // A recurrent layer is named for its mixer ("Gated DeltaNet · fixed state").
            std::string name = mask.kind == MaskKind::Recurrent ? std::string(mixerName(layer.mixer)) + " · fixed state"
                                                                : maskName(mask);
            self.push_back({mask, layer.stack, false, {}, std::move(name)});
            found = std::prev(self.end());
        }
        found->layers.push_back(layer.index);
        if (layer.crossAttention) {
            cross.layers.push_back(layer.index);
        }
    }
    std::stable_sort(self.begin(), self.end(), [](const MaskUse& a, const MaskUse& b) {
        return a.stack == Stack::Encoder && b.stack == Stack::Decoder;
    });
    if (!cross.layers.empty()) {
        self.push_back(std::move(cross));
    }
    return self;
}

std::vector<MaskUse> referenceMasks(const std::vector<MaskUse>& masks, std::uint64_t gridTokens) {
    std::uint64_t span = 0;
    for (const MaskUse& use : masks) {
        if (use.mask.kind != MaskKind::Convolution && use.mask.span > 0 && (span == 0 || use.mask.span < span)) {
            span = use.mask.span;
        }
    }
    if (span == 0 || span >= gridTokens) {
        span = std::max<std::uint64_t>(gridTokens / 4, 1);
    }
    const std::uint64_t prefix = std::max<std::uint64_t>(gridTokens * 3 / 8, 1);
    std::vector<MaskUse> result;
    for (const MaskSpec mask :
         {MaskSpec{MaskKind::Causal, 0}, MaskSpec{MaskKind::Bidirectional, 0}, MaskSpec{MaskKind::SlidingWindow, span},
          MaskSpec{MaskKind::Chunked, span}, MaskSpec{MaskKind::PrefixLm, prefix}, MaskSpec{MaskKind::Cross, 0}}) {
        result.push_back({mask,
                          mask.kind == MaskKind::Bidirectional ? Stack::Encoder : Stack::Decoder,
                          mask.kind == MaskKind::Cross,
                          {},
                          maskName(mask)});
    }
    return result;
}

std::uint64_t maskScale(const std::vector<MaskUse>& masks, int cells) {
    std::uint64_t span = 0;
    for (const MaskUse& use : masks) {
        const bool windowed = use.mask.kind != MaskKind::PrefixLm && use.mask.kind != MaskKind::Convolution;
        if (windowed && use.mask.span > 0 && (span == 0 || use.mask.span < span)) {
            span = use.mask.span;
        }
    }
    if (span == 0 || cells < 4) {
        return 1;
    }
    const double perCell = static_cast<double>(span) / (cells / 4.0);
    if (perCell <= 1.0) {
        return 1;
    }
    const double exponent = std::min(std::round(std::log2(perCell)), 62.0);
    return std::uint64_t{1} << static_cast<unsigned>(exponent);
}

} // namespace archplay::core
