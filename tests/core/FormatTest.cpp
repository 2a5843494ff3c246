// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/Format.h"

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
    EXPECT_EQ(decimalBytes(16060522496), "16.1 GB");
}

} // namespace
} // namespace archplay::core
