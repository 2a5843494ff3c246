// SPDX-License-Identifier: GPL-3.0-or-later
// The 2025-2026 families: exact counts, KV caches and fixed states against configs whose counts
// were derived tensor by tensor from the transformers modeling code (tests/reference/modern/), and
// refusal of what cannot be counted exactly.
#include "core/params/Tensors.h"
#include "core/report/Tables.h"
#include "tests/support/TestSupport.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>

namespace archplay::test {
namespace {

using core::Component;
using core::DType;
using core::ImportResult;
using core::Scenario;

const std::filesystem::path kModernDir = std::filesystem::path(kReferenceDir) / "modern";

core::Analysis analyzeFile(const std::filesystem::path& path, Scenario scenario = {}) {
    const ImportResult imported = core::importConfigFile(path);
    EXPECT_TRUE(imported.config.has_value()) << path;
    for (const core::Diagnostic& d : imported.diagnostics) {
        EXPECT_NE(d.severity, core::Severity::Error) << path << ": " << d.field << ": " << d.message;
    }
    core::Analysis analysis = core::analyze(imported.config.value_or(core::ModelConfig{}), scenario);
    EXPECT_TRUE(analysis.valid) << path;
    return analysis;
}

bool mentionsText(const core::Diagnostics& diagnostics, std::string_view text) {
    return std::any_of(diagnostics.begin(), diagnostics.end(), [&](const core::Diagnostic& d) {
        return d.severity == core::Severity::Error && (d.message.find(text) != std::string::npos || d.field == text);
    });
}

TEST(ModernReference, EveryConfigCountsExactlyByComponent) {
    const nlohmann::json counts = readJson(kModernDir / "counts.json");
    ASSERT_TRUE(counts.is_object());
    const std::map<std::string, Component> components = {
        {"embed", Component::Embedding}, {"head", Component::OutputHead},      {"attn", Component::Attention},
        {"norm", Component::Norm},       {"mixer", Component::Mixer},          {"router", Component::Router},
        {"expert", Component::Experts},  {"shared", Component::SharedExperts}, {"ffn", Component::Ffn}};
    int checked = 0;
    for (const auto& [name, entry] : counts.items()) {
        Scenario scenario;
        scenario.sequenceLength = 1;
        scenario.stateDType = DType::BF16; // the reference prices every fixed state at bf16
        const core::Analysis analysis = analyzeFile(kModernDir / "configs" / (name + ".json"), scenario);
        EXPECT_EQ(analysis.params.total, entry["total_params"].get<std::uint64_t>()) << name;
        if (entry.contains("active_params")) {
            EXPECT_EQ(analysis.params.active, entry["active_params"].get<std::uint64_t>()) << name;
        } else {
            EXPECT_EQ(analysis.params.active, analysis.params.total) << name;
        }
        for (const auto& [key, component] : components) {
            EXPECT_EQ(analysis.params.component(component), entry["by_component"].value(key, std::uint64_t{0}))
                << name << " " << key;
        }
        EXPECT_EQ(analysis.kv.bytesPerToken, entry["kv_bytes_per_token_bf16"].get<std::uint64_t>()) << name;
        if (entry.contains("kv_bytes_per_token_bf16_expanded_as_hf_caches")) {
            EXPECT_EQ(analysis.kv.expandedBytesPerToken,
                      entry["kv_bytes_per_token_bf16_expanded_as_hf_caches"].get<std::uint64_t>())
                << name;
        }
        EXPECT_EQ(analysis.kv.fixedStateBytesPerSequence,
                  entry.value("fixed_state_bytes_per_sequence", std::uint64_t{0}))
            << name;
        ++checked;
    }
    EXPECT_EQ(checked, 20);
}

TEST(ModernReference, GatedDeltaNetRecurrentStateIsKeptInFp32AsImplemented) {
    // transformers' Gated DeltaNet kernels return the recurrent state in fp32; the convolution state
    // stays in the model dtype. Qwen3-Next: 36 layers x (8,192 x 4 x 2 B + 32 x 128 x 128 x 4 B).
    Scenario scenario;
    const core::Analysis next = analyzeFile(kModernDir / "configs" / "qwen3-next-80b-a3b.json", scenario);
    EXPECT_EQ(next.kv.fixedStateBytesPerSequence, 36u * (8192u * 4u * 2u + 32u * 128u * 128u * 4u));
    EXPECT_EQ(next.kv.fixedStateBytesPerSequence, 77'856'768u);
    scenario.batch = 3;
    const core::Analysis batched = analyzeFile(kModernDir / "configs" / "qwen3-next-80b-a3b.json", scenario);
    EXPECT_EQ(batched.kv.fixedStateBytes, 3u * 77'856'768u);
    // Mamba-2 keeps both states in the model dtype: forcing bf16 changes nothing.
    const core::Analysis granite = analyzeFile(kModernDir / "configs" / "granite-4.0-h-tiny.json");
    EXPECT_EQ(granite.kv.fixedStateBytesPerSequence, 29'270'016u);
}

TEST(ModernReference, FixedStateIsFlatOverSequenceLength) {
    Scenario shortScenario;
    shortScenario.sequenceLength = 1024;
    Scenario longScenario = shortScenario;
    longScenario.sequenceLength = 2048;
    const auto path = kModernDir / "configs" / "minimax-text-01.json";
    const core::Analysis a = analyzeFile(path, shortScenario);
    const core::Analysis b = analyzeFile(path, longScenario);
    EXPECT_EQ(a.kv.fixedStateBytes, b.kv.fixedStateBytes);
    // Only the 10 softmax layers grow: 1,024 more tokens x 40,960 bytes.
    EXPECT_EQ(b.kv.totalBytes - a.kv.totalBytes, 1024u * 40'960u);
    std::size_t attending = 0;
    for (const core::LayerPlan& layer : a.plan.layers) {
        attending += layer.attends() ? 1 : 0;
    }
    EXPECT_EQ(attending, 10u);
}

// Further checkpoints of the same families, each counted by an independent derivation from the
// modeling code (extra-counts.json), not by archplay.
TEST(ModernReference, FurtherCheckpointsCountExactly) {
    const nlohmann::json counts = readJson(kModernDir / "extra-counts.json");
    ASSERT_TRUE(counts.is_object());
    int checked = 0;
    for (const auto& [name, entry] : counts.items()) {
        Scenario scenario;
        scenario.sequenceLength = 1;
        const core::Analysis analysis = analyzeFile(kModernDir / "extra" / (name + ".json"), scenario);
        EXPECT_EQ(analysis.params.total, entry["total_params"].get<std::uint64_t>()) << name;
        if (entry["active_params"].is_number()) {
            EXPECT_EQ(analysis.params.active, entry["active_params"].get<std::uint64_t>()) << name;
        }
        EXPECT_EQ(analysis.kv.bytesPerToken, entry["kv_bytes_per_token_bf16"].get<std::uint64_t>()) << name;
        const std::uint64_t state = entry["fixed_state_bytes_as_implemented"].is_number()
                                        ? entry["fixed_state_bytes_as_implemented"].get<std::uint64_t>()
                                        : 0;
        EXPECT_EQ(analysis.kv.fixedStateBytesPerSequence, state) << name;
        ++checked;
    }
    EXPECT_GE(checked, 35);
}

TEST(ModernReference, EveryConfigRoundTripsThroughExport) {
    for (const auto& file : std::filesystem::directory_iterator(kModernDir / "configs")) {
        const ImportResult imported = core::importConfigFile(file.path());
        ASSERT_TRUE(imported.config) << file.path();
        core::Diagnostics notes;
        const std::string text = core::exportConfigText(*imported.config, &notes);
        EXPECT_TRUE(notes.empty()) << file.path() << ": " << (notes.empty() ? "" : notes.front().message);
        const ImportResult again = core::importConfigText(text);
        ASSERT_TRUE(again.config) << file.path();
        EXPECT_EQ(*again.config, *imported.config) << file.path();
        // An edit the family cannot express falls back to the native format, losslessly.
        core::ModelConfig edited = *imported.config;
        edited.mixers = {core::TokenMixer::ShortConv, core::TokenMixer::Attention};
        edited.attentionSinks = !edited.attentionSinks;
        const ImportResult native = core::importConfigText(core::exportConfigText(edited));
        ASSERT_TRUE(native.config) << file.path();
        core::ModelConfig expected = edited;
        expected.passthrough = native.config->passthrough;
        expected.modelType = native.config->modelType;
        EXPECT_EQ(*native.config, expected) << file.path();
    }
}

TEST(ModernWrappers, OnlyTheLanguageModelIsCountedAndTheTowersAreNamed) {
    const ImportResult llama4 = core::importConfigFile(kModernDir / "configs" / "llama4-scout-17b-16e.json");
    ASSERT_TRUE(llama4.config);
    EXPECT_EQ(llama4.config->hiddenSize, 5120);
    EXPECT_EQ(llama4.config->uncountedParts, std::vector<std::string>{"vision"});
    EXPECT_NE(core::uncountedLabel(*llama4.config).find("vision"), std::string::npos);
    const auto qwen = core::importConfigFile(kModernDir / "configs" / "qwen3.5-4b.json");
    ASSERT_TRUE(qwen.config);
    EXPECT_EQ(qwen.config->vocabSize, 248320);
    EXPECT_TRUE(qwen.config->tieWordEmbeddings);
    // An unknown wrapper is read from its text_config too.
    const auto other = core::importConfigText(R"({"model_type": "some_vlm", "vision_config": {"hidden_size": 1},
        "text_config": {"model_type": "qwen3", "hidden_size": 1024, "num_hidden_layers": 2}})");
    ASSERT_TRUE(other.config);
    EXPECT_EQ(other.config->hiddenSize, 1024);
    EXPECT_EQ(other.config->qkNorm, core::QkNorm::PerHead);
}

TEST(ModernFamilies, MambaLanguageModelsCountTheirMixersExactly) {
    // state-spaces/mamba-2.8b-hf: 64 MambaBlocks (H 2560, inner 5120, N 16, time-step rank "auto" = 160,
    // conv 4 with bias, no projection biases), embeddings tied: 2,768,345,600 in its model card.
    const core::Analysis mamba = analyzeFile(kModernDir / "extra" / "mamba-2.8b-hf.json");
    EXPECT_EQ(mamba.params.total, 2'768'345'600u);
    EXPECT_EQ(mamba.config.mamba1.timeStepRank, 160);
    EXPECT_EQ(mamba.config.ffnKind, core::FfnKind::None);
    // No KV cache; a fixed state of 5120 x (4 + 16) elements per layer, at bf16.
    EXPECT_EQ(mamba.kv.bytesPerToken, 0u);
    EXPECT_EQ(mamba.kv.fixedStateBytesPerSequence, 64u * 5120 * 20 * 2);
    // Written back, it reads the same.
    const ImportResult again = core::importConfigText(core::exportConfigText(mamba.config));
    ASSERT_TRUE(again.config);
    EXPECT_EQ(*again.config, mamba.config);
    // An expand that makes no width is refused naming it, never cast.
    for (const char* text :
         {R"({"model_type": "mamba", "expand": 1e300})", R"({"model_type": "mamba", "expand": -2})"}) {
        const ImportResult refused = core::importConfigText(text);
        EXPECT_FALSE(refused.config) << text;
        EXPECT_TRUE(mentionsText(refused.diagnostics, "expand")) << text;
    }
}

TEST(ModernRefusals, OtherArchitecturesAreNamed) {
    const auto whisper = core::importConfigText(R"({"model_type": "whisper", "d_model": 512, "num_mel_bins": 80})");
    EXPECT_FALSE(whisper.config);
    EXPECT_TRUE(mentionsText(whisper.diagnostics, "Whisper"));
    const auto rwkv = core::importConfigText(R"({"model_type": "rwkv", "hidden_size": 2560, "num_hidden_layers": 32})");
    EXPECT_FALSE(rwkv.config);
    EXPECT_TRUE(mentionsText(rwkv.diagnostics, "RWKV"));
    const auto gemma3n = core::importConfigText(
        R"({"model_type": "gemma3n", "text_config": {"model_type": "gemma3n_text", "hidden_size": 2048}})");
    EXPECT_FALSE(gemma3n.config);
    EXPECT_TRUE(mentionsText(gemma3n.diagnostics, "AltUp"));
}

TEST(ModernRefusals, UnknownTypesWithArchitectureFieldsAreRefusedNamingThem) {
    const std::string text = R"({"model_type": "new_moe", "vocab_size": 1000, "hidden_size": 64,
        "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 128, "rope_theta": 10000,
        "num_experts": 8, "qk_norm": true, "sliding_window_pattern": "LLLG", "eos_token_id": 2})";
    const ImportResult refused = core::importConfigText(text);
    EXPECT_FALSE(refused.config);
    ASSERT_TRUE(mentionsText(refused.diagnostics, "num_experts"));
    EXPECT_TRUE(mentionsText(refused.diagnostics, "qk_norm"));
    EXPECT_TRUE(mentionsText(refused.diagnostics, "sliding_window_pattern"));
    EXPECT_FALSE(mentionsText(refused.diagnostics, "eos_token_id"));
    EXPECT_FALSE(mentionsText(refused.diagnostics, "rope_theta"));

    const ImportResult estimate = core::importConfigText(text, {.bestEffort = true});
    ASSERT_TRUE(estimate.config);
    EXPECT_FALSE(estimate.config->exact());
    EXPECT_EQ(estimate.config->ignoredFields,
              (std::vector<std::string>{"num_experts", "qk_norm", "sliding_window_pattern"}));
    const core::Analysis analysis = core::analyze(*estimate.config, {});
    const auto rows = core::summaryRows(analysis);
    ASSERT_FALSE(rows.empty());
    EXPECT_EQ(rows.front().key, "estimate");
    EXPECT_NE(rows.front().value.find("num_experts"), std::string::npos);
    // The estimate survives a save and a reload.
    const ImportResult reloaded = core::importConfigText(core::exportConfigText(*estimate.config));
    ASSERT_TRUE(reloaded.config);
    EXPECT_EQ(reloaded.config->ignoredFields, estimate.config->ignoredFields);
}

TEST(ModernRefusals, DedicatedReadersRefuseWhatTheyDoNotModel) {
    // Known families with a switch archplay does not model exactly: refused, or read as an estimate.
    const std::vector<std::pair<std::string, std::string>> cases = {
        {R"({"model_type": "gpt2", "add_cross_attention": true})", "add_cross_attention"},
        {R"({"model_type": "bert", "position_embedding_type": "relative_key"})", "position_embedding_type"},
        {R"({"model_type": "gemma3_text", "num_hidden_layers": 2, "layer_types": ["full_attention", "odd"]})",
         "layer_types"},
    };
    for (const auto& [text, field] : cases) {
        const ImportResult refused = core::importConfigText(text);
        EXPECT_FALSE(refused.config) << text;
        EXPECT_TRUE(mentionsText(refused.diagnostics, field)) << text;
        const ImportResult estimate = core::importConfigText(text, {.bestEffort = true});
        ASSERT_TRUE(estimate.config) << text;
        EXPECT_EQ(estimate.config->ignoredFields, std::vector<std::string>{field}) << text;
    }
    // Off, the same switches are exact.
    EXPECT_TRUE(core::importConfigText(R"({"model_type": "gpt2", "add_cross_attention": false})").config);
}

TEST(ModernRefusals, MissingRequiredShapeFieldsAreNamedUnlessTheClassHasADefault) {
    const auto generic = core::importConfigText(R"({"model_type": "mystery", "hidden_size": 64})");
    EXPECT_FALSE(generic.config);
    EXPECT_TRUE(mentionsText(generic.diagnostics, "num_hidden_layers"));
    EXPECT_TRUE(mentionsText(generic.diagnostics, "vocab_size"));
    // gpt_oss's configuration class defines every default.
    const auto gptOss = core::importConfigText(R"({"model_type": "gpt_oss"})");
    ASSERT_TRUE(gptOss.config);
    EXPECT_EQ(core::analyze(*gptOss.config, {}).params.total, 116'829'156'672u);
}

TEST(ModernSpellings, HuggingFaceValuesAreReadInTheirFamilyMeaning) {
    // EXAONE 4's "LLLG" pattern, Cohere's "rope_gptj" and Granite's "nope" no longer collide with
    // archplay's native keys.
    const auto exaone = core::importConfigText(R"({"model_type": "exaone4", "num_hidden_layers": 8,
        "sliding_window": 4096, "sliding_window_pattern": "LLLG"})");
    ASSERT_TRUE(exaone.config);
    const core::ModelPlan plan = core::planLayers(*exaone.config);
    ASSERT_EQ(plan.layers.size(), 8u);
    EXPECT_EQ(plan.layers[2].attention, core::LayerAttention::Sliding);
    EXPECT_EQ(plan.layers[3].attention, core::LayerAttention::Global);
    EXPECT_EQ(plan.layers[7].attention, core::LayerAttention::Global);
    const auto bad = core::importConfigText(R"({"model_type": "exaone4", "sliding_window_pattern": "LXG"})");
    EXPECT_FALSE(bad.config);
    EXPECT_TRUE(mentionsText(bad.diagnostics, "sliding_window_pattern"));

    const auto cohere = core::importConfigFile(kModernDir / "configs" / "command-a-03-2025.json");
    ASSERT_TRUE(cohere.config);
    EXPECT_EQ(cohere.config->normKind, core::NormKind::LayerNormNoBias);
    const auto granite = core::importConfigFile(kModernDir / "configs" / "granite-4.0-h-tiny.json");
    ASSERT_TRUE(granite.config);
    EXPECT_EQ(granite.config->positional, core::PositionalKind::None);

    // A per-layer expert list is accepted when uniform and refused when it varies.
    const auto uniform = core::importConfigText(
        R"({"model_type": "hunyuan_v1_moe", "num_hidden_layers": 2, "num_experts": [8, 8], "moe_topk": [2, 2]})");
    ASSERT_TRUE(uniform.config);
    EXPECT_EQ(uniform.config->moe.numExperts, 8);
    const auto varying =
        core::importConfigText(R"({"model_type": "hunyuan_v1_moe", "num_hidden_layers": 2, "num_experts": [8, 16]})");
    EXPECT_FALSE(varying.config);
    EXPECT_TRUE(mentionsText(varying.diagnostics, "num_experts"));
    // An unknown hybrid layer type names the field.
    const auto unknownLayer = core::importConfigText(
        R"({"model_type": "granitemoehybrid", "num_hidden_layers": 2, "layer_types": ["mamba", "kda"]})");
    EXPECT_FALSE(unknownLayer.config);
    EXPECT_TRUE(mentionsText(unknownLayer.diagnostics, "layer_types"));
}

TEST(ModernHostile, MutatedModernConfigsNeverCrash) {
    const nlohmann::json values[] = {-1, 0, 1, 1LL << 40, "x", nullptr, nlohmann::json::array({1, "a"}), true, 1e300};
    for (const auto& file : std::filesystem::directory_iterator(kModernDir / "configs")) {
        const nlohmann::json original = readJson(file.path());
        std::vector<std::string> keys;
        for (const auto& [key, value] : original.items()) {
            keys.push_back(key);
        }
        if (original.contains("text_config")) {
            for (const auto& [key, value] : original["text_config"].items()) {
                keys.push_back("text_config/" + key);
            }
        }
        for (const std::string& key : keys) {
            for (const nlohmann::json& value : values) {
                nlohmann::json mutated = original;
                if (key.rfind("text_config/", 0) == 0) {
                    mutated["text_config"][key.substr(12)] = value;
                } else {
                    mutated[key] = value;
                }
                const ImportResult result = core::importConfig(mutated);
                if (result.config) {
                    const core::Analysis analysis = core::analyze(*result.config, {});
                    if (analysis.valid) {
                        EXPECT_GE(analysis.params.total, analysis.params.active) << file.path() << " " << key;
                    }
                } else {
                    EXPECT_TRUE(core::hasErrors(result.diagnostics)) << file.path() << " " << key;
                }
            }
        }
    }
}

} // namespace
} // namespace archplay::test

namespace archplay::test {
namespace {

TEST(ModernHostile, ImpossibleMixerDimensionsAreNamed) {
    const auto negative = core::importConfigText(R"({"model_type": "qwen3_next", "linear_num_key_heads": -3})");
    ASSERT_TRUE(negative.config);
    const core::Diagnostics diagnostics = core::validate(*negative.config);
    EXPECT_TRUE(mentionsText(diagnostics, "linear_num_key_heads"));
    const auto groups =
        core::importConfigText(R"({"model_type": "falcon_h1", "mamba_n_heads": 24, "mamba_n_groups": 5})");
    ASSERT_TRUE(groups.config);
    EXPECT_TRUE(mentionsText(core::validate(*groups.config), "mamba_n_groups"));
}

} // namespace
} // namespace archplay::test
