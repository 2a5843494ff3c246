// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

namespace archplay::core {

/// 8030261248 -> "8,030,261,248".
std::string withThousands(std::uint64_t value);
/// Parameter-style count with a unit: 8030261248 -> "8.03B", 124439808 -> "124M", 999 -> "999".
std::string shortCount(std::uint64_t value);
/// Binary byte size: 131072 -> "128 KiB", 2147483648 -> "2.00 GiB".
std::string binaryBytes(std::uint64_t bytes);
/// Decimal byte size: 16060522496 -> "16.06 GB".
std::string decimalBytes(std::uint64_t bytes);

} // namespace archplay::core
