// SPDX-License-Identifier: GPL-3.0-or-later
// config.json import and export: defaults, round trips, and hostile input.
#include "core/io/JsonText.h"
#include "core/io/Presets.h"
#include "core/io/Session.h"
#include "core/validate/Validation.h"
#include "tests/support/TestSupport.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace archplay::test {
namespace {

using core::importConfigText;

bool mentions(const core::Diagnostics& diagnostics, const std::string& field) {
    return std::any_of(diagnostics.begin(), diagnostics.end(),
                       [&](const core::Diagnostic& d) { return d.field == field; });
}

TEST(Import, AbsentFieldsTakeTheModelTypeDefaults) {
    const auto llama = importConfigText(R"({"model_type": "llama"})");
    ASSERT_TRUE(llama.config);
    EXPECT_EQ(llama.config->hiddenSize, 4096);
    EXPECT_EQ(llama.config->intermediateSize, 11008);
    EXPECT_EQ(llama.config->numKvHeads, 32);
    EXPECT_FALSE(llama.config->tieWordEmbeddings);

    const auto qwen3 = importConfigText(R"({"model_type": "qwen3"})");
    ASSERT_TRUE(qwen3.config);
    EXPECT_EQ(qwen3.config->effectiveHeadDim(), 128);

    const auto gemma = importConfigText(R"({"model_type": "gemma"})");
    ASSERT_TRUE(gemma.config);
    EXPECT_TRUE(gemma.config->tieWordEmbeddings);
    EXPECT_EQ(gemma.config->effectiveHeadDim(), 256);

    const auto mistral = importConfigText(R"({"model_type": "mistral", "num_key_value_heads": null})");
    ASSERT_TRUE(mistral.config);
    EXPECT_EQ(mistral.config->numKvHeads, 32); // null means "same as heads", not the class default 8
}

TEST(Import, NullFieldsTakeTheDefaultWithAWarningNamingThem) {
    const auto llama = importConfigText(R"({"model_type": "llama", "hidden_size": null, "tie_word_embeddings": null})");
    ASSERT_TRUE(llama.config);
    EXPECT_EQ(llama.config->hiddenSize, 4096);
    for (const std::string field : {"hidden_size", "tie_word_embeddings"}) {
        const bool warned =
            std::any_of(llama.diagnostics.begin(), llama.diagnostics.end(), [&](const core::Diagnostic& d) {
                return d.severity == core::Severity::Warning && d.field == field &&
                       d.message.find("null") != std::string::npos;
            });
        EXPECT_TRUE(warned) << field;
    }
}

TEST(Import, GptTwosNullInnerWidthIsFourTimesTheWidthWithoutANote) {
    // GPT-2's own config.json has "n_inner": null, meaning 4 x n_embd: nothing to warn about.
    const auto gpt2 = importConfigText(R"({"model_type": "gpt2", "n_embd": 1024, "n_inner": null})");
    ASSERT_TRUE(gpt2.config);
    EXPECT_EQ(gpt2.config->intermediateSize, 4096);
    EXPECT_TRUE(gpt2.diagnostics.empty()) << gpt2.diagnostics.front().message;
    const auto wider = importConfigText(R"({"model_type": "gpt2", "n_embd": 1024, "n_inner": 5000})");
    ASSERT_TRUE(wider.config);
    EXPECT_EQ(wider.config->intermediateSize, 5000);
    EXPECT_EQ(core::exportConfig(*wider.config).at("n_inner"), 5000);
}

TEST(Import, ADiagnosticNamesTheFieldToEditWhateverTheFamilySpellsIt) {
    // A family's own spelling is what the diagnostic shows; its target is the field the panel edits.
    const std::pair<const char*, const char*> spellings[] = {
        {R"({"model_type": "gpt2", "n_embd": null})", "n_embd"},
        {R"({"model_type": "mixtral", "num_local_experts": null})", "num_local_experts"},
        {R"({"model_type": "t5", "d_ff": null})", "d_ff"},
        {R"({"model_type": "llama", "hidden_size": null})", "hidden_size"},
    };
    const core::Field targets[] = {core::Field::HiddenSize, core::Field::NumExperts, core::Field::IntermediateSize,
                                   core::Field::HiddenSize};
    for (std::size_t i = 0; i < std::size(spellings); ++i) {
        const char* text = spellings[i].first;
        const std::string spelled = spellings[i].second; // a lambda may not capture a structured binding (clang 14)
        const auto imported = importConfigText(text);
        ASSERT_TRUE(imported.config) << text;
        const auto it = std::find_if(imported.diagnostics.begin(), imported.diagnostics.end(),
                                     [&](const core::Diagnostic& d) { return d.field == spelled; });
        ASSERT_NE(it, imported.diagnostics.end()) << text;
        EXPECT_EQ(it->target, targets[i]) << text;
    }
}

TEST(Validate, ADiagnosticNamesItsFieldByTypeAndByTheFilesKey) {
    for (const core::Field field : core::allFields()) {
        EXPECT_FALSE(core::fieldKey(field).empty());
        EXPECT_EQ(core::fieldForKey(core::fieldKey(field)), field) << core::fieldKey(field);
    }
    EXPECT_EQ(core::fieldForKey("n_embd"), core::Field::None); // a family's spelling is io's to resolve

    core::ModelConfig config = preset("llama-3-8b");
    config.numKvHeads = 5; // does not divide 32 heads
    const core::Diagnostics diagnostics = core::validate(config);
    const auto kv = std::find_if(diagnostics.begin(), diagnostics.end(),
                                 [](const core::Diagnostic& d) { return d.target == core::Field::NumKeyValueHeads; });
    ASSERT_NE(kv, diagnostics.end());
    EXPECT_EQ(kv->field, "num_key_value_heads");

    // Mamba-1 spells its widths plainly in config.json; the panel edits the Mamba fields.
    const auto mamba = importConfigText(R"({"model_type": "mamba", "state_size": 0})");
    ASSERT_TRUE(mamba.config);
    const core::Diagnostics mambaDiagnostics = core::validate(*mamba.config);
    const auto state = std::find_if(mambaDiagnostics.begin(), mambaDiagnostics.end(),
                                    [](const core::Diagnostic& d) { return d.field == "state_size"; });
    ASSERT_NE(state, mambaDiagnostics.end());
    EXPECT_EQ(state->target, core::Field::MambaStateSize);
}

TEST(Import, NestedGemma3TextConfig) {
    const auto gemma = analyzePreset("gemma-3-27b");
    EXPECT_EQ(gemma.config.modelType, "gemma3");
    EXPECT_EQ(gemma.config.numLayers, 62);
    // Text model of gemma-3-27b-it: 27,432,406,640 total (FORMULAS.md §2.10) minus vision tower
    // 416,866,032 and projector 1152 x 5376 + 1152.
    EXPECT_EQ(gemma.params.total, 27'432'406'640u - 416'866'032u - 1152u * 5376u - 1152u);
}

TEST(Import, UnknownModelTypeListsItsAssumptions) {
    const auto result = importConfigText(R"({"model_type": "mystery", "hidden_size": 1024, "num_hidden_layers": 4,
        "num_attention_heads": 8, "vocab_size": 1000, "intermediate_size": 4096})");
    ASSERT_TRUE(result.config);
    EXPECT_EQ(result.config->hiddenSize, 1024);
    ASSERT_TRUE(mentions(result.diagnostics, "model_type"));
    const auto& warning = *std::find_if(result.diagnostics.begin(), result.diagnostics.end(),
                                        [](const core::Diagnostic& d) { return d.field == "model_type"; });
    EXPECT_EQ(warning.severity, core::Severity::Warning);
    EXPECT_NE(warning.message.find("norm_type = rmsnorm"), std::string::npos) << warning.message;
    EXPECT_NE(warning.message.find("ffn_type"), std::string::npos) << warning.message;
}

TEST(RoundTrip, EveryPresetExportsAndReimportsIdentically) {
    for (const core::Preset& preset : core::builtinPresets()) {
        const auto config = core::presetConfig(preset);
        ASSERT_TRUE(config) << preset.info.id;
        core::Diagnostics notes;
        const std::string text = core::exportConfigText(*config, &notes);
        EXPECT_TRUE(notes.empty()) << preset.info.id << ": " << notes.front().message;
        const auto again = importConfigText(text);
        ASSERT_TRUE(again.config) << preset.info.id;
        EXPECT_EQ(*again.config, *config) << preset.info.id << "\n" << text;
        EXPECT_EQ(nlohmann::json::parse(text)["model_type"], nlohmann::json::parse(preset.json)["model_type"])
            << preset.info.id;
    }
}

TEST(RoundTrip, UnknownFieldsSurvive) {
    const auto result = importConfigText(
        R"({"model_type": "llama", "rope_theta": 500000.0, "my_custom": {"a": [1, 2]}, "eos_token_id": [1, 2]})");
    ASSERT_TRUE(result.config);
    const nlohmann::json out = core::exportConfig(*result.config);
    EXPECT_EQ(out["rope_theta"], 500000.0);
    EXPECT_EQ(out["my_custom"]["a"][1], 2);
    EXPECT_EQ(out["eos_token_id"].size(), 2u);
}

TEST(RoundTrip, DesignsAFamilyCannotExpressFallBackToTheNativeFormat) {
    core::ModelConfig config = preset("qwen2.5-7b");
    config.qBias = false; // Qwen2 hard-codes q/k/v biases
    config.normPlacement = core::NormPlacement::Sandwich;
    core::Diagnostics notes;
    const nlohmann::json out = core::exportConfig(config, &notes);
    EXPECT_EQ(out["model_type"], "archplay");
    ASSERT_EQ(notes.size(), 1u);
    const auto again = core::importConfig(out);
    ASSERT_TRUE(again.config);
    const core::Analysis before = core::analyze(config, {});
    const core::Analysis after = core::analyze(*again.config, {});
    EXPECT_EQ(after.params.total, before.params.total);
    EXPECT_EQ(after.kv.totalBytes, before.kv.totalBytes);
    EXPECT_EQ(again.config->normPlacement, core::NormPlacement::Sandwich);
    EXPECT_TRUE(again.config->kBias);
    EXPECT_FALSE(again.config->qBias);
}

TEST(RoundTrip, EditedSizesStayInTheFamilyFormat) {
    core::ModelConfig config = preset("deepseek-v3");
    config.numLayers = 30;
    config.moe.numExperts = 64;
    config.latent->kvLoraRank = 256;
    const nlohmann::json out = core::exportConfig(config);
    EXPECT_EQ(out["model_type"], "deepseek_v3");
    EXPECT_EQ(out["n_routed_experts"], 64);
    const auto again = core::importConfig(out);
    ASSERT_TRUE(again.config);
    EXPECT_EQ(*again.config, config);
}

class Malformed : public ::testing::TestWithParam<const char*> {};

TEST_P(Malformed, GivesADiagnosticAndNoConfig) {
    const auto result = importConfigText(GetParam());
    EXPECT_FALSE(result.config.has_value()) << GetParam();
    ASSERT_FALSE(result.diagnostics.empty());
    EXPECT_TRUE(core::hasErrors(result.diagnostics));
}

INSTANTIATE_TEST_SUITE_P(Inputs, Malformed,
                         ::testing::Values("", "not json", "{", "[1, 2, 3]", "42", "\"text\"", "null",
                                           R"({"model_type": 7})", R"({"model_type": "llama", "hidden_size": "4096"})",
                                           R"({"model_type": "llama", "hidden_size": 4096.5})",
                                           R"({"model_type": "llama", "hidden_size": 9223372036854775808})",
                                           R"({"model_type": "llama", "hidden_size": 1e400})",
                                           R"({"model_type": "llama", "hidden_size": NaN})",
                                           R"({"model_type": "llama", "num_hidden_layers": [32]})",
                                           R"({"model_type": "llama", "tie_word_embeddings": "yes"})",
                                           R"({"model_type": "qwen2_moe", "mlp_only_layers": "all"})",
                                           R"({"model_type": "archplay", "norm_type": "batchnorm"})",
                                           "{\"model_type\": \"llama\", \"x\": \"\xff\xfe\"}"));

TEST(Malformed, DeepNestingIsRejectedWithoutCrashing) {
    const std::string deep =
        "{\"model_type\": \"llama\", \"x\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
    const auto result = importConfigText(deep);
    EXPECT_FALSE(result.config.has_value());
    EXPECT_TRUE(core::hasErrors(result.diagnostics));
    const auto shallow = importConfigText(R"({"model_type": "llama", "x": [[["[[[not brackets"]]], "y": {"z": {}}})");
    EXPECT_TRUE(shallow.config.has_value());
}

TEST(Malformed, MillionsOfValuesAreRefusedBeforeParsingNamingTheLimit) {
    // 66 MB of "{}," took 4 GB in archplay-cli: every value was parsed before the config was looked at.
    std::string wide = "[";
    for (std::size_t i = 0; i < core::kMaxJsonValues; ++i) {
        wide += "{},";
    }
    wide += "{}]";
    for (const core::Diagnostics& diagnostics :
         {importConfigText(wide).diagnostics, core::sessionFromJson(wide).diagnostics}) {
        ASSERT_EQ(diagnostics.size(), 1u);
        EXPECT_EQ(diagnostics.front().severity, core::Severity::Error);
        EXPECT_EQ(diagnostics.front().message,
                  "the JSON holds more than 1,000,000 values; a config.json holds a few hundred");
    }
    // Commas and brackets inside strings are not values.
    const std::string commas = R"({"model_type": "llama", "x": ")" + std::string(2 * core::kMaxJsonValues, ',') + "\"}";
    EXPECT_TRUE(importConfigText(commas).config.has_value());
}

struct Impossible {
    const char* json;
    const char* field;
};

class ImpossibleConfigs : public ::testing::TestWithParam<Impossible> {};

TEST_P(ImpossibleConfigs, AreErrorsNamingTheField) {
    const auto result = importConfigText(GetParam().json);
    ASSERT_TRUE(result.config.has_value()) << GetParam().json;
    const core::Analysis analysis = core::analyze(*result.config, {});
    EXPECT_FALSE(analysis.valid) << GetParam().json;
    bool named = false;
    for (const core::Diagnostic& d : analysis.diagnostics) {
        named = named || (d.severity == core::Severity::Error && d.field == GetParam().field);
    }
    EXPECT_TRUE(named) << GetParam().json << " should name " << GetParam().field;
}

INSTANTIATE_TEST_SUITE_P(
    Inputs, ImpossibleConfigs,
    ::testing::Values(Impossible{R"({"model_type": "llama", "hidden_size": 0})", "hidden_size"},
                      Impossible{R"({"model_type": "llama", "hidden_size": -4096})", "hidden_size"},
                      Impossible{R"({"model_type": "llama", "num_hidden_layers": 0})", "num_hidden_layers"},
                      Impossible{R"({"model_type": "llama", "vocab_size": -1})", "vocab_size"},
                      Impossible{R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 30})",
                                 "num_attention_heads"},
                      Impossible{R"({"model_type": "llama", "num_attention_heads": 32, "num_key_value_heads": 5})",
                                 "num_key_value_heads"},
                      Impossible{R"({"model_type": "llama", "num_attention_heads": 8, "num_key_value_heads": 16})",
                                 "num_key_value_heads"},
                      Impossible{R"({"model_type": "mixtral", "num_local_experts": 4, "num_experts_per_tok": 6})",
                                 "num_experts_per_tok"},
                      Impossible{R"({"model_type": "llama", "hidden_size": 4611686018427387904})", "hidden_size"},
                      Impossible{R"({"model_type": "llama", "num_hidden_layers": 9000000000})", "num_hidden_layers"},
                      Impossible{R"({"model_type": "mistral", "sliding_window": 0})", "sliding_window"},
                      Impossible{R"({"model_type": "qwen3", "head_dim": -2})", "head_dim"},
                      Impossible{R"({"model_type": "deepseek_v3", "kv_lora_rank": 0})", "kv_lora_rank"}));

TEST(Validation, HintsAndWarningsNameTheirField) {
    core::ModelConfig config = preset("llama-3-8b");
    config.hiddenSize = 4000;
    config.headDim = 40;
    config.numHeads = 12;
    config.numKvHeads = 12;
    config.intermediateSize = 64000;
    const core::Diagnostics diagnostics = core::validate(config);
    EXPECT_FALSE(core::hasErrors(diagnostics));
    for (const char* field : {"hidden_size", "head_dim", "intermediate_size"}) {
        EXPECT_TRUE(mentions(diagnostics, field)) << field;
    }
}

/// The diagnostics of a config in a scenario whose field is `field`.
core::Diagnostics about(const core::ModelConfig& config, const core::Scenario& scenario, const std::string& field) {
    core::Diagnostics found;
    for (const core::Diagnostic& d : core::analyze(config, scenario).diagnostics) {
        if (d.field == field) {
            found.push_back(d);
        }
    }
    return found;
}

TEST(Validation, ASequenceBeyondTheContextIsAWarning) {
    const core::ModelConfig bert = preset("bert-base-uncased");
    const core::Diagnostics beyond = about(bert, scenarioAt(4096), "sequence_length");
    ASSERT_EQ(beyond.size(), 1u);
    EXPECT_EQ(beyond.front().severity, core::Severity::Warning);
    EXPECT_NE(beyond.front().message.find("4,096 tokens is beyond the model's context of 512"), std::string::npos)
        << beyond.front().message;
    EXPECT_TRUE(about(bert, scenarioAt(512), "sequence_length").empty());
}

TEST(Validation, TopKAboveHalfTheExpertsIsAWarning) {
    core::ModelConfig mixtral = preset("mixtral-8x7b-v0.1");
    EXPECT_TRUE(about(mixtral, {}, "num_experts_per_tok").empty()) << "2 of 8 is how MoE models route";
    mixtral.moe.topK = 4;
    EXPECT_TRUE(about(mixtral, {}, "num_experts_per_tok").empty());
    mixtral.moe.topK = 5;
    const core::Diagnostics many = about(mixtral, {}, "num_experts_per_tok");
    ASSERT_EQ(many.size(), 1u);
    EXPECT_EQ(many.front().severity, core::Severity::Warning);
}

TEST(Validation, ParallelismHintsOnlyWhereTheScenarioSplitsTheModel) {
    // BERT-base: 12 heads, MHA, 110M parameters on one GPU: nothing to shard, nothing to split.
    const core::ModelConfig bert = preset("bert-base-uncased");
    EXPECT_TRUE(about(bert, scenarioAt(512), "num_attention_heads").empty());
    EXPECT_TRUE(about(bert, scenarioAt(512), "num_key_value_heads").empty());
    core::Scenario eight = scenarioAt(512);
    eight.gpuCount = 8;
    EXPECT_EQ(about(bert, eight, "num_attention_heads").size(), 1u) << "12 heads over 8 GPUs";
    EXPECT_TRUE(about(bert, eight, "num_key_value_heads").empty()) << "an encoder keeps no KV cache";
    // Llama 3 8B: 32 heads and 8 KV heads split over 2, 4 or 8 GPUs, not over 3.
    const core::ModelConfig llama = preset("llama-3-8b");
    for (std::uint64_t gpus : {1u, 2u, 4u, 8u, 16u}) {
        core::Scenario scenario;
        scenario.gpuCount = gpus;
        EXPECT_TRUE(about(llama, scenario, "num_attention_heads").empty()) << gpus;
        EXPECT_TRUE(about(llama, scenario, "num_key_value_heads").empty()) << gpus;
    }
    core::Scenario three;
    three.gpuCount = 3;
    EXPECT_EQ(about(llama, three, "num_attention_heads").size(), 1u);
    EXPECT_EQ(about(llama, three, "num_key_value_heads").size(), 1u);
}

TEST(Validation, MessagesDoNotRepeatTheirField) {
    // The window and the CLI print the field beside each message.
    std::vector<std::pair<core::ModelConfig, core::Scenario>> cases;
    for (const core::Preset& p : core::builtinPresets()) {
        cases.emplace_back(*core::presetConfig(p), scenarioAt(1 << 20));
    }
    for (const char* json : {R"({"model_type": "llama", "hidden_size": -4096, "num_hidden_layers": 0})",
                             R"({"model_type": "llama", "num_attention_heads": 32, "num_key_value_heads": 5})",
                             R"({"model_type": "llama", "num_attention_heads": 8, "num_key_value_heads": 16})",
                             R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 30})",
                             R"({"model_type": "mixtral", "num_local_experts": 4, "num_experts_per_tok": 6})",
                             R"({"model_type": "llama", "hidden_size": 4611686018427387904})",
                             R"({"model_type": "mistral", "sliding_window": 0})",
                             R"({"model_type": "qwen3", "head_dim": -2, "vocab_size": 1000, "hidden_size": 4000})",
                             R"({"model_type": "deepseek_v3", "kv_lora_rank": 0, "first_k_dense_replace": 99})"}) {
        const core::ImportResult imported = core::importConfigText(json);
        ASSERT_TRUE(imported.config.has_value()) << json;
        core::Scenario scenario;
        scenario.gpuCount = 3;
        cases.emplace_back(*imported.config, scenario);
    }
    std::size_t checked = 0;
    for (const auto& [config, scenario] : cases) {
        for (const core::Diagnostic& d : core::analyze(config, scenario).diagnostics) {
            if (!d.field.empty()) {
                EXPECT_EQ(d.message.find(d.field), std::string::npos) << d.field << ": " << d.message;
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 30u);
}

TEST(Validation, RealPresetsHaveNoErrorsOrWarnings) {
    for (const char* id : {"llama-3-8b", "mixtral-8x7b-v0.1", "deepseek-v3", "qwen3-30b-a3b"}) {
        for (const core::Diagnostic& d : core::validate(preset(id))) {
            EXPECT_EQ(d.severity, core::Severity::Hint) << id << ": " << d.message;
        }
    }
}

TEST(ConfigIo, TheRecordedModelNameIsTheNameOrPathKey) {
    const auto named = core::importConfigText(
        R"({"model_type": "llama", "_name_or_path": "meta-llama/Llama-3.1-8B", "hidden_size": 4096})");
    ASSERT_TRUE(named.config);
    EXPECT_EQ(core::recordedModelName(*named.config), "meta-llama/Llama-3.1-8B");
    for (const char* text : {R"({"model_type": "llama"})", R"({"model_type": "llama", "_name_or_path": ""})",
                             R"({"model_type": "llama", "_name_or_path": 7})"}) {
        const auto unnamed = core::importConfigText(text);
        ASSERT_TRUE(unnamed.config) << text;
        EXPECT_EQ(core::recordedModelName(*unnamed.config), std::nullopt) << text;
    }
}

TEST(ConfigIo, TheEmbeddingProjectionAppliesToOptAndToConfigsThatHaveOne) {
    EXPECT_TRUE(core::embeddingProjectionApplies(preset("opt-350m")));
    EXPECT_TRUE(core::embeddingProjectionApplies(preset("opt-125m"))) << "OPT can hold one";
    EXPECT_FALSE(core::embeddingProjectionApplies(preset("llama-3.1-8b")));
    core::ModelConfig projected = preset("llama-3.1-8b");
    projected.embeddingProjectionDim = 512;
    EXPECT_TRUE(core::embeddingProjectionApplies(projected));
}

} // namespace
} // namespace archplay::test
