// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/ConfigEdits.h"

#include "ui/ConfigFields.h"

#include <gtest/gtest.h>

namespace archplay::ui {
namespace {

TEST(ConfigEdits, AttentionFamilies) {
    core::ModelConfig config;
    config.numHeads = 32;
    config.numKvHeads = 32;
    edits::setAttentionFamily(config, core::AttentionFamily::GQA);
    EXPECT_EQ(config.numKvHeads, 8);
    EXPECT_EQ(core::attentionFamily(config), core::AttentionFamily::GQA);
    edits::setAttentionFamily(config, core::AttentionFamily::MQA);
    EXPECT_EQ(config.numKvHeads, 1);
    edits::setAttentionFamily(config, core::AttentionFamily::MLA);
    ASSERT_TRUE(config.latent.has_value());
    EXPECT_EQ(core::attentionFamily(config), core::AttentionFamily::MLA);
    edits::setAttentionFamily(config, core::AttentionFamily::MHA);
    EXPECT_FALSE(config.latent.has_value());
    EXPECT_EQ(config.numKvHeads, 32);
}

TEST(ConfigEdits, HeadsKeepGqaValid) {
    core::ModelConfig config;
    config.numHeads = 32;
    config.numKvHeads = 8;
    edits::setNumHeads(config, 40);
    EXPECT_EQ(config.numHeads, 40);
    EXPECT_EQ(40 % config.numKvHeads, 0);
    EXPECT_LT(config.numKvHeads, 40);
}

TEST(ConfigEdits, FfnKeepsItsRatioToTheHiddenSize) {
    core::ModelConfig config;
    config.hiddenSize = 4096;
    config.intermediateSize = 14336;
    EditContext context;
    context.keepFfnRatio = true;
    context.snap = true;
    context.ffnRatio = 14336.0 / 4096.0;
    edits::setHiddenSize(config, 8192, context);
    EXPECT_EQ(config.hiddenSize, 8192);
    EXPECT_EQ(config.intermediateSize, 28672);
    context.keepFfnRatio = false;
    edits::setHiddenSize(config, 2048, context);
    EXPECT_EQ(config.intermediateSize, 28672);
}

TEST(ConfigEdits, HeadDimFollowsOrHolds) {
    core::ModelConfig config;
    config.hiddenSize = 4096;
    config.numHeads = 32;
    config.headDim.reset();
    edits::setHeadDimFollows(config, false);
    ASSERT_TRUE(config.headDim.has_value());
    EXPECT_EQ(*config.headDim, 128);
    edits::setHeadDimFollows(config, true);
    EXPECT_FALSE(config.headDim.has_value());
}

TEST(ConfigEdits, LayerListsParseAndFormat) {
    EXPECT_EQ(edits::parseLayerList(QStringLiteral("0, 5 7")), (std::vector<std::int64_t>{0, 5, 7}));
    EXPECT_EQ(edits::parseLayerList(QString()), std::vector<std::int64_t>{});
    EXPECT_FALSE(edits::parseLayerList(QStringLiteral("1, x")).has_value());
    EXPECT_FALSE(edits::parseLayerList(QStringLiteral("-1")).has_value());
    EXPECT_EQ(edits::formatLayerList({1, 2}), QStringLiteral("1, 2"));
    const auto types = edits::parseLayerTypes(QStringLiteral("S sliding_attention G full_attention c"));
    ASSERT_TRUE(types.has_value());
    EXPECT_EQ(edits::formatLayerTypes(*types), QStringLiteral("S S G G C"));
    EXPECT_FALSE(edits::parseLayerTypes(QStringLiteral("S Q")).has_value());
}

TEST(ConfigFields, KeysAreUniqueAndAliasesResolve) {
    QStringList keys;
    for (const FieldSpec& spec : fieldSpecs()) {
        EXPECT_FALSE(keys.contains(spec.key)) << spec.key.toStdString();
        keys << spec.key;
        EXPECT_FALSE(spec.tooltip.isEmpty()) << spec.key.toStdString();
        EXPECT_TRUE(fieldToolTip(spec).contains(spec.jsonKey.isEmpty() ? spec.key : spec.jsonKey.toHtmlEscaped()));
    }
    for (const char* key :
         {"hidden_size", "num_key_value_heads", "intermediate_size", "head_dim", "num_experts_per_tok",
          "sliding_window", "vocab_size", "num_hidden_layers", "num_attention_heads", "max_position_embeddings",
          "moe_intermediate_size", "n_routed_experts", "num_local_experts", "num_experts", "kv_lora_rank",
          "q_lora_rank", "first_k_dense_replace"}) {
        EXPECT_NE(findFieldSpec(QString::fromLatin1(key)), nullptr) << key;
    }
    EXPECT_EQ(findFieldSpec(QStringLiteral("n_routed_experts"))->key, QStringLiteral("num_experts"));
}

TEST(ConfigEdits, MixerListsReadLettersAndNamesAndPrintTheirPeriod) {
    using core::TokenMixer;
    const auto parsed = edits::parseMixers(QStringLiteral("d, D gated_deltanet A m c P L"));
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(*parsed, (std::vector<TokenMixer>{TokenMixer::GatedDeltaNet, TokenMixer::GatedDeltaNet,
                                                TokenMixer::GatedDeltaNet, TokenMixer::Attention, TokenMixer::Mamba2,
                                                TokenMixer::ShortConv, TokenMixer::AttentionWithMamba2,
                                                TokenMixer::LightningAttention}));
    EXPECT_FALSE(edits::parseMixers(QStringLiteral("D X")).has_value());
    EXPECT_EQ(edits::parseMixers(QString())->size(), 0u);
    // A list that repeats (Qwen3-Next's 48 layers) prints as its period; the stack reads it cyclically.
    std::vector<TokenMixer> next;
    for (int i = 0; i < 48; ++i) {
        next.push_back(i % 4 == 3 ? TokenMixer::Attention : TokenMixer::GatedDeltaNet);
    }
    EXPECT_EQ(edits::formatMixers(next), QStringLiteral("D D D A"));
    next.back() = TokenMixer::GatedDeltaNet;
    EXPECT_EQ(edits::formatMixers(next).count(QLatin1Char(' ')), 47);
    EXPECT_EQ(edits::formatMixers({}), QString());
}

TEST(ConfigFields, EveryNewArchitectureKeyHasAField) {
    // Diagnostics name these keys; the panel must have a field to focus for each.
    for (const char* key :
         {"token_mixers", "linear_num_key_heads", "linear_num_value_heads", "linear_key_head_dim",
          "linear_value_head_dim", "linear_conv_kernel_dim", "mamba_n_heads", "mamba_d_head", "mamba_d_state",
          "mamba_n_groups", "mamba_d_conv", "conv_L_cache", "attention_sinks", "attention_output_gate",
          "index_n_heads", "index_head_dim", "index_topk", "moe_layers", "router_bias", "expert_bias",
          "nope_layers", "state_dtype"}) {
        EXPECT_NE(findFieldSpec(QString::fromLatin1(key)), nullptr) << key;
    }
    core::ModelConfig config;
    core::Scenario scenario;
    const EditContext context;
    const FieldSpec* heads = findFieldSpec(QStringLiteral("mamba_n_heads"));
    EXPECT_FALSE(heads->applies(config));
    config.mixers = {core::TokenMixer::Mamba2, core::TokenMixer::Attention};
    EXPECT_TRUE(heads->applies(config));
    heads->set(config, scenario, 96, context);
    EXPECT_EQ(config.mamba.numHeads, 96);
    const FieldSpec* state = findFieldSpec(QStringLiteral("state_dtype"));
    state->set(config, scenario, qint64(core::DType::BF16), context);
    EXPECT_EQ(scenario.stateDType, core::DType::BF16);
    state->set(config, scenario, -1, context);
    EXPECT_FALSE(scenario.stateDType.has_value());
}

TEST(ConfigFields, GettersReadWhatSettersWrite) {
    core::ModelConfig config;
    core::Scenario scenario;
    const EditContext context;
    for (const char* key : {"num_hidden_layers", "hidden_size", "vocab_size", "max_position_embeddings",
                            "sequence_length", "batch_size"}) {
        const FieldSpec* spec = findFieldSpec(QString::fromLatin1(key));
        ASSERT_NE(spec, nullptr) << key;
        spec->set(config, scenario, 2048, context);
        EXPECT_EQ(spec->get(config, scenario), 2048) << key;
    }
}

} // namespace
} // namespace archplay::ui
