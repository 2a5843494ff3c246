// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>

namespace archplay::core {

/// An unsigned 64-bit quantity whose arithmetic never wraps: an overflow saturates at the maximum and
/// stays flagged through every later operation, so a result is either exact or visibly overflowed.
class Checked {
public:
    constexpr Checked() = default;
    constexpr Checked(std::uint64_t value)
        : m_value(value) {}

    constexpr std::uint64_t value() const { return m_value; }
    constexpr bool overflowed() const { return m_overflow; }

    friend Checked operator+(Checked a, Checked b) {
        Checked r;
        r.m_overflow = a.m_overflow || b.m_overflow || __builtin_add_overflow(a.m_value, b.m_value, &r.m_value);
        return r.saturate();
    }
    friend Checked operator*(Checked a, Checked b) {
        Checked r;
        r.m_overflow = a.m_overflow || b.m_overflow || __builtin_mul_overflow(a.m_value, b.m_value, &r.m_value);
        return r.saturate();
    }
    /// Difference; an underflow is flagged like an overflow.
    friend Checked operator-(Checked a, Checked b) {
        Checked r;
        r.m_overflow = a.m_overflow || b.m_overflow || __builtin_sub_overflow(a.m_value, b.m_value, &r.m_value);
        return r.saturate();
    }
    Checked& operator+=(Checked other) { return *this = *this + other; }
    Checked& operator*=(Checked other) { return *this = *this * other; }

    friend bool operator==(Checked a, Checked b) = default;

private:
    constexpr Checked saturate() {
        if (m_overflow) {
            m_value = UINT64_MAX;
        }
        return *this;
    }

    std::uint64_t m_value = 0;
    bool m_overflow = false;
};

/// A non-negative size from a config as a Checked value; negative input (already reported by validation) counts as 0.
constexpr Checked dim(std::int64_t value) {
    return Checked(value > 0 ? static_cast<std::uint64_t>(value) : 0);
}

/// A count as a double, for the estimates and rates computed from exact counts (FLOPs, speeds).
constexpr double asDouble(std::uint64_t value) {
    return static_cast<double>(value);
}

/// The whole count a double holds exactly, for the exact texts of figures kept as doubles; nullopt
/// for a fraction, a negative value or one beyond 2^64 - 1.
inline std::optional<std::uint64_t> wholeCount(double value) {
    if (!(value >= 0) || value >= 18446744073709551615.0 || std::floor(value) != value) {
        return std::nullopt;
    }
    return static_cast<std::uint64_t>(value);
}

/// A non-negative estimate (FLOPs kept as a double) rounded to the nearest whole count; overflowed at
/// 2^64 or beyond, and for NaN, where converting the double would be undefined.
inline Checked roundedCount(double value) {
    const double rounded = std::round(value);
    if (rounded >= 0 && rounded < 18446744073709551616.0) {
        return Checked(static_cast<std::uint64_t>(rounded));
    }
    return rounded < 0 ? Checked(0) : Checked(UINT64_MAX) + Checked(1); // NaN compares false: overflowed
}

/// a / b rounded up (blocks of b that hold a); an overflowed `a` stays overflowed, and b = 0 gives `a`.
constexpr Checked ceilDiv(Checked a, std::uint64_t b) {
    if (a.overflowed() || b == 0) {
        return a;
    }
    return Checked(a.value() / b + (a.value() % b != 0 ? 1 : 0));
}

/// factor x value for a size a config.json derives from another (4 x hidden_size): exact, or the int64
/// limit of the product's sign when it does not fit, which validation then reports as too large.
constexpr std::int64_t saturatingProduct(std::int64_t factor, std::int64_t value) {
    std::int64_t result = 0;
    if (__builtin_mul_overflow(factor, value, &result)) {
        return (factor < 0) != (value < 0) ? INT64_MIN : INT64_MAX;
    }
    return result;
}

} // namespace archplay::core
