// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/design/Sweep.h"

#include "core/design/SweepText.h"
#include "tests/support/TestSupport.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace archplay::test {
namespace {

using core::DesignFigure;
using core::SweepAxis;
using core::SweepSpacing;

SweepAxis axis(std::string field, std::int64_t from, std::int64_t to, std::size_t steps,
               SweepSpacing spacing = SweepSpacing::Linear) {
    return {std::move(field), from, to, steps, spacing};
}

std::size_t index(DesignFigure figure) {
    return static_cast<std::size_t>(figure);
}

double figureOf(const core::SweepPoint& point, DesignFigure figure) {
    EXPECT_TRUE(point.figures[index(figure)].has_value()) << point.value;
    return point.figures[index(figure)].value_or(0);
}

/// The diagnostic of `errors` naming `part`, or nullptr.
const core::Diagnostic* errorFor(const core::Diagnostics& errors, const std::string& part) {
    const auto it = std::find_if(errors.begin(), errors.end(), [&](const auto& d) { return d.field == part; });
    return it == errors.end() ? nullptr : &*it;
}

TEST(SweepValues, LinearAndGeometricSpacingWithExactEnds) {
    EXPECT_EQ(core::sweepValues(axis("num_hidden_layers", 1, 10, 10)),
              (std::vector<std::int64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
    EXPECT_EQ(core::sweepValues(axis("num_hidden_layers", 0, 100, 5)), (std::vector<std::int64_t>{0, 25, 50, 75, 100}));
    EXPECT_EQ(core::sweepValues(axis("sequence_length", 1, 1000, 4, SweepSpacing::Log)),
              (std::vector<std::int64_t>{1, 10, 100, 1000}));
    EXPECT_EQ(core::sweepValues(axis("sequence_length", 1024, 131072, 8, SweepSpacing::Log)),
              (std::vector<std::int64_t>{1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072}));
}

TEST(SweepValues, RoundedValuesAreDeduplicated) {
    EXPECT_EQ(core::sweepValues(axis("num_hidden_layers", 1, 3, 10)), (std::vector<std::int64_t>{1, 2, 3}));
    const auto log = core::sweepValues(axis("num_hidden_layers", 1, 4, 20, SweepSpacing::Log));
    EXPECT_EQ(log, (std::vector<std::int64_t>{1, 2, 3, 4}));
    EXPECT_EQ(core::sweepValues(axis("num_hidden_layers", 7, 7, 5)), (std::vector<std::int64_t>{7}));
    EXPECT_TRUE(core::sweepValues(axis("num_hidden_layers", 5, 1, 5)).empty());
    EXPECT_TRUE(core::sweepValues(axis("num_hidden_layers", 0, 8, 5, SweepSpacing::Log)).empty());
    EXPECT_TRUE(core::sweepValues(axis("num_hidden_layers", 1, 8, SIZE_MAX)).empty()); // nothing allocated
}

TEST(SweepFields, ApplyWhereThePanelShowsThem) {
    const core::ModelConfig llama = preset("llama-3-8b");
    const core::ModelConfig mixtral = preset("mixtral-8x7b-v0.1");
    const core::ModelConfig deepseek = preset("deepseek-v3");
    const core::SweepField* experts = core::findSweepField("num_experts");
    ASSERT_NE(experts, nullptr);
    EXPECT_FALSE(experts->applies(llama));
    EXPECT_TRUE(experts->applies(mixtral));
    EXPECT_TRUE(core::findSweepField("kv_lora_rank")->applies(deepseek));
    EXPECT_FALSE(core::findSweepField("kv_lora_rank")->applies(llama));
    EXPECT_FALSE(core::findSweepField("num_key_value_heads")->applies(deepseek));
    EXPECT_EQ(core::findSweepField("num_key_value_heads")->maximumOf(llama), 32);
    EXPECT_EQ(core::findSweepField("num_experts_per_tok")->maximumOf(mixtral), 8);
    EXPECT_EQ(core::findSweepField("no_such_field"), nullptr);
    for (const core::SweepField* field : core::sweepFieldsFor(llama)) {
        EXPECT_TRUE(field->applies(llama)) << field->key;
        EXPECT_LE(field->minimum, field->maximum) << field->key;
    }
    EXPECT_EQ(core::findSweepField("hidden_size")->get(llama, {}), 4096);
    EXPECT_EQ(core::findSweepField("sequence_length")->get(llama, scenarioAt(8192)), 8192);
}

TEST(SweepFields, SettersFollowTheEditRules) {
    core::ModelConfig llama = preset("llama-3-8b"); // 32 heads, 8 KV heads
    core::Scenario scenario;
    const core::SweepField* heads = core::findSweepField("num_attention_heads");
    heads->set(llama, scenario, 36, {});
    EXPECT_EQ(llama.numHeads, 36);
    EXPECT_EQ(llama.numKvHeads, 9); // 8 does not divide 36: the divisor of 36 nearest 8, so GQA stays GQA
    core::ModelConfig mixtral = preset("mixtral-8x7b-v0.1"); // top-2 of 8
    core::findSweepField("num_experts")->set(mixtral, scenario, 1, {});
    EXPECT_EQ(mixtral.moe.numExperts, 1);
    EXPECT_EQ(mixtral.moe.topK, 1);
    core::ModelConfig locked = preset("llama-3-8b");
    core::findSweepField("hidden_size")->set(locked, scenario, 8192, {.keepFfnRatio = true, .ffnRatio = 3.5});
    EXPECT_EQ(locked.intermediateSize, 28672);
    core::findSweepField("batch_size")->set(locked, scenario, 16, {});
    EXPECT_EQ(scenario.batch, 16u);
}

TEST(SweepValidation, ErrorsNameTheirPartAndTheField) {
    const core::ModelConfig llama = preset("llama-3-8b");
    const auto reversed = core::validateSweepAxis(axis("num_hidden_layers", 64, 8, 10), llama);
    const core::Diagnostic* from = errorFor(reversed, "from");
    ASSERT_NE(from, nullptr);
    EXPECT_NE(from->message.find("num_hidden_layers"), std::string::npos) << from->message;

    EXPECT_NE(errorFor(core::validateSweepAxis(axis("num_hidden_layers", 1, 8, 1), llama), "steps"), nullptr);
    EXPECT_NE(errorFor(core::validateSweepAxis(axis("num_hidden_layers", 1, 8, 1001), llama), "steps"), nullptr);
    EXPECT_EQ(core::validateSweepAxis(axis("num_hidden_layers", 1, 8, 1000), llama).size(), 0u);
    EXPECT_NE(errorFor(core::validateSweepAxis(axis("num_hidden_layers", 1, 8, 201), llama, core::kMaxGridSteps, "2"),
                       "steps2"),
              nullptr);

    const auto moe = core::validateSweepAxis(axis("num_experts", 1, 8, 8), llama);
    const core::Diagnostic* field = errorFor(moe, "field");
    ASSERT_NE(field, nullptr);
    EXPECT_NE(field->message.find("num_experts applies only to a mixture of experts"), std::string::npos)
        << field->message;

    const auto kv = core::validateSweepAxis(axis("num_key_value_heads", 1, 64, 8), llama);
    ASSERT_NE(errorFor(kv, "to"), nullptr);
    EXPECT_NE(errorFor(kv, "to")->message.find("maximum 32"), std::string::npos) << errorFor(kv, "to")->message;
    EXPECT_NE(errorFor(core::validateSweepAxis(axis("hidden_size", 8, 64, 8), llama), "from"), nullptr);
    EXPECT_NE(
        errorFor(core::validateSweepAxis(axis("n_shared_experts", 0, 4, 5, SweepSpacing::Log), preset("deepseek-v3")),
                 "spacing"),
        nullptr);
    EXPECT_NE(errorFor(core::validateSweepAxis(axis("layers", 1, 8, 8), llama), "field"), nullptr);

    const core::SweepResult refused = core::sweep(llama, {}, axis("num_hidden_layers", 64, 8, 10));
    EXPECT_TRUE(core::hasErrors(refused.diagnostics));
    EXPECT_TRUE(refused.points.empty());
}

TEST(Sweep, EveryPointIsOneAnalysisOfTheEditedConfig) {
    const core::ModelConfig llama = preset("llama-3-8b");
    const core::Scenario scenario = scenarioAt(8192, 4);
    const core::SweepResult result = core::sweep(llama, scenario, axis("num_hidden_layers", 1, 64, 64));
    ASSERT_FALSE(core::hasErrors(result.diagnostics));
    ASSERT_EQ(result.points.size(), 64u);
    for (const core::SweepPoint& point : result.points) {
        core::ModelConfig edited = llama;
        edited.numLayers = point.value;
        const core::Analysis single = core::analyze(edited, scenario);
        ASSERT_TRUE(point.valid);
        EXPECT_EQ(point.figures, core::figureValues(single)) << point.value;
        EXPECT_EQ(figureOf(point, DesignFigure::TotalParams), double(single.params.total));
    }
    EXPECT_EQ(result.currentValue, 32);
    EXPECT_EQ(result.currentIndex, 31u);
    EXPECT_EQ(result.currentPosition, 31.0);
    EXPECT_EQ(result.currentFigures, core::figureValues(core::analyze(llama, scenario)));
    EXPECT_FALSE(result.estimate);
}

TEST(Sweep, HeadsThatBreakTheConfigGiveItsFirstErrorAndNoFigures) {
    core::ModelConfig llama = preset("llama-3-8b");
    llama.headDim.reset(); // head_dim follows hidden / heads (128 all the same)
    const core::SweepResult result = core::sweep(llama, {}, axis("num_attention_heads", 30, 34, 5));
    ASSERT_EQ(result.points.size(), 5u);
    for (const core::SweepPoint& point : result.points) {
        core::ModelConfig edited = llama;
        core::edits::setNumHeads(edited, point.value);
        EXPECT_EQ(edited.numHeads % edited.numKvHeads, 0) << point.value;
        const core::Analysis single = core::analyze(edited, {});
        EXPECT_EQ(point.valid, single.valid) << point.value;
        EXPECT_EQ(point.figures, core::figureValues(single)) << point.value;
        // 4096 / heads must be whole: only 32 heads (head_dim 128) is a valid width here.
        EXPECT_EQ(point.valid, point.value == 32) << point.value;
        if (!point.valid) {
            ASSERT_TRUE(point.error.has_value());
            const auto first = std::find_if(single.diagnostics.begin(), single.diagnostics.end(),
                                            [](const auto& d) { return d.severity == core::Severity::Error; });
            EXPECT_EQ(*point.error, *first);
            EXPECT_TRUE(std::all_of(point.figures.begin(), point.figures.end(), [](auto v) { return !v; }));
        }
    }
    // The current value 32 is at index 2 of 30..34.
    EXPECT_EQ(result.currentIndex, 2u);
}

TEST(Sweep, ParametersGrowLinearlyWithLayers) {
    // A uniform Llama stack: every layer adds the same count, and so does its KV cache per token.
    const core::SweepResult result = core::sweep(preset("llama-3-8b"), {}, axis("num_hidden_layers", 1, 128, 128));
    ASSERT_EQ(result.points.size(), 128u);
    const double first = figureOf(result.points[0], DesignFigure::TotalParams);
    const double perLayer = figureOf(result.points[1], DesignFigure::TotalParams) - first;
    const double kvPerLayer = figureOf(result.points[0], DesignFigure::KvBytesPerToken);
    // One Llama 3 8B layer: attention 4096 x (4096 + 2 x 1024 + 4096), FFN 3 x 4096 x 14336, two norms.
    EXPECT_EQ(perLayer, 4096.0 * (4096 + 2 * 1024 + 4096) + 3.0 * 4096 * 14336 + 2 * 4096);
    EXPECT_EQ(kvPerLayer, 2.0 * 8 * 128 * 2); // K and V, 8 heads of 128, BF16
    for (std::size_t i = 1; i < result.points.size(); ++i) {
        const double params = figureOf(result.points[i], DesignFigure::TotalParams);
        EXPECT_GT(params, figureOf(result.points[i - 1], DesignFigure::TotalParams));
        EXPECT_EQ(params, first + double(i) * perLayer);
        EXPECT_EQ(figureOf(result.points[i], DesignFigure::KvBytesPerToken), double(i + 1) * kvPerLayer);
    }
    EXPECT_EQ(figureOf(result.points[31], DesignFigure::TotalParams), 8'030'261'248.0); // the published count
}

TEST(Sweep, ScenarioFieldsScaleTheCache) {
    const core::ModelConfig llama = preset("llama-3-8b");
    const core::SweepResult sequence =
        core::sweep(llama, {}, axis("sequence_length", 1024, 131072, 8, SweepSpacing::Log));
    ASSERT_EQ(sequence.points.size(), 8u);
    for (const core::SweepPoint& point : sequence.points) {
        // Global attention everywhere: the cache is the per-token figure times the tokens.
        EXPECT_EQ(figureOf(point, DesignFigure::KvBytesScenario), 131072.0 * double(point.value)) << point.value;
        EXPECT_EQ(figureOf(point, DesignFigure::TotalParams), 8'030'261'248.0);
    }
    EXPECT_EQ(sequence.currentIndex, 2u); // the default scenario's 4096 tokens
    const core::SweepResult batch =
        core::sweep(llama, scenarioAt(4096), axis("batch_size", 1, 64, 7, SweepSpacing::Log));
    for (const core::SweepPoint& point : batch.points) {
        EXPECT_EQ(figureOf(point, DesignFigure::KvBytesScenario), 131072.0 * 4096 * double(point.value));
    }
}

TEST(Sweep, ExpertsAddTheSameCountEach) {
    const core::ModelConfig mixtral = preset("mixtral-8x7b-v0.1");
    const core::SweepResult result = core::sweep(mixtral, {}, axis("num_experts", 2, 16, 15));
    ASSERT_EQ(result.points.size(), 15u);
    // One expert of one layer: gate, up and down of 4096 x 14336, plus its router row; 32 layers.
    const double perExpert = 32.0 * (3.0 * 4096 * 14336 + 4096);
    for (std::size_t i = 1; i < result.points.size(); ++i) {
        EXPECT_EQ(figureOf(result.points[i], DesignFigure::TotalParams) -
                      figureOf(result.points[i - 1], DesignFigure::TotalParams),
                  perExpert);
        // Top-2 of any count: the active parameters do not change but for the router.
        EXPECT_EQ(figureOf(result.points[i], DesignFigure::ActiveParams) -
                      figureOf(result.points[i - 1], DesignFigure::ActiveParams),
                  32.0 * 4096);
    }
}

TEST(Sweep, CurrentPositionBetweenPoints) {
    const core::SweepResult odd = core::sweep(preset("llama-3-8b"), {}, axis("num_hidden_layers", 1, 63, 32));
    ASSERT_EQ(odd.points.size(), 32u); // 1, 3, ..., 63
    EXPECT_FALSE(odd.currentIndex.has_value());
    EXPECT_EQ(odd.currentPosition, 15.5); // 32 is half way between 31 (index 15) and 33
    const core::SweepResult below = core::sweep(preset("llama-3-8b"), {}, axis("num_hidden_layers", 40, 50, 11));
    EXPECT_FALSE(below.currentPosition.has_value());
}

TEST(Sweep, AnEstimatedConfigIsLabelled) {
    core::ModelConfig llama = preset("llama-3-8b");
    llama.ignoredFields.push_back("some_unknown_field");
    EXPECT_TRUE(core::sweep(llama, {}, axis("num_hidden_layers", 1, 4, 4)).estimate);
}

TEST(IsoLines, ProductHyperbolaIsExactOnGridEdges) {
    // f(x, y) = x y is linear along every grid line, so each crossing lies exactly on x y = level.
    std::vector<double> xs;
    std::vector<double> ys;
    for (int i = 1; i <= 10; ++i) {
        xs.push_back(i);
    }
    for (int j = 1; j <= 8; ++j) {
        ys.push_back(0.5 * j);
    }
    std::vector<std::optional<double>> values;
    for (const double y : ys) {
        for (const double x : xs) {
            values.push_back(x * y);
        }
    }
    const auto lines = core::isoPolylines(xs, ys, values, 6.0);
    ASSERT_EQ(lines.size(), 1u);
    const core::IsoPolyline& line = lines.front();
    for (const core::IsoPoint& p : line) {
        EXPECT_NEAR(p.x * p.y, 6.0, 1e-12) << p.x << ", " << p.y;
        EXPECT_TRUE(std::find(xs.begin(), xs.end(), p.x) != xs.end() ||
                    std::find(ys.begin(), ys.end(), p.y) != ys.end());
    }
    // From the top edge (y = 4, x = 1.5) to the right edge (x = 10, y = 0.6), one crossing per grid line.
    const auto ends = std::minmax(line.front(), line.back(), [](auto a, auto b) { return a.x < b.x; });
    EXPECT_DOUBLE_EQ(ends.first.x, 1.5);
    EXPECT_DOUBLE_EQ(ends.first.y, 4.0);
    EXPECT_DOUBLE_EQ(ends.second.x, 10.0);
    EXPECT_DOUBLE_EQ(ends.second.y, 0.6);
    for (std::size_t k = 1; k < line.size(); ++k) {
        EXPECT_NE(line[k].x < line[k - 1].x, line.front().x < line.back().x); // monotone along the hyperbola
    }
    EXPECT_TRUE(core::isoPolylines(xs, ys, values, 1000.0).empty());
}

TEST(IsoLines, CircleIsOneClosedLoop) {
    std::vector<double> axisValues;
    for (int i = -5; i <= 5; ++i) {
        axisValues.push_back(i);
    }
    std::vector<std::optional<double>> values;
    for (const double y : axisValues) {
        for (const double x : axisValues) {
            values.push_back(x * x + y * y);
        }
    }
    const auto lines = core::isoPolylines(axisValues, axisValues, values, 10.5);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines.front().front(), lines.front().back());
    for (const core::IsoPoint& p : lines.front()) {
        const double r = std::hypot(p.x, p.y);
        EXPECT_GT(r, 3.0);
        EXPECT_LT(r, 3.6);
    }
}

TEST(IsoLines, MissingCellsBreakTheLineAndSaddlesPair) {
    const std::vector<double> xs = {1, 2, 3, 4, 5};
    const std::vector<double> ys = {1, 2, 3, 4, 5};
    std::vector<std::optional<double>> full;
    std::vector<std::optional<double>> holed;
    for (const double y : ys) {
        for (const double x : xs) {
            full.push_back(x + y);
            holed.push_back(x == 3 ? std::nullopt : std::optional<double>(x + y));
        }
    }
    // x + y = 6 runs from (1, 5) to (5, 1); without the column x = 3, the cells beside it are skipped
    // and the line falls in two: x in [1, 2] and x in [4, 5].
    EXPECT_EQ(core::isoPolylines(xs, ys, full, 6.0).size(), 1u);
    const auto broken = core::isoPolylines(xs, ys, holed, 6.0);
    ASSERT_EQ(broken.size(), 2u);
    for (const core::IsoPolyline& line : broken) {
        for (const core::IsoPoint& p : line) {
            EXPECT_TRUE(p.x <= 2 || p.x >= 4) << p.x;
            EXPECT_DOUBLE_EQ(p.x + p.y, 6.0);
        }
    }
    // A saddle: high corners on one diagonal, mean 0.5 at the level: two separate segments.
    const auto saddle = core::isoPolylines({0, 1}, {0, 1}, {1.0, 0.0, 0.0, 1.0}, 0.25);
    ASSERT_EQ(saddle.size(), 2u);
    EXPECT_EQ(saddle[0].size(), 2u);
    EXPECT_EQ(saddle[1].size(), 2u);
    EXPECT_TRUE(core::isoPolylines({0, 1}, {0}, {1.0, 2.0}, 1.5).empty()); // a single row has no cells
}

TEST(SweepGrid, CellsAreAnalysesAndIsoLinesSeparateTheLevels) {
    const core::ModelConfig llama = preset("llama-3-8b");
    core::SweepGridRequest request{
        axis("num_hidden_layers", 8, 64, 15), axis("hidden_size", 2048, 8192, 13), DesignFigure::TotalParams, {}};
    const core::SweepGrid grid = core::sweepGrid(llama, {}, request);
    ASSERT_FALSE(core::hasErrors(grid.diagnostics));
    ASSERT_EQ(grid.xValues.size(), 15u);
    ASSERT_EQ(grid.yValues.size(), 13u);
    ASSERT_EQ(grid.cells.size(), 15u * 13u);
    for (std::size_t j = 0; j < grid.yValues.size(); ++j) {
        for (std::size_t i = 0; i < grid.xValues.size(); ++i) {
            core::ModelConfig edited = llama;
            edited.numLayers = grid.xValues[i];
            edited.hiddenSize = grid.yValues[j];
            const core::Analysis single = core::analyze(edited, {});
            EXPECT_EQ(grid.at(i, j).value, core::figureValue(single, DesignFigure::TotalParams));
            EXPECT_EQ(grid.at(i, j).error.has_value(), !single.valid);
        }
    }
    // Every width is a multiple of 512, so 32 heads always get a whole head_dim: no cell is invalid.
    EXPECT_TRUE(std::all_of(grid.cells.begin(), grid.cells.end(), [](auto& cell) { return cell.value.has_value(); }));
    EXPECT_EQ(grid.currentX, 32);
    EXPECT_EQ(grid.currentY, 4096);
    EXPECT_EQ(grid.currentValue, 8'030'261'248.0);
    ASSERT_EQ(grid.isoLines.size(), 5u); // 1B, 3B, 7B, 13B, 70B
    EXPECT_EQ(grid.isoLines[2].level, 7e9);
    ASSERT_FALSE(grid.isoLines[2].polylines.empty());
    // Each crossing lies on a grid line between two cells whose values bracket the level.
    for (const core::IsoPolyline& line : grid.isoLines[2].polylines) {
        for (const core::IsoPoint& p : line) {
            const auto onX = std::find(grid.xValues.begin(), grid.xValues.end(), std::int64_t(p.x));
            const bool onGridX = onX != grid.xValues.end() && double(*onX) == p.x;
            const auto onY = std::find(grid.yValues.begin(), grid.yValues.end(), std::int64_t(p.y));
            const bool onGridY = onY != grid.yValues.end() && double(*onY) == p.y;
            EXPECT_TRUE(onGridX || onGridY) << p.x << ", " << p.y;
        }
    }
    // Llama 3 8B itself is placed at (32, 4096) with its own count; MoE presets are not.
    const auto it =
        std::find_if(grid.presets.begin(), grid.presets.end(), [](auto& p) { return p.id == "llama-3-8b"; });
    ASSERT_NE(it, grid.presets.end());
    EXPECT_EQ(it->x, 32);
    EXPECT_EQ(it->y, 4096);
    EXPECT_EQ(it->value(DesignFigure::TotalParams), 8'030'261'248.0);
    EXPECT_TRUE(it->inRange);
    for (const core::PlacedPreset& p : grid.presets) {
        const core::ModelConfig config = preset(p.id);
        EXPECT_EQ(config.ffnKind, core::FfnKind::Gated) << p.id;
        EXPECT_EQ(config.architecture, core::ArchitectureKind::DecoderOnly) << p.id;
    }
    EXPECT_EQ(
        std::count_if(grid.presets.begin(), grid.presets.end(), [](auto& p) { return p.id == "mixtral-8x7b-v0.1"; }),
        0);
}

TEST(SweepGrid, RequestErrorsNameTheSecondAxis) {
    const core::ModelConfig llama = preset("llama-3-8b");
    core::SweepGridRequest same{
        axis("num_hidden_layers", 8, 64, 8), axis("num_hidden_layers", 8, 64, 8), DesignFigure::TotalParams, {}};
    EXPECT_NE(errorFor(core::sweepGrid(llama, {}, same).diagnostics, "field2"), nullptr);
    core::SweepGridRequest big{
        axis("num_hidden_layers", 8, 64, 8), axis("hidden_size", 512, 8192, 500), DesignFigure::TotalParams, {}};
    EXPECT_NE(errorFor(core::sweepGrid(llama, {}, big).diagnostics, "steps2"), nullptr);
    core::SweepGridRequest levels{axis("num_hidden_layers", 8, 64, 8),
                                  axis("hidden_size", 512, 8192, 8),
                                  DesignFigure::TotalParams,
                                  {std::nan("")}};
    EXPECT_NE(errorFor(core::sweepGrid(llama, {}, levels).diagnostics, "levels"), nullptr);
}

TEST(SweepGrid, HeadsThenKvHeadsKeepTheYValue) {
    // x is set first: with heads then KV heads, the KV heads are exactly the y value in every cell.
    const core::ModelConfig llama = preset("llama-3-8b");
    core::SweepGridRequest request{axis("num_attention_heads", 16, 64, 4),
                                   axis("num_key_value_heads", 1, 8, 4),
                                   DesignFigure::KvBytesPerToken,
                                   {}};
    const core::SweepGrid grid = core::sweepGrid(llama, {}, request);
    ASSERT_FALSE(core::hasErrors(grid.diagnostics));
    for (std::size_t j = 0; j < grid.yValues.size(); ++j) {
        for (std::size_t i = 0; i < grid.xValues.size(); ++i) {
            const auto& cell = grid.at(i, j);
            // Valid exactly where the KV heads divide the heads; then K and V of each KV head of
            // head_dim 128 (explicit in Llama 3 8B), 32 layers, BF16.
            EXPECT_EQ(cell.value.has_value(), grid.xValues[i] % grid.yValues[j] == 0)
                << grid.xValues[i] << " / " << grid.yValues[j];
            if (cell.value) {
                EXPECT_EQ(*cell.value, 2.0 * double(grid.yValues[j]) * 128 * 32 * 2);
            }
        }
    }
}

TEST(SweepIsoLevels, DefaultsByUnit) {
    EXPECT_EQ(core::defaultIsoLevels(DesignFigure::TotalParams, 1e8, 1e12),
              (std::vector<double>{1e9, 3e9, 7e9, 13e9, 70e9}));
    EXPECT_EQ(core::defaultIsoLevels(DesignFigure::KvBytesPerToken, 1000, 5e9),
              (std::vector<double>{1024.0, 1048576.0, 1073741824.0}));
    // Fewer than two powers of 1024 inside: powers of two.
    EXPECT_EQ(core::defaultIsoLevels(DesignFigure::KvBytesPerToken, 3000, 40000),
              (std::vector<double>{4096.0, 8192.0, 16384.0, 32768.0}));
    const auto seconds = core::defaultIsoLevels(DesignFigure::TimeToFirstToken, 0.003, 0.5);
    ASSERT_EQ(seconds.size(), 2u);
    EXPECT_NEAR(seconds[0], 0.01, 1e-15);
    EXPECT_NEAR(seconds[1], 0.1, 1e-15);
    EXPECT_LE(core::defaultIsoLevels(DesignFigure::TrainingFlops, 1, 1e100).size(), 8u);
}

TEST(SweepText, CsvHasOneHeaderAndAnExactRowPerPoint) {
    const core::SweepResult result = core::sweep(preset("llama-3-8b"), {}, axis("num_hidden_layers", 31, 33, 3));
    const std::string csv = core::sweepCsv(result);
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "num_hidden_layers,total_params,active_params,kv_bytes_per_token,kv_bytes,weight_bytes,flops_per_token,"
              "prefill_flops,training_flops,serving_bytes,training_bytes_per_gpu,decode_tokens_per_second,"
              "time_to_first_token,error");
    EXPECT_NE(csv.find("\n32,8030261248,8030261248,131072,"), std::string::npos) << csv;
    const nlohmann::json json = core::sweepJson(result, axis("num_hidden_layers", 31, 33, 3), {});
    EXPECT_EQ(json["points"][1]["total_params"], 8030261248u);
    EXPECT_EQ(json["current_index"], 1);
    for (const core::DesignFigureInfo& info : core::designFigures()) {
        EXPECT_TRUE(json["points"][0].contains(std::string(info.key))) << info.key;
    }
}

} // namespace
} // namespace archplay::test
