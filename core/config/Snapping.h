// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/ModelConfig.h"

#include <cstdint>

namespace archplay::core {

/// Hardware-friendly values: what the sliders snap to while snapping is on, and what the
/// validation hints ask for, from the same rules.
enum class Snap {
    None,
    Multiple16,     ///< head sizes: 64, 80, 96, 128, 256
    Multiple64,     ///< vocabularies padded for tensor cores; FFN widths
    Multiple128,    ///< hidden widths
    PowerOfTwo,     ///< context lengths, windows, expert counts, batch sizes
    DivisorOfHeads, ///< key/value heads, which must divide the query heads
    QueryHeads,     ///< query heads: whole GQA groups, and a whole head_dim when it follows the hidden size
    TwoDigits       ///< counts people round: two significant digits (1.5T, 15T, 360B training tokens)
};

/// The snap of each width the validation hints check, so that a snapped value never draws a hint.
inline constexpr Snap kHiddenSnap = Snap::Multiple128;
inline constexpr Snap kFfnSnap = Snap::Multiple64;
inline constexpr Snap kVocabSnap = Snap::Multiple64;

/// What a snap needs beyond the value: the query heads for DivisorOfHeads; the group size and the
/// hidden size for QueryHeads.
struct SnapContext {
    std::int64_t heads = 1;
    /// QueryHeads are multiples of this: the KV heads of grouped-query attention (so every group
    /// stays whole and the KV heads keep their count), 1 otherwise.
    std::int64_t headGroup = 1;
    /// QueryHeads divide this when head_dim follows hidden_size / heads (so head_dim stays whole);
    /// 0 when head_dim is set on its own.
    std::int64_t hiddenSize = 0;
};

/// The snap context of a config: its heads, its GQA group and, when head_dim follows, its hidden size.
SnapContext snapContext(const ModelConfig& config);

/// The multiple of a Multiple* snap (16, 64, 128); 1 for the others.
std::int64_t multipleOf(Snap snap);
/// True when `value` is one of the snap's values.
bool isSnapped(std::int64_t value, Snap snap, const SnapContext& context = {});
/// The snapped value nearest to `value` within [minimum, maximum] (ties go up).
std::int64_t snapNearest(std::int64_t value, Snap snap, const SnapContext& context, std::int64_t minimum,
                         std::int64_t maximum);
/// The snapped value `steps` snaps away from `value` (negative: downwards), clamped to
/// [minimum, maximum]. A value between two snaps first moves to the next snap in that direction.
std::int64_t snapStep(std::int64_t value, int steps, Snap snap, const SnapContext& context, std::int64_t minimum,
                      std::int64_t maximum);

} // namespace archplay::core
