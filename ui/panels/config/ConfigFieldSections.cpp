// SPDX-License-Identifier: GPL-3.0-or-later
// The Attention, Feed-forward, Embeddings-and-norms and Scenario fields of the config panel.
#include "core/config/ConfigEdits.h"
#include "ui/panels/config/ConfigFieldBuilders.h"
#include "ui/panels/config/ConfigFields.h"

#include <climits>

namespace archplay::ui::panels {

using namespace fieldbuilders;

std::vector<FieldSpec> attentionFields() {
    std::vector<FieldSpec> fields;
    const auto A = FieldSection::Attention;
    {
        FieldSpec spec;
        spec.section = A;
        spec.key = QStringLiteral("attention_family");
        spec.jsonKey = QStringLiteral("num_key_value_heads, kv_lora_rank");
        spec.label = tr("Attention");
        spec.tooltip = tr("MHA: every head has its own keys and values. GQA: groups of heads share them. MQA: all "
                          "heads share one. MLA: keys and values are rebuilt from a small cached latent (DeepSeek).");
        spec.kind = FieldKind::Choice;
        spec.choices = {{tr("Multi-head (MHA)"), qint64(core::AttentionFamily::MHA)},
                        {tr("Grouped-query (GQA)"), qint64(core::AttentionFamily::GQA)},
                        {tr("Multi-query (MQA)"), qint64(core::AttentionFamily::MQA)},
                        {tr("Multi-head latent (MLA)"), qint64(core::AttentionFamily::MLA)}};
        spec.get = [](const core::ModelConfig& c, const core::Scenario&) {
            return qint64(core::attentionFamily(c));
        };
        spec.set = [](core::ModelConfig& c, core::Scenario&, qint64 v, const core::edits::EditContext&) {
            core::edits::setAttentionFamily(c, core::AttentionFamily(v));
        };
        fields.push_back(std::move(spec));
    }
    fields.push_back(latentInteger(QStringLiteral("kv_lora_rank"), tr("KV latent rank"),
                                   tr("Width of the compressed key/value latent that MLA caches per token."), 16, 4096,
                                   &core::LatentAttention::kvLoraRank));
    {
        FieldSpec spec = latentInteger(QStringLiteral("q_lora_rank"), tr("Q latent rank"),
                                       tr("Width of the low-rank query projection; none means a plain q_proj "
                                          "(DeepSeek-V2-Lite)."),
                                       0, 8192, nullptr);
        spec.scale = widgets::SliderScale::Logarithmic;
        spec.snap = core::Snap::Multiple64;
        spec.specialValueText = tr("none");
        spec.get = [](const core::ModelConfig& c, const core::Scenario&) {
            return c.latent && c.latent->qLoraRank ? qint64(*c.latent->qLoraRank) : qint64(0);
        };
        spec.set = [](core::ModelConfig& c, core::Scenario&, qint64 v, const core::edits::EditContext&) {
            if (c.latent) {
                c.latent->qLoraRank = v > 0 ? std::optional<std::int64_t>(v) : std::nullopt;
            }
        };
        fields.push_back(std::move(spec));
    }
    fields.push_back(latentInteger(QStringLiteral("qk_nope_head_dim"), tr("QK no-RoPE dim"),
                                   tr("Per-head query/key width that carries no rotary position."), 8, 512,
                                   &core::LatentAttention::qkNopeHeadDim));
    fields.push_back(latentInteger(QStringLiteral("qk_rope_head_dim"), tr("QK RoPE dim"),
                                   tr("Width of the rotary key shared by all heads; it is cached beside the latent."),
                                   8, 512, &core::LatentAttention::qkRopeHeadDim));
    fields.push_back(latentInteger(QStringLiteral("v_head_dim"), tr("V head dim"),
                                   tr("Per-head value width, which sets the output projection's input."), 8, 512,
                                   &core::LatentAttention::vHeadDim));
    fields.push_back(choice(A, QStringLiteral("layer_types"), tr("Sliding window"),
                            tr("Which layers attend only to the last W tokens (and cache only those): none, all, "
                               "all but every N-th, from a given layer on, or an explicit per-layer list."),
                            &core::ModelConfig::slidingPattern,
                            {{tr("None (all global)"), qint64(core::SlidingPattern::None)},
                             {tr("All layers"), qint64(core::SlidingPattern::All)},
                             {tr("Global every N"), qint64(core::SlidingPattern::GlobalEveryN)},
                             {tr("From a layer on"), qint64(core::SlidingPattern::FromLayer)},
                             {tr("Per-layer list"), qint64(core::SlidingPattern::Explicit)}}));
    fields.back().jsonKey = QStringLiteral("layer_types, use_sliding_window, sliding_window_pattern");
    {
        FieldSpec spec = integer(A, QStringLiteral("sliding_window"), tr("Window"),
                                 tr("Tokens a sliding-window layer attends to; its cache holds at most this many."), 16,
                                 1 << 20, widgets::SliderScale::Logarithmic, core::Snap::PowerOfTwo,
                                 &core::ModelConfig::slidingWindow, INT_MAX);
        spec.applies = [](const core::ModelConfig& c) {
            return c.slidingPattern != core::SlidingPattern::None;
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec =
            integer(A, QStringLiteral("sliding_window_pattern"), tr("Global every N"),
                    tr("Period of the local/global pattern: layer i is global when (i + 1) is a "
                       "multiple of N (Gemma 3: 6, Gemma 2: 2)."),
                    1, 16, widgets::SliderScale::Linear, core::Snap::None, &core::ModelConfig::globalEvery, 4096);
        spec.applies = [](const core::ModelConfig& c) {
            return c.slidingPattern == core::SlidingPattern::GlobalEveryN;
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec =
            integer(A, QStringLiteral("max_window_layers"), tr("First sliding"),
                    tr("Layers from this index on use the sliding window (Qwen2's max_window_layers)."), 0, 256,
                    widgets::SliderScale::Linear, core::Snap::None, &core::ModelConfig::firstSlidingLayer, 4096);
        spec.maximumFor = [](const core::ModelConfig& c) {
            return qint64(std::max<std::int64_t>(0, c.numLayers));
        };
        spec.applies = [](const core::ModelConfig& c) {
            return c.slidingPattern == core::SlidingPattern::FromLayer;
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec;
        spec.section = A;
        spec.key = QStringLiteral("layer_types.list");
        spec.jsonKey = QStringLiteral("layer_types");
        spec.label = tr("Layer kinds");
        spec.tooltip = tr("One letter per layer, repeated when shorter than the stack: S sliding, G global, "
                          "C chunked.");
        spec.kind = FieldKind::Text;
        spec.getText = [](const core::ModelConfig& c) {
            return QString::fromStdString(core::edits::formatLayerTypes(c.layerTypes));
        };
        spec.setText = [](core::ModelConfig& c, const QString& text) {
            auto layers = core::edits::parseLayerTypes(text.toStdString());
            if (!layers) {
                return false;
            }
            c.layerTypes = std::move(*layers);
            return true;
        };
        spec.applies = [](const core::ModelConfig& c) {
            return c.slidingPattern == core::SlidingPattern::Explicit;
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec = integer(A, QStringLiteral("attention_chunk_size"), tr("Attention chunk"),
                                 tr("Chunked local attention (Llama 4): tokens attend only within their chunk of this "
                                    "size on chunked layers; off for none."),
                                 0, 1 << 20, widgets::SliderScale::Logarithmic, core::Snap::PowerOfTwo,
                                 &core::ModelConfig::attentionChunkSize, INT_MAX);
        spec.specialValueText = tr("off");
        fields.push_back(std::move(spec));
    }
    fields.push_back(choice(A, QStringLiteral("qk_norm"), tr("QK-norm"),
                            tr("RMSNorm on queries and keys inside attention: one weight per head dimension "
                               "(Qwen3, Gemma 3) or over the full projected width (OLMo 2)."),
                            &core::ModelConfig::qkNorm,
                            {{tr("None"), qint64(core::QkNorm::None)},
                             {tr("Per head"), qint64(core::QkNorm::PerHead)},
                             {tr("Full width"), qint64(core::QkNorm::FullWidth)}}));
    fields.back().jsonKey = QStringLiteral("qk_norm, use_qk_norm");
    const QString biasKey = QStringLiteral("attention_bias, qkv_bias");
    fields.push_back(toggle(A, QStringLiteral("q_bias"), tr("Q bias"), tr("The query projection has a bias."),
                            &core::ModelConfig::qBias));
    fields.back().jsonKey = biasKey;
    fields.push_back(toggle(A, QStringLiteral("k_bias"), tr("K bias"), tr("The key projection has a bias."),
                            &core::ModelConfig::kBias));
    fields.back().jsonKey = biasKey;
    fields.push_back(toggle(A, QStringLiteral("v_bias"), tr("V bias"), tr("The value projection has a bias."),
                            &core::ModelConfig::vBias));
    fields.back().jsonKey = biasKey;
    fields.push_back(toggle(A, QStringLiteral("o_bias"), tr("O bias"), tr("The output projection has a bias."),
                            &core::ModelConfig::oBias));
    fields.back().jsonKey = QStringLiteral("attention_bias");
    fields.push_back(toggle(A, QStringLiteral("fused_qkv"), tr("Fused QKV"),
                            tr("Q, K and V come from one fused projection (GPT-2, NeoX, Falcon, Phi-3); the count is "
                               "the same, only the checkpoint's tensor names differ."),
                            &core::ModelConfig::fusedQkv));
    fields.back().jsonKey = QStringLiteral("model_type");
    fields.push_back(toggle(A, QStringLiteral("attention_sinks"), tr("Attention sinks"),
                            tr("A learned sink logit per head joins the softmax, so a head can attend to nothing "
                               "(gpt-oss)."),
                            &core::ModelConfig::attentionSinks));
    fields.back().jsonKey = QStringLiteral("attention_sinks (gpt-oss: model_type)");
    fields.push_back(toggle(A, QStringLiteral("attention_output_gate"), tr("Output gate"),
                            tr("The query projection also yields a sigmoid gate on each head's output, doubling "
                               "its width (Qwen3-Next, Qwen3.5)."),
                            &core::ModelConfig::attentionOutputGate));
    fields.back().jsonKey = QStringLiteral("attention_output_gate, attn_output_gate");
    const auto hasIndexer = [](const core::ModelConfig& c) {
        return c.indexer.has_value();
    };
    const auto indexerInteger = [&](QString key, QString label, QString tooltip, qint64 minimum, qint64 maximum,
                                    std::int64_t core::SparseIndexer::*member) {
        FieldSpec spec = integer(A, std::move(key), std::move(label), std::move(tooltip), minimum, maximum,
                                 widgets::SliderScale::Logarithmic, core::Snap::PowerOfTwo, nullptr, 1 << 20);
        spec.get = [member](const core::ModelConfig& c, const core::Scenario&) {
            return c.indexer ? qint64((*c.indexer).*member) : 0;
        };
        spec.set = [member](core::ModelConfig& c, core::Scenario&, qint64 v, const core::edits::EditContext&) {
            if (c.indexer) {
                (*c.indexer).*member = v;
            }
        };
        spec.applies = hasIndexer;
        return spec;
    };
    fields.push_back(indexerInteger(QStringLiteral("index_n_heads"), tr("Indexer heads"),
                                    tr("Heads of DeepSeek sparse attention's lightning indexer, which picks the "
                                       "past tokens each query attends to."),
                                    1, 256, &core::SparseIndexer::numHeads));
    fields.push_back(indexerInteger(QStringLiteral("index_head_dim"), tr("Indexer dim"),
                                    tr("Width of one indexer head; the indexer caches one key of this width per "
                                       "token and layer."),
                                    16, 1024, &core::SparseIndexer::headDim));
    fields.push_back(indexerInteger(QStringLiteral("index_topk"), tr("Indexer top-k"),
                                    tr("Past tokens each query attends to after the indexer's selection."), 64, 1 << 16,
                                    &core::SparseIndexer::topK));
    return fields;
}

std::vector<FieldSpec> feedForwardFields() {
    std::vector<FieldSpec> fields;
    const auto F = FieldSection::FeedForward;
    {
        FieldSpec spec = choice(F, QStringLiteral("ffn_type"), tr("FFN"),
                                tr("Plain MLP (up, activation, down), gated MLP (SwiGLU/GeGLU: gate and up, then "
                                   "down), or a mixture of gated experts with a router."),
                                &core::ModelConfig::ffnKind,
                                {{tr("MLP"), qint64(core::FfnKind::Mlp)},
                                 {tr("Gated MLP"), qint64(core::FfnKind::Gated)},
                                 {tr("Mixture of experts"), qint64(core::FfnKind::Moe)}});
        spec.jsonKey = QStringLiteral("model_type, num_experts");
        spec.set = [](core::ModelConfig& c, core::Scenario&, qint64 v, const core::edits::EditContext&) {
            core::edits::setFfnKind(c, core::FfnKind(v));
        };
        fields.push_back(std::move(spec));
    }
    fields.push_back(choice(F, QStringLiteral("hidden_act"), tr("Activation"),
                            tr("Nonlinearity of the feed-forward block; it does not change the parameter count."),
                            &core::ModelConfig::activation,
                            {{tr("ReLU"), qint64(core::Activation::Relu)},
                             {tr("GELU"), qint64(core::Activation::Gelu)},
                             {tr("GELU (tanh)"), qint64(core::Activation::GeluTanh)},
                             {tr("SiLU / Swish"), qint64(core::Activation::Silu)},
                             {tr("Other"), qint64(core::Activation::Other)}}));
    fields.push_back(toggle(F, QStringLiteral("mlp_bias"), tr("FFN bias"),
                            tr("The feed-forward projections have biases."), &core::ModelConfig::ffnBias));
    {
        FieldSpec spec = moeInteger(QStringLiteral("num_experts"), tr("Experts"),
                                    tr("Routed experts per MoE layer; a token is sent to top-k of them."), 1, 1024,
                                    widgets::SliderScale::Logarithmic, core::Snap::PowerOfTwo,
                                    &core::MixtureOfExperts::numExperts, 65536);
        spec.jsonKey = QStringLiteral("num_experts, num_local_experts, n_routed_experts");
        spec.set = [](core::ModelConfig& c, core::Scenario&, qint64 v, const core::edits::EditContext&) {
            core::edits::setNumExperts(c, v);
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec =
            moeInteger(QStringLiteral("num_experts_per_tok"), tr("Top-k"),
                       tr("Experts each token is routed to; they set the active parameters."), 1, 64,
                       widgets::SliderScale::Linear, core::Snap::None, &core::MixtureOfExperts::topK, 65536);
        spec.maximumFor = [](const core::ModelConfig& c) {
            return qint64(std::max<std::int64_t>(1, c.moe.numExperts));
        };
        fields.push_back(std::move(spec));
    }
    fields.push_back(moeInteger(QStringLiteral("moe_intermediate_size"), tr("Expert width"),
                                tr("Inner width of one routed expert (Mixtral uses intermediate_size)."), 64, 65536,
                                widgets::SliderScale::Logarithmic, core::kFfnSnap,
                                &core::MixtureOfExperts::expertIntermediateSize, 1 << 22));
    fields.push_back(moeInteger(QStringLiteral("n_shared_experts"), tr("Shared experts"),
                                tr("Experts every token passes through besides its routed ones (DeepSeek, Qwen-MoE)."),
                                0, 16, widgets::SliderScale::Linear, core::Snap::None,
                                &core::MixtureOfExperts::numSharedExperts, 256));
    {
        FieldSpec spec = moeInteger(QStringLiteral("shared_expert_intermediate_size"), tr("Shared width"),
                                    tr("Inner width of each shared expert (DeepSeek: the expert width; Qwen2-MoE sets "
                                       "its own)."),
                                    0, 65536, widgets::SliderScale::Logarithmic, core::kFfnSnap,
                                    &core::MixtureOfExperts::sharedExpertIntermediateSize, 1 << 22);
        spec.applies = [](const core::ModelConfig& c) {
            return isMoe(c) && c.moe.numSharedExperts > 0;
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec = toggle(F, QStringLiteral("shared_expert_gate"), tr("Shared-expert gate"),
                                tr("A sigmoid gate Linear(hidden, 1) scales the shared experts (Qwen2-MoE)."), nullptr);
        spec.get = [](const core::ModelConfig& c, const core::Scenario&) {
            return qint64(c.moe.sharedExpertGate ? 1 : 0);
        };
        spec.set = [](core::ModelConfig& c, core::Scenario&, qint64 v, const core::edits::EditContext&) {
            c.moe.sharedExpertGate = v != 0;
        };
        spec.applies = [](const core::ModelConfig& c) {
            return isMoe(c) && c.moe.numSharedExperts > 0;
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec =
            moeInteger(QStringLiteral("first_k_dense_replace"), tr("Dense first"),
                       tr("Leading layers that keep a dense FFN instead of experts (DeepSeek-V3: 3)."), 0, 256,
                       widgets::SliderScale::Linear, core::Snap::None, &core::MixtureOfExperts::firstDenseLayers, 4096);
        spec.maximumFor = [](const core::ModelConfig& c) {
            return qint64(std::max<std::int64_t>(0, c.numLayers));
        };
        fields.push_back(std::move(spec));
    }
    fields.push_back(moeInteger(QStringLiteral("decoder_sparse_step"), tr("MoE every N"),
                                tr("Layer i has experts when (i + 1) is a multiple of N; the others are dense."), 1, 16,
                                widgets::SliderScale::Linear, core::Snap::None, &core::MixtureOfExperts::sparseStep,
                                4096));
    {
        FieldSpec spec;
        spec.section = F;
        spec.key = QStringLiteral("mlp_only_layers");
        spec.label = tr("Dense layers");
        spec.tooltip = tr("Layer indices that keep a dense FFN, separated by commas (Qwen-MoE's mlp_only_layers).");
        spec.kind = FieldKind::Text;
        spec.getText = [](const core::ModelConfig& c) {
            return QString::fromStdString(core::edits::formatLayerList(c.moe.denseLayers));
        };
        spec.setText = [](core::ModelConfig& c, const QString& text) {
            auto layers = core::edits::parseLayerList(text.toStdString());
            if (!layers) {
                return false;
            }
            c.moe.denseLayers = std::move(*layers);
            return true;
        };
        spec.applies = [](const core::ModelConfig& c) {
            return isMoe(c) && c.moe.moeLayers.empty();
        };
        fields.push_back(std::move(spec));
    }
    {
        FieldSpec spec;
        spec.section = F;
        spec.key = QStringLiteral("moe_layers");
        spec.jsonKey = QStringLiteral("moe_layers, moe_layer_freq, mlp_layer_types");
        spec.label = tr("MoE layers");
        spec.tooltip = tr("Layer indices that have experts, separated by commas; when set, it replaces the "
                          "dense-first, every-N and dense-list rules. Empty: those rules decide.");
        spec.kind = FieldKind::Text;
        spec.getText = [](const core::ModelConfig& c) {
            return QString::fromStdString(core::edits::formatLayerList(c.moe.moeLayers));
        };
        spec.setText = [](core::ModelConfig& c, const QString& text) {
            auto layers = core::edits::parseLayerList(text.toStdString());
            if (!layers) {
                return false;
            }
            c.moe.moeLayers = std::move(*layers);
            return true;
        };
        spec.applies = isMoe;
        fields.push_back(std::move(spec));
    }
    const auto moeToggle = [&](QString key, QString label, QString tooltip, bool core::MixtureOfExperts::*member) {
        FieldSpec spec = toggle(F, std::move(key), std::move(label), std::move(tooltip), nullptr);
        spec.get = [member](const core::ModelConfig& c, const core::Scenario&) {
            return qint64(c.moe.*member ? 1 : 0);
        };
        spec.set = [member](core::ModelConfig& c, core::Scenario&, qint64 v, const core::edits::EditContext&) {
            c.moe.*member = v != 0;
        };
        spec.applies = isMoe;
        return spec;
    };
    fields.push_back(moeToggle(QStringLiteral("router_bias"), tr("Router bias"),
                               tr("The router's linear layer has a bias (gpt-oss)."),
                               &core::MixtureOfExperts::routerBias));
    fields.push_back(moeToggle(QStringLiteral("expert_bias"), tr("Expert biases"),
                               tr("Every expert projection has a bias (gpt-oss)."),
                               &core::MixtureOfExperts::expertBias));
    fields.push_back(moeToggle(QStringLiteral("correction_bias_parameter"), tr("Counted correction bias"),
                               tr("The router's score-correction bias is a parameter (counted, ERNIE 4.5 MoE), not a "
                                  "buffer (DeepSeek-V3, GLM-4.5: not counted)."),
                               &core::MixtureOfExperts::correctionBiasParameter));
    return fields;
}

} // namespace archplay::ui::panels
