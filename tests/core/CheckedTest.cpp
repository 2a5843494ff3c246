// SPDX-License-Identifier: GPL-3.0-or-later
// core::Checked and the conversions into it: exact or visibly overflowed, never undefined.
#include "core/util/Checked.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace archplay::test {
namespace {

TEST(Checked, AnEstimateRoundsToTheNearestCountOrOverflowsVisibly) {
    EXPECT_EQ(core::roundedCount(2.5).value(), 3u);
    EXPECT_EQ(core::roundedCount(2.49).value(), 2u);
    EXPECT_FALSE(core::roundedCount(9007199254740992.0).overflowed());
    EXPECT_EQ(core::roundedCount(9007199254740992.0).value(), 9007199254740992u);
    // Beyond 2^64 - 1 a conversion would be undefined (clang's UBSan reported 2.23e21 FLOPs of an
    // encoder's attention at a context of 2^41): overflowed instead, as the sums it joins.
    for (const double beyond : {18446744073709551616.0, 2.23425e21, std::numeric_limits<double>::infinity(),
                                std::numeric_limits<double>::quiet_NaN()}) {
        EXPECT_TRUE(core::roundedCount(beyond).overflowed()) << beyond;
        EXPECT_EQ(core::roundedCount(beyond).value(), UINT64_MAX) << beyond;
    }
    EXPECT_EQ(core::roundedCount(-3.0).value(), 0u);
    EXPECT_FALSE(core::roundedCount(-3.0).overflowed());
}

} // namespace
} // namespace archplay::test
