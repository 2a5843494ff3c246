// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/config/ConfigFields.h"

#include "ui/panels/config/ConfigFieldAccess.h"

#include <QHash>

#include <utility>

namespace archplay::ui::panels {

using fieldtables::tr;

QString sectionTitle(FieldSection section) {
    switch (section) {
    case FieldSection::Shape:
        return tr("Shape");
    case FieldSection::Attention:
        return tr("Attention");
    case FieldSection::Mixers:
        return tr("Linear attention and SSM");
    case FieldSection::FeedForward:
        return tr("Feed-forward");
    case FieldSection::EmbeddingsNorms:
        return tr("Embeddings and norms");
    case FieldSection::Scenario:
        return tr("Scenario");
    case FieldSection::Training:
        return tr("Training");
    }
    return {};
}

bool isScenarioSection(FieldSection section) {
    return section == FieldSection::Scenario || section == FieldSection::Training;
}

const IntegerValue* integerValue(const FieldSpec& spec) {
    if (const auto* integer = std::get_if<IntegerEditor>(&spec.editor)) {
        return &integer->value;
    }
    if (const auto* choice = std::get_if<ChoiceEditor>(&spec.editor)) {
        return &choice->value;
    }
    if (const auto* toggle = std::get_if<ToggleEditor>(&spec.editor)) {
        return &toggle->value;
    }
    return nullptr;
}

const std::vector<FieldSpec>& fieldSpecs() {
    static const std::vector<FieldSpec> specs = [] {
        using namespace fieldtables;
        const std::pair<FieldSection, std::vector<FieldSpec> (*)()> tables[] = {
            {FieldSection::Shape, shapeFields},
            {FieldSection::Attention, attentionFields},
            {FieldSection::Mixers, mixerFields},
            {FieldSection::FeedForward, feedForwardFields},
            {FieldSection::EmbeddingsNorms, embeddingFields},
            {FieldSection::Scenario, scenarioFields},
            {FieldSection::Training, trainingFields},
        };
        std::vector<FieldSpec> all;
        for (const auto& [section, table] : tables) {
            for (FieldSpec& spec : table()) {
                spec.section = section;
                all.push_back(std::move(spec));
            }
        }
        return all;
    }();
    return specs;
}

QString canonicalFieldKey(const QString& key) {
    static const QHash<QString, QString> aliases = {
        {QStringLiteral("n_embd"), QStringLiteral("hidden_size")},
        {QStringLiteral("n_embed"), QStringLiteral("hidden_size")},
        {QStringLiteral("d_model"), QStringLiteral("hidden_size")},
        {QStringLiteral("n_layer"), QStringLiteral("num_hidden_layers")},
        {QStringLiteral("num_layers"), QStringLiteral("num_hidden_layers")},
        {QStringLiteral("num_decoder_layers"), QStringLiteral("num_hidden_layers")},
        {QStringLiteral("decoder_layers"), QStringLiteral("num_hidden_layers")},
        {QStringLiteral("encoder_layers"), QStringLiteral("num_encoder_layers")},
        {QStringLiteral("n_head"), QStringLiteral("num_attention_heads")},
        {QStringLiteral("num_heads"), QStringLiteral("num_attention_heads")},
        {QStringLiteral("decoder_attention_heads"), QStringLiteral("num_attention_heads")},
        {QStringLiteral("num_kv_heads"), QStringLiteral("num_key_value_heads")},
        {QStringLiteral("n_head_kv"), QStringLiteral("num_key_value_heads")},
        {QStringLiteral("multi_query"), QStringLiteral("num_key_value_heads")},
        {QStringLiteral("d_kv"), QStringLiteral("head_dim")},
        {QStringLiteral("n_inner"), QStringLiteral("intermediate_size")},
        {QStringLiteral("ffn_dim"), QStringLiteral("intermediate_size")},
        {QStringLiteral("d_ff"), QStringLiteral("intermediate_size")},
        {QStringLiteral("ffn_hidden_size"), QStringLiteral("intermediate_size")},
        {QStringLiteral("decoder_ffn_dim"), QStringLiteral("intermediate_size")},
        {QStringLiteral("n_positions"), QStringLiteral("max_position_embeddings")},
        {QStringLiteral("n_ctx"), QStringLiteral("max_position_embeddings")},
        {QStringLiteral("seq_length"), QStringLiteral("max_position_embeddings")},
        {QStringLiteral("n_routed_experts"), QStringLiteral("num_experts")},
        {QStringLiteral("num_local_experts"), QStringLiteral("num_experts")},
        {QStringLiteral("moe_top_k"), QStringLiteral("num_experts_per_tok")},
        {QStringLiteral("num_shared_experts"), QStringLiteral("n_shared_experts")},
        {QStringLiteral("use_sliding_window"), QStringLiteral("layer_types")},
        {QStringLiteral("use_qk_norm"), QStringLiteral("qk_norm")},
        {QStringLiteral("qk_layernorm"), QStringLiteral("qk_norm")},
        {QStringLiteral("attention_bias"), QStringLiteral("q_bias")},
        {QStringLiteral("qkv_bias"), QStringLiteral("q_bias")},
        {QStringLiteral("bias"), QStringLiteral("q_bias")},
        {QStringLiteral("activation_function"), QStringLiteral("hidden_act")},
        {QStringLiteral("hidden_activation"), QStringLiteral("hidden_act")},
        {QStringLiteral("feed_forward_proj"), QStringLiteral("hidden_act")},
        {QStringLiteral("rotary_pct"), QStringLiteral("partial_rotary_factor")},
        {QStringLiteral("layernorm_embedding"), QStringLiteral("embedding_norm")},
        {QStringLiteral("is_encoder_decoder"), QStringLiteral("architecture")},
        {QStringLiteral("batch"), QStringLiteral("batch_size")},
    };
    return aliases.value(key, key);
}

const FieldSpec* findFieldSpec(const QString& key) {
    const QString canonical = canonicalFieldKey(key);
    for (const FieldSpec& spec : fieldSpecs()) {
        if (spec.key == canonical) {
            return &spec;
        }
    }
    return nullptr;
}

QString fieldToolTip(const FieldSpec& spec) {
    const QString key = spec.jsonKey.isEmpty() ? spec.key : spec.jsonKey;
    if (isScenarioSection(spec.section)) {
        return QStringLiteral("<p><b>%1</b> — %2</p><p>%3 <code>%4</code></p>")
            .arg(spec.label.toHtmlEscaped(), spec.tooltip.toHtmlEscaped(),
                 tr("Scenario setting, not part of config.json; the session file stores it as"), key.toHtmlEscaped());
    }
    return QStringLiteral("<p><b>%1</b> — %2</p><p>%3 <code>%4</code></p>")
        .arg(spec.label.toHtmlEscaped(), spec.tooltip.toHtmlEscaped(), tr("config.json key:"), key.toHtmlEscaped());
}

} // namespace archplay::ui::panels
