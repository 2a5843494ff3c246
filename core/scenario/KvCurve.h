// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/LayerPlan.h"
#include "core/config/ModelConfig.h"
#include "core/memory/KvCache.h"
#include "core/scenario/Scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace archplay::core {

/// The KV cache over sequence length at one precision: bytes[i] is kvCache(...).totalBytes at
/// lengths[i]. Units: tokens and bytes.
struct KvCurve {
    DType dtype = DType::BF16;
    std::vector<std::uint64_t> lengths;
    std::vector<std::uint64_t> bytes;
};

/// Sequence lengths to draw a cache curve through: four points per octave from 1 to `maxLength`,
/// plus every window or chunk length of the plan (so the bend where a window stops the growth is
/// exact) and `current`. Sorted, without duplicates.
std::vector<std::uint64_t> kvCurveLengths(const ModelPlan& plan, std::uint64_t maxLength, std::uint64_t current);

/// One precision per element width, with `current` standing for its width (bf16 and fp16, or fp8 and
/// int8, cost the same): fp32, 16-bit, 8-bit, int4, widest first.
std::vector<DType> kvCurveDTypes(DType current);

/// Cache bytes at every length for every precision, each point from kvCache() at the scenario's
/// batch, encoder length and fixed-state precision (FORMULAS.md §4).
[[nodiscard]] std::vector<KvCurve> kvCurves(const ModelConfig& config, const ModelPlan& plan,
                                            const std::vector<std::uint64_t>& lengths, const Scenario& scenario,
                                            const std::vector<DType>& dtypes);

/// A cache the architecture avoids, for comparison.
enum class KvAlternative {
    Uncapped, ///< every sliding or chunked layer made global (no window cap)
    Expanded, ///< every MLA layer caching per-head K and V, as Hugging Face's eager implementation does
};

/// The alternative cache over `lengths` at `dtype`, each point from kvCache() (FORMULAS.md §4.2, §4.3).
[[nodiscard]] KvCurve kvAlternativeCurve(const ModelConfig& config, const ModelPlan& plan,
                                         const std::vector<std::uint64_t>& lengths, const Scenario& scenario,
                                         DType dtype, KvAlternative alternative);

/// The part of one cache that a kind of layer holds.
struct KvKindShare {
    std::string name; ///< "global", "sliding 4096", "latent", "cross-attention"
    LayerAttention attention = LayerAttention::Global;
    bool latent = false;
    bool cross = false; ///< cross-attention K/V of the encoder output
    /// The fixed state of a linear-attention / state-space / convolution mixer: flat over the sequence.
    bool fixedState = false;
    TokenMixer mixer = TokenMixer::Attention;
    std::int64_t layers = 0;                    ///< decoder layers of this kind
    std::uint64_t elementsPerTokenPerLayer = 0; ///< cached elements one token adds to one layer
    std::uint64_t bytesPerTokenPerLayer = 0;    ///< the same in bytes at the report's precision
    std::uint64_t cachedTokens = 0;             ///< tokens a layer holds (window-capped; the encoder length for cross)
    std::uint64_t bytes = 0;                    ///< whole share for the scenario, batch included
};

/// Splits a cache report by layer kind: decoder self-attention grouped by attention kind, window and
/// MLA, one fixed-state share per non-attention mixer, then one cross-attention share. Shares are in plan order; their
/// bytes sum to the report's total up to the rounding of sub-byte precisions.
[[nodiscard]] std::vector<KvKindShare> kvByLayerKind(const ModelPlan& plan, const KvCacheReport& report);

/// What the architecture's cache saves against simpler caches at the same scenario. Units: bytes.
struct KvSavings {
    std::uint64_t totalBytes = 0;    ///< the architecture's own cache (= report.totalBytes)
    std::uint64_t uncappedBytes = 0; ///< the same with every sliding or chunked layer global (no window cap)
    std::uint64_t expandedBytes = 0; ///< the same with MLA layers caching per-head K and V (Hugging Face eager)
    bool windowed = false;           ///< some layer is capped by a window
    bool latent = false;             ///< some layer caches an MLA latent
};

/// Recomputes the scenario's cache without windows and with expanded MLA to show what they save
/// (FORMULAS.md §4.2, §4.3).
[[nodiscard]] KvSavings kvSavings(const ModelConfig& config, const ModelPlan& plan, const Scenario& scenario);

} // namespace archplay::core
