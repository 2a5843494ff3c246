// SPDX-License-Identifier: GPL-3.0-or-later
// `archplay --bench`: its statistics (a run of the executable is in tests/integration).
#include "app/gui/Benchmark.h"

#include <gtest/gtest.h>

namespace archplay::app {
namespace {

TEST(Benchmark, PercentilesAreNearestRank) {
    std::vector<std::int64_t> samples;
    for (std::int64_t i = 100; i >= 1; --i) {
        samples.push_back(i * 1'000'000); // 1..100 ms, unsorted
    }
    const LatencyStats stats = latencyStats(samples);
    EXPECT_EQ(stats.n, 100u);
    EXPECT_DOUBLE_EQ(stats.p50, 50.0);
    EXPECT_DOUBLE_EQ(stats.p95, 95.0);
    EXPECT_DOUBLE_EQ(stats.p99, 99.0);
    EXPECT_DOUBLE_EQ(stats.max, 100.0);

    const LatencyStats one = latencyStats({2'500'000});
    EXPECT_DOUBLE_EQ(one.p50, 2.5);
    EXPECT_DOUBLE_EQ(one.p99, 2.5);
    EXPECT_EQ(latencyStats({}).n, 0u);
}

} // namespace
} // namespace archplay::app
