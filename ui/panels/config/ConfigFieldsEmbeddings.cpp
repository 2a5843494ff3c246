// SPDX-License-Identifier: GPL-3.0-or-later
// The Embeddings-and-norms and Scenario fields of the config panel.
#include "core/config/ConfigEdits.h"
#include "core/memory/GpuFit.h"
#include "ui/panels/config/ConfigFieldBuilders.h"
#include "ui/panels/config/ConfigFields.h"

#include <climits>

namespace archplay::ui::panels {

using namespace fieldbuilders;

std::vector<FieldSpec> embeddingFields() {
    std::vector<FieldSpec> fields;
    const auto E = FieldSection::EmbeddingsNorms;
    fields.push_back(choice(E, QStringLiteral("position_embedding_type"), tr("Positions"),
                            tr("How token positions enter the model: a learned table, fixed sinusoids, rotary "
                               "embeddings, ALiBi biases, T5 relative buckets, or none."),
                            &core::ModelConfig::positional,
                            {{tr("Learned"), qint64(core::PositionalKind::Learned)},
                             {tr("Sinusoidal"), qint64(core::PositionalKind::Sinusoidal)},
                             {tr("RoPE"), qint64(core::PositionalKind::Rope)},
                             {tr("ALiBi"), qint64(core::PositionalKind::Alibi)},
                             {tr("Relative bias (T5)"), qint64(core::PositionalKind::RelativeBias)},
                             {tr("None"), qint64(core::PositionalKind::None)}}));
    {
        FieldSpec spec;
        spec.section = E;
        spec.key = QStringLiteral("partial_rotary_factor");
        spec.label = tr("Rotary fraction");
        spec.tooltip = tr("Share of each head's dimensions that RoPE rotates (Phi-2, NeoX: partial rotary).");
        spec.kind = FieldKind::Real;
        spec.getReal = [](const core::ModelConfig& c) {
            return c.rotaryFraction;
        };
        spec.setReal = [](core::ModelConfig& c, double v) {
            c.rotaryFraction = v;
        };
        spec.applies = [](const core::ModelConfig& c) {
            return c.positional == core::PositionalKind::Rope;
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec;
        spec.section = E;
        spec.key = QStringLiteral("nope_layers");
        spec.jsonKey = QStringLiteral("nope_layers, no_rope_layers");
        spec.label = tr("NoPE layers");
        spec.tooltip = tr("Layer indices that use no rotary position (Llama 4 every fourth, SmolLM3), separated "
                          "by commas; the parameter count is the same, the attention sees no positions there.");
        spec.kind = FieldKind::Text;
        spec.getText = [](const core::ModelConfig& c) {
            return QString::fromStdString(core::edits::formatLayerList(c.nopeLayers));
        };
        spec.setText = [](core::ModelConfig& c, const QString& text) {
            auto layers = core::edits::parseLayerList(text.toStdString());
            if (!layers) {
                return false;
            }
            c.nopeLayers = std::move(*layers);
            return true;
        };
        spec.applies = [](const core::ModelConfig& c) {
            return c.positional == core::PositionalKind::Rope;
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec =
            integer(E, QStringLiteral("position_offset"), tr("Position offset"),
                    tr("Extra rows of the learned position table (OPT and BART add 2)."), 0, 16,
                    widgets::SliderScale::Linear, core::Snap::None, &core::ModelConfig::positionOffset, 4096);
        spec.jsonKey = QStringLiteral("model_type");
        spec.applies = [](const core::ModelConfig& c) {
            return c.positional == core::PositionalKind::Learned;
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec =
            integer(E, QStringLiteral("relative_attention_num_buckets"), tr("Relative buckets"),
                    tr("Buckets of T5's learned relative-position bias, one value per head per bucket."), 1, 512,
                    widgets::SliderScale::Linear, core::Snap::None, &core::ModelConfig::relativeBuckets, 65536);
        spec.applies = [](const core::ModelConfig& c) {
            return c.positional == core::PositionalKind::RelativeBias;
        };
        fields.push_back(std::move(spec));
    }
    fields.push_back(choice(E, QStringLiteral("norm_type"), tr("Norm"),
                            tr("LayerNorm has a weight and a bias, RMSNorm a weight only, the non-parametric norm "
                               "(OLMo) neither."),
                            &core::ModelConfig::normKind,
                            {{tr("LayerNorm"), qint64(core::NormKind::LayerNorm)},
                             {tr("RMSNorm"), qint64(core::NormKind::RmsNorm)},
                             {tr("LayerNorm without bias"), qint64(core::NormKind::LayerNormNoBias)},
                             {tr("Non-parametric"), qint64(core::NormKind::NonParametric)}}));
    fields.back().jsonKey = QStringLiteral("model_type, rms_norm_eps, layer_norm_eps");
    fields.push_back(choice(E, QStringLiteral("norm_placement"), tr("Placement"),
                            tr("Where each block's norms sit: before the sub-blocks, after them, both (sandwich), "
                               "or shared by parallel attention and FFN."),
                            &core::ModelConfig::normPlacement,
                            {{tr("Pre-norm"), qint64(core::NormPlacement::Pre)},
                             {tr("Post-norm"), qint64(core::NormPlacement::Post)},
                             {tr("Sandwich"), qint64(core::NormPlacement::Sandwich)},
                             {tr("Parallel, one norm"), qint64(core::NormPlacement::ParallelSingle)},
                             {tr("Parallel, two norms"), qint64(core::NormPlacement::ParallelDouble)},
                             {tr("After only (OLMo 2)"), qint64(core::NormPlacement::PostOnly)}}));
    fields.back().jsonKey = QStringLiteral("model_type, parallel_attn, new_decoder_architecture");
    fields.push_back(toggle(E, QStringLiteral("final_norm"), tr("Final norm"),
                            tr("A norm after the last block, before the output head."), &core::ModelConfig::finalNorm));
    fields.back().jsonKey = QStringLiteral("model_type");
    fields.push_back(toggle(E, QStringLiteral("embedding_norm"), tr("Embedding norm"),
                            tr("A norm right after the token embedding (BLOOM, BERT, BART)."),
                            &core::ModelConfig::embeddingNorm));
    fields.push_back(toggle(E, QStringLiteral("lm_head"), tr("Output head"),
                            tr("The model has a language-modelling head projecting back to the vocabulary "
                               "(…ForCausalLM); off for a bare encoder like BertModel."),
                            &core::ModelConfig::outputHead));
    fields.back().jsonKey = QStringLiteral("architectures");
    {
        FieldSpec spec = toggle(E, QStringLiteral("tie_word_embeddings"), tr("Tied head"),
                                tr("The output head reuses the input embedding matrix, so it is counted once."),
                                &core::ModelConfig::tieWordEmbeddings);
        spec.applies = [](const core::ModelConfig& c) {
            return c.outputHead;
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec = toggle(E, QStringLiteral("lm_head_bias"), tr("Head bias"),
                                tr("The output head has a bias of vocabulary size (GPT-J, Phi-2)."),
                                &core::ModelConfig::outputHeadBias);
        spec.jsonKey = QStringLiteral("model_type");
        spec.applies = [](const core::ModelConfig& c) {
            return c.outputHead;
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec = integer(E, QStringLiteral("word_embed_proj_dim"), tr("Embed projection"),
                                 tr("Width of the token embedding when it is projected in and out of the hidden size "
                                    "(OPT-350m); none when equal to the hidden size."),
                                 0, 65536, widgets::SliderScale::Logarithmic, core::Snap::Multiple128,
                                 &core::ModelConfig::embeddingProjectionDim, 1 << 20);
        spec.specialValueText = tr("none");
        spec.applies = [](const core::ModelConfig& c) {
            return c.embeddingProjectionDim > 0 || c.modelType == "opt";
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec = integer(E, QStringLiteral("type_vocab_size"), tr("Token types"),
                                 tr("Rows of BERT's segment (token type) embedding."), 0, 16,
                                 widgets::SliderScale::Linear, core::Snap::None, &core::ModelConfig::tokenTypes, 4096);
        spec.applies = [](const core::ModelConfig& c) {
            return c.architecture == core::ArchitectureKind::EncoderOnly;
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec = toggle(E, QStringLiteral("pooler"), tr("Pooler"),
                                tr("BERT's pooler: a dense hidden x hidden layer with a bias on the first token."),
                                &core::ModelConfig::pooler);
        spec.jsonKey = QStringLiteral("add_pooling_layer");
        spec.applies = [](const core::ModelConfig& c) {
            return c.architecture == core::ArchitectureKind::EncoderOnly;
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec =
            integer(E, QStringLiteral("num_nextn_predict_layers"), tr("MTP layers"),
                    tr("DeepSeek-V3's multi-token-prediction modules: stored in the checkpoint, reported "
                       "apart and not counted in the total."),
                    0, 4, widgets::SliderScale::Linear, core::Snap::None, &core::ModelConfig::mtpLayers, 64);
        spec.applies = [](const core::ModelConfig& c) {
            return c.mtpLayers > 0 || c.latent.has_value();
        };
        fields.push_back(std::move(spec));
    }
    return fields;
}

std::vector<FieldSpec> scenarioFields() {
    std::vector<FieldSpec> fields;
    fields.push_back(scenarioInteger(QStringLiteral("sequence_length"), tr("Sequence length"),
                                     tr("Tokens of context per sequence the KV cache is sized for."), 1, 1 << 24,
                                     INT_MAX, &core::Scenario::sequenceLength));
    {
        FieldSpec spec = scenarioInteger(QStringLiteral("encoder_sequence_length"), tr("Source length"),
                                         tr("Encoder tokens whose cross-attention keys and values the decoder caches."),
                                         1, 1 << 20, INT_MAX, &core::Scenario::encoderSequenceLength);
        spec.applies = [](const core::ModelConfig& c) {
            return c.architecture == core::ArchitectureKind::EncoderDecoder;
        };
        fields.push_back(std::move(spec));
    }
    fields.push_back(scenarioInteger(QStringLiteral("batch_size"), tr("Batch"),
                                     tr("Sequences served at once; the KV cache grows with it."), 1, 4096, 1 << 20,
                                     &core::Scenario::batch));
    fields.push_back(dtypeChoice(QStringLiteral("weight_dtype"), tr("Weights"),
                                 tr("Number format of the weights; it sets the weight memory."),
                                 &core::Scenario::weightDType));
    fields.push_back(dtypeChoice(QStringLiteral("kv_dtype"), tr("KV cache"),
                                 tr("Number format of the cached keys and values."), &core::Scenario::kvDType));
    fields.back().applies = [](const core::ModelConfig& c) {
        return c.hasDecoder();
    };
    {
        FieldSpec spec = dtypeChoice(QStringLiteral("state_dtype"), tr("Fixed state"),
                                     tr("Number format of the convolution and recurrent states of linear-attention "
                                        "and state-space layers. As implemented: the KV format, except the Gated "
                                        "DeltaNet recurrent state, which transformers keeps in FP32."),
                                     nullptr);
        spec.choices.insert(spec.choices.begin(), {tr("As implemented"), -1});
        spec.get = [](const core::ModelConfig&, const core::Scenario& s) {
            return s.stateDType ? qint64(*s.stateDType) : qint64(-1);
        };
        spec.set = [](core::ModelConfig&, core::Scenario& s, qint64 v, const core::edits::EditContext&) {
            s.stateDType = v < 0 ? std::nullopt : std::optional(core::DType(v));
        };
        spec.applies = [](const core::ModelConfig& c) {
            return c.hybrid();
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec;
        spec.section = FieldSection::Scenario;
        spec.key = QStringLiteral("gpu_memory_gib");
        spec.label = tr("GPU");
        spec.tooltip = tr("Memory of each device the model is served on; the summary and the KV view show whether "
                          "weights and cache fit.");
        spec.kind = FieldKind::Choice;
        for (const core::GpuMemorySize& gpu : core::gpuMemorySizes()) {
            spec.choices.push_back(
                {QStringLiteral("%1 · %2").arg(QString::fromStdString(gpu.label), QString::fromStdString(gpu.examples)),
                 qint64(gpu.bytes >> 30)});
        }
        spec.get = [](const core::ModelConfig&, const core::Scenario& s) {
            return qint64(s.gpuMemoryGiB);
        };
        spec.set = [](core::ModelConfig&, core::Scenario& s, qint64 v, const core::edits::EditContext&) {
            s.gpuMemoryGiB = std::uint64_t(v);
        };
        fields.push_back(std::move(spec));
    }
    fields.push_back(scenarioInteger(QStringLiteral("gpu_count"), tr("GPUs"),
                                     tr("Devices sharing the weights and the cache evenly (tensor parallel)."), 1, 1024,
                                     1 << 16, &core::Scenario::gpuCount));
    return fields;
}

} // namespace archplay::ui::panels
