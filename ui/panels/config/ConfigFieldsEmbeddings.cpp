// SPDX-License-Identifier: GPL-3.0-or-later
// The Embeddings-and-norms fields of the config panel.
#include "core/io/ConfigJson.h"
#include "ui/panels/config/ConfigFieldAccess.h"

namespace archplay::ui::panels::fieldtables {

using namespace Qt::StringLiterals;
using core::Field;

namespace {

template <core::PositionalKind kind> bool positionsAre(const ModelConfig& c) {
    return c.positional == kind;
}
bool hasOutputHead(const ModelConfig& c) {
    return c.outputHead;
}

} // namespace

std::vector<FieldSpec> embeddingFields() {
    using Positions = core::PositionalKind;
    return {
        {.field = Field::PositionEmbeddingType,
         .label = tr("Positions"),
         .tooltip = tr("How token positions enter the model: a learned table, fixed sinusoids, rotary "
                       "embeddings, ALiBi biases, T5 relative buckets, or none."),
         .editor = ChoiceEditor{.choices = {{tr("Learned"), qint64(Positions::Learned)},
                                            {tr("Sinusoidal"), qint64(Positions::Sinusoidal)},
                                            {tr("RoPE"), qint64(Positions::Rope)},
                                            {tr("ALiBi"), qint64(Positions::Alibi)},
                                            {tr("Relative bias (T5)"), qint64(Positions::RelativeBias)},
                                            {tr("None"), qint64(Positions::None)}},
                                .value = member(&ModelConfig::positional)}},
        {.field = Field::PartialRotaryFactor,
         .label = tr("Rotary fraction"),
         .tooltip = tr("Share of each head's dimensions that RoPE rotates (Phi-2, NeoX: partial rotary)."),
         .applies = positionsAre<Positions::Rope>,
         .editor = RealEditor{.get = [](const ModelConfig& c, const Scenario&) { return c.rotaryFraction; },
                              .set =
                                  [](ModelConfig& c, Scenario&, double v) {
                                      c.rotaryFraction = v;
                                  }}},
        {.field = Field::NopeLayers,
         .jsonKey = u"nope_layers, no_rope_layers"_s,
         .label = tr("NoPE layers"),
         .tooltip = tr("Layer indices that use no rotary position (Llama 4 every fourth, SmolLM3), separated by "
                       "commas; the parameter count is the same, the attention sees no positions there."),
         .applies = positionsAre<Positions::Rope>,
         .editor = layerList(&ModelConfig::nopeLayers)},
        {.field = Field::PositionOffset,
         .jsonKey = u"model_type"_s,
         .label = tr("Position offset"),
         .tooltip = tr("Extra rows of the learned position table (OPT and BART add 2)."),
         .applies = positionsAre<Positions::Learned>,
         .editor =
             IntegerEditor{
                 .minimum = 0, .maximum = 16, .spinMaximum = 4096, .value = member(&ModelConfig::positionOffset)}},
        {.field = Field::RelativeAttentionNumBuckets,
         .label = tr("Relative buckets"),
         .tooltip = tr("Buckets of T5's learned relative-position bias, one value per head per bucket."),
         .applies = positionsAre<Positions::RelativeBias>,
         .editor =
             IntegerEditor{
                 .minimum = 1, .maximum = 512, .spinMaximum = 65536, .value = member(&ModelConfig::relativeBuckets)}},
        {.field = Field::NormType,
         .jsonKey = u"model_type, rms_norm_eps, layer_norm_eps"_s,
         .label = tr("Norm"),
         .tooltip = tr("LayerNorm has a weight and a bias, RMSNorm a weight only, the non-parametric norm (OLMo) "
                       "neither."),
         .editor = ChoiceEditor{.choices = {{tr("LayerNorm"), qint64(core::NormKind::LayerNorm)},
                                            {tr("RMSNorm"), qint64(core::NormKind::RmsNorm)},
                                            {tr("LayerNorm without bias"), qint64(core::NormKind::LayerNormNoBias)},
                                            {tr("Non-parametric"), qint64(core::NormKind::NonParametric)}},
                                .value = member(&ModelConfig::normKind)}},
        {.field = Field::NormPlacement,
         .jsonKey = u"model_type, parallel_attn, new_decoder_architecture"_s,
         .label = tr("Placement"),
         .tooltip = tr("Where each block's norms sit: before the sub-blocks, after them, both (sandwich), or "
                       "shared by parallel attention and FFN."),
         .editor = ChoiceEditor{.choices = {{tr("Pre-norm"), qint64(core::NormPlacement::Pre)},
                                            {tr("Post-norm"), qint64(core::NormPlacement::Post)},
                                            {tr("Sandwich"), qint64(core::NormPlacement::Sandwich)},
                                            {tr("Parallel, one norm"), qint64(core::NormPlacement::ParallelSingle)},
                                            {tr("Parallel, two norms"), qint64(core::NormPlacement::ParallelDouble)},
                                            {tr("After only (OLMo 2)"), qint64(core::NormPlacement::PostOnly)}},
                                .value = member(&ModelConfig::normPlacement)}},
        {.field = Field::FinalNorm,
         .jsonKey = u"model_type"_s,
         .label = tr("Final norm"),
         .tooltip = tr("A norm after the last block, before the output head."),
         .editor = ToggleEditor{member(&ModelConfig::finalNorm)}},
        {.field = Field::EmbeddingNorm,
         .label = tr("Embedding norm"),
         .tooltip = tr("A norm right after the token embedding (BLOOM, BERT, BART)."),
         .editor = ToggleEditor{member(&ModelConfig::embeddingNorm)}},
        {.field = Field::LmHead,
         .jsonKey = u"architectures"_s,
         .label = tr("Output head"),
         .tooltip = tr("The model has a language-modelling head projecting back to the vocabulary "
                       "(…ForCausalLM); off for a bare encoder like BertModel."),
         .editor = ToggleEditor{member(&ModelConfig::outputHead)}},
        {.field = Field::TieWordEmbeddings,
         .label = tr("Tied head"),
         .tooltip = tr("The output head reuses the input embedding matrix, so it is counted once."),
         .applies = hasOutputHead,
         .editor = ToggleEditor{member(&ModelConfig::tieWordEmbeddings)}},
        {.field = Field::LmHeadBias,
         .jsonKey = u"model_type"_s,
         .label = tr("Head bias"),
         .tooltip = tr("The output head has a bias of vocabulary size (GPT-J, Phi-2)."),
         .applies = hasOutputHead,
         .editor = ToggleEditor{member(&ModelConfig::outputHeadBias)}},
        {.field = Field::WordEmbedProjDim,
         .label = tr("Embed projection"),
         .tooltip = tr("Width of the token embedding when it is projected in and out of the hidden size "
                       "(OPT-350m); none when equal to the hidden size."),
         .applies = core::embeddingProjectionApplies,
         .editor = IntegerEditor{.minimum = 0,
                                 .maximum = 65536,
                                 .spinMaximum = 1 << 20,
                                 .scale = widgets::SliderScale::Logarithmic,
                                 .snap = core::Snap::Multiple128,
                                 .specialValueText = tr("none"),
                                 .value = member(&ModelConfig::embeddingProjectionDim)}},
        {.field = Field::TypeVocabSize,
         .label = tr("Token types"),
         .tooltip = tr("Rows of BERT's segment (token type) embedding."),
         .applies = isEncoderOnly,
         .editor =
             IntegerEditor{
                 .minimum = 0, .maximum = 16, .spinMaximum = 4096, .value = member(&ModelConfig::tokenTypes)}},
        {.field = Field::Pooler,
         .jsonKey = u"add_pooling_layer"_s,
         .label = tr("Pooler"),
         .tooltip = tr("BERT's pooler: a dense hidden x hidden layer with a bias on the first token."),
         .applies = isEncoderOnly,
         .editor = ToggleEditor{member(&ModelConfig::pooler)}},
        {.field = Field::NumNextnPredictLayers,
         .label = tr("MTP layers"),
         .tooltip = tr("DeepSeek-V3's multi-token-prediction modules: stored in the checkpoint, reported apart "
                       "and not counted in the total."),
         .applies = [](const ModelConfig& c) { return c.mtpLayers > 0 || c.latent.has_value(); },
         .editor =
             IntegerEditor{.minimum = 0, .maximum = 4, .spinMaximum = 64, .value = member(&ModelConfig::mtpLayers)}},
    };
}

} // namespace archplay::ui::panels::fieldtables
