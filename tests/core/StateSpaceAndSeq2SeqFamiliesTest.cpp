// SPDX-License-Identifier: GPL-3.0-or-later
// Families read beyond the transformers corpus: Mamba-2 language models (modeling_mamba2.py) and
// mBART (modeling_mbart.py), counted tensor by tensor against shapes derived here from the modeling
// files and against the published totals; BART's stack embeddings follow the tie at every toggle;
// Marian is refused with its reason.
#include "core/io/ConfigJson.h"
#include "core/params/Tensors.h"
#include "tests/support/TestSupport.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace archplay::test {
namespace {

/// Every tensor transformers builds, folded: key -> (count, elements of one).
using Listing = std::map<std::string, std::pair<std::uint64_t, std::uint64_t>>;

Listing listTensors(const core::ModelConfig& config) {
    const core::Analysis analysis = core::analyze(config, {});
    EXPECT_TRUE(analysis.valid);
    Listing listing;
    for (const core::FoldedTensor& tensor :
         core::foldedTensors(analysis.config, analysis.plan, core::TensorLayout::Transformers)) {
        listing[tensor.key] = {tensor.count, tensor.elements.value() / tensor.count};
    }
    return listing;
}

core::ModelConfig read(const nlohmann::json& object) {
    const core::ImportResult imported = core::importConfig(object);
    EXPECT_TRUE(imported.config && imported.config->exact()) << object.dump();
    return imported.config.value_or(core::ModelConfig{});
}

std::uint64_t total(const core::ModelConfig& config) {
    return core::analyze(config, {}).params.total;
}

/// mistralai/Mamba-Codestral-7B-v0.1's config.json.
nlohmann::json codestral() {
    std::ifstream in(std::filesystem::path(kReferenceDir) / "modern" / "extra" / "mamba-codestral-7b.json");
    return nlohmann::json::parse(in);
}

TEST(Mamba2Lm, EveryTensorHasTheShapeMamba2MixerBuilds) {
    // Odd widths, groups and biases: D = 96, expand 1.5 (I = 144 = 12 heads x 12), G = 3, N = 10, K = 5.
    const nlohmann::json config = {{"model_type", "mamba2"},     {"hidden_size", 96}, {"num_hidden_layers", 3},
                                   {"vocab_size", 1001},         {"num_heads", 12},   {"head_dim", 12},
                                   {"state_size", 10},           {"n_groups", 3},     {"expand", 1.5},
                                   {"conv_kernel", 5},           {"use_bias", true},  {"use_conv_bias", false},
                                   {"tie_word_embeddings", true}};
    const std::uint64_t d = 96, inner = 144, heads = 12, conv = inner + 2 * 3 * 10, layers = 3;
    const Listing expected = {
        {"backbone.embeddings.weight", {1, 1001 * d}},
        {"backbone.layers.#.norm.weight", {layers, d}},
        // in_proj: the gate z, x with B and C (conv_dim), dt per head.
        {"backbone.layers.#.mixer.in_proj.weight", {layers, d * (inner + conv + heads)}},
        {"backbone.layers.#.mixer.in_proj.bias", {layers, inner + conv + heads}},
        {"backbone.layers.#.mixer.conv1d.weight", {layers, conv * 5}},
        {"backbone.layers.#.mixer.dt_bias", {layers, heads}},
        {"backbone.layers.#.mixer.A_log", {layers, heads}},
        {"backbone.layers.#.mixer.D", {layers, heads}},
        {"backbone.layers.#.mixer.norm.weight", {layers, inner}},
        {"backbone.layers.#.mixer.out_proj.weight", {layers, inner * d}},
        {"backbone.layers.#.mixer.out_proj.bias", {layers, d}},
        {"backbone.norm_f.weight", {1, d}},
    };
    EXPECT_EQ(listTensors(read(config)), expected);
}

TEST(Mamba2Lm, CodestralCountsWhatItsCheckpointHolds) {
    // 64 x (in_proj 4096 x 18,560 + conv 10,240 x 5 + 3 x 128 + norms 8,192 + 4,096 + out_proj
    // 8,192 x 4,096) + untied embedding and head 2 x 32,768 x 4,096 + norm_f: 7.29B on the Hub.
    const core::ModelConfig config = read(codestral());
    EXPECT_EQ(total(config), 7'285'403'648U);
    EXPECT_FALSE(config.tieWordEmbeddings); // Mamba2Config's default
}

TEST(Mamba2Lm, HeadsThatDoNotTileTheWidthAreRefusedNamingTheField) {
    nlohmann::json config = codestral();
    config["head_dim"] = 48; // 128 x 48 != 2 x 4096
    const core::ImportResult imported = core::importConfig(config);
    EXPECT_TRUE(std::any_of(imported.diagnostics.begin(), imported.diagnostics.end(), [](const core::Diagnostic& d) {
        return d.severity == core::Severity::Error && d.field == "num_heads";
    }));
}

TEST(Mamba2Lm, TransformersKeepsTheSsmStateInFp32) {
    const core::ModelConfig config = read(codestral());
    // Per layer: conv_states [10,240, 4] in bf16, recurrent_states [128, 64, 128] in fp32 (torch_forward).
    core::Scenario scenario = scenarioAt(200);
    scenario.kvAllocator = core::KvAllocator::Transformers;
    EXPECT_EQ(core::analyze(config, scenario).kv.totalBytes, 64U * (10'240 * 4 * 2 + 128 * 64 * 128 * 4));
    scenario.kvAllocator = core::KvAllocator::Architecture;
    EXPECT_EQ(core::analyze(config, scenario).kv.totalBytes, 64U * (10'240 * 4 * 2 + 128 * 64 * 128 * 2));
}

TEST(Mamba2Lm, WritesBackWhatItRead) {
    const core::ModelConfig config = read(codestral());
    const core::ModelConfig again = read(core::exportConfig(config));
    EXPECT_EQ(total(again), total(config));
    EXPECT_EQ(again.mamba, config.mamba);
}

/// facebook/mbart-large-cc25's config.json (shape fields).
nlohmann::json mbartLarge() {
    return {{"model_type", "mbart"},
            {"d_model", 1024},
            {"encoder_layers", 12},
            {"decoder_layers", 12},
            {"encoder_attention_heads", 16},
            {"decoder_attention_heads", 16},
            {"encoder_ffn_dim", 4096},
            {"decoder_ffn_dim", 4096},
            {"max_position_embeddings", 1024},
            {"vocab_size", 250027},
            {"activation_function", "gelu"},
            {"scale_embedding", true}};
}

TEST(Mbart, CountsBartsModulesWithAClosingNormPerStack) {
    const core::ModelConfig config = read(mbartLarge());
    // BART-large's 406,291,456 with a vocabulary of 250,027 instead of 50,265, plus each stack's
    // closing LayerNorm (2 x 2 x 1,024): 610,851,840, mbart-large-cc25's 611M.
    EXPECT_EQ(total(config), 406'291'456U + (250'027U - 50'265U) * 1024U + 4 * 1024U);
    const Listing tensors = listTensors(config);
    for (const char* stack : {"encoder", "decoder"}) {
        for (const char* norm : {"layer_norm", "layernorm_embedding"}) {
            const std::string key = std::string("model.") + stack + "." + norm + ".weight";
            EXPECT_EQ(tensors.count(key), 1U) << key;
        }
    }
    EXPECT_EQ(config.normPlacement, core::NormPlacement::Pre);
}

TEST(Bart, UntyingTheHeadUntiesTheStackEmbeddingsAtEveryToggle) {
    nlohmann::json object = mbartLarge();
    object["model_type"] = "bart";
    core::ModelConfig config = read(object);
    const std::uint64_t tied = total(config);
    EXPECT_EQ(listTensors(config).count("model.encoder.embed_tokens.weight"), 0U);
    // The Tied head switch turned off in the window: transformers 5.x builds lm_head and the
    // encoder's and decoder's own embed_tokens beside `shared`.
    config.tieWordEmbeddings = false;
    const Listing untied = listTensors(config);
    for (const char* key :
         {"lm_head.weight", "model.encoder.embed_tokens.weight", "model.decoder.embed_tokens.weight"}) {
        EXPECT_EQ(untied.count(key), 1U) << key;
    }
    EXPECT_EQ(total(config), tied + 3U * 250'027U * 1024U);
}

TEST(Marian, IsRefusedWithItsReason) {
    const core::ImportResult imported =
        core::importConfig({{"model_type", "marian"}, {"d_model", 512}, {"vocab_size", 58101}});
    EXPECT_FALSE(imported.config && imported.config->exact());
    EXPECT_TRUE(std::any_of(imported.diagnostics.begin(), imported.diagnostics.end(), [](const core::Diagnostic& d) {
        return d.severity == core::Severity::Error && d.message.find("sinusoidal") != std::string::npos;
    }));
}

} // namespace
} // namespace archplay::test
