// SPDX-License-Identifier: GPL-3.0-or-later
// The Shape fields of the config panel.
#include "core/io/ConfigJson.h"
#include "ui/Strings.h"
#include "ui/panels/config/ConfigFieldAccess.h"

#include <algorithm>
#include <climits>

namespace archplay::ui::panels::fieldtables {

using namespace Qt::StringLiterals;
using core::Field;

namespace {

std::vector<FieldChoice> modelTypeChoices() {
    std::vector<FieldChoice> choices;
    const auto& types = core::supportedModelTypes();
    for (std::size_t i = 0; i < types.size(); ++i) {
        choices.push_back({qs(types[i]), qint64(i)});
    }
    return choices;
}

/// The model_type as an index into supportedModelTypes(); -1 for a type archplay does not list.
qint64 modelTypeIndex(const ModelConfig& c, const Scenario&) {
    const auto& types = core::supportedModelTypes();
    const auto it = std::find(types.begin(), types.end(), c.modelType);
    return it == types.end() ? -1 : qint64(it - types.begin());
}

void setModelTypeIndex(ModelConfig& c, Scenario&, qint64 index, const EditContext&) {
    const auto& types = core::supportedModelTypes();
    if (index >= 0 && std::size_t(index) < types.size()) {
        c.modelType = types[std::size_t(index)];
        // The family's checkpoint names come with its model_type; the native format keeps the current ones.
        if (const auto naming = core::familyTensorNaming(c.modelType)) {
            c.tensorNaming = *naming;
        }
    }
}

} // namespace

std::vector<FieldSpec> shapeFields() {
    return {
        {.field = Field::ModelType,
         .label = tr("Model type"),
         .tooltip = tr("The Hugging Face family the config is read and written as; it decides the key names "
                       "of config.json and the family's defaults."),
         .editor =
             ChoiceEditor{
                 .choices = modelTypeChoices(),
                 .value = {.get = modelTypeIndex, .set = setModelTypeIndex},
                 .placeholder = [](const ModelConfig& c) { return qs(c.modelType); },
             }},
        {.field = Field::Architecture,
         .label = tr("Architecture"),
         .tooltip = tr("Which stacks the model has: a causal decoder (GPT, Llama), a bidirectional encoder "
                       "(BERT), or both with cross-attention (T5, BART)."),
         .editor =
             ChoiceEditor{
                 .choices = {{tr("Decoder-only"), qint64(core::ArchitectureKind::DecoderOnly)},
                             {tr("Encoder-only"), qint64(core::ArchitectureKind::EncoderOnly)},
                             {tr("Encoder-decoder"), qint64(core::ArchitectureKind::EncoderDecoder)}},
                 .value = withRule(member(&ModelConfig::architecture), core::edits::setArchitecture),
             }},
        {.field = Field::NumHiddenLayers,
         .label = tr("Layers"),
         .labelFor = [](const ModelConfig& c) { return isEncoderDecoder(c) ? tr("Decoder layers") : tr("Layers"); },
         .tooltip = tr("Transformer blocks in the main stack (the decoder of an encoder-decoder model, the "
                       "encoder of an encoder-only one)."),
         .editor =
             IntegerEditor{
                 .minimum = 1, .maximum = 256, .spinMaximum = 4096, .value = member(&ModelConfig::numLayers)}},
        {.field = Field::NumEncoderLayers,
         .label = tr("Encoder layers"),
         .tooltip = tr("Blocks in the encoder stack of an encoder-decoder model (T5's num_layers, BART's "
                       "encoder_layers)."),
         .applies = isEncoderDecoder,
         .editor =
             IntegerEditor{
                 .minimum = 1, .maximum = 256, .spinMaximum = 4096, .value = member(&ModelConfig::numEncoderLayers)}},
        {.field = Field::HiddenSize,
         .label = tr("Hidden size"),
         .tooltip = tr("Width of the residual stream: every token is a vector of this many numbers between "
                       "the blocks (d_model)."),
         .editor = IntegerEditor{.minimum = 64,
                                 .maximum = 65536,
                                 .spinMaximum = 1 << 20,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::kHiddenSnap,
                                 .value = withRule(member(&ModelConfig::hiddenSize), core::edits::setHiddenSize)}},
        {.field = Field::NumAttentionHeads,
         .jsonKey = u"num_attention_heads, decoder_attention_heads"_s,
         .label = tr("Heads"),
         .labelFor = [](const ModelConfig& c) { return c.encoderHeads != 0 ? tr("Decoder heads") : tr("Heads"); },
         .tooltip = tr("Query heads of each attention layer; the KV heads must divide them. Snapping keeps whole "
                       "GQA groups and a whole head_dim."),
         .applies = hasHeads,
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 256,
                                 .spinMaximum = 4096,
                                 .snap = core::Snap::QueryHeads,
                                 .value = withRule(member(&ModelConfig::numHeads), core::edits::setNumHeads)}},
        {.field = Field::EncoderAttentionHeads,
         .label = tr("Encoder heads"),
         .tooltip = tr("Query heads of each encoder layer, where the encoder differs from the decoder (BART's "
                       "encoder_attention_heads). Equal to the decoder's heads, it is not written apart."),
         .applies = [](const ModelConfig& c) { return c.architecture == core::ArchitectureKind::EncoderDecoder; },
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 256,
                                 .spinMaximum = 4096,
                                 .value = {.get = [](const ModelConfig& c,
                                                     const Scenario&) { return qint64(c.encoderHeadCount()); },
                                           .set =
                                               [](ModelConfig& c, Scenario&, qint64 v, const EditContext&) {
                                                   c.encoderHeads = v == c.numHeads ? 0 : v;
                                               }}}},
        {.field = Field::NumKeyValueHeads,
         .label = tr("KV heads"),
         .tooltip = tr("Key/value heads shared by groups of query heads: equal to the heads is MHA, fewer is "
                       "GQA, one is MQA. They set the KV cache size."),
         .applies = hasHeads,
         .enabled = notLatent,
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 256,
                                 .spinMaximum = 4096,
                                 .snap = core::Snap::DivisorOfHeads,
                                 .maximumFor =
                                     [](const ModelConfig& c) { return qint64(std::max<std::int64_t>(1, c.numHeads)); },
                                 .value = member(&ModelConfig::numKvHeads)}},
        {.field = Field::HeadDim,
         .label = tr("Head dim"),
         .tooltip = tr("Width of one attention head. When absent it is hidden size / heads; Gemma, Qwen3 and "
                       "Mistral-Nemo set it so that heads x head_dim differs from the hidden size."),
         .applies = [](const ModelConfig& c) { return notLatent(c) && hasHeads(c); },
         .enabled = [](const ModelConfig& c) { return c.headDim.has_value(); },
         .editor = IntegerEditor{.minimum = 8,
                                 .maximum = 512,
                                 .spinMaximum = 4096,
                                 .snap = core::Snap::Multiple16,
                                 .value = {.get = [](const ModelConfig& c,
                                                     const Scenario&) { return qint64(c.effectiveHeadDim()); },
                                           .set =
                                               [](ModelConfig& c, Scenario&, qint64 v, const EditContext&) {
                                                   c.headDim = v;
                                               }}}},
        {.key = u"head_dim.follow"_s,
         .jsonKey = u"head_dim"_s,
         .label = tr("head_dim follows hidden / heads"),
         .tooltip = tr("When on, head_dim is left out of config.json and derived from the hidden size and the "
                       "heads; turn it off to set head_dim on its own."),
         .applies = [](const ModelConfig& c) { return notLatent(c) && hasHeads(c); },
         .editor = ToggleEditor{withRule({.get =
                                              [](const ModelConfig& c, const Scenario&) {
                                                  return qint64(c.headDim ? 0 : 1);
                                              }},
                                         core::edits::setHeadDimFollows)}},
        {.field = Field::IntermediateSize,
         .jsonKey = u"intermediate_size, decoder_ffn_dim"_s,
         .label = tr("FFN width"),
         .labelFor =
             [](const ModelConfig& c) {
                 return isMoe(c)                         ? tr("Dense FFN width")
                        : c.encoderIntermediateSize != 0 ? tr("Decoder FFN width")
                                                         : tr("FFN width");
             },
         .tooltip = tr("Inner width of the dense feed-forward block (the dense layers of a MoE model)."),
         .applies = [](const ModelConfig& c) { return c.hasDenseFfnLayers(); },
         .editor = IntegerEditor{.minimum = 64,
                                 .maximum = 262144,
                                 .spinMaximum = 1 << 24,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::kFfnSnap,
                                 .value = member(&ModelConfig::intermediateSize)}},
        {.field = Field::EncoderFfnDim,
         .label = tr("Encoder FFN width"),
         .tooltip = tr("Inner width of each encoder layer's feed-forward block, where the encoder differs from the "
                       "decoder (BART's encoder_ffn_dim). Equal to the FFN width, it is not written apart."),
         .applies = [](const ModelConfig& c) { return c.architecture == core::ArchitectureKind::EncoderDecoder; },
         .editor = IntegerEditor{.minimum = 64,
                                 .maximum = 262144,
                                 .spinMaximum = 1 << 24,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::kFfnSnap,
                                 .value = {.get = [](const ModelConfig& c,
                                                     const Scenario&) { return qint64(c.encoderFfnWidth()); },
                                           .set =
                                               [](ModelConfig& c, Scenario&, qint64 v, const EditContext&) {
                                                   c.encoderIntermediateSize = v == c.intermediateSize ? 0 : v;
                                               }}}},
        {.field = Field::VocabSize,
         .label = tr("Vocabulary"),
         .tooltip = tr("Tokens the embedding table and the output head cover."),
         .editor = IntegerEditor{.minimum = 256,
                                 .maximum = 1 << 20,
                                 .spinMaximum = 1 << 26,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::kVocabSnap,
                                 .value = member(&ModelConfig::vocabSize)}},
        {.field = Field::MaxPositionEmbeddings,
         .label = tr("Context length"),
         .tooltip = tr("Longest sequence the model is configured for; it sizes learned position tables."),
         .editor = IntegerEditor{.minimum = 128,
                                 .maximum = 1 << 24,
                                 .spinMaximum = INT_MAX,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::Snap::PowerOfTwo,
                                 .value = member(&ModelConfig::maxPositions)}},
    };
}

} // namespace archplay::ui::panels::fieldtables
