// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/util/Format.h"

#include "core/util/Checked.h"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <cmath>

namespace archplay::core {
namespace {

/// Three significant digits with a unit from `units`, each `step` times the previous.
std::string scaled(std::uint64_t value, double step, const std::array<const char*, 7>& units, bool spaced) {
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
    return fmt::format("{}{}{}", number, separator, units[unit]);
}

} // namespace

std::string withThousands(std::uint64_t value) {
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
    return scaled(value, 1000.0, {"", "K", "M", "B", "T", "P", "E"}, false);
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
    // The digits without the point as one integer, times 10^exponent, so "1.5B" is exact.
    Checked mantissa;
    bool point = false;
    bool digits = false;
    for (char ch : text) {
        if (ch == '.' && !point) {
            point = true;
        } else if (ch >= '0' && ch <= '9') {
            mantissa = mantissa * 10 + static_cast<std::uint64_t>(ch - '0');
            exponent -= point ? 1 : 0;
            digits = true;
        } else {
            return std::nullopt;
        }
    }
    if (!digits || mantissa.overflowed()) {
        return std::nullopt;
    }
    for (; exponent < 0; ++exponent) {
        if (mantissa.value() % 10 != 0) {
            return std::nullopt;
        }
        mantissa = Checked(mantissa.value() / 10);
    }
    for (; exponent > 0; --exponent) {
        mantissa *= 10;
    }
    if (mantissa.overflowed()) {
        return std::nullopt;
    }
    return mantissa.value();
}

std::string binaryBytes(std::uint64_t bytes) {
    return scaled(bytes, 1024.0, {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}, true);
}

std::string percentText(double fraction, int decimals) {
    const double percent = 100.0 * fraction;
    const double smallest = std::pow(10.0, -decimals);
    if (percent > 0 && percent < smallest) {
        return fmt::format("< {:.{}f}%", smallest, decimals);
    }
    return fmt::format("{:.{}f}%", percent, decimals);
}

double fractionOf(std::uint64_t part, std::uint64_t whole) {
    return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

} // namespace archplay::core
