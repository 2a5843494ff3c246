// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace archplay::core {

/// What a saturating sum or product holds when the true figure is beyond 2^64 - 1 (a cache of 2^62
/// tokens x 2^40 sequences): never a size or a count. withThousands(), shortCount() and
/// binaryBytes() print it as "beyond 2^64 - 1" (bytes: "beyond 16 EiB"), figureJson() as null.
inline constexpr std::uint64_t kSaturated = UINT64_MAX;
/// The text every surface shows for kSaturated.
inline constexpr std::string_view kBeyondText = "beyond 2^64 - 1";
/// A count or size held as a double (a zoo column, a plot) back as an integer: nullopt when it is not
/// finite, negative or beyond 2^64 - 1 (the conversion would be undefined behaviour).
[[nodiscard]] std::optional<std::uint64_t> wholeFigure(double value);

/// 8030261248 -> "8,030,261,248".
std::string withThousands(std::uint64_t value);
/// Parameter-style count with a unit, three significant digits without trailing zeros: 8030261248 ->
/// "8.03B", 124439808 -> "124M", 13015864320 -> "13B", 2500000 -> "2.5M", 999 -> "999". Powers of 1000.
std::string shortCount(std::uint64_t value);
/// A number of tokens (a context length, a window, a sequence length) as people write it: a whole
/// number of 2^20 in M, of 1024 in K, any other count in full: 8192 -> "8K", 131072 -> "128K",
/// 1048576 -> "1M", 4000 -> "4,000", 512 -> "512".
std::string tokenCount(std::uint64_t tokens);
/// Reads a size or length as a user types it into a field: digits, optionally with thousands
/// separators ("8,192"), or a number with the suffix K (2^10) or M (2^20), any case, as tokenCount()
/// writes it: "8K" -> 8192, "128k" -> 131072, "1.5M" -> 1572864. nullopt when malformed, when the
/// value is not a whole number ("1.0001K") or above 2^64 - 1.
[[nodiscard]] std::optional<std::uint64_t> parseSizeCount(std::string_view text);
/// Reads a count written as shortCount() writes it, or in full: digits with an optional decimal part
/// and an optional suffix K, M, B (or G) or T, powers of 1000, any case: "7B" -> 7000000000,
/// "1.5B" -> 1500000000, "350M", "7000000000". nullopt when malformed, when the value is not a whole
/// number ("1.5" with no suffix) or above 2^64 - 1.
[[nodiscard]] std::optional<std::uint64_t> parseCount(std::string_view text);
/// A fraction as archplay prints percentages everywhere (the window, the CLI, every export): one
/// decimal, two below 1% where one would round small shares away, "< 0.01%" below that, and "0%"
/// for nothing: 1.0 / 3 -> "33.3%", 1 -> "100.0%", 0.0039 -> "0.39%", 2.6e-8 -> "< 0.01%".
std::string percentText(double fraction);
/// part / whole, 0 when whole is 0: percentText(fractionOf(part, whole)).
double fractionOf(std::uint64_t part, std::uint64_t whole);
/// A byte size in archplay's one byte-unit convention, binary units labelled as such, in the window,
/// the CLI and every export (device memory included): 131072 -> "128 KiB", 2147483648 -> "2.00 GiB".
std::string binaryBytes(std::uint64_t bytes);

/// A number of floating-point operations, three significant digits with an SI prefix up to exa, in
/// scientific notation above: 1.61e10 -> "16.1 GFLOP", 6.3e23 -> "6.30e23 FLOP".
std::string flopText(double flops);
/// A throughput in FLOP/s: 9.894e14 -> "989 TFLOP/s".
std::string flopRateText(double flopsPerSecond);
/// A duration as people read it: "850 µs", "12.3 ms", "4.52 s", "3.4 min", "5.1 h", "41 days", "2.3 years".
std::string durationText(double seconds);
/// Tokens per second: "215 tok/s", "12.3K tok/s".
std::string tokenRateText(double tokensPerSecond);
/// A range of rates, the unit once when both ends share it: "436-478 tok/s", "980 tok/s-1.07K tok/s".
std::string tokenRateRangeText(double low, double high);
/// A memory bandwidth in the vendors' decimal units: 3.35e12 -> "3.35 TB/s", 9.36e11 -> "936 GB/s".
std::string bandwidthText(double bytesPerSecond);
/// A count of tokens for training budgets, powers of 1000: 1.4e12 -> "1.4T", 2.02e10 -> "20.2B".
std::string tokenBudgetText(double tokens);

} // namespace archplay::core
