// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace archplay::core {

/// Number formats for weights and caches.
enum class DType { FP32, FP16, BF16, FP8, INT8, INT4 };

/// Bits one element occupies.
int bitsOf(DType dtype);
std::string_view toString(DType dtype);
/// Parses "fp32", "fp16", "bf16", "fp8", "int8", "int4" (case-insensitive).
std::optional<DType> parseDType(std::string_view name);
inline constexpr DType kAllDTypes[] = {DType::FP32, DType::FP16, DType::BF16, DType::FP8, DType::INT8, DType::INT4};

/// Bytes of `elements` values at `dtype`, rounded up to whole bytes; saturates at 2^64 - 1.
std::uint64_t bytesFor(std::uint64_t elements, DType dtype);

} // namespace archplay::core
