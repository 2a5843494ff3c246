// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/config/ConfigFields.h"

#include <gtest/gtest.h>

namespace archplay::ui {
namespace {

TEST(ConfigFields, KeysAreUniqueAndAliasesResolve) {
    QStringList keys;
    for (const archplay::ui::panels::FieldSpec& spec : archplay::ui::panels::fieldSpecs()) {
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
        EXPECT_NE(archplay::ui::panels::findFieldSpec(QString::fromLatin1(key)), nullptr) << key;
    }
    EXPECT_EQ(archplay::ui::panels::findFieldSpec(QStringLiteral("n_routed_experts"))->key,
              QStringLiteral("num_experts"));
}

TEST(ConfigFields, EveryNewArchitectureKeyHasAField) {
    // Diagnostics name these keys; the panel must have a field to focus for each.
    for (const char* key : {"token_mixers",
                            "linear_num_key_heads",
                            "linear_num_value_heads",
                            "linear_key_head_dim",
                            "linear_value_head_dim",
                            "linear_conv_kernel_dim",
                            "mamba_n_heads",
                            "mamba_d_head",
                            "mamba_d_state",
                            "mamba_n_groups",
                            "mamba_d_conv",
                            "conv_L_cache",
                            "attention_sinks",
                            "attention_output_gate",
                            "index_n_heads",
                            "index_head_dim",
                            "index_topk",
                            "moe_layers",
                            "router_bias",
                            "expert_bias",
                            "nope_layers",
                            "state_dtype"}) {
        EXPECT_NE(archplay::ui::panels::findFieldSpec(QString::fromLatin1(key)), nullptr) << key;
    }
    core::ModelConfig config;
    core::Scenario scenario;
    const core::edits::EditContext context;
    const archplay::ui::panels::FieldSpec* heads = archplay::ui::panels::findFieldSpec(QStringLiteral("mamba_n_heads"));
    EXPECT_FALSE(heads->applies(config));
    config.mixers = {core::TokenMixer::Mamba2, core::TokenMixer::Attention};
    EXPECT_TRUE(heads->applies(config));
    heads->set(config, scenario, 96, context);
    EXPECT_EQ(config.mamba.numHeads, 96);
    const archplay::ui::panels::FieldSpec* state = archplay::ui::panels::findFieldSpec(QStringLiteral("state_dtype"));
    state->set(config, scenario, qint64(core::DType::BF16), context);
    EXPECT_EQ(scenario.stateDType, core::DType::BF16);
    state->set(config, scenario, -1, context);
    EXPECT_FALSE(scenario.stateDType.has_value());
}

TEST(ConfigFields, GettersReadWhatSettersWrite) {
    core::ModelConfig config;
    core::Scenario scenario;
    const core::edits::EditContext context;
    for (const char* key : {"num_hidden_layers", "hidden_size", "vocab_size", "max_position_embeddings",
                            "sequence_length", "batch_size"}) {
        const archplay::ui::panels::FieldSpec* spec = archplay::ui::panels::findFieldSpec(QString::fromLatin1(key));
        ASSERT_NE(spec, nullptr) << key;
        spec->set(config, scenario, 2048, context);
        EXPECT_EQ(spec->get(config, scenario), 2048) << key;
    }
}

} // namespace
} // namespace archplay::ui
