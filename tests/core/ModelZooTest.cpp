// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/ModelZoo.h"

#include "core/report/Tables.h"
#include "tests/support/TestSupport.h"

#include <nlohmann/json.hpp>

namespace archplay::test {
namespace {

TEST(ModelZoo, OneRowPerPresetSmallestFirst) {
    const core::ModelZoo zoo = core::modelZoo({});
    EXPECT_TRUE(zoo.diagnostics.empty());
    ASSERT_EQ(zoo.rows.size(), core::builtinPresets().size());
    for (std::size_t i = 1; i < zoo.rows.size(); ++i) {
        EXPECT_LE(zoo.rows[i - 1].totalParams, zoo.rows[i].totalParams);
    }
}

TEST(ModelZoo, EveryPublishedCountMatches) {
    int published = 0;
    for (const core::ZooRow& row : core::modelZoo({}).rows) {
        if (row.publishedParams) {
            ++published;
            EXPECT_TRUE(row.matchesPublished) << row.id << ": " << row.totalParams << " vs " << *row.publishedParams;
            EXPECT_EQ(row.totalParams, *row.publishedParams) << row.id;
        } else {
            EXPECT_FALSE(row.matchesPublished) << row.id;
        }
    }
    EXPECT_GT(published, 20);
}

TEST(ModelZoo, RowsCarryTheAnalysisFigures) {
    core::Scenario scenario;
    scenario.sequenceLength = 8192;
    scenario.kvDType = core::DType::FP8;
    const core::ModelZoo zoo = core::modelZoo(scenario);
    auto row = [&](const std::string& id) {
        return *std::find_if(zoo.rows.begin(), zoo.rows.end(), [&](const core::ZooRow& r) { return r.id == id; });
    };
    const core::Analysis llama = analyzePreset("llama-3-8b", scenario);
    const core::ZooRow& r = row("llama-3-8b");
    EXPECT_EQ(r.totalParams, 8'030'261'248u);
    EXPECT_EQ(r.activeParams, llama.params.active);
    EXPECT_EQ(r.layersLabel(), "32");
    EXPECT_EQ(r.attention, "GQA 8/32");
    EXPECT_EQ(r.ffn, "SwiGLU");
    EXPECT_EQ(r.kvBytesPerToken, 65'536u);
    EXPECT_EQ(r.kvTotalBytes, 65'536ull * 8192);
    EXPECT_EQ(r.weightBytes, 2 * 8'030'261'248ull);
    EXPECT_EQ(r.fit, core::fitVerdict(llama.devices));
    EXPECT_EQ(row("mixtral-8x7b-v0.1").ffn, "MoE 2/8");
    EXPECT_EQ(row("flan-t5-base").layersLabel(), "12 + 12");
    EXPECT_FALSE(row("llama-3.1-405b").fits);
}

TEST(ModelZoo, CsvMarkdownAndJsonHoldExactNumbers) {
    const core::ModelZoo zoo = core::modelZoo({});
    const std::string csv = core::zooCsv(zoo);
    EXPECT_EQ(csv.rfind("id,name,family,total_params,active_params,published_params,matches_published,", 0), 0u);
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), static_cast<long>(zoo.rows.size() + 1));
    EXPECT_NE(csv.find("llama-3-8b,Llama 3 8B,Llama,8030261248,8030261248,8030261248,yes,32,GQA 8/32,SwiGLU,131072,"
                       "536870912,16060522496,yes,\"fits, 19% used\"\n"),
              std::string::npos)
        << csv;

    const std::string md = core::zooMarkdown(zoo);
    EXPECT_EQ(std::count(md.begin(), md.end(), '\n'), static_cast<long>(zoo.rows.size() + 2));
    EXPECT_NE(md.find("| Llama 3 8B | `llama-3-8b` | Llama | 8,030,261,248 | 8,030,261,248 | 8,030,261,248 | yes | 32 "
                      "| GQA 8/32 | SwiGLU | 128 KiB | 512 MiB | 15.0 GiB | fits, 19% used |"),
              std::string::npos)
        << md;

    const nlohmann::json json = core::zooJson(zoo);
    ASSERT_EQ(json.at("models").size(), zoo.rows.size());
    const auto llama = std::find_if(json["models"].begin(), json["models"].end(),
                                    [](const nlohmann::json& m) { return m["id"] == "llama-3-8b"; });
    ASSERT_NE(llama, json["models"].end());
    EXPECT_EQ((*llama)["total_params"], 8'030'261'248u);
    EXPECT_EQ((*llama)["matches_published"], true);
    EXPECT_EQ(json["scenario"]["kv_dtype"], "bf16");
}

TEST(ModelZoo, ABadScenarioIsReportedNotTabled) {
    core::Scenario scenario;
    scenario.tensorParallel = 3;
    const core::ModelZoo zoo = core::modelZoo(scenario);
    EXPECT_TRUE(zoo.rows.empty());
    ASSERT_FALSE(zoo.diagnostics.empty());
    EXPECT_EQ(zoo.diagnostics.front().field, "tensor_parallel");
}

} // namespace
} // namespace archplay::test
