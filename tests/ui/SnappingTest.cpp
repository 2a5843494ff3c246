// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/Snapping.h"

#include <gtest/gtest.h>

namespace archplay::ui::widgets {
namespace {

TEST(Snapping, MultiplesRoundToNearest) {
    EXPECT_EQ(core::snapNearest(4000, core::Snap::Multiple128, {}, 64, 65536), 3968);
    EXPECT_EQ(core::snapNearest(4050, core::Snap::Multiple128, {}, 64, 65536), 4096);
    EXPECT_EQ(core::snapNearest(100, core::Snap::Multiple64, {}, 1, 1000), 128);
    EXPECT_EQ(core::snapNearest(70, core::Snap::Multiple16, {}, 8, 512), 64);
}

TEST(Snapping, PowersOfTwoOnALogScale) {
    // The geometric midpoint of 2048 and 4096 is 2896.
    EXPECT_EQ(core::snapNearest(2800, core::Snap::PowerOfTwo, {}, 1, 1 << 20), 2048);
    EXPECT_EQ(core::snapNearest(3000, core::Snap::PowerOfTwo, {}, 1, 1 << 20), 4096);
    EXPECT_EQ(core::snapNearest(1, core::Snap::PowerOfTwo, {}, 1, 1 << 20), 1);
    EXPECT_EQ(core::snapNearest(0, core::Snap::PowerOfTwo, {}, 0, 1 << 20), 0);
}

TEST(Snapping, DivisorsOfHeads) {
    const core::SnapContext context{32};
    EXPECT_EQ(core::snapNearest(7, core::Snap::DivisorOfHeads, context, 1, 32), 8);
    EXPECT_EQ(core::snapNearest(13, core::Snap::DivisorOfHeads, context, 1, 32), 16);
    EXPECT_EQ(core::snapStep(8, 1, core::Snap::DivisorOfHeads, context, 1, 32), 16);
    EXPECT_EQ(core::snapStep(8, -1, core::Snap::DivisorOfHeads, context, 1, 32), 4);
    EXPECT_EQ(core::snapStep(32, 1, core::Snap::DivisorOfHeads, context, 1, 32), 32);
}

TEST(Snapping, CountsKeepTwoSignificantDigits) {
    using core::Snap;
    constexpr std::int64_t trillion = 1'000'000'000'000;
    EXPECT_EQ(core::snapNearest(15'123'456'789'012, Snap::TwoDigits, {}, 1'000'000, 100 * trillion), 15 * trillion);
    EXPECT_EQ(core::snapNearest(1'460'000'000'000, Snap::TwoDigits, {}, 1'000'000, 100 * trillion), 1'500'000'000'000);
    EXPECT_EQ(core::snapNearest(7, Snap::TwoDigits, {}, 1, 1000), 7);
    EXPECT_EQ(core::snapNearest(994, Snap::TwoDigits, {}, 1, 1000), 990);
    EXPECT_EQ(core::snapNearest(996, Snap::TwoDigits, {}, 1, 1000), 1000);
    EXPECT_EQ(core::snapStep(15 * trillion, 1, Snap::TwoDigits, {}, 1, 100 * trillion), 16 * trillion);
    EXPECT_EQ(core::snapStep(10 * trillion, -1, Snap::TwoDigits, {}, 1, 100 * trillion), 9'900'000'000'000);
    EXPECT_EQ(core::snapStep(99, 1, Snap::TwoDigits, {}, 1, 1000), 100);
    EXPECT_TRUE(core::isSnapped(15 * trillion, Snap::TwoDigits));
    EXPECT_TRUE(core::isSnapped(99, Snap::TwoDigits));
    EXPECT_FALSE(core::isSnapped(101, Snap::TwoDigits));
    EXPECT_FALSE(core::isSnapped(0, Snap::TwoDigits));
    // Near the top of the 64-bit range the candidates stop before they overflow.
    EXPECT_EQ(core::snapNearest(INT64_MAX, Snap::TwoDigits, {}, 1, INT64_MAX), 9'200'000'000'000'000'000);
}

TEST(Snapping, StepsMoveToTheNextSnap) {
    EXPECT_EQ(core::snapStep(4096, 1, core::Snap::Multiple128, {}, 64, 65536), 4224);
    EXPECT_EQ(core::snapStep(4100, -1, core::Snap::Multiple128, {}, 64, 65536), 4096);
    EXPECT_EQ(core::snapStep(4096, -1, core::Snap::Multiple128, {}, 64, 65536), 3968);
    EXPECT_EQ(core::snapStep(4096, 1, core::Snap::PowerOfTwo, {}, 1, 1 << 20), 8192);
    EXPECT_EQ(core::snapStep(5000, -1, core::Snap::PowerOfTwo, {}, 1, 1 << 20), 4096);
    EXPECT_EQ(core::snapStep(65536, 1, core::Snap::Multiple128, {}, 64, 65536), 65536);
    EXPECT_EQ(core::snapStep(10, 3, core::Snap::None, {}, 0, 100), 13);
}

TEST(SliderMapping, LinearRangesGetOnePositionPerValue) {
    const SliderMapping mapping(1, 256, SliderScale::Linear);
    EXPECT_EQ(mapping.positions(), 255);
    EXPECT_EQ(mapping.position(32), 31);
    EXPECT_EQ(mapping.value(31), 32);
}

TEST(SliderMapping, LogarithmicRoundTripsWithinOneStep) {
    const SliderMapping mapping(64, 65536, SliderScale::Logarithmic);
    EXPECT_EQ(mapping.positions(), kSliderResolution);
    EXPECT_EQ(mapping.value(0), 64);
    EXPECT_EQ(mapping.value(kSliderResolution), 65536);
    for (qint64 value : {64, 100, 768, 4096, 8192, 40000, 65536}) {
        const qint64 back = mapping.value(mapping.position(value));
        EXPECT_NEAR(double(back), double(value), double(value) * 0.01) << value;
    }
    // Equal ratios take equal travel.
    EXPECT_EQ(mapping.position(2048) - mapping.position(1024), mapping.position(8192) - mapping.position(4096));
}

TEST(SliderMapping, LogarithmicFromZeroKeepsZero) {
    const SliderMapping mapping(0, 1 << 20, SliderScale::Logarithmic);
    EXPECT_EQ(mapping.position(0), 0);
    EXPECT_EQ(mapping.value(0), 0);
    EXPECT_EQ(mapping.value(1), 1);
    EXPECT_EQ(mapping.value(kSliderResolution), 1 << 20);
}

} // namespace
} // namespace archplay::ui::widgets
