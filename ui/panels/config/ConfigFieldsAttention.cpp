// SPDX-License-Identifier: GPL-3.0-or-later
// The Attention fields of the config panel.
#include "ui/panels/config/ConfigFieldAccess.h"

#include <climits>

namespace archplay::ui::panels::fieldtables {

using namespace Qt::StringLiterals;
using core::Field;

namespace {

bool hasIndexer(const ModelConfig& c) {
    return c.indexer.has_value();
}

template <core::SlidingPattern pattern> bool slidingIs(const ModelConfig& c) {
    return c.slidingPattern == pattern;
}

} // namespace

std::vector<FieldSpec> attentionFields() {
    const QString biasKey = u"attention_bias, qkv_bias"_s;
    constexpr auto latent = &ModelConfig::latent;
    constexpr auto indexer = &ModelConfig::indexer;
    return {
        {.field = Field::AttentionFamily,
         .jsonKey = u"num_key_value_heads, kv_lora_rank"_s,
         .label = tr("Attention"),
         .tooltip = tr("MHA: every head has its own keys and values. GQA: groups of heads share them. MQA: all "
                       "heads share one. MLA: keys and values are rebuilt from a small cached latent (DeepSeek)."),
         .editor =
             ChoiceEditor{
                 .choices = {{tr("Multi-head (MHA)"), qint64(core::AttentionFamily::MHA)},
                             {tr("Grouped-query (GQA)"), qint64(core::AttentionFamily::GQA)},
                             {tr("Multi-query (MQA)"), qint64(core::AttentionFamily::MQA)},
                             {tr("Multi-head latent (MLA)"), qint64(core::AttentionFamily::MLA)}},
                 .value = withRule({.get =
                                        [](const ModelConfig& c, const Scenario&) {
                                            return qint64(core::attentionFamily(c));
                                        }},
                                   core::edits::setAttentionFamily),
             }},
        {.field = Field::KvLoraRank,
         .label = tr("KV latent rank"),
         .tooltip = tr("Width of the compressed key/value latent that MLA caches per token."),
         .applies = isLatent,
         .editor = IntegerEditor{.minimum = 16,
                                 .maximum = 4096,
                                 .spinMaximum = 4096,
                                 .snap = core::Snap::Multiple16,
                                 .value = optionalMember(latent, &core::LatentAttention::kvLoraRank)}},
        {.field = Field::QLoraRank,
         .label = tr("Q latent rank"),
         .tooltip = tr("Width of the low-rank query projection; none means a plain q_proj (DeepSeek-V2-Lite)."),
         .applies = isLatent,
         .editor = IntegerEditor{.minimum = 0,
                                 .maximum = 8192,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::Snap::Multiple64,
                                 .specialValueText = tr("none"),
                                 // 0 stands for an absent q_lora_rank.
                                 .value = {.get =
                                               [](const ModelConfig& c, const Scenario&) {
                                                   return c.latent && c.latent->qLoraRank ? qint64(*c.latent->qLoraRank)
                                                                                          : qint64(0);
                                               },
                                           .set =
                                               [](ModelConfig& c, Scenario&, qint64 v, const EditContext&) {
                                                   if (c.latent) {
                                                       c.latent->qLoraRank =
                                                           v > 0 ? std::optional<std::int64_t>(v) : std::nullopt;
                                                   }
                                               }}}},
        {.field = Field::QkNopeHeadDim,
         .label = tr("QK no-RoPE dim"),
         .tooltip = tr("Per-head query/key width that carries no rotary position."),
         .applies = isLatent,
         .editor = IntegerEditor{.minimum = 8,
                                 .maximum = 512,
                                 .spinMaximum = 4096,
                                 .snap = core::Snap::Multiple16,
                                 .value = optionalMember(latent, &core::LatentAttention::qkNopeHeadDim)}},
        {.field = Field::QkRopeHeadDim,
         .label = tr("QK RoPE dim"),
         .tooltip = tr("Width of the rotary key shared by all heads; it is cached beside the latent."),
         .applies = isLatent,
         .editor = IntegerEditor{.minimum = 8,
                                 .maximum = 512,
                                 .spinMaximum = 4096,
                                 .snap = core::Snap::Multiple16,
                                 .value = optionalMember(latent, &core::LatentAttention::qkRopeHeadDim)}},
        {.field = Field::VHeadDim,
         .label = tr("V head dim"),
         .tooltip = tr("Per-head value width, which sets the output projection's input."),
         .applies = isLatent,
         .editor = IntegerEditor{.minimum = 8,
                                 .maximum = 512,
                                 .spinMaximum = 4096,
                                 .snap = core::Snap::Multiple16,
                                 .value = optionalMember(latent, &core::LatentAttention::vHeadDim)}},
        {.field = Field::LayerTypes,
         .jsonKey = u"layer_types, use_sliding_window, sliding_window_pattern"_s,
         .label = tr("Sliding window"),
         .tooltip = tr("Which layers attend only to the last W tokens (and cache only those): none, all, all "
                       "but every N-th, from a given layer on, or an explicit per-layer list."),
         .editor = ChoiceEditor{.choices = {{tr("None (all global)"), qint64(core::SlidingPattern::None)},
                                            {tr("All layers"), qint64(core::SlidingPattern::All)},
                                            {tr("Global every N"), qint64(core::SlidingPattern::GlobalEveryN)},
                                            {tr("From a layer on"), qint64(core::SlidingPattern::FromLayer)},
                                            {tr("Per-layer list"), qint64(core::SlidingPattern::Explicit)}},
                                .value = member(&ModelConfig::slidingPattern)}},
        {.field = Field::SlidingWindow,
         .label = tr("Window"),
         .tooltip = tr("Tokens a sliding-window layer attends to; its cache holds at most this many."),
         .applies = [](const ModelConfig& c) { return c.slidingPattern != core::SlidingPattern::None; },
         .editor = IntegerEditor{.minimum = 16,
                                 .maximum = 1 << 20,
                                 .spinMaximum = INT_MAX,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::Snap::PowerOfTwo,
                                 .value = member(&ModelConfig::slidingWindow)}},
        {.field = Field::SlidingWindowPattern,
         .label = tr("Global every N"),
         .tooltip = tr("Period of the local/global pattern: layer i is global when (i + 1) is a multiple of N "
                       "(Gemma 3: 6, Gemma 2: 2)."),
         .applies = slidingIs<core::SlidingPattern::GlobalEveryN>,
         .editor =
             IntegerEditor{
                 .minimum = 1, .maximum = 16, .spinMaximum = 4096, .value = member(&ModelConfig::globalEvery)}},
        {.field = Field::MaxWindowLayers,
         .label = tr("First sliding"),
         .tooltip = tr("Layers from this index on use the sliding window (Qwen2's max_window_layers)."),
         .applies = slidingIs<core::SlidingPattern::FromLayer>,
         .editor =
             IntegerEditor{
                 .minimum = 0,
                 .maximum = 256,
                 .spinMaximum = 4096,
                 .maximumFor = [](const ModelConfig& c) { return qint64(std::max<std::int64_t>(0, c.numLayers)); },
                 .value = member(&ModelConfig::firstSlidingLayer)}},
        {.key = u"layer_types.list"_s,
         .jsonKey = u"layer_types"_s,
         .label = tr("Layer kinds"),
         .tooltip = tr("One letter per layer, repeated when shorter than the stack: S sliding, G global, C chunked."),
         .applies = slidingIs<core::SlidingPattern::Explicit>,
         .editor = listText(&ModelConfig::layerTypes, core::edits::formatLayerTypes, core::edits::parseLayerTypes)},
        {.field = Field::AttentionChunkSize,
         .label = tr("Attention chunk"),
         .tooltip = tr("Chunked local attention (Llama 4): tokens attend only within their chunk of this size on "
                       "chunked layers; off for none."),
         .editor = IntegerEditor{.minimum = 0,
                                 .maximum = 1 << 20,
                                 .spinMaximum = INT_MAX,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::Snap::PowerOfTwo,
                                 .specialValueText = tr("off"),
                                 .value = member(&ModelConfig::attentionChunkSize)}},
        {.field = Field::QkNorm,
         .jsonKey = u"qk_norm, use_qk_norm, qk_layernorm"_s,
         .label = tr("QK-norm"),
         .tooltip = tr("A norm on queries and keys inside attention: an RMSNorm with one weight per head "
                       "dimension (Qwen3, Gemma 3) or over the full projected width (OLMo 2), or a LayerNorm "
                       "with weight and bias per head dimension (Phi's qk_layernorm)."),
         .editor = ChoiceEditor{.choices = {{tr("None"), qint64(core::QkNorm::None)},
                                            {tr("Per head"), qint64(core::QkNorm::PerHead)},
                                            {tr("Full width"), qint64(core::QkNorm::FullWidth)},
                                            {tr("Per head, LayerNorm"), qint64(core::QkNorm::PerHeadLayerNorm)}},
                                .value = member(&ModelConfig::qkNorm)}},
        {.field = Field::QBias,
         .jsonKey = biasKey,
         .label = tr("Q bias"),
         .tooltip = tr("The query projection has a bias."),
         .editor = ToggleEditor{member(&ModelConfig::qBias)}},
        {.field = Field::KBias,
         .jsonKey = biasKey,
         .label = tr("K bias"),
         .tooltip = tr("The key projection has a bias."),
         .editor = ToggleEditor{member(&ModelConfig::kBias)}},
        {.field = Field::VBias,
         .jsonKey = biasKey,
         .label = tr("V bias"),
         .tooltip = tr("The value projection has a bias."),
         .editor = ToggleEditor{member(&ModelConfig::vBias)}},
        {.field = Field::OBias,
         .jsonKey = u"attention_bias"_s,
         .label = tr("O bias"),
         .tooltip = tr("The output projection has a bias."),
         .editor = ToggleEditor{member(&ModelConfig::oBias)}},
        {.field = Field::FusedQkv,
         .jsonKey = u"model_type"_s,
         .label = tr("Fused QKV"),
         .tooltip = tr("Q, K and V come from one fused projection (GPT-2, NeoX, Falcon, Phi-3); the count is the "
                       "same, only the checkpoint's tensor names differ."),
         .editor = ToggleEditor{member(&ModelConfig::fusedQkv)}},
        {.field = Field::AttentionSinks,
         .jsonKey = u"attention_sinks (gpt-oss: model_type)"_s,
         .label = tr("Attention sinks"),
         .tooltip = tr("A learned sink logit per head joins the softmax, so a head can attend to nothing "
                       "(gpt-oss)."),
         .editor = ToggleEditor{member(&ModelConfig::attentionSinks)}},
        {.field = Field::AttentionOutputGate,
         .jsonKey = u"attention_output_gate, attn_output_gate"_s,
         .label = tr("Output gate"),
         .tooltip = tr("The query projection also yields a sigmoid gate on each head's output, doubling its "
                       "width (Qwen3-Next, Qwen3.5)."),
         .editor = ToggleEditor{member(&ModelConfig::attentionOutputGate)}},
        {.field = Field::IndexNHeads,
         .label = tr("Indexer heads"),
         .tooltip = tr("Heads of DeepSeek sparse attention's lightning indexer, which picks the past tokens each "
                       "query attends to."),
         .applies = hasIndexer,
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 256,
                                 .spinMaximum = 1 << 20,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::Snap::PowerOfTwo,
                                 .value = optionalMember(indexer, &core::SparseIndexer::numHeads)}},
        {.field = Field::IndexHeadDim,
         .label = tr("Indexer dim"),
         .tooltip = tr("Width of one indexer head; the indexer caches one key of this width per token and "
                       "layer."),
         .applies = hasIndexer,
         .editor = IntegerEditor{.minimum = 16,
                                 .maximum = 1024,
                                 .spinMaximum = 1 << 20,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::Snap::PowerOfTwo,
                                 .value = optionalMember(indexer, &core::SparseIndexer::headDim)}},
        {.field = Field::IndexTopk,
         .label = tr("Indexer top-k"),
         .tooltip = tr("Past tokens each query attends to after the indexer's selection."),
         .applies = hasIndexer,
         .editor = IntegerEditor{.minimum = 64,
                                 .maximum = 1 << 16,
                                 .spinMaximum = 1 << 20,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::Snap::PowerOfTwo,
                                 .value = optionalMember(indexer, &core::SparseIndexer::topK)}},
    };
}

} // namespace archplay::ui::panels::fieldtables
