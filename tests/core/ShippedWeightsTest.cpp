// SPDX-License-Identifier: GPL-3.0-or-later
// The weights as a checkpoint ships them (quantization_config) against the formats' rules by hand.
#include "core/cost/WeightFormats.h"
#include "core/io/Session.h"
#include "core/report/ZooQuery.h"
#include "core/util/Format.h"
#include "tests/support/TestSupport.h"

namespace archplay::test {
namespace {

using core::WeightFormat;

/// A small Llama config.json with `quantization` as its quantization_config.
std::optional<core::ModelConfig> llamaWith(const std::string& quantization) {
    const std::string text = R"({"model_type": "llama", "hidden_size": 256, "intermediate_size": 512,
        "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 1000,
        "max_position_embeddings": 2048, "quantization_config": )" +
                             quantization + "}";
    return core::importConfigText(text).config;
}

TEST(ShippedWeights, GptOss120bOpensWithMxfp4ExpertsAndEverythingElseIn16Bits) {
    const core::Analysis analysis = analyzePreset("gpt-oss-120b");
    ASSERT_TRUE(analysis.config.shipped);
    EXPECT_EQ(analysis.config.shipped->format, "mxfp4");
    EXPECT_EQ(analysis.config.shipped->keptModules.size(), 4u);
    EXPECT_EQ(analysis.scenario.weightFormat, WeightFormat::MXFP4);
    // Experts: 114,661,785,600 weights of 4 bits plus an 8-bit scale per 32 (17/32 bytes each);
    // attention, router, biases, norms, embeddings and the head: 2,167,371,072 weights of 2 bytes.
    const std::uint64_t experts = 114'661'785'600;
    EXPECT_EQ(analysis.params.total - experts, 2'167'371'072u);
    EXPECT_EQ(analysis.weightBytes, experts / 32 * 17 + std::uint64_t{2'167'371'072} * 2);
    EXPECT_EQ(core::binaryBytes(analysis.weightBytes), "60.8 GiB");
    EXPECT_TRUE(analysis.devices.fits) << "one 80 GiB GPU, as OpenAI ships it";
    EXPECT_EQ(core::weightFormatLabel(analysis.config, WeightFormat::MXFP4).find("as shipped") != std::string::npos,
              true);
    // MXFP4 on every linear layer is another, smaller figure: the shipped layout is the model's own.
    core::ModelConfig anyLayout = analysis.config;
    anyLayout.shipped.reset();
    EXPECT_LT(core::weightMemory(anyLayout, analysis.plan, WeightFormat::MXFP4).bytes, analysis.weightBytes);
}

TEST(ShippedWeights, DeepSeekV3OpensInFp8WithBlockScalesAndAChosenFormatWins) {
    const core::Analysis shipped = analyzePreset("deepseek-v3");
    EXPECT_EQ(shipped.scenario.weightFormat, WeightFormat::FP8Block128);
    EXPECT_EQ(shipped.weightBytes, core::weightMemory(shipped.config, shipped.plan, WeightFormat::FP8Block128).bytes);
    core::Scenario chosen;
    chosen.weightsAsShipped = false;
    EXPECT_EQ(analyzePreset("deepseek-v3", chosen).scenario.weightFormat, WeightFormat::BF16);
    // A model that ships none is analysed in the scenario's format.
    EXPECT_EQ(analyzePreset("llama-3-8b").scenario.weightFormat, WeightFormat::BF16);
}

TEST(ShippedWeights, EachMethodReadsIntoTheFormatOfTheSameLayoutOrSaysWhyNot) {
    const std::pair<std::string, std::string> read[] = {
        {R"({"quant_method": "fp8", "weight_block_size": [128, 128]})", "fp8-block128"},
        {R"({"quant_method": "fp8"})", "fp8"},
        {R"({"quant_method": "gptq", "bits": 4, "group_size": 128})", "gptq-int4-g128"},
        {R"({"quant_method": "awq", "bits": 4, "group_size": 32})", "gptq-int4-g32"},
        {R"({"quant_method": "bitsandbytes", "load_in_4bit": true, "bnb_4bit_quant_type": "nf4",
             "bnb_4bit_use_double_quant": true})",
         "nf4"},
        {R"({"quant_method": "bitsandbytes", "load_in_8bit": true})", "int8"},
        {R"({"quant_method": "modelopt", "quant_algo": "NVFP4"})", "nvfp4"},
        {R"({"quant_method": "compressed-tensors", "config_groups": {"group_0": {"weights": {"num_bits": 8,
             "type": "float", "strategy": "block", "block_structure": [128, 128]}}}, "ignore": ["lm_head"]})",
         "fp8-block128"},
    };
    for (const auto& [quantization, format] : read) {
        const auto config = llamaWith(quantization);
        ASSERT_TRUE(config && config->shipped) << quantization;
        EXPECT_EQ(config->shipped->format, format) << quantization;
        EXPECT_TRUE(config->shipped->unread.empty()) << config->shipped->unread;
    }
    const std::pair<std::string, std::string> unread[] = {
        {R"({"quant_method": "gptq", "bits": 3, "group_size": 128})", "3 bits"},
        {R"({"quant_method": "bitsandbytes", "load_in_4bit": true, "bnb_4bit_quant_type": "fp4"})", "bitsandbytes"},
        {R"({"quant_method": "fp8", "weight_block_size": [64, 64]})", "weight_block_size"},
        {R"({"quant_method": "mxfp4", "modules_to_not_convert": ["model.layers.0.mlp"]})", "single layer"},
        {R"({"quant_method": "hqq"})", "'hqq'"},
        {R"("fp8")", "not an object"},
    };
    for (const auto& [quantization, why] : unread) {
        const auto config = llamaWith(quantization);
        ASSERT_TRUE(config && config->shipped) << quantization;
        EXPECT_TRUE(config->shipped->format.empty()) << quantization;
        EXPECT_TRUE(contains(config->shipped->unread, why)) << config->shipped->unread;
        // Analysed in the scenario's format, with a hint on the weights naming what was not read.
        const core::Analysis analysis = core::analyze(*config, {});
        EXPECT_EQ(analysis.scenario.weightFormat, WeightFormat::BF16);
        EXPECT_TRUE(std::any_of(analysis.diagnostics.begin(), analysis.diagnostics.end(), [](const auto& d) {
            return d.target == core::Field::WeightFormat && contains(d.message, "quantization_config");
        }));
    }
}

TEST(ShippedWeights, ModulePatternsCoverWholeComponentsOnly) {
    EXPECT_TRUE(core::moduleMatches("model.layers.*.self_attn", "model.layers.3.self_attn.q_proj.weight"));
    EXPECT_TRUE(core::moduleMatches("lm_head", "lm_head.weight"));
    EXPECT_TRUE(core::moduleMatches("mlp.gate", "model.layers.7.mlp.gate.weight"));
    EXPECT_FALSE(core::moduleMatches("mlp.gate", "model.layers.7.mlp.gate_proj.weight"));
    EXPECT_FALSE(core::moduleMatches("model.layers.*.self_attn", "model.layers.3.mlp.experts.down_proj"));
    EXPECT_FALSE(core::moduleMatches("lm_head", "model.embed_tokens.weight"));
    // Kept modules are 16-bit in the shipped format: a GPTQ Llama that leaves its attention out.
    const auto config = llamaWith(R"({"quant_method": "gptq", "bits": 4, "group_size": 128,
                                      "modules_to_not_convert": ["model.layers.*.self_attn"]})");
    ASSERT_TRUE(config);
    const core::ModelPlan plan = core::planLayers(*config);
    core::ModelConfig plain = *config;
    plain.shipped.reset();
    const auto bf16 = core::weightMemory(plain, plan, WeightFormat::BF16);
    const auto gptq = core::weightMemory(plain, plan, WeightFormat::Int4G128);
    const auto shipped = core::weightMemory(*config, plan, WeightFormat::Int4G128);
    EXPECT_EQ(shipped.component(core::Component::Attention), bf16.component(core::Component::Attention));
    EXPECT_EQ(shipped.component(core::Component::Ffn), gptq.component(core::Component::Ffn));
}

TEST(ShippedWeights, TheZooCountsEachModelAsShippedUnlessAFormatIsGiven) {
    const core::ModelZoo zoo = core::modelZoo({});
    const core::ZooRow& oss = rowOf(zoo, "gpt-oss-120b");
    EXPECT_EQ(oss.weightFormat, "mxfp4");
    EXPECT_EQ(oss.weightBytes, analyzePreset("gpt-oss-120b").weightBytes);
    EXPECT_EQ(core::zooText(oss, core::ZooColumn::WeightsAsShipped), "yes");
    EXPECT_EQ(rowOf(zoo, "llama-3-8b").weightFormat, "bf16");
    EXPECT_EQ(core::zooText(rowOf(zoo, "llama-3-8b"), core::ZooColumn::WeightsAsShipped), "");
    core::Scenario chosen;
    chosen.weightFormat = WeightFormat::Q4_K_M;
    chosen.weightsAsShipped = false;
    EXPECT_EQ(rowOf(core::modelZoo(chosen), "gpt-oss-120b").weightFormat, "q4_k_m");
}

TEST(ShippedWeights, ASessionKeepsWhetherItsWeightsWereAsShipped) {
    core::Scenario scenario;
    scenario.weightsAsShipped = false;
    core::Scenario read;
    core::Diagnostics diagnostics;
    ASSERT_TRUE(core::readScenario(core::scenarioJson(scenario), read, diagnostics));
    EXPECT_FALSE(read.weightsAsShipped);
    nlohmann::json older = core::scenarioJson(core::Scenario{});
    older.erase("weights_as_shipped");
    ASSERT_TRUE(core::readScenario(older, read, diagnostics));
    EXPECT_FALSE(read.weightsAsShipped) << "an older session names the format it was looked at in";
}

} // namespace
} // namespace archplay::test
