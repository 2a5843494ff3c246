// SPDX-License-Identifier: GPL-3.0-or-later
// The compare table: figures, differences and ratios read from each config's own analysis, the
// parameters by component, the stacks and the config.json fields that differ, and its exports.
#include "core/design/Compare.h"

#include "core/io/ConfigJson.h"
#include "tests/support/TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <sstream>

namespace archplay::test {
namespace {

core::Comparison comparePresets(const std::vector<std::string>& ids, const core::Scenario& scenario = {}) {
    std::vector<std::pair<std::string, core::ModelConfig>> configs;
    for (const std::string& id : ids) {
        configs.emplace_back(id, preset(id));
    }
    return core::compareConfigs(configs, scenario);
}

const core::ConfigFieldRow* findField(const core::Comparison& comparison, const std::string& key) {
    for (const core::ConfigFieldRow& row : comparison.configFields) {
        if (row.key == key) {
            return &row;
        }
    }
    return nullptr;
}

const core::CompareRow* findComponent(const core::Comparison& comparison, const std::string& key) {
    for (const core::CompareRow& row : comparison.components) {
        if (row.key == key) {
            return &row;
        }
    }
    return nullptr;
}

TEST(Compare, DifferencesAreTheDifferencesOfTheAnalysesFigures) {
    const core::Scenario scenario = scenarioAt(8192, 4);
    const std::vector<std::string> ids = {"llama-3-8b", "mixtral-8x7b-v0.1", "qwen3-8b", "gemma-3-1b"};
    const core::Comparison comparison = comparePresets(ids, scenario);
    ASSERT_TRUE(comparison.diagnostics.empty());
    ASSERT_EQ(comparison.columns.size(), 4u);
    std::vector<core::Analysis> analyses;
    for (const std::string& id : ids) {
        analyses.push_back(analyzePreset(id, scenario));
    }
    ASSERT_EQ(comparison.figures.size(), core::designFigures().size());
    for (std::size_t f = 0; f < comparison.figures.size(); ++f) {
        const core::CompareRow& row = comparison.figures[f];
        const core::DesignFigure figure = core::designFigures()[f].figure;
        EXPECT_EQ(row.key, core::figureInfo(figure).key);
        ASSERT_EQ(row.cells.size(), 4u);
        const auto baseline = core::figureValue(analyses[0], figure);
        EXPECT_EQ(row.cells[0].value, baseline) << row.key;
        EXPECT_FALSE(row.cells[0].difference.has_value());
        for (std::size_t i = 1; i < 4; ++i) {
            const auto value = core::figureValue(analyses[i], figure);
            EXPECT_EQ(row.cells[i].value, value) << row.key << " " << ids[i];
            ASSERT_EQ(row.cells[i].difference.has_value(), value && baseline) << row.key;
            if (value && baseline) {
                EXPECT_EQ(*row.cells[i].difference, *value - *baseline) << row.key << " " << ids[i];
                if (*baseline != 0) {
                    EXPECT_EQ(*row.cells[i].ratio, *value / *baseline) << row.key;
                }
            }
        }
    }
    // The parameter difference, from the integer counts: Mixtral 46,702,792,704 - Llama 3 8B 8,030,261,248.
    EXPECT_EQ(comparison.figures[0].cells[1].difference, 46'702'792'704.0 - 8'030'261'248.0);
    EXPECT_EQ(comparison.figures[0].cells[1].differenceExact, "+38,672,531,456");
    EXPECT_EQ(comparison.figures[0].cells[1].ratioText, "5.82\u00d7"); // 46.70 / 8.03 = 5.816
    // Gemma 3 1B against Llama 3 8B: 999,885,952 / 8,030,261,248 = 0.1245.
    EXPECT_EQ(comparison.figures[0].cells[3].ratioText, "0.125\u00d7");
}

TEST(Compare, LlamaThreeAgainstThreePointOneDiffersInContextAndRopeScaling) {
    const core::Comparison comparison = comparePresets({"llama-3-8b", "llama-3.1-8b"});
    ASSERT_TRUE(comparison.diagnostics.empty());
    EXPECT_FALSE(comparison.modelTypeDiffers);
    // Same tensors: every count and the cache per token are equal (difference 0, ratio 1).
    for (const core::CompareRow& row : comparison.figures) {
        if (row.key == "total_params" || row.key == "active_params" || row.key == "kv_bytes_per_token") {
            EXPECT_EQ(row.cells[1].difference, 0.0) << row.key;
            EXPECT_EQ(row.cells[1].differenceText, "0") << row.key;
            EXPECT_EQ(row.cells[1].ratio, 1.0) << row.key;
        }
    }
    const core::ConfigFieldRow* context = findField(comparison, "max_position_embeddings");
    ASSERT_NE(context, nullptr);
    EXPECT_EQ(context->values[0], "8192");
    EXPECT_EQ(context->values[1], "131072");
    EXPECT_EQ(context->differs, (std::vector<bool>{false, true}));
    const core::ConfigFieldRow* factor = findField(comparison, "rope_scaling.factor");
    ASSERT_NE(factor, nullptr);
    EXPECT_FALSE(factor->values[0].has_value()); // Llama 3 has no rope_scaling
    EXPECT_EQ(factor->values[1], "8.0");
    EXPECT_EQ(findField(comparison, "hidden_size"), nullptr);

    // Every listed key differs and every other key is equal, checked on the written config.json.
    const nlohmann::json a = core::flattenedConfigJson(preset("llama-3-8b"));
    const nlohmann::json b = core::flattenedConfigJson(preset("llama-3.1-8b"));
    for (const auto& [key, value] : a.items()) {
        EXPECT_FALSE(value.is_object() && !value.empty()) << key;
        const bool same = b.contains(key) && b[key] == value;
        EXPECT_EQ(findField(comparison, key) == nullptr, same) << key;
    }
    for (const auto& item : b.items()) {
        if (!a.contains(item.key())) {
            EXPECT_NE(findField(comparison, item.key()), nullptr) << item.key();
        }
    }
}

TEST(Compare, ComponentsAddUpAndAZeroBaselineHasNoRatio) {
    const core::Comparison comparison = comparePresets({"llama-3-8b", "mixtral-8x7b-v0.1"});
    EXPECT_TRUE(comparison.modelTypeDiffers); // llama against mixtral
    for (std::size_t i = 0; i < 2; ++i) {
        double sum = 0;
        for (const core::CompareRow& row : comparison.components) {
            sum += row.cells[i].value.value_or(0);
        }
        EXPECT_EQ(sum, *comparison.figures[0].cells[i].value) << i;
    }
    const core::CompareRow* experts = findComponent(comparison, "params.routed_experts");
    ASSERT_NE(experts, nullptr);
    EXPECT_EQ(experts->label, "Routed experts");
    EXPECT_EQ(experts->cells[0].value, 0.0);
    EXPECT_FALSE(experts->cells[1].ratio.has_value());
    EXPECT_EQ(experts->cells[1].ratioText, "n/a: baseline is 0");
    // Mixtral's experts: 32 layers x 8 experts x 3 x 4096 x 14336.
    EXPECT_EQ(experts->cells[1].difference, 32.0 * 8 * 3 * 4096 * 14336);
    const core::CompareRow* attention = findComponent(comparison, "params.attention");
    ASSERT_NE(attention, nullptr);
    EXPECT_EQ(attention->cells[1].difference, 0.0); // the same attention: 32 x (2 x 4096² + 2 x 4096 x 1024)
    EXPECT_EQ(findComponent(comparison, "params.pooler"), nullptr); // no config has one

    const core::CompareStack& stack = comparison.columns[1].stack;
    EXPECT_EQ(stack.layerCount, 32);
    EXPECT_EQ(stack.attention, "GQA");
    EXPECT_EQ(stack.kindsLabel,
              core::layerKindsLabel(preset("mixtral-8x7b-v0.1"), core::planLayers(preset("mixtral-8x7b-v0.1"))));
    std::int64_t layers = 0;
    for (const core::CompareLayerRun& run : stack.runs) {
        layers += run.run.count;
        EXPECT_FALSE(run.name.empty());
    }
    EXPECT_EQ(layers, 32);
}

TEST(Compare, LargeRatiosAreWrittenWholeWithoutAnExponent) {
    const core::Comparison comparison = comparePresets({"gpt-2", "llama-3.1-405b"});
    const core::CompareCell& cell = comparison.figures[0].cells[1];
    ASSERT_TRUE(cell.ratio.has_value());
    EXPECT_GT(*cell.ratio, 1000);
    EXPECT_EQ(cell.ratioText, std::to_string(std::lround(*cell.ratio)) + "\u00d7");
}

TEST(Compare, KvCurvesShareOneAxisAndAreEachConfigsOwnCache) {
    // Gemma 2's sliding layers bend its curve at 4,096; BERT keeps no cache. The curves end at the
    // longest context of the three (Gemma 2's 8,192 against Llama 3's 8,192 and BERT's 512), and each
    // is kvCurves() of its own config over its own lengths to that end.
    core::Scenario scenario;
    scenario.sequenceLength = 2048;
    const core::Comparison comparison = comparePresets({"llama-3-8b", "gemma-2-9b", "bert-base-uncased"}, scenario);
    ASSERT_TRUE(comparison.diagnostics.empty());
    ASSERT_EQ(comparison.kvCurves.size(), 3u);
    const core::ModelConfig llama = preset("llama-3-8b");
    const core::ModelConfig gemma = preset("gemma-2-9b");
    EXPECT_EQ(comparison.kvLongest, std::uint64_t(std::max(llama.maxPositions, gemma.maxPositions)));
    EXPECT_FALSE(comparison.kvCurves[2].has_value()) << "an encoder keeps no cache";
    for (std::size_t i = 0; i < 2; ++i) {
        const core::Analysis analysis = analyzePreset(i == 0 ? "llama-3-8b" : "gemma-2-9b", scenario);
        ASSERT_TRUE(comparison.kvCurves[i].has_value());
        const core::KvCurve& curve = *comparison.kvCurves[i];
        const std::vector<core::KvCurve> own =
            core::kvCurves(analysis.config, analysis.plan,
                           core::kvCurveLengths(analysis.plan, comparison.kvLongest, scenario.sequenceLength), scenario,
                           {scenario.kvDType});
        ASSERT_EQ(own.size(), 1u);
        EXPECT_EQ(curve.lengths, own.front().lengths);
        EXPECT_EQ(curve.bytes, own.front().bytes);
        EXPECT_EQ(curve.lengths.back(), comparison.kvLongest);
        // At the scenario's length the curve is the analysis's own cache.
        const auto at = std::find(curve.lengths.begin(), curve.lengths.end(), scenario.sequenceLength);
        ASSERT_NE(at, curve.lengths.end());
        EXPECT_EQ(curve.bytes[std::size_t(at - curve.lengths.begin())], analysis.kv.totalBytes);
    }
}

TEST(Compare, RefusesTooManyNoneAndMixedScenarios) {
    EXPECT_TRUE(core::hasErrors(core::compareAnalyses({}).diagnostics));
    const auto analysis = std::make_shared<const core::Analysis>(analyzePreset("llama-3-8b"));
    const core::Comparison five =
        core::compareAnalyses({{"a", analysis}, {"b", analysis}, {"c", analysis}, {"d", analysis}, {"e", analysis}});
    ASSERT_TRUE(core::hasErrors(five.diagnostics));
    EXPECT_EQ(five.diagnostics.front().field, "compare");
    EXPECT_TRUE(five.columns.empty());
    const auto longer = std::make_shared<const core::Analysis>(analyzePreset("llama-3-8b", scenarioAt(8192)));
    const core::Comparison mixed = core::compareAnalyses({{"a", analysis}, {"b", longer}});
    ASSERT_TRUE(core::hasErrors(mixed.diagnostics));
    EXPECT_EQ(mixed.diagnostics.front().field, "scenario");
    EXPECT_TRUE(mixed.figures.empty());
    EXPECT_FALSE(core::hasErrors(core::compareAnalyses({{"a", analysis}}).diagnostics));
}

TEST(Compare, AnInvalidConfigHasNoFiguresAndSaysWhy) {
    core::ModelConfig broken = preset("llama-3-8b");
    broken.numKvHeads = 5;
    const core::Comparison comparison = core::compareConfigs({{"broken", broken}, {"llama", preset("llama-3-8b")}}, {});
    ASSERT_EQ(comparison.columns.size(), 2u);
    EXPECT_FALSE(comparison.columns[0].valid);
    EXPECT_NE(comparison.columns[0].error.find("num_key_value_heads"), std::string::npos);
    for (const core::CompareRow& row : comparison.figures) {
        EXPECT_FALSE(row.cells[0].value.has_value()) << row.key;
        EXPECT_EQ(row.cells[1].ratioText, "n/a: no baseline value") << row.key;
        EXPECT_FALSE(row.cells[1].difference.has_value()) << row.key;
    }
    const auto notes = core::compareNotes(comparison);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("broken is invalid"), std::string::npos);
}

TEST(Compare, AnEstimatedConfigIsLabelledSo) {
    core::ModelConfig estimated = preset("llama-3-8b");
    estimated.ignoredFields = {"moe_k"};
    const core::Comparison comparison =
        core::compareConfigs({{"llama", preset("llama-3-8b")}, {"guess", estimated}}, {});
    EXPECT_TRUE(comparison.columns[0].estimate.empty());
    EXPECT_EQ(comparison.columns[1].estimate, "estimate: ignores moe_k");
    const auto notes = core::compareNotes(comparison);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("guess: every figure is an estimate: ignores moe_k"), std::string::npos) << notes[0];
    EXPECT_NE(core::compareMarkdown(comparison).find("estimate: ignores moe_k"), std::string::npos);
}

TEST(Compare, ExportsHoldTheSameTable) {
    const core::Comparison comparison = comparePresets({"llama-3-8b", "llama-3.1-8b", "mixtral-8x7b-v0.1"});
    const std::string csv = core::compareCsv(comparison);
    std::istringstream lines(csv);
    std::string header;
    std::getline(lines, header);
    EXPECT_EQ(header, "section,key,label,llama-3-8b,llama-3.1-8b,mixtral-8x7b-v0.1,llama-3.1-8b - llama-3-8b,"
                      "llama-3.1-8b / llama-3-8b,mixtral-8x7b-v0.1 - llama-3-8b,mixtral-8x7b-v0.1 / llama-3-8b");
    std::string line;
    std::size_t rows = 0;
    while (std::getline(lines, line)) {
        ++rows;
        EXPECT_EQ(csvFieldCount(line), csvFieldCount(header)) << line;
        EXPECT_NE(line.rfind("section", 0), 0u) << "a second header: " << line;
    }
    EXPECT_EQ(rows, comparison.figures.size() + comparison.components.size() + 3 + comparison.configFields.size());
    EXPECT_NE(csv.find("figure,total_params,Total parameters,8030261248,8030261248,46702792704,0,1,38672531456,"),
              std::string::npos)
        << csv;

    const std::string markdown = core::compareMarkdown(comparison);
    EXPECT_EQ(markdown.rfind("| Quantity | llama-3-8b |", 0), 0u) << markdown;
    EXPECT_NE(markdown.find("| config: rope_scaling.factor | (absent) | 8.0 | (absent) |"), std::string::npos)
        << markdown;
    EXPECT_NE(markdown.find("model_type differs"), std::string::npos);
    EXPECT_NE(markdown.find("- Scenario: 4,096 tokens, batch 1"), std::string::npos) << markdown;

    const std::string latex = core::compareLatex(comparison);
    EXPECT_NE(latex.find("\\toprule"), std::string::npos);
    EXPECT_NE(latex.find("\\bottomrule"), std::string::npos);
    EXPECT_NE(latex.find("rope\\_scaling.factor"), std::string::npos) << latex;

    const nlohmann::json json = core::compareJson(comparison);
    EXPECT_EQ(json["configs"].size(), 3u);
    EXPECT_EQ(json["figures"][0]["unit"], "count");
    EXPECT_EQ(json["figures"][2]["unit"], "bytes"); // KV cache per token
    EXPECT_EQ(json["figures"][0]["cells"][2]["value"], 46'702'792'704u);
    EXPECT_EQ(json["figures"][0]["cells"][2]["difference"], 38'672'531'456.0);
    EXPECT_TRUE(json["figures"][0]["cells"][0]["difference"].is_null());
    EXPECT_EQ(json["model_type_differs"], true);
    bool found = false;
    for (const auto& field : json["config_fields"]) {
        if (field["key"] == "rope_scaling.factor") {
            found = true;
            EXPECT_TRUE(field["values"][0].is_null());
            EXPECT_EQ(field["values"][1], 8.0);
        }
    }
    EXPECT_TRUE(found);
}

} // namespace
} // namespace archplay::test
