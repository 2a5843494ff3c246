// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/Snapping.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace archplay::ui {

namespace {

qint64 multipleOf(Snap snap) {
    switch (snap) {
    case Snap::Multiple16:
        return 16;
    case Snap::Multiple64:
        return 64;
    case Snap::Multiple128:
        return 128;
    default:
        return 1;
    }
}

/// The candidate values of a snap that are not a plain multiple, ascending, within bounds.
std::vector<qint64> candidates(Snap snap, const SnapContext& context, qint64 minimum, qint64 maximum) {
    std::vector<qint64> values;
    if (snap == Snap::PowerOfTwo) {
        for (qint64 v = 1; v > 0 && v <= maximum; v *= 2) {
            if (v >= minimum) {
                values.push_back(v);
            }
        }
    } else if (snap == Snap::DivisorOfHeads) {
        const qint64 heads = std::max<qint64>(1, context.heads);
        for (qint64 d = 1; d <= heads; ++d) {
            if (heads % d == 0 && d >= minimum && d <= maximum) {
                values.push_back(d);
            }
        }
    }
    if (minimum <= 0 && (values.empty() || values.front() > 0) && minimum <= maximum) {
        values.insert(values.begin(), std::max<qint64>(minimum, 0));
    }
    return values;
}

} // namespace

qint64 snapNearest(qint64 value, Snap snap, const SnapContext& context, qint64 minimum, qint64 maximum) {
    value = std::clamp(value, minimum, maximum);
    if (snap == Snap::None) {
        return value;
    }
    if (snap == Snap::PowerOfTwo || snap == Snap::DivisorOfHeads) {
        const auto values = candidates(snap, context, minimum, maximum);
        if (values.empty()) {
            return value;
        }
        qint64 best = values.front();
        for (qint64 candidate : values) {
            // Powers of two are compared on a log scale, so 2800 snaps to 2048 and 3000 to 4096.
            const double distance = snap == Snap::PowerOfTwo && candidate > 0 && value > 0
                                        ? std::abs(std::log2(double(candidate)) - std::log2(double(value)))
                                        : std::abs(double(candidate - value));
            const double bestDistance = snap == Snap::PowerOfTwo && best > 0 && value > 0
                                            ? std::abs(std::log2(double(best)) - std::log2(double(value)))
                                            : std::abs(double(best - value));
            if (distance <= bestDistance) {
                best = candidate;
            }
        }
        return best;
    }
    const qint64 m = multipleOf(snap);
    qint64 snapped = ((value + m / 2) / m) * m;
    if (snapped < minimum) {
        snapped += m;
    }
    if (snapped > maximum) {
        snapped -= m;
    }
    return snapped >= minimum && snapped <= maximum ? snapped : value;
}

qint64 snapStep(qint64 value, int steps, Snap snap, const SnapContext& context, qint64 minimum, qint64 maximum) {
    if (steps == 0) {
        return std::clamp(value, minimum, maximum);
    }
    if (snap == Snap::None) {
        return std::clamp(value + steps, minimum, maximum);
    }
    if (snap == Snap::PowerOfTwo || snap == Snap::DivisorOfHeads) {
        const auto values = candidates(snap, context, minimum, maximum);
        if (values.empty()) {
            return std::clamp(value + steps, minimum, maximum);
        }
        qint64 current = value;
        for (int i = 0; i < std::abs(steps); ++i) {
            if (steps > 0) {
                auto it = std::upper_bound(values.begin(), values.end(), current);
                current = it == values.end() ? values.back() : *it;
            } else {
                auto it = std::lower_bound(values.begin(), values.end(), current);
                current = it == values.begin() ? values.front() : *std::prev(it);
            }
        }
        return current;
    }
    const qint64 m = multipleOf(snap);
    qint64 current = value;
    for (int i = 0; i < std::abs(steps); ++i) {
        if (steps > 0) {
            current = (current / m + 1) * m;
        } else {
            current = current % m == 0 ? current - m : (current / m) * m;
        }
    }
    if (current > maximum) {
        current = maximum - maximum % m;
    }
    if (current < minimum) {
        current = minimum % m == 0 ? minimum : (minimum / m + 1) * m;
    }
    return std::clamp(current, minimum, maximum);
}

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

} // namespace archplay::ui
