// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/config/DType.h"

#include "core/util/Checked.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace archplay::core {

int bitsOf(DType dtype) {
    switch (dtype) {
    case DType::FP32:
        return 32;
    case DType::FP16:
    case DType::BF16:
        return 16;
    case DType::FP8:
    case DType::INT8:
        return 8;
    case DType::INT4:
        return 4;
    }
    return 16;
}

std::string_view toString(DType dtype) {
    switch (dtype) {
    case DType::FP32:
        return "fp32";
    case DType::FP16:
        return "fp16";
    case DType::BF16:
        return "bf16";
    case DType::FP8:
        return "fp8";
    case DType::INT8:
        return "int8";
    case DType::INT4:
        return "int4";
    }
    return {};
}

std::optional<DType> parseDType(std::string_view name) {
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return std::tolower(ch); });
    for (DType dtype : kAllDTypes) {
        if (toString(dtype) == lower) {
            return dtype;
        }
    }
    return std::nullopt;
}

std::uint64_t bytesFor(std::uint64_t elements, DType dtype) {
    const Checked bits = Checked(elements) * static_cast<std::uint64_t>(bitsOf(dtype));
    if (bits.overflowed()) {
        return UINT64_MAX;
    }
    return bits.value() / 8 + (bits.value() % 8 != 0 ? 1 : 0);
}

} // namespace archplay::core
