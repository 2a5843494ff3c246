// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/config/ConfigFields.h"

#include "core/config/ConfigEdits.h"
#include "core/io/ConfigJson.h"
#include "ui/panels/config/ConfigFieldBuilders.h"

#include <QCoreApplication>
#include <QHash>

#include <climits>

namespace archplay::ui::panels {

namespace {

using namespace fieldbuilders;

std::vector<FieldSpec> shapeFields() {
    std::vector<FieldSpec> fields;
    const auto S = FieldSection::Shape;
    {
        FieldSpec spec;
        spec.section = S;
        spec.key = QStringLiteral("model_type");
        spec.label = tr("Model type");
        spec.tooltip = tr("The Hugging Face family the config is read and written as; it decides the key names "
                          "of config.json and the family's defaults.");
        spec.kind = FieldKind::Choice;
        const auto& types = core::supportedModelTypes();
        for (std::size_t i = 0; i < types.size(); ++i) {
            spec.choices.push_back({QString::fromStdString(types[i]), qint64(i)});
        }
        spec.get = [](const core::ModelConfig& c, const core::Scenario&) {
            const auto& list = core::supportedModelTypes();
            for (std::size_t i = 0; i < list.size(); ++i) {
                if (list[i] == c.modelType) {
                    return qint64(i);
                }
            }
            return qint64(-1);
        };
        spec.set = [](core::ModelConfig& c, core::Scenario&, qint64 v, const core::edits::EditContext&) {
            const auto& list = core::supportedModelTypes();
            if (v >= 0 && std::size_t(v) < list.size()) {
                c.modelType = list[std::size_t(v)];
            }
        };
        spec.getText = [](const core::ModelConfig& c) {
            return QString::fromStdString(c.modelType);
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec = choice(S, QStringLiteral("architecture"), tr("Architecture"),
                                tr("Which stacks the model has: a causal decoder (GPT, Llama), a bidirectional "
                                   "encoder (BERT), or both with cross-attention (T5, BART)."),
                                &core::ModelConfig::architecture,
                                {{tr("Decoder-only"), qint64(core::ArchitectureKind::DecoderOnly)},
                                 {tr("Encoder-only"), qint64(core::ArchitectureKind::EncoderOnly)},
                                 {tr("Encoder-decoder"), qint64(core::ArchitectureKind::EncoderDecoder)}});
        spec.set = [](core::ModelConfig& c, core::Scenario&, qint64 v, const core::edits::EditContext&) {
            core::edits::setArchitecture(c, core::ArchitectureKind(v));
        };
        fields.push_back(std::move(spec));
    }
    fields.push_back(integer(S, QStringLiteral("num_hidden_layers"), tr("Layers"),
                             tr("Transformer blocks in the main stack (the decoder of an encoder-decoder model, "
                                "the encoder of an encoder-only one)."),
                             1, 256, widgets::SliderScale::Linear, core::Snap::None, &core::ModelConfig::numLayers,
                             4096));
    fields.back().labelFor = [](const core::ModelConfig& c) {
        return c.architecture == core::ArchitectureKind::EncoderDecoder ? tr("Decoder layers") : tr("Layers");
    };
    {
        FieldSpec spec =
            integer(S, QStringLiteral("num_encoder_layers"), tr("Encoder layers"),
                    tr("Blocks in the encoder stack of an encoder-decoder model (T5's num_layers, "
                       "BART's encoder_layers)."),
                    1, 256, widgets::SliderScale::Linear, core::Snap::None, &core::ModelConfig::numEncoderLayers, 4096);
        spec.applies = [](const core::ModelConfig& c) {
            return c.architecture == core::ArchitectureKind::EncoderDecoder;
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec = integer(S, QStringLiteral("hidden_size"), tr("Hidden size"),
                                 tr("Width of the residual stream: every token is a vector of this many numbers "
                                    "between the blocks (d_model)."),
                                 64, 65536, widgets::SliderScale::Logarithmic, core::kHiddenSnap,
                                 &core::ModelConfig::hiddenSize, 1 << 20);
        spec.set = [](core::ModelConfig& c, core::Scenario&, qint64 v, const core::edits::EditContext& context) {
            core::edits::setHiddenSize(c, v, context);
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec =
            integer(S, QStringLiteral("num_attention_heads"), tr("Heads"),
                    tr("Query heads of each attention layer; the KV heads must divide them. Snapping "
                       "keeps whole GQA groups and a whole head_dim."),
                    1, 256, widgets::SliderScale::Linear, core::Snap::QueryHeads, &core::ModelConfig::numHeads, 4096);
        spec.set = [](core::ModelConfig& c, core::Scenario&, qint64 v, const core::edits::EditContext&) {
            core::edits::setNumHeads(c, v);
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec = integer(S, QStringLiteral("num_key_value_heads"), tr("KV heads"),
                                 tr("Key/value heads shared by groups of query heads: equal to the heads is MHA, "
                                    "fewer is GQA, one is MQA. They set the KV cache size."),
                                 1, 256, widgets::SliderScale::Linear, core::Snap::DivisorOfHeads,
                                 &core::ModelConfig::numKvHeads, 4096);
        spec.maximumFor = [](const core::ModelConfig& c) {
            return qint64(std::max<std::int64_t>(1, c.numHeads));
        };
        spec.enabled = [](const core::ModelConfig& c) {
            return !isLatent(c);
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec = integer(S, QStringLiteral("head_dim"), tr("Head dim"),
                                 tr("Width of one attention head. When absent it is hidden size / heads; Gemma, "
                                    "Qwen3 and Mistral-Nemo set it so that heads x head_dim differs from the hidden "
                                    "size."),
                                 8, 512, widgets::SliderScale::Linear, core::Snap::Multiple16, nullptr, 4096);
        spec.get = [](const core::ModelConfig& c, const core::Scenario&) {
            return qint64(c.effectiveHeadDim());
        };
        spec.set = [](core::ModelConfig& c, core::Scenario&, qint64 v, const core::edits::EditContext&) {
            c.headDim = v;
        };
        spec.applies = [](const core::ModelConfig& c) {
            return !isLatent(c);
        };
        spec.enabled = [](const core::ModelConfig& c) {
            return c.headDim.has_value();
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec;
        spec.section = S;
        spec.key = QStringLiteral("head_dim.follow");
        spec.jsonKey = QStringLiteral("head_dim");
        spec.label = tr("head_dim follows hidden / heads");
        spec.tooltip = tr("When on, head_dim is left out of config.json and derived from the hidden size and the "
                          "heads; turn it off to set head_dim on its own.");
        spec.kind = FieldKind::Toggle;
        spec.get = [](const core::ModelConfig& c, const core::Scenario&) {
            return qint64(c.headDim ? 0 : 1);
        };
        spec.set = [](core::ModelConfig& c, core::Scenario&, qint64 v, const core::edits::EditContext&) {
            core::edits::setHeadDimFollows(c, v != 0);
        };
        spec.applies = [](const core::ModelConfig& c) {
            return !isLatent(c);
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec =
            integer(S, QStringLiteral("intermediate_size"), tr("FFN width"),
                    tr("Inner width of the dense feed-forward block (the dense layers of a MoE model)."), 64, 262144,
                    widgets::SliderScale::Logarithmic, core::kFfnSnap, &core::ModelConfig::intermediateSize, 1 << 24);
        spec.labelFor = [](const core::ModelConfig& c) {
            return isMoe(c) ? tr("Dense FFN width") : tr("FFN width");
        };
        spec.applies = [](const core::ModelConfig& c) {
            return c.hasDenseFfnLayers();
        };
        fields.push_back(std::move(spec));
    }
    fields.push_back(integer(
        S, QStringLiteral("vocab_size"), tr("Vocabulary"), tr("Tokens the embedding table and the output head cover."),
        256, 1 << 20, widgets::SliderScale::Logarithmic, core::kVocabSnap, &core::ModelConfig::vocabSize, 1 << 26));
    fields.push_back(integer(S, QStringLiteral("max_position_embeddings"), tr("Context length"),
                             tr("Longest sequence the model is configured for; it sizes learned position tables."), 128,
                             1 << 24, widgets::SliderScale::Logarithmic, core::Snap::PowerOfTwo,
                             &core::ModelConfig::maxPositions, INT_MAX));
    return fields;
}

} // namespace

std::vector<FieldSpec> attentionFields();
std::vector<FieldSpec> mixerFields();
std::vector<FieldSpec> feedForwardFields();
std::vector<FieldSpec> embeddingFields();
std::vector<FieldSpec> scenarioFields();

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
    }
    return {};
}

const std::vector<FieldSpec>& fieldSpecs() {
    static const std::vector<FieldSpec> specs = [] {
        std::vector<FieldSpec> all = shapeFields();
        for (auto&& part :
             {attentionFields(), mixerFields(), feedForwardFields(), embeddingFields(), scenarioFields()}) {
            all.insert(all.end(), part.begin(), part.end());
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
        {QStringLiteral("encoder_attention_heads"), QStringLiteral("num_attention_heads")},
        {QStringLiteral("num_kv_heads"), QStringLiteral("num_key_value_heads")},
        {QStringLiteral("n_head_kv"), QStringLiteral("num_key_value_heads")},
        {QStringLiteral("multi_query"), QStringLiteral("num_key_value_heads")},
        {QStringLiteral("d_kv"), QStringLiteral("head_dim")},
        {QStringLiteral("n_inner"), QStringLiteral("intermediate_size")},
        {QStringLiteral("ffn_dim"), QStringLiteral("intermediate_size")},
        {QStringLiteral("d_ff"), QStringLiteral("intermediate_size")},
        {QStringLiteral("ffn_hidden_size"), QStringLiteral("intermediate_size")},
        {QStringLiteral("decoder_ffn_dim"), QStringLiteral("intermediate_size")},
        {QStringLiteral("encoder_ffn_dim"), QStringLiteral("intermediate_size")},
        {QStringLiteral("n_positions"), QStringLiteral("max_position_embeddings")},
        {QStringLiteral("n_ctx"), QStringLiteral("max_position_embeddings")},
        {QStringLiteral("seq_length"), QStringLiteral("max_position_embeddings")},
        {QStringLiteral("n_routed_experts"), QStringLiteral("num_experts")},
        {QStringLiteral("num_local_experts"), QStringLiteral("num_experts")},
        {QStringLiteral("moe_top_k"), QStringLiteral("num_experts_per_tok")},
        {QStringLiteral("num_shared_experts"), QStringLiteral("n_shared_experts")},
        {QStringLiteral("use_sliding_window"), QStringLiteral("layer_types")},
        {QStringLiteral("use_qk_norm"), QStringLiteral("qk_norm")},
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
    if (spec.section == FieldSection::Scenario) {
        return QStringLiteral("<p><b>%1</b> — %2</p><p>%3 <code>%4</code></p>")
            .arg(spec.label.toHtmlEscaped(), spec.tooltip.toHtmlEscaped(),
                 tr("Scenario setting, not part of config.json; the session file stores it as"), key.toHtmlEscaped());
    }
    return QStringLiteral("<p><b>%1</b> — %2</p><p>%3 <code>%4</code></p>")
        .arg(spec.label.toHtmlEscaped(), spec.tooltip.toHtmlEscaped(), tr("config.json key:"), key.toHtmlEscaped());
}

} // namespace archplay::ui::panels
