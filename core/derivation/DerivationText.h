// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Text helpers of the derivation; the views use layerList() too.

#include "core/config/ModelConfig.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace archplay::core::derivation {

/// 128256 -> "128{,}256"; numbers below 10000 are written plainly, as in print.
std::string num(std::int64_t value);
/// A width that is a product of config values, as num() writes it; one that overflowed reads
/// "\text{over } 2^{64}" rather than a wrapped number.
std::string num(Checked value);
/// \mathbb{R}^{a \times b}
std::string real(const std::string& rows, const std::string& columns);
std::string real(std::int64_t rows, std::int64_t columns);
std::string real(Checked rows, Checked columns);
/// \mathbb{R}^{T \times n}
std::string realRows(const std::string& rowSymbol, std::int64_t columns);
/// \mathbb{R}^{n}
std::string realVector(std::int64_t size);
std::string realVector(Checked size);

/// 1e-06 -> "10^{-6}", 1.5e-05 -> "1.5 \cdot 10^{-5}", 10000 -> "10{,}000".
std::string scientific(double value);

/// \operatorname{RMSNorm}, \operatorname{LayerNorm} or \operatorname{Norm} (no weights).
std::string normOperator(const ModelConfig& config);
/// \operatorname{SiLU}, \operatorname{GELU}, \operatorname{GELU}_{\tanh}, \operatorname{ReLU} or \phi.
std::string activationOperator(Activation activation);
/// The activation's definition, e.g. "\operatorname{SiLU}(z) = z\,\sigma(z)".
std::string activationDefinition(Activation activation);
/// "SwiGLU", "GeGLU", "ReGLU" or "GLU" for a gated FFN with this activation.
std::string gatedName(Activation activation);

/// Layer indices as compact ranges: "3–60", or "0–4, 6–10, 12–16, …, 24–25" beyond four ranges.
std::string layerList(const std::vector<std::int64_t>& indices);

} // namespace archplay::core::derivation
