// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/ModelZoo.h"

#include "core/analysis/DesignFigures.h"
#include "core/report/Tables.h"
#include "core/report/ZooQuery.h"
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

    // The shape columns are the config's fields (Llama 3 8B's config.json), the costs the design figures.
    EXPECT_EQ(r.origin, core::ZooOrigin::Preset);
    EXPECT_EQ(r.status, core::ZooStatus::Exact);
    EXPECT_TRUE(r.reason.empty());
    EXPECT_EQ(r.modelType, "llama");
    EXPECT_EQ(r.architecture, "decoder-only");
    EXPECT_EQ(r.kind, "dense");
    EXPECT_EQ(r.hiddenSize, 4096);
    EXPECT_EQ(r.heads, 32);
    EXPECT_EQ(r.kvHeads, 8);
    EXPECT_EQ(r.headDim, 128);
    EXPECT_DOUBLE_EQ(r.ffnRatio, 14336.0 / 4096.0);
    EXPECT_EQ(r.experts, 0);
    EXPECT_EQ(r.vocabSize, 128256);
    EXPECT_EQ(r.context, 8192);
    EXPECT_EQ(r.flopsPerToken, core::figureValue(llama, core::DesignFigure::FlopsPerToken));
    EXPECT_EQ(r.decodeTokensPerSecond, core::figureValue(llama, core::DesignFigure::DecodeTokensPerSecond));
    const core::ZooRow& mixtral = row("mixtral-8x7b-v0.1");
    EXPECT_EQ(mixtral.kind, "moe");
    EXPECT_EQ(mixtral.experts, 8);
    EXPECT_EQ(mixtral.topK, 2);
    EXPECT_DOUBLE_EQ(mixtral.ffnRatio, 14336.0 / 4096.0); // the expert width over the hidden size
    // Latent attention has no hidden / heads: its query/key heads are qk_nope + qk_rope wide (128 + 64);
    // the old column read 7168 / 128 = 56 and 5120 / 128 = 40.
    EXPECT_EQ(row("deepseek-v3").headDim, 192);
    EXPECT_EQ(row("deepseek-v2").headDim, 192);
    EXPECT_EQ(row("flan-t5-base").kind, "encoder-decoder");
    EXPECT_EQ(row("bert-base-uncased").kind, "encoder");
    // Hybrid stacks name both of their kinds: linear attention or Mamba mixers, and MoE when they route.
    EXPECT_EQ(row("qwen3-next-80b-a3b").kind, "hybrid+moe");
    EXPECT_EQ(row("falcon-h1-7b").kind, "hybrid");
    EXPECT_EQ(row("llama-3-8b").released, (core::ReleaseDate{2024, 4}));
    EXPECT_EQ(row("glm-5").released, (core::ReleaseDate{2026, 0})); // the month is not recorded
}

/// The per-layer count of a Llama-style layer written out from its config: q, k, v, o (with the
/// q/k/v biases of Qwen2), a SwiGLU MLP of three matrices and two RMSNorm weights.
std::uint64_t llamaLayer(std::uint64_t hidden, std::uint64_t heads, std::uint64_t kvHeads, std::uint64_t headDim,
                         std::uint64_t intermediate, bool qkvBias) {
    const std::uint64_t q = hidden * heads * headDim + (qkvBias ? heads * headDim : 0);
    const std::uint64_t kv = hidden * kvHeads * headDim + (qkvBias ? kvHeads * headDim : 0);
    return q + 2 * kv + heads * headDim * hidden + 3 * hidden * intermediate + 2 * hidden;
}

TEST(ModelZoo, LayerEstimatesAreTheFormulasByHand) {
    const core::ModelZoo zoo = core::modelZoo({});
    auto row = [&](const std::string& id) {
        return *std::find_if(zoo.rows.begin(), zoo.rows.end(), [&](const core::ZooRow& r) { return r.id == id; });
    };
    struct Case {
        std::string id;
        double total; // the published count (preset metadata)
        double vocab, hidden, layers;
        std::uint64_t perLayer, outer; // by hand: the layer above, and 2 V d + d (untied head, final norm)
    };
    const Case cases[] = {
        {"llama-3-8b", 8'030'261'248.0, 128256, 4096, 32, llamaLayer(4096, 32, 8, 128, 14336, false),
         2ull * 128256 * 4096 + 4096},
        {"qwen2.5-7b", 7'615'616'512.0, 152064, 3584, 28, llamaLayer(3584, 28, 4, 128, 18944, true),
         2ull * 152064 * 3584 + 3584},
    };
    for (const Case& c : cases) {
        const core::ZooRow& r = row(c.id);
        ASSERT_EQ(r.publishedParams, static_cast<std::uint64_t>(c.total)) << c.id;
        const double rule12 = (c.total - c.vocab * c.hidden * 2) / (12 * c.hidden * c.hidden);
        EXPECT_DOUBLE_EQ(r.layerEstimate.rule12, rule12) << c.id;
        EXPECT_DOUBLE_EQ(*core::zooNumber(r, core::ZooColumn::LayersRule12Error), rule12 - c.layers) << c.id;
        EXPECT_EQ(r.layerEstimate.perLayerParams, static_cast<double>(c.perLayer)) << c.id;
        EXPECT_EQ(r.layerEstimate.outerParams, c.outer) << c.id;
        EXPECT_DOUBLE_EQ(r.layerEstimate.perLayer, c.layers) << c.id; // a uniform stack: exact
        EXPECT_DOUBLE_EQ(*core::zooNumber(r, core::ZooColumn::LayersPerLayerError), 0.0) << c.id;
    }
    // The issue's example: the 12 L d^2 rule puts Qwen2.5-7B at about 42 layers; it has 28.
    EXPECT_NEAR(row("qwen2.5-7b").layerEstimate.rule12, 42.3, 0.05);
    // A mixed stack (3 dense layers, then MoE): the dominant MoE layer, so the estimate is off.
    const core::ZooRow& deepseek = row("deepseek-v3");
    EXPECT_LT(deepseek.layerEstimate.perLayer, static_cast<double>(deepseek.layers()));
    // Dense and MoE layers in turn (24 each): the two counts are equally frequent, their mean is used.
    const core::ZooRow& maverick = row("llama-4-maverick");
    EXPECT_DOUBLE_EQ(maverick.layerEstimate.perLayer, 48.0);
}

TEST(ModelZoo, CsvMarkdownAndJsonHoldExactNumbers) {
    const core::ModelZoo zoo = core::modelZoo({});
    const std::string csv = core::zooCsv(zoo);
    std::string header;
    for (const core::ZooColumnInfo& info : core::zooColumns()) {
        header += (header.empty() ? "" : ",") + std::string(info.key);
    }
    EXPECT_EQ(csv.rfind(header + "\n", 0), 0u);
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), static_cast<long>(zoo.rows.size() + 1));
    EXPECT_NE(
        csv.find("llama-3-8b,preset,,Llama 3 8B,Llama,2024-04,llama,decoder-only,dense,exact,32,4096,32,8,128,GQA 8/32,"
                 "SwiGLU,3.5,0,0,128256,8192,8030261248,8030261248,8030261248,yes,131072,536870912,16060522496,"
                 "bf16,,yes,\"fits, 19% used\","),
        std::string::npos)
        << csv;

    const std::string md = core::zooMarkdown(zoo);
    EXPECT_EQ(std::count(md.begin(), md.end(), '\n'), static_cast<long>(zoo.rows.size() + 2));
    EXPECT_NE(
        md.find(
            "| `llama-3-8b` | preset |  | Llama 3 8B | Llama | 2024-04 | llama | decoder-only | dense | exact | 32 | "),
        std::string::npos)
        << md;
    EXPECT_NE(
        md.find("| 8.03B | 8.03B | 8.03B | yes | 128 KiB | 512 MiB | 15.0 GiB | bf16 |  | yes | fits, 19% used |"),
        std::string::npos)
        << md;
    EXPECT_EQ(md.find("Not counted"), std::string::npos);

    const nlohmann::json json = core::zooJson(zoo);
    ASSERT_EQ(json.at("models").size(), zoo.rows.size());
    const auto llama = std::find_if(json["models"].begin(), json["models"].end(),
                                    [](const nlohmann::json& m) { return m["id"] == "llama-3-8b"; });
    ASSERT_NE(llama, json["models"].end());
    EXPECT_EQ((*llama)["total_params"], 8'030'261'248u);
    EXPECT_EQ((*llama)["matches_published"], true);
    EXPECT_EQ((*llama)["fits"], true);
    EXPECT_EQ((*llama)["layers"], 32);
    EXPECT_EQ((*llama)["ffn_ratio"], 3.5);
    EXPECT_EQ((*llama)["layers_per_layer_error"], 0);
    EXPECT_EQ((*llama)["reason"], nullptr);
    EXPECT_EQ(json["scenario"]["kv_dtype"], "bf16");
}

TEST(ModelZoo, ABadScenarioIsReportedAndNoRowIsCounted) {
    core::Scenario scenario;
    scenario.gpuCount = 0;
    const core::ModelZoo zoo = core::modelZoo(scenario);
    ASSERT_EQ(zoo.rows.size(), core::builtinPresets().size());
    for (const core::ZooRow& row : zoo.rows) {
        EXPECT_EQ(row.status, core::ZooStatus::NotCounted) << row.id;
        EXPECT_EQ(row.totalParams, 0u) << row.id;
        EXPECT_EQ(row.reasonField, "gpu_count") << row.id;
    }
    ASSERT_EQ(zoo.diagnostics.size(), 1u); // once, not once per preset
    EXPECT_EQ(zoo.diagnostics.front().field, "gpu_count");
}

TEST(ModelZoo, RowsForConfigsThatAreNotPresets) {
    core::ZooInput estimate;
    estimate.origin = core::ZooOrigin::File;
    estimate.source = "/models/custom/config.json";
    nlohmann::json object = nlohmann::json::parse(R"({"model_type": "zoo_test_type", "vocab_size": 1000,
        "hidden_size": 256, "intermediate_size": 1024, "num_hidden_layers": 4, "num_attention_heads": 8,
        "num_key_value_heads": 8, "zoo_mixer_pattern": "abab"})");
    estimate.imported = core::importConfig(object, {.bestEffort = true});
    ASSERT_TRUE(estimate.imported.config);

    core::ZooInput invalid = estimate;
    invalid.source = "/models/bad/config.json";
    object["hidden_size"] = -256;
    object.erase("zoo_mixer_pattern");
    invalid.imported = core::importConfig(object, {.bestEffort = true, .refuseInvalid = true});

    const core::ModelZoo zoo = core::buildZoo({invalid, estimate}, {});
    ASSERT_EQ(zoo.rows.size(), 2u);
    const core::ZooRow& counted = zoo.rows[0]; // counted rows come first
    EXPECT_EQ(counted.id, estimate.source);
    EXPECT_EQ(counted.status, core::ZooStatus::Estimate);
    EXPECT_EQ(counted.reason, "estimate: ignored zoo_mixer_pattern");
    EXPECT_EQ(counted.family, "zoo_test_type");
    EXPECT_EQ(counted.totalParams, core::analyze(*estimate.imported.config, {}).params.total);
    const core::ZooRow& refused = zoo.rows[1];
    EXPECT_EQ(refused.status, core::ZooStatus::NotCounted);
    EXPECT_EQ(refused.reasonField, "hidden_size");
    EXPECT_NE(refused.reason.find("hidden_size"), std::string::npos) << refused.reason;
    EXPECT_FALSE(core::zooNumber(refused, core::ZooColumn::TotalParams));
    EXPECT_TRUE(zoo.diagnostics.empty());
}

TEST(ModelZoo, ThreadsDoNotChangeTheRows) {
    const std::vector<core::ZooInput> inputs = core::presetZooInputs();
    const core::ModelZoo one = core::buildZoo(inputs, {}, 1);
    const core::ModelZoo four = core::buildZoo(inputs, {}, 4);
    ASSERT_EQ(one.rows.size(), four.rows.size());
    for (std::size_t i = 0; i < one.rows.size(); ++i) {
        EXPECT_EQ(core::zooCsv({one.scenario, {one.rows[i]}, {}}), core::zooCsv({four.scenario, {four.rows[i]}, {}}));
    }
}

} // namespace
} // namespace archplay::test
