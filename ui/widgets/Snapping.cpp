// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/Snapping.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace archplay::ui::widgets {

SliderMapping::SliderMapping(qint64 minimum, qint64 maximum, SliderScale scale)
    : m_minimum(minimum)
    , m_maximum(std::max(maximum, minimum))
    , m_scale(scale) {}

int SliderMapping::positions() const {
    if (m_scale == SliderScale::Linear && m_maximum - m_minimum <= kSliderResolution * 10) {
        return int(m_maximum - m_minimum);
    }
    return kSliderResolution;
}

int SliderMapping::position(qint64 value) const {
    value = std::clamp(value, m_minimum, m_maximum);
    const int n = positions();
    if (m_maximum == m_minimum) {
        return 0;
    }
    if (m_scale == SliderScale::Linear) {
        if (n == m_maximum - m_minimum) {
            return int(value - m_minimum);
        }
        return int(std::lround(double(value - m_minimum) / double(m_maximum - m_minimum) * n));
    }
    // Logarithmic: a range from 0 gives 0 the first position and maps the rest from 1.
    const qint64 low = std::max<qint64>(m_minimum, 1);
    if (value < low) {
        return 0;
    }
    const double first = m_minimum < 1 ? 1.0 : 0.0;
    const double span = std::log(double(m_maximum)) - std::log(double(low));
    if (span <= 0) {
        return n;
    }
    const double t = (std::log(double(value)) - std::log(double(low))) / span;
    return int(std::lround(first + t * (n - first)));
}

qint64 SliderMapping::value(int position) const {
    const int n = positions();
    position = std::clamp(position, 0, n);
    if (m_maximum == m_minimum || n == 0) {
        return m_minimum;
    }
    if (m_scale == SliderScale::Linear) {
        if (n == m_maximum - m_minimum) {
            return m_minimum + position;
        }
        return m_minimum + qint64(std::llround(double(position) / n * double(m_maximum - m_minimum)));
    }
    const qint64 low = std::max<qint64>(m_minimum, 1);
    const double first = m_minimum < 1 ? 1.0 : 0.0;
    if (m_minimum < 1 && position == 0) {
        return m_minimum;
    }
    const double t = (position - first) / (n - first);
    const double v = std::exp(std::log(double(low)) + t * (std::log(double(m_maximum)) - std::log(double(low))));
    return std::clamp<qint64>(qint64(std::llround(v)), low, m_maximum);
}

} // namespace archplay::ui::widgets
