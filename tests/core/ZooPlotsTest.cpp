// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/ZooPlots.h"

#include "core/report/ReportText.h"
#include "core/report/ZooQuery.h"
#include "tests/support/TestSupport.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace archplay::test {
namespace {

std::vector<std::size_t> everyRow(const core::ModelZoo& zoo) {
    std::vector<std::size_t> all(zoo.rows.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
        all[i] = i;
    }
    return all;
}

TEST(ReleaseDate, ReadsAYearOrAYearAndMonth) {
    EXPECT_EQ(core::parseReleaseDate("2024-04"), (core::ReleaseDate{2024, 4}));
    EXPECT_EQ(core::parseReleaseDate("2026"), (core::ReleaseDate{2026, 0}));
    for (const char* bad : {"", "24-04", "2024-4", "2024-13", "2024-00", "1949", "2101", "2024/04", "+024",
                            "2024-04-01", "20x4", "2024-0x"}) {
        EXPECT_FALSE(core::parseReleaseDate(bad)) << bad;
    }
    EXPECT_DOUBLE_EQ((core::ReleaseDate{2024, 4}).years(), 2024 + 3.5 / 12);
    EXPECT_DOUBLE_EQ((core::ReleaseDate{2026, 0}).years(), 2026.5);
}

TEST(ReleaseDate, EveryPresetRecordsOne) {
    for (const core::Preset& preset : core::builtinPresets()) {
        EXPECT_TRUE(core::parseReleaseDate(preset.info.released))
            << preset.info.id << ": '" << preset.info.released << "'";
    }
}

TEST(ZooReleased, FiltersByYearAndSortsByDate) {
    const core::ModelZoo zoo = core::modelZoo({});
    const core::ZooRow& llama = rowOf(zoo, "llama-3-8b");
    EXPECT_EQ(core::zooText(llama, core::ZooColumn::Released), "2024-04");
    EXPECT_EQ(core::zooExactText(llama, core::ZooColumn::Released), "2024-04");
    EXPECT_EQ(core::zooNumber(llama, core::ZooColumn::Released), 2024.0);
    EXPECT_EQ(core::zooText(rowOf(zoo, "glm-5"), core::ZooColumn::Released), "2026");

    std::size_t of2024 = 0;
    for (std::size_t i : core::filterZoo(zoo.rows, *core::parseZooFilter("released=2024").filter)) {
        EXPECT_EQ(zoo.rows[i].released->year, 2024) << zoo.rows[i].id;
        ++of2024;
    }
    const auto expected2024 = std::count_if(
        zoo.rows.begin(), zoo.rows.end(), [](const core::ZooRow& r) { return r.released && r.released->year == 2024; });
    EXPECT_EQ(static_cast<long>(of2024), expected2024);
    EXPECT_GT(of2024, 10u);

    std::vector<std::size_t> order = everyRow(zoo);
    core::sortZoo(zoo.rows, order, core::ZooColumn::Released);
    for (std::size_t i = 1; i < order.size(); ++i) {
        EXPECT_LE(zoo.rows[order[i - 1]].released->years(), zoo.rows[order[i]].released->years())
            << zoo.rows[order[i - 1]].id << " before " << zoo.rows[order[i]].id;
    }
    EXPECT_EQ(zoo.rows[order.front()].released->year, 2017); // the 2017 Transformer
}

TEST(ZooKind, HybridStacksThatRouteAreBothKinds) {
    const core::ModelZoo zoo = core::modelZoo({});
    auto ids = [&](const std::string& filter) {
        std::set<std::string> kept;
        for (std::size_t i : core::filterZoo(zoo.rows, *core::parseZooFilter(filter).filter)) {
            kept.insert(zoo.rows[i].id);
        }
        return kept;
    };
    EXPECT_TRUE(ids("kind=moe").contains("qwen3-next-80b-a3b"));
    EXPECT_TRUE(ids("kind=moe").contains("mixtral-8x7b-v0.1"));
    EXPECT_FALSE(ids("kind=moe").contains("falcon-h1-7b")); // hybrid, dense FFN
    EXPECT_TRUE(ids("kind=hybrid").contains("qwen3-next-80b-a3b"));
    EXPECT_TRUE(ids("kind=hybrid").contains("falcon-h1-7b"));
    EXPECT_FALSE(ids("kind!=moe").contains("qwen3-next-80b-a3b"));
    EXPECT_FALSE(ids("kind=encoder").contains("t5-small")); // encoder-decoder is a kind of its own
    EXPECT_TRUE(ids("kind=hybrid+moe").contains("qwen3-next-80b-a3b"));
}

TEST(ZooPlots, EachRowSitsAtItsExactCoordinates) {
    const core::ModelZoo zoo = core::modelZoo({});
    const core::ZooRow& llama = rowOf(zoo, "llama-3-8b");
    auto at = [&](core::ZooPlot plot) {
        const auto point = core::zooPlotPoint(llama, plot);
        EXPECT_TRUE(point) << core::toString(plot);
        return point.value_or(core::ZooPlotPoint{});
    };
    EXPECT_EQ(at(core::ZooPlot::DepthWidth).x, 4096);
    EXPECT_EQ(at(core::ZooPlot::DepthWidth).y, 32);
    EXPECT_EQ(at(core::ZooPlot::DepthWidth).params, 8030261248.0);
    EXPECT_EQ(at(core::ZooPlot::FfnRatio).y, 14336.0 / 4096.0);
    EXPECT_EQ(at(core::ZooPlot::HeadDim).x, 8030261248.0);
    EXPECT_EQ(at(core::ZooPlot::HeadDim).y, 128);
    EXPECT_EQ(at(core::ZooPlot::GqaGroup).y, 4); // 32 query heads over 8 KV heads
    EXPECT_DOUBLE_EQ(at(core::ZooPlot::Vocabulary).x, 2024 + 3.5 / 12);
    EXPECT_EQ(at(core::ZooPlot::Vocabulary).y, 128256);
    EXPECT_EQ(at(core::ZooPlot::LayerEstimate).x, 32);
    EXPECT_DOUBLE_EQ(at(core::ZooPlot::LayerEstimate).y, llama.layerEstimate.perLayer);
    // An encoder-decoder's depth is both stacks; a model with MLA has no KV heads to group.
    EXPECT_EQ(core::zooPlotPoint(rowOf(zoo, "t5-small"), core::ZooPlot::DepthWidth)->y, 12);
}

TEST(ZooPlots, EveryCountedRowIsPlacedOnceInSeriesSortedByX) {
    const core::ModelZoo zoo = core::modelZoo({});
    const std::vector<std::size_t> shown = everyRow(zoo);
    for (core::ZooPlot plot : core::zooPlots()) {
        const core::ZooPlotData data = core::zooPlotData(zoo.rows, shown, plot, std::nullopt, 2026.9);
        std::map<std::size_t, int> placed;
        for (const core::ZooPlotSeries& series : data.series) {
            EXPECT_TRUE(std::is_sorted(series.points.begin(), series.points.end(),
                                       [](const auto& a, const auto& b) { return a.x < b.x; }))
                << core::toString(plot) << " " << series.name;
            for (const core::ZooPlotPoint& point : series.points) {
                const auto expected = core::zooPlotPoint(zoo.rows[point.row], plot);
                ASSERT_TRUE(expected);
                EXPECT_EQ(point.x, expected->x);
                if (plot != core::ZooPlot::LayerEstimate) {
                    EXPECT_EQ(point.y, expected->y);
                }
                ++placed[point.row];
            }
        }
        const int perRow = plot == core::ZooPlot::LayerEstimate ? 2 : 1; // one marker per rule
        std::size_t placeable = 0;
        for (std::size_t i : shown) {
            if (core::zooPlotPoint(zoo.rows[i], plot)) {
                ++placeable;
                EXPECT_EQ(placed[i], perRow) << core::toString(plot) << " " << zoo.rows[i].id;
            }
        }
        EXPECT_EQ(placed.size(), placeable);
        EXPECT_EQ(data.left, shown.size() - placeable) << core::toString(plot);
    }
    // A row without KV heads has no GQA group and is left out.
    std::vector<core::ZooRow> rows = zoo.rows;
    rows.front().kvHeads = 0;
    const core::ZooPlotData gqa = core::zooPlotData(rows, shown, core::ZooPlot::GqaGroup, std::nullopt, 2026.9);
    EXPECT_EQ(gqa.left, 1u);
    EXPECT_EQ(gqa.leftReason, "no value for this plot's axes");
}

TEST(ZooPlots, SevenFamiliesInColourTheRestTogether) {
    const core::ModelZoo zoo = core::modelZoo({});
    const core::ZooPlotData data =
        core::zooPlotData(zoo.rows, everyRow(zoo), core::ZooPlot::DepthWidth, std::nullopt, 2026.9);
    ASSERT_EQ(data.series.size(), 8u);
    for (int i = 0; i < 7; ++i) {
        EXPECT_EQ(data.series[std::size_t(i)].colour, i);
        if (i > 0) {
            EXPECT_GE(data.series[std::size_t(i) - 1].points.size(), data.series[std::size_t(i)].points.size());
        }
    }
    EXPECT_EQ(data.series.back().name, "other families");
    EXPECT_EQ(data.series.back().colour, -1);
    std::map<std::string, std::size_t> perFamily;
    for (const core::ZooRow& row : zoo.rows) {
        ++perFamily[row.family];
    }
    EXPECT_EQ(data.series.front().points.size(),
              std::max_element(perFamily.begin(), perFamily.end(), [](const auto& a, const auto& b) {
                  return a.second < b.second;
              })->second);
}

TEST(ZooPlots, AConfigWithoutADateIsLeftOffTheTimePlotAndTheDesignSitsToday) {
    core::ModelZoo zoo = core::modelZoo({});
    core::ZooInput file;
    file.origin = core::ZooOrigin::File;
    file.source = "/models/mine/config.json";
    file.imported.config = core::presetConfig(*core::findPreset("qwen3-8b"));
    zoo.rows.push_back(core::zooRow(file, core::Scenario{}));
    const core::ZooRow design = zoo.rows.back();
    const core::ZooPlotData data =
        core::zooPlotData(zoo.rows, everyRow(zoo), core::ZooPlot::Vocabulary, design, 2026.9);
    EXPECT_EQ(data.left, 1u);
    EXPECT_EQ(data.leftReason, "no release date (only the presets record one)");
    ASSERT_TRUE(data.current);
    EXPECT_EQ(data.current->x, 2026.9);
    EXPECT_EQ(data.current->y, 151936);
    // On the other plots the design has a place of its own and the file is placed like a preset.
    const core::ZooPlotData depth =
        core::zooPlotData(zoo.rows, everyRow(zoo), core::ZooPlot::DepthWidth, design, 2026.9);
    EXPECT_EQ(depth.left, 0u);
    EXPECT_EQ(depth.current->x, 4096);
    EXPECT_EQ(depth.current->y, 36);
}

TEST(ZooPlots, NeighboursAreTheNearestInParameters) {
    const core::ModelZoo zoo = core::modelZoo({});
    const core::ZooRow& llama = rowOf(zoo, "llama-3-8b");
    const std::vector<std::size_t> nearest = core::zooNeighbours(zoo.rows, llama, 5);
    ASSERT_EQ(nearest.size(), 5u);
    EXPECT_EQ(zoo.rows[nearest.front()].id, "llama-3-8b"); // itself, at distance 0
    double previous = 0;
    for (std::size_t i : nearest) {
        const double distance = std::fabs(std::log(double(zoo.rows[i].totalParams) / double(llama.totalParams)));
        EXPECT_GE(distance, previous);
        previous = distance;
    }
    // No row left out is nearer than the farthest kept.
    for (const core::ZooRow& row : zoo.rows) {
        if (std::find_if(nearest.begin(), nearest.end(), [&](std::size_t i) { return zoo.rows[i].id == row.id; }) ==
            nearest.end()) {
            EXPECT_GE(std::fabs(std::log(double(row.totalParams) / double(llama.totalParams))), previous) << row.id;
        }
    }
}

TEST(ZooReport, TheMarkdownReportPlacesTheDesignAmongTheZoo) {
    const core::Analysis analysis = analyzePreset("qwen3-8b");
    const core::ModelZoo zoo = core::modelZoo(analysis.scenario);
    std::vector<core::ReportFigure> figures;
    for (core::ZooPlot plot : core::zooPlots()) {
        figures.push_back({plot, "fig/zoo-" + std::string(core::toString(plot)) + ".png"});
    }
    const std::string md = core::reportMarkdown(analysis, presetReportInfo("qwen3-8b"), 0, figures, &zoo);
    const std::size_t section = md.find("\n## Among published models\n");
    ASSERT_NE(section, std::string::npos);
    EXPECT_LT(md.find("\n## Speed\n"), section);
    EXPECT_NE(md.find(core::zooReportIntro(zoo), section), std::string::npos);
    EXPECT_NE(md.find("| this design |  | 36 | 4096 | 32 | 8 | 128 | SwiGLU | 151936 | 8.19B | 8.19B |"),
              std::string::npos);
    // The table: this design, then eight neighbours, the preset itself first among them.
    EXPECT_NE(md.find("| Qwen3 8B | 2025-04 | 36 |"), std::string::npos);
    const std::vector<core::ZooRow> rows = core::zooReportRows(zoo, analysis);
    ASSERT_EQ(rows.size(), 9u);
    EXPECT_EQ(rows[0].name, "this design");
    EXPECT_EQ(rows[1].id, "qwen3-8b");
    for (core::ZooPlot plot : core::zooPlots()) {
        EXPECT_NE(md.find("(fig/zoo-" + std::string(core::toString(plot)) + ".png)"), std::string::npos);
        EXPECT_NE(md.find(core::zooPlotCaption(plot)), std::string::npos);
    }
    // Without a zoo, no such section.
    EXPECT_EQ(core::reportMarkdown(analysis, presetReportInfo("qwen3-8b"), 0, {}).find("Among published models"),
              std::string::npos);
}

} // namespace
} // namespace archplay::test
