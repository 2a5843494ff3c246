// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/util/Format.h"

#include "core/util/Checked.h"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <cmath>
#include <string>

namespace archplay::core {
namespace {

/// Three significant digits with a unit from `units`, each `step` times the previous; trailing zeros
/// of the decimals dropped unless `keepZeros`.
std::string scaled(std::uint64_t value, double step, const std::array<const char*, 7>& units, bool spaced,
                   bool keepZeros) {
    const char* separator = spaced ? " " : "";
    if (static_cast<double>(value) < step) {
        return fmt::format("{}{}{}", value, separator, units[0]);
    }
    double scaledValue = static_cast<double>(value);
    std::size_t unit = 0;
    while (scaledValue >= step && unit + 1 < units.size()) {
        scaledValue /= step;
        ++unit;
    }
    auto decimalsFor = [](double v) {
        return v < 10 ? 2 : v < 100 ? 1 : 0;
    };
    std::string number = fmt::format("{:.{}f}", scaledValue, decimalsFor(scaledValue));
    // Rounding can reach the next unit (999.7K prints as "1000"); step up instead.
    if (std::stod(number) >= step && unit + 1 < units.size()) {
        scaledValue /= step;
        ++unit;
        number = fmt::format("{:.{}f}", scaledValue, decimalsFor(scaledValue));
    }
    if (!keepZeros && number.find('.') != std::string::npos) {
        number.erase(number.find_last_not_of('0') + 1);
        if (number.back() == '.') {
            number.pop_back();
        }
    }
    return fmt::format("{}{}{}", number, separator, units[unit]);
}

/// A digit string with an optional decimal part times 10^exponent times `multiplier`, exactly;
/// nullopt when it is malformed, not a whole number or above 2^64 - 1.
std::optional<std::uint64_t> scaledDigits(std::string_view text, int exponent, std::uint64_t multiplier) {
    // The digits without the point as one integer, times 10^exponent, so "1.5B" is exact.
    Checked mantissa;
    bool point = false;
    bool digits = false;
    int decimals = 0;
    for (char ch : text) {
        if (ch == '.' && !point) {
            point = true;
        } else if (ch >= '0' && ch <= '9') {
            mantissa = mantissa * 10 + static_cast<std::uint64_t>(ch - '0');
            decimals += point ? 1 : 0;
            digits = true;
        } else {
            return std::nullopt;
        }
    }
    if (!digits || mantissa.overflowed()) {
        return std::nullopt;
    }
    for (; exponent > 0; --exponent) {
        mantissa *= 10;
    }
    mantissa *= multiplier;
    if (mantissa.overflowed()) {
        return std::nullopt;
    }
    Checked divisor = 1;
    for (int i = 0; i < decimals; ++i) {
        divisor *= 10;
    }
    // Past 19 decimals the divisor exceeds any mantissa: only zero ("0.000…0") is whole.
    if (divisor.overflowed()) {
        return mantissa.value() == 0 ? std::optional<std::uint64_t>(0) : std::nullopt;
    }
    if (mantissa.value() % divisor.value() != 0) {
        return std::nullopt;
    }
    return mantissa.value() / divisor.value();
}

/// Three significant digits of `value` with the SI prefix of its size from `prefixes` (powers of 1000).
std::string siText(double value, const char* const* prefixes, std::size_t count, const char* unit, bool spaced) {
    if (!std::isfinite(value) || value < 0) {
        return fmt::format("— {}", unit);
    }
    std::size_t prefix = 0;
    while (prefix + 1 < count && value >= 999.5) {
        value /= 1000;
        ++prefix;
    }
    const int decimals = value < 9.995 ? 2 : value < 99.95 ? 1 : 0;
    std::string number = fmt::format("{:.{}f}", value, decimals);
    if (number.find('.') != std::string::npos) {
        number.erase(number.find_last_not_of('0') + 1);
        if (number.back() == '.') {
            number.pop_back();
        }
    }
    return fmt::format("{}{}{}{}", number, spaced ? " " : "", prefixes[prefix], unit);
}

constexpr const char* kSiPrefixes[] = {"", "K", "M", "G", "T", "P", "E"};

} // namespace

std::string flopText(double flops) {
    if (std::isfinite(flops) && flops >= 999.5e18) {
        const int exponent = static_cast<int>(std::floor(std::log10(flops)));
        std::string text = fmt::format("{:.2f}e{} FLOP", flops / std::pow(10.0, exponent), exponent);
        return text;
    }
    return siText(flops, kSiPrefixes, std::size(kSiPrefixes), "FLOP", true);
}

std::string flopRateText(double flopsPerSecond) {
    return siText(flopsPerSecond, kSiPrefixes, std::size(kSiPrefixes), "FLOP/s", true);
}

std::string durationText(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0) {
        return "—";
    }
    constexpr double kMinute = 60, kHour = 3600, kDay = 86400, kYear = 365.25 * kDay;
    const auto three = [](double v, const char* unit) {
        const int decimals = v < 9.995 ? 2 : v < 99.95 ? 1 : 0;
        return fmt::format("{:.{}f} {}", v, decimals, unit);
    };
    if (seconds < 1e-3) {
        return three(seconds * 1e6, "µs");
    }
    if (seconds < 1) {
        return three(seconds * 1e3, "ms");
    }
    if (seconds < 2 * kMinute) {
        return three(seconds, "s");
    }
    if (seconds < 2 * kHour) {
        return three(seconds / kMinute, "min");
    }
    if (seconds < 2 * kDay) {
        return three(seconds / kHour, "h");
    }
    if (seconds < 2 * kYear) {
        return three(seconds / kDay, "days");
    }
    if (seconds < 1000 * kYear) {
        return three(seconds / kYear, "years");
    }
    return fmt::format("{:.2e} years", seconds / kYear);
}

std::string tokenRateText(double tokensPerSecond) {
    return siText(tokensPerSecond, kSiPrefixes, 4, " tok/s", false);
}

std::string tokenRateRangeText(double low, double high) {
    const std::string from = tokenRateText(low);
    const std::string to = tokenRateText(high);
    const std::size_t fromUnit = from.find(' ');
    const std::size_t toUnit = to.find(' ');
    // The same unit and the same SI prefix (or none on both): "1.02K-1.12K tok/s", not "1.02K-1.12M".
    const auto prefix = [](const std::string& text, std::size_t unit) {
        const char last = text[unit - 1];
        return std::isdigit(static_cast<unsigned char>(last)) ? '0' : last;
    };
    if (fromUnit != std::string::npos && toUnit != std::string::npos && fromUnit > 0 && toUnit > 0 &&
        from.substr(fromUnit) == to.substr(toUnit) && prefix(from, fromUnit) == prefix(to, toUnit)) {
        return from.substr(0, fromUnit) + "-" + to;
    }
    return from + "-" + to;
}

std::string bandwidthText(double bytesPerSecond) {
    return siText(bytesPerSecond, kSiPrefixes, std::size(kSiPrefixes), "B/s", true);
}

std::string tokenBudgetText(double tokens) {
    constexpr const char* kCounts[] = {"", "K", "M", "B", "T"};
    return siText(tokens, kCounts, std::size(kCounts), "", false);
}

std::optional<std::uint64_t> wholeFigure(double value) {
    // 2^64 is the first double a uint64_t cannot hold.
    if (!std::isfinite(value) || value < 0 || value >= 18446744073709551616.0) {
        return std::nullopt;
    }
    return static_cast<std::uint64_t>(value);
}

std::string withThousands(std::uint64_t value) {
    if (value == kSaturated) {
        return std::string(kBeyondText);
    }
    const std::string digits = std::to_string(value);
    std::string out;
    out.reserve(digits.size() + digits.size() / 3);
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) {
            out.push_back(',');
        }
        out.push_back(digits[i]);
    }
    return out;
}

std::string shortCount(std::uint64_t value) {
    if (value == kSaturated) {
        return std::string(kBeyondText);
    }
    return scaled(value, 1000.0, {"", "K", "M", "B", "T", "P", "E"}, false, false);
}

std::optional<std::uint64_t> parseCount(std::string_view text) {
    int exponent = 0;
    if (!text.empty() && std::isalpha(static_cast<unsigned char>(text.back()))) {
        switch (std::toupper(static_cast<unsigned char>(text.back()))) {
        case 'K':
            exponent = 3;
            break;
        case 'M':
            exponent = 6;
            break;
        case 'B':
        case 'G':
            exponent = 9;
            break;
        case 'T':
            exponent = 12;
            break;
        default:
            return std::nullopt;
        }
        text.remove_suffix(1);
    }
    return scaledDigits(text, exponent, 1);
}

std::string tokenCount(std::uint64_t tokens) {
    constexpr std::uint64_t kKi = 1024;
    if (tokens >= kKi * kKi && tokens % (kKi * kKi) == 0) {
        return fmt::format("{}M", tokens / (kKi * kKi));
    }
    if (tokens >= kKi && tokens % kKi == 0) {
        return fmt::format("{}K", tokens / kKi);
    }
    return withThousands(tokens);
}

std::optional<std::uint64_t> parseSizeCount(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
        text.remove_prefix(1);
    }
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
        text.remove_suffix(1);
    }
    std::uint64_t multiplier = 1;
    if (!text.empty() && (text.back() == 'k' || text.back() == 'K')) {
        multiplier = 1024;
        text.remove_suffix(1);
    } else if (!text.empty() && (text.back() == 'm' || text.back() == 'M')) {
        multiplier = 1024 * 1024;
        text.remove_suffix(1);
    }
    // Thousands separators only in whole numbers and every third digit from the right: "8,192".
    std::string digits(text);
    if (text.find(',') != std::string_view::npos) {
        std::size_t group = 0;
        for (std::size_t i = text.size(); i-- > 0;) {
            if (text[i] != ',') {
                ++group;
            } else if (group != 3) {
                return std::nullopt;
            } else {
                group = 0;
            }
        }
        if (multiplier != 1 || group == 0 || group > 3) {
            return std::nullopt;
        }
        std::erase(digits, ',');
    }
    return scaledDigits(digits, 0, multiplier);
}

std::string binaryBytes(std::uint64_t bytes) {
    if (bytes == kSaturated) {
        return "beyond 16 EiB";
    }
    return scaled(bytes, 1024.0, {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}, true, true);
}

std::string percentText(double fraction) {
    const double percent = 100.0 * fraction;
    if (percent == 0) {
        return "0%";
    }
    if (std::abs(percent) < 0.01) {
        return percent > 0 ? "< 0.01%" : "> -0.01%";
    }
    return fmt::format("{:.{}f}%", percent, std::abs(percent) < 1 ? 2 : 1);
}

double fractionOf(std::uint64_t part, std::uint64_t whole) {
    return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

} // namespace archplay::core
