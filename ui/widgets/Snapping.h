// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/Snapping.h"

#include <QtGlobal>

namespace archplay::ui::widgets {

using core::Snap;
using core::SnapContext;
using core::snapNearest;
using core::snapStep;

/// How a number field reads and shows what people type.
enum class NumberStyle {
    Size,  ///< lengths and widths: K = 1024, M = 2^20 typed ("128k"); shown in full ("131,072")
    Count, ///< counts such as tokens: K, M, B, T = powers of 1000 typed ("15T"); shown so ("15T") when exact
};

/// How a slider maps its travel onto values.
enum class SliderScale { Linear, Logarithmic };

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

} // namespace archplay::ui::widgets
