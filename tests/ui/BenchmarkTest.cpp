// SPDX-License-Identifier: GPL-3.0-or-later
// `archplay --bench`: its statistics and a short run of the real executable. Nothing here asserts
// on time: the figures are checked for shape and consistency, never against a budget.
#include "app/gui/Benchmark.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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

TEST(Benchmark, AShortRunReportsEveryFigureAndView) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString out = dir.filePath(QStringLiteral("bench.json"));
    QProcess process;
    process.start(QStringLiteral(ARCHPLAY_GUI_EXECUTABLE),
                  {QStringLiteral("--bench"), QStringLiteral("--json"), QStringLiteral("--preset"),
                   QStringLiteral("mixtral-8x7b-v0.1"), QStringLiteral("--steps"), QStringLiteral("1"),
                   QStringLiteral("--size"), QStringLiteral("1280x800"), QStringLiteral("--out"), out});
    ASSERT_TRUE(process.waitForFinished(120'000));
    ASSERT_EQ(process.exitCode(), 0) << process.readAllStandardError().toStdString();
    const QByteArray printed = process.readAllStandardOutput();
    QFile written(out);
    ASSERT_TRUE(written.open(QIODevice::ReadOnly));
    EXPECT_EQ(written.readAll(), printed); // --out holds what was printed

    const nlohmann::json result = nlohmann::json::parse(printed.toStdString());
    const nlohmann::json& update = result.at("update_ms");
    // Every view is shown in turn and each main slider moves one step out and back.
    EXPECT_GE(update.at("n").get<int>(), 8 * 4);
    EXPECT_LE(update.at("p50").get<double>(), update.at("p95").get<double>());
    EXPECT_LE(update.at("p95").get<double>(), update.at("p99").get<double>());
    EXPECT_LE(update.at("p99").get<double>(), update.at("max").get<double>());
    EXPECT_GT(update.at("p50").get<double>(), 0.0);
    EXPECT_GT(result.at("startup_ms").get<double>(), 0.0);
    EXPECT_GT(result.at("peak_rss_mb").get<double>(), 1.0);
    for (const char* view : {"breakdown", "param-chart", "layer-stack", "layer-weights", "attention-mask", "kv-cache",
                             "moe-routing", "derivation", "summary-cards"}) {
        ASSERT_TRUE(result.at("views").contains(view)) << view;
        EXPECT_GT(result.at("views").at(view).at("n").get<int>(), 0) << view;
        EXPECT_LE(result.at("views").at(view).at("p50").get<double>(),
                  result.at("views").at(view).at("p99").get<double>());
    }
    EXPECT_EQ(result.at("presets").size(), 1u);
    EXPECT_EQ(result.at("presets").at("mixtral-8x7b-v0.1").at("n"), update.at("n"));
    EXPECT_EQ(result.at("setup").at("size"), "1280x800");
}

TEST(Benchmark, BadOptionsExitTwoBeforeAnyWindow) {
    QProcess process;
    process.start(QStringLiteral(ARCHPLAY_GUI_EXECUTABLE),
                  {QStringLiteral("--bench"), QStringLiteral("--preset"), QStringLiteral("no-such-model")});
    ASSERT_TRUE(process.waitForFinished(60'000));
    EXPECT_EQ(process.exitCode(), 2);
    EXPECT_TRUE(process.readAllStandardError().contains("unknown preset 'no-such-model'"));
}

} // namespace
} // namespace archplay::app
