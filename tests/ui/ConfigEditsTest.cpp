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
