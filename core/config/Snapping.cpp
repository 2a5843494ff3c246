// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/config/Snapping.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace archplay::core {

std::int64_t multipleOf(Snap snap) {
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

namespace {

/// The candidate values of a snap that are not a plain multiple, ascending, within bounds.
std::vector<std::int64_t> candidates(Snap snap, const SnapContext& context, std::int64_t minimum,
                                     std::int64_t maximum) {
    std::vector<std::int64_t> values;
    if (snap == Snap::PowerOfTwo) {
        for (std::int64_t v = 1; v > 0 && v <= maximum; v *= 2) {
            if (v >= minimum) {
                values.push_back(v);
            }
        }
    } else if (snap == Snap::DivisorOfHeads) {
        const std::int64_t heads = std::max<std::int64_t>(1, context.heads);
        for (std::int64_t d = 1; d <= heads; ++d) {
            if (heads % d == 0 && d >= minimum && d <= maximum) {
                values.push_back(d);
            }
        }
    } else if (snap == Snap::QueryHeads) {
        const std::int64_t group = std::max<std::int64_t>(1, context.headGroup);
        for (const bool wholeHeadDim : {true, false}) {
            for (std::int64_t h = group * std::max<std::int64_t>(1, (minimum + group - 1) / group); h <= maximum;
                 h += group) {
                if (!wholeHeadDim || context.hiddenSize <= 0 || context.hiddenSize % h == 0) {
                    values.push_back(h);
                }
            }
            // A hidden size no multiple of the group divides: whole groups are what is left to keep.
            if (!values.empty()) {
                break;
            }
        }
    } else if (snap == Snap::TwoDigits) {
        // 1 to 99, then every two-digit mantissa times a power of ten: 100, 110, ..., 990, 1000, 1100...
        for (std::int64_t scale = 1; scale > 0; scale = scale <= maximum / 10 ? scale * 10 : 0) {
            for (std::int64_t digits = scale == 1 ? 1 : 10; digits <= 99; ++digits) {
                if (digits > maximum / scale) {
                    break;
                }
                const std::int64_t v = digits * scale;
                if (v >= minimum) {
                    values.push_back(v);
                }
            }
        }
    }
    if (minimum <= 0 && (values.empty() || values.front() > 0) && minimum <= maximum) {
        values.insert(values.begin(), std::max<std::int64_t>(minimum, 0));
    }
    return values;
}

} // namespace

std::int64_t snapNearest(std::int64_t value, Snap snap, const SnapContext& context, std::int64_t minimum,
                         std::int64_t maximum) {
    value = std::clamp(value, minimum, maximum);
    if (snap == Snap::None) {
        return value;
    }
    if (snap != Snap::Multiple16 && snap != Snap::Multiple64 && snap != Snap::Multiple128) {
        const auto values = candidates(snap, context, minimum, maximum);
        if (values.empty()) {
            return value;
        }
        // Powers of two are compared on a log scale, so 2800 snaps to 2048 and 3000 to 4096.
        const bool logScale = snap == Snap::PowerOfTwo;
        std::int64_t best = values.front();
        for (std::int64_t candidate : values) {
            const double distance = logScale && candidate > 0 && value > 0
                                        ? std::abs(std::log2(double(candidate)) - std::log2(double(value)))
                                        : std::abs(double(candidate - value));
            const double bestDistance = logScale && best > 0 && value > 0
                                            ? std::abs(std::log2(double(best)) - std::log2(double(value)))
                                            : std::abs(double(best - value));
            if (distance <= bestDistance) {
                best = candidate;
            }
        }
        return best;
    }
    const std::int64_t m = multipleOf(snap);
    std::int64_t snapped = ((value + m / 2) / m) * m;
    if (snapped < minimum) {
        snapped += m;
    }
    if (snapped > maximum) {
        snapped -= m;
    }
    return snapped >= minimum && snapped <= maximum ? snapped : value;
}

std::int64_t snapStep(std::int64_t value, int steps, Snap snap, const SnapContext& context, std::int64_t minimum,
                      std::int64_t maximum) {
    if (steps == 0) {
        return std::clamp(value, minimum, maximum);
    }
    if (snap == Snap::None) {
        return std::clamp(value + steps, minimum, maximum);
    }
    if (snap != Snap::Multiple16 && snap != Snap::Multiple64 && snap != Snap::Multiple128) {
        const auto values = candidates(snap, context, minimum, maximum);
        if (values.empty()) {
            return std::clamp(value + steps, minimum, maximum);
        }
        std::int64_t current = value;
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
    const std::int64_t m = multipleOf(snap);
    std::int64_t current = value;
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

bool isSnapped(std::int64_t value, Snap snap, const SnapContext& context) {
    switch (snap) {
    case Snap::None:
        return true;
    case Snap::PowerOfTwo:
        return value > 0 && (value & (value - 1)) == 0;
    case Snap::DivisorOfHeads:
        return value > 0 && context.heads % value == 0;
    case Snap::QueryHeads:
        return value > 0 && value % std::max<std::int64_t>(1, context.headGroup) == 0 &&
               (context.hiddenSize <= 0 || context.hiddenSize % value == 0);
    case Snap::TwoDigits: {
        if (value <= 0) {
            return false;
        }
        while (value >= 100 && value % 10 == 0) {
            value /= 10;
        }
        return value < 100;
    }
    default:
        return value % multipleOf(snap) == 0;
    }
}

SnapContext snapContext(const ModelConfig& config) {
    SnapContext context;
    context.heads = config.numHeads;
    context.headGroup =
        attentionFamily(config) == AttentionFamily::GQA ? std::max<std::int64_t>(1, config.numKvHeads) : 1;
    context.hiddenSize = config.headDim || !config.readsHeadDim() ? 0 : config.hiddenSize;
    return context;
}

} // namespace archplay::core
