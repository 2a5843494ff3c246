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
    EXPECT_EQ(withThousands(UINT64_MAX), "18,446,744,073,709,551,615");
}

TEST(Format, ShortCounts) {
    EXPECT_EQ(shortCount(999), "999");
    EXPECT_EQ(shortCount(124439808), "124M");
    EXPECT_EQ(shortCount(8030261248), "8.03B");
    EXPECT_EQ(shortCount(46702792704), "46.7B");
    EXPECT_EQ(shortCount(999'999), "1.00M"); // rounding carries into the next unit
}

TEST(Format, Bytes) {
    EXPECT_EQ(binaryBytes(512), "512 B");
    EXPECT_EQ(binaryBytes(131072), "128 KiB");
    EXPECT_EQ(binaryBytes(2147483648), "2.00 GiB");
    EXPECT_EQ(binaryBytes(16060522496), "15.0 GiB");
}

TEST(Format, Percentages) {
    EXPECT_EQ(percentText(fractionOf(311164928, 79674391296)), "0.39%");
    EXPECT_EQ(percentText(fractionOf(1, 3), 1), "33.3%");
    EXPECT_EQ(percentText(fractionOf(1, 1)), "100.00%");
    EXPECT_EQ(percentText(fractionOf(2048, 79674391296)), "< 0.01%");
    EXPECT_EQ(percentText(fractionOf(2048, 79674391296), 0), "< 1%");
    EXPECT_EQ(percentText(fractionOf(0, 5)), "0.00%");
    EXPECT_EQ(percentText(fractionOf(5, 0)), "0.00%");
    EXPECT_EQ(percentText(0.25, 0), "25%");
}

TEST(Format, DeviceUseHasOneRule) {
    using archplay::core::deviceUseText;
    EXPECT_EQ(deviceUseText(82, 100), "82%");
    EXPECT_EQ(deviceUseText(999, 1000), "99%"); // floored: a fit never reads 100%
    EXPECT_EQ(deviceUseText(1, 1000), "<1%");
    EXPECT_EQ(deviceUseText(250, 100), "2.5×");
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
    for (const char* bad : {"", "B", ".", "1.5", "7X", "-7B", "7 B", "1.2.3B", "0.0000000001B", "18446744073709551616",
                            "20000000T", "1e9"}) {
        EXPECT_EQ(parseCount(bad), std::nullopt) << bad;
    }
}

} // namespace
} // namespace archplay::core
