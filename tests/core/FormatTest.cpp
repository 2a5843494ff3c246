// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/util/Format.h"

#include "core/report/Summary.h"

#include <gtest/gtest.h>

namespace archplay::core {
namespace {

TEST(Format, Thousands) {
    EXPECT_EQ(withThousands(0), "0");
    EXPECT_EQ(withThousands(999), "999");
    EXPECT_EQ(withThousands(1000), "1,000");
    EXPECT_EQ(withThousands(8030261248), "8,030,261,248");
    EXPECT_EQ(withThousands(UINT64_MAX - 1), "18,446,744,073,709,551,614");
}

// A saturated figure is never printed as a size or a count, on any surface that formats it here.
TEST(Format, ASaturatedFigureIsBeyondNotANumber) {
    EXPECT_EQ(withThousands(kSaturated), "beyond 2^64 - 1");
    EXPECT_EQ(shortCount(kSaturated), "beyond 2^64 - 1");
    EXPECT_EQ(binaryBytes(kSaturated), "beyond 16 EiB");
    // A double of 2^64 (a zoo column) is not converted: that would be undefined behaviour.
    EXPECT_EQ(wholeFigure(18446744073709551616.0), std::nullopt);
    EXPECT_EQ(wholeFigure(-1.0), std::nullopt);
    EXPECT_EQ(wholeFigure(1e300), std::nullopt);
    EXPECT_EQ(wholeFigure(8030261248.0), std::uint64_t{8030261248});
}

TEST(Format, ShortCounts) {
    EXPECT_EQ(shortCount(999), "999");
    EXPECT_EQ(shortCount(124439808), "124M");
    EXPECT_EQ(shortCount(8030261248), "8.03B");
    EXPECT_EQ(shortCount(46702792704), "46.7B");
    EXPECT_EQ(shortCount(999'999), "1M"); // rounding carries into the next unit
    // One style: three significant digits, no trailing zeros ("13B", never "13.0B").
    EXPECT_EQ(shortCount(13'015'864'320), "13B");
    EXPECT_EQ(shortCount(2'500'000), "2.5M");
    EXPECT_EQ(shortCount(3'212'749'824), "3.21B");
    EXPECT_EQ(shortCount(109'482'240), "109M");
}

TEST(Format, TokenCountsAsPeopleWriteContextLengths) {
    EXPECT_EQ(tokenCount(8192), "8K");
    EXPECT_EQ(tokenCount(131072), "128K");
    EXPECT_EQ(tokenCount(163840), "160K");
    EXPECT_EQ(tokenCount(1048576), "1M");
    EXPECT_EQ(tokenCount(10485760), "10M");
    EXPECT_EQ(tokenCount(1536), "1,536"); // not a whole K: in full
    EXPECT_EQ(tokenCount(4000), "4,000");
    EXPECT_EQ(tokenCount(512), "512");
    EXPECT_EQ(tokenCount(0), "0");
}

TEST(Format, ParsesSizesAsTyped) {
    EXPECT_EQ(parseSizeCount("128k"), 131072u);
    EXPECT_EQ(parseSizeCount("128K"), 131072u);
    EXPECT_EQ(parseSizeCount("1.5M"), 1572864u);
    EXPECT_EQ(parseSizeCount("1.5k"), 1536u);
    EXPECT_EQ(parseSizeCount("8,192"), 8192u);
    EXPECT_EQ(parseSizeCount("1,048,576"), 1048576u);
    EXPECT_EQ(parseSizeCount(" 4096 "), 4096u);
    EXPECT_EQ(parseSizeCount("0"), 0u);
    for (std::uint64_t tokens : {512ull, 4000ull, 8192ull, 131072ull, 10485760ull}) {
        EXPECT_EQ(parseSizeCount(tokenCount(tokens)), tokens) << tokens;
    }
    for (const char* bad : {"", "k", "1.0001K", "1.5", "8,19", "81,92", ",192", "8,192K", "1,000.5", "-4", "4 096",
                            "128kb", "1e3", "99999999999999999999"}) {
        EXPECT_EQ(parseSizeCount(bad), std::nullopt) << bad;
    }
}

TEST(Format, Bytes) {
    EXPECT_EQ(binaryBytes(512), "512 B");
    EXPECT_EQ(binaryBytes(131072), "128 KiB");
    EXPECT_EQ(binaryBytes(2147483648), "2.00 GiB");
    EXPECT_EQ(binaryBytes(16060522496), "15.0 GiB");
}

TEST(Format, PercentagesHaveOnePolicy) {
    // One decimal; two below 1%, where one would round a small share away; a floor below that.
    EXPECT_EQ(percentText(fractionOf(1, 3)), "33.3%");
    EXPECT_EQ(percentText(fractionOf(1, 1)), "100.0%");
    EXPECT_EQ(percentText(fractionOf(1, 100)), "1.0%");
    EXPECT_EQ(percentText(fractionOf(311164928, 79674391296)), "0.39%");
    EXPECT_EQ(percentText(fractionOf(2048, 79674391296)), "< 0.01%");
    EXPECT_EQ(percentText(fractionOf(0, 5)), "0%");
    EXPECT_EQ(percentText(fractionOf(5, 0)), "0%");
    EXPECT_EQ(percentText(-0.123), "-12.3%");
    EXPECT_EQ(percentText(-1e-9), "> -0.01%");
}

TEST(Format, DeviceUseHasOneRule) {
    using archplay::core::deviceUseText;
    EXPECT_EQ(deviceUseText(82, 100), "82%");
    EXPECT_EQ(deviceUseText(999, 1000), "99%"); // floored: a fit never reads 100%
    EXPECT_EQ(deviceUseText(1, 1000), "<1%");
    EXPECT_EQ(deviceUseText(250, 100), "2.5×");
    // Over by a little: never "1.0×", which beside "needs 2 x" reads as a fit (80.7 of 80 GiB).
    EXPECT_EQ(deviceUseText(807, 800), "1.01×");
    EXPECT_EQ(deviceUseText(100001, 100000), "1.01×");
    EXPECT_EQ(deviceUseText(1040, 1000), "1.04×");
    EXPECT_EQ(deviceUseText(1060, 1000), "1.1×");
}

TEST(Format, ParsesCounts) {
    EXPECT_EQ(parseCount("7B"), 7'000'000'000u);
    EXPECT_EQ(parseCount("1.5B"), 1'500'000'000u);
    EXPECT_EQ(parseCount("350M"), 350'000'000u);
    EXPECT_EQ(parseCount("350m"), 350'000'000u);
    EXPECT_EQ(parseCount("7000000000"), 7'000'000'000u);
    EXPECT_EQ(parseCount("8.030261248B"), 8'030'261'248u);
    EXPECT_EQ(parseCount("124K"), 124'000u);
    EXPECT_EQ(parseCount("1.2T"), 1'200'000'000'000u);
    EXPECT_EQ(parseCount("2G"), 2'000'000'000u);
    EXPECT_EQ(parseCount("1.0"), 1u);
    EXPECT_EQ(parseCount(".5K"), 500u);
    EXPECT_EQ(parseCount("18446744073709551615"), UINT64_MAX);
    // More decimals than a 64-bit divisor holds (a fuzz finding: the divisor wrapped to 0).
    EXPECT_EQ(parseCount("0." + std::string(40, '0') + "573353406701549537"), std::nullopt);
    EXPECT_EQ(parseCount("0." + std::string(40, '0') + "B"), 0u);
    for (const char* bad : {"", "B", ".", "1.5", "7X", "-7B", "7 B", "1.2.3B", "0.0000000001B", "18446744073709551616",
                            "20000000T", "1e9"}) {
        EXPECT_EQ(parseCount(bad), std::nullopt) << bad;
    }
}

} // namespace
} // namespace archplay::core
