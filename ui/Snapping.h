// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

namespace archplay::ui {

/// Hardware-friendly values a field snaps to while snapping is on.
enum class Snap {
    None,
    Multiple16,    ///< head sizes: 64, 80, 96, 128, 256
    Multiple64,    ///< vocabularies padded for tensor cores
    Multiple128,   ///< hidden and FFN widths
    PowerOfTwo,    ///< context lengths, windows, expert counts, batch sizes
    DivisorOfHeads ///< key/value heads, which must divide the query heads
};

/// How a slider maps its travel onto values.
enum class SliderScale { Linear, Logarithmic };

/// What a snap needs beyond the value: the query heads for DivisorOfHeads.
struct SnapContext {
    qint64 heads = 1;
};

/// The snapped value nearest to `value` within [minimum, maximum] (ties go up).
qint64 snapNearest(qint64 value, Snap snap, const SnapContext& context, qint64 minimum, qint64 maximum);

/// The snapped value `steps` snaps away from `value` (negative: downwards), clamped to
/// [minimum, maximum]. A value between two snaps first moves to the next snap in that direction.
qint64 snapStep(qint64 value, int steps, Snap snap, const SnapContext& context, qint64 minimum, qint64 maximum);

/// Positions a slider has when its range is too wide to give every value its own position.
inline constexpr int kSliderResolution = 1000;

/// Maps values in [minimum, maximum] onto slider positions and back. Logarithmic scales use
/// kSliderResolution positions; a logarithmic range starting at 0 keeps position 0 for the value 0.
class SliderMapping {
public:
    SliderMapping() = default;
    SliderMapping(qint64 minimum, qint64 maximum, SliderScale scale);

    int positions() const; ///< the slider's maximum position (its minimum is 0)
    int position(qint64 value) const;
    qint64 value(int position) const;

    qint64 minimum() const { return m_minimum; }
    qint64 maximum() const { return m_maximum; }
    SliderScale scale() const { return m_scale; }

private:
    qint64 m_minimum = 0;
    qint64 m_maximum = 1;
    SliderScale m_scale = SliderScale::Linear;
};

} // namespace archplay::ui
