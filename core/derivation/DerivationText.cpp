// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/derivation/DerivationText.h"

#include <fmt/format.h>

#include <cmath>

namespace archplay::core::derivation {
namespace {

/// 128256 -> "128{,}256"; below 10000 plainly.
std::string grouped(std::uint64_t magnitude) {
    std::string digits = std::to_string(magnitude);
    if (magnitude < 10000) {
        return digits;
    }
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) {
        digits.insert(static_cast<std::size_t>(i), "{,}");
    }
    return digits;
}

} // namespace

std::string num(std::int64_t value) {
    // The magnitude in unsigned arithmetic: -INT64_MIN does not fit in an int64.
    const std::uint64_t magnitude =
        value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
    return value < 0 ? "-" + grouped(magnitude) : grouped(magnitude);
}

std::string num(Checked value) {
    return value.overflowed() ? std::string("\\text{over } 2^{64}") : grouped(value.value());
}

std::string real(const std::string& rows, const std::string& columns) {
    return "\\mathbb{R}^{" + rows + " \\times " + columns + "}";
}

std::string real(std::int64_t rows, std::int64_t columns) {
    return real(num(rows), num(columns));
}

std::string real(Checked rows, Checked columns) {
    return real(num(rows), num(columns));
}

std::string realRows(const std::string& rowSymbol, std::int64_t columns) {
    return real(rowSymbol, num(columns));
}

std::string realVector(std::int64_t size) {
    return "\\mathbb{R}^{" + num(size) + "}";
}

std::string realVector(Checked size) {
    return "\\mathbb{R}^{" + num(size) + "}";
}

std::string scientific(double value) {
    if (value >= 1.0 && value < 1e15 && std::floor(value) == value) {
        return num(static_cast<std::int64_t>(value));
    }
    if (value <= 0.0 || !std::isfinite(value) || (value >= 1e-3 && value < 1e6)) {
        return fmt::format("{:g}", value);
    }
    const int exponent = static_cast<int>(std::floor(std::log10(value)));
    const double mantissa = value / std::pow(10.0, exponent);
    if (std::abs(mantissa - std::round(mantissa)) < 1e-9 && std::round(mantissa) == 1.0) {
        return fmt::format("10^{{{}}}", exponent);
    }
    return fmt::format("{:g} \\cdot 10^{{{}}}", std::round(mantissa * 1000.0) / 1000.0, exponent);
}

std::string normOperator(const ModelConfig& config) {
    switch (config.normKind) {
    case NormKind::RmsNorm:
        return "\\operatorname{RMSNorm}";
    case NormKind::LayerNorm:
    case NormKind::LayerNormNoBias:
        return "\\operatorname{LayerNorm}";
    case NormKind::NonParametric:
        return "\\operatorname{Norm}";
    }
    return "\\operatorname{Norm}";
}

std::string activationOperator(Activation activation) {
    switch (activation) {
    case Activation::Silu:
        return "\\operatorname{SiLU}";
    case Activation::Gelu:
        return "\\operatorname{GELU}";
    case Activation::GeluTanh:
        return "\\operatorname{GELU}_{\\tanh}";
    case Activation::Relu:
        return "\\operatorname{ReLU}";
    case Activation::XIelu:
        return "\\operatorname{xIELU}";
    case Activation::Other:
        return "\\phi";
    }
    return "\\phi";
}

std::string activationDefinition(Activation activation) {
    switch (activation) {
    case Activation::Silu:
        return "\\operatorname{SiLU}(z) = z\\,\\sigma(z) = \\frac{z}{1 + e^{-z}}";
    case Activation::Gelu:
        return "\\operatorname{GELU}(z) = z\\,\\Phi(z)";
    case Activation::GeluTanh:
        return "\\operatorname{GELU}_{\\tanh}(z) = \\frac{z}{2}\\left(1 + \\tanh\\left(\\sqrt{2/\\pi}\\,"
               "\\left(z + 0.044715\\,z^{3}\\right)\\right)\\right)";
    case Activation::Relu:
        return "\\operatorname{ReLU}(z) = \\max(0, z)";
    case Activation::XIelu:
        return "\\operatorname{xIELU}(z) = \\alpha_p z^{2} + \\beta z \\text{ if } z > 0 \\text{, else } "
               "\\alpha_n (e^{z} - 1 - z) + \\beta z \\text{; } \\alpha_p, \\alpha_n \\text{ trainable per layer}";
    case Activation::Other:
        return "\\phi \\text{ is the configured activation}";
    }
    return {};
}

std::string gatedName(Activation activation) {
    switch (activation) {
    case Activation::Silu:
        return "SwiGLU";
    case Activation::Gelu:
    case Activation::GeluTanh:
        return "GeGLU";
    case Activation::Relu:
        return "ReGLU";
    case Activation::XIelu:
        return "xIELU-GLU";
    case Activation::Other:
        return "GLU";
    }
    return "GLU";
}

std::string layerList(const std::vector<std::int64_t>& indices) {
    std::vector<std::string> ranges;
    std::size_t i = 0;
    while (i < indices.size()) {
        std::size_t j = i;
        while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1) {
            ++j;
        }
        ranges.push_back(j == i ? std::to_string(indices[i]) : fmt::format("{}–{}", indices[i], indices[j]));
        i = j + 1;
    }
    if (ranges.size() <= 4) {
        return fmt::format("{}", fmt::join(ranges, ", "));
    }
    return fmt::format("{}, {}, {}, …, {}", ranges[0], ranges[1], ranges[2], ranges.back());
}

} // namespace archplay::core::derivation
