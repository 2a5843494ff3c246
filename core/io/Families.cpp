// SPDX-License-Identifier: GPL-3.0-or-later
// Per-family config.json readers and writers. Defaults and tensor layouts follow the configuration
// and modeling files of huggingface/transformers, as summarised in FORMULAS.md §2.
#include "core/io/Families.h"

#include "core/io/FamilyIo.h"
#include "core/util/Checked.h"
#include "core/validate/Validation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

namespace archplay::core::familyio {

using nlohmann::json;

void readCommon(JsonFields& f, ModelConfig& c, const Defaults& d, const Keys& k) {
    c.vocabSize = f.integer(k.vocab, d.vocab);
    c.hiddenSize = f.integer(k.hidden, d.hidden);
    if (!k.intermediate.empty()) {
        c.intermediateSize = f.integer(k.intermediate, d.intermediate);
    }
    c.numLayers = f.integer(k.layers, d.layers);
    c.numHeads = f.integer(k.heads, d.heads);
    c.numKvHeads = c.numHeads;
    if (!k.kvHeads.empty()) {
        // Every config class here maps a null num_key_value_heads to num_attention_heads.
        c.numKvHeads = f.nullableInteger(k.kvHeads, d.kvHeads.value_or(c.numHeads)).value_or(c.numHeads);
    }
    c.headDim = d.headDim;
    if (!k.headDim.empty()) {
        c.headDim = f.nullableInteger(k.headDim, d.headDim);
    }
    c.maxPositions = f.integer(k.maxPositions, d.maxPositions);
    c.tieWordEmbeddings = f.flag("tie_word_embeddings", d.tie);
    const std::string act = f.peekText(k.activation);
    c.activation = act.empty() ? d.activation : parseActivation(act);
}

/// Writes the activation only where it differs from what reading `out` would give, so an unchanged
/// config keeps its original spelling ("gelu_new", "swish", ...).
void writeActivation(const ModelConfig& c, json& out, std::string_view key, Activation absent) {
    const auto it = out.find(key);
    const bool present = it != out.end() && it->is_string();
    const Activation current = present ? parseActivation(it->get<std::string>()) : absent;
    if (current != c.activation) {
        out[std::string(key)] = std::string(toString(c.activation));
    }
}

void writeCommon(const ModelConfig& c, json& out, const Defaults& d, const Keys& k) {
    out[std::string(k.vocab)] = c.vocabSize;
    out[std::string(k.hidden)] = c.hiddenSize;
    if (!k.intermediate.empty()) {
        out[std::string(k.intermediate)] = c.intermediateSize;
    }
    out[std::string(k.layers)] = c.numLayers;
    out[std::string(k.heads)] = c.numHeads;
    if (!k.kvHeads.empty()) {
        out[std::string(k.kvHeads)] = c.numKvHeads;
    }
    if (!k.headDim.empty()) {
        if (c.headDim) {
            out[std::string(k.headDim)] = *c.headDim;
        } else if (d.headDim) {
            out[std::string(k.headDim)] = nullptr; // null selects hidden / heads over the class default
        } else {
            out.erase(std::string(k.headDim));
        }
    }
    out[std::string(k.maxPositions)] = c.maxPositions;
    out["tie_word_embeddings"] = c.tieWordEmbeddings;
    writeActivation(c, out, k.activation, d.activation);
}

void setAttentionBias(ModelConfig& c, bool bias) {
    c.qBias = c.kBias = c.vBias = c.oBias = bias;
}
bool uniformAttentionBias(const ModelConfig& c) {
    return c.qBias == c.kBias && c.kBias == c.vBias && c.vBias == c.oBias;
}

/// A family writer for a switch the family cannot express marks the result unusable; the
/// exporter then verifies by reading back and falls back to the native format.
void requireExpressible(json& out, bool expressible) {
    if (!expressible) {
        out["__archplay_inexpressible"] = true;
    }
}

// ---- sliding windows ------------------------------------------------------------------------

std::optional<LayerAttention> parseLayerType(std::string_view name) {
    if (name == "full_attention") {
        return LayerAttention::Global;
    }
    if (name == "sliding_attention") {
        return LayerAttention::Sliding;
    }
    if (name == "chunked_attention") {
        return LayerAttention::Chunked;
    }
    return std::nullopt;
}

/// Hugging Face layer_types, when present, override every other pattern field.
bool readLayerTypes(JsonFields& f, ModelConfig& c) {
    if (!f.has("layer_types")) {
        f.consume("layer_types");
        return false;
    }
    std::vector<LayerAttention> types;
    for (const std::string& name : f.texts("layer_types")) {
        if (auto type = parseLayerType(name)) {
            types.push_back(*type);
        } else {
            f.notModelled("layer_types", fmt::format("layer type '{}' is not one archplay models", name));
            types.push_back(LayerAttention::Global);
        }
    }
    c.layerTypes = std::move(types);
    c.slidingPattern = SlidingPattern::Explicit;
    return true;
}

void writeLayerTypes(const ModelConfig& c, json& out) {
    if (c.slidingPattern != SlidingPattern::Explicit) {
        out.erase("layer_types");
        return;
    }
    json list = json::array();
    for (LayerAttention type : c.layerTypes) {
        list.push_back(std::string(toString(type)));
    }
    out["layer_types"] = list;
}

/// Mistral, Mixtral, Phi-3, StarCoder2: a non-null sliding_window makes every layer sliding.
void readUniformWindow(JsonFields& f, ModelConfig& c, std::optional<std::int64_t> fallback) {
    const std::optional<std::int64_t> window = f.nullableInteger("sliding_window", fallback);
    c.slidingPattern = window ? SlidingPattern::All : SlidingPattern::None;
    c.slidingWindow = window.value_or(4096);
}

void writeUniformWindow(const ModelConfig& c, json& out) {
    requireExpressible(out, c.slidingPattern == SlidingPattern::None || c.slidingPattern == SlidingPattern::All);
    if (c.slidingPattern == SlidingPattern::All) {
        out["sliding_window"] = c.slidingWindow;
    } else {
        out["sliding_window"] = nullptr;
    }
}

/// Which layers use_sliding_window makes sliding, per family (configuration_<type>.py, transformers 5.17).
enum class QwenWindowRule {
    FromLayer,  ///< Qwen2, Qwen3: layers i >= max_window_layers
    EvenBelow,  ///< Qwen2-MoE: even layers i < max_window_layers
    EveryLayer, ///< Qwen3-MoE: every layer (no max_window_layers, no layer_types)
};

/// Qwen2/Qwen3 and their MoE variants: a null sliding_window means no window, whatever
/// use_sliding_window says; layer_types, when given, decide.
void readQwenWindow(JsonFields& f, ModelConfig& c, QwenWindowRule rule) {
    const bool use = f.flag("use_sliding_window", false);
    const std::optional<std::int64_t> window = f.nullableInteger("sliding_window", 4096);
    c.slidingWindow = window.value_or(4096);
    const bool on = use && window.has_value();
    c.slidingPattern = SlidingPattern::None;
    switch (rule) {
    case QwenWindowRule::FromLayer:
        c.firstSlidingLayer = f.integer("max_window_layers", 28);
        c.slidingPattern = on ? SlidingPattern::FromLayer : SlidingPattern::None;
        break;
    case QwenWindowRule::EvenBelow: {
        const std::int64_t below = f.integer("max_window_layers", 28);
        c.firstSlidingLayer = 0;
        if (on) {
            c.layerTypes.clear();
            for (std::int64_t i = 0; i < c.numLayers && i < 100000; ++i) {
                c.layerTypes.push_back(i % 2 == 0 && i < below ? LayerAttention::Sliding : LayerAttention::Global);
            }
            c.slidingPattern = SlidingPattern::Explicit;
        }
        break;
    }
    case QwenWindowRule::EveryLayer:
        c.slidingPattern = on ? SlidingPattern::All : SlidingPattern::None;
        break;
    }
    if (rule != QwenWindowRule::EveryLayer) {
        readLayerTypes(f, c);
    }
}

void writeQwenWindow(const ModelConfig& c, json& out, QwenWindowRule rule) {
    const bool slides =
        c.slidingPattern == SlidingPattern::FromLayer || c.slidingPattern == SlidingPattern::All ||
        (c.slidingPattern == SlidingPattern::Explicit &&
         std::find(c.layerTypes.begin(), c.layerTypes.end(), LayerAttention::Sliding) != c.layerTypes.end());
    switch (rule) {
    case QwenWindowRule::FromLayer:
        requireExpressible(out, c.slidingPattern == SlidingPattern::None ||
                                    c.slidingPattern == SlidingPattern::FromLayer ||
                                    c.slidingPattern == SlidingPattern::Explicit);
        out["max_window_layers"] = c.firstSlidingLayer;
        break;
    case QwenWindowRule::EvenBelow:
        requireExpressible(out,
                           c.slidingPattern == SlidingPattern::None || c.slidingPattern == SlidingPattern::Explicit);
        break;
    case QwenWindowRule::EveryLayer:
        requireExpressible(out, c.slidingPattern == SlidingPattern::None || c.slidingPattern == SlidingPattern::All);
        break;
    }
    // The sliding layers of layer_types need use_sliding_window too: without it the window is dropped.
    out["use_sliding_window"] = slides;
    out["sliding_window"] = c.slidingWindow;
    if (rule != QwenWindowRule::EveryLayer) {
        writeLayerTypes(c, out);
    }
}

/// Gemma 2 / Gemma 3: layer i is global iff (i + 1) % period == 0 (FORMULAS.md §2.9, §2.10).
void readGemmaWindow(JsonFields& f, ModelConfig& c, std::int64_t defaultPeriod, std::int64_t defaultWindow) {
    c.slidingWindow = f.nullableInteger("sliding_window", defaultWindow).value_or(defaultWindow);
    c.globalEvery = defaultPeriod;
    if (defaultPeriod != 2) {
        c.globalEvery = f.integer({"sliding_window_pattern", "_sliding_window_pattern"}, defaultPeriod);
    }
    c.slidingPattern = SlidingPattern::GlobalEveryN;
    readLayerTypes(f, c);
}

void writeGemmaWindow(const ModelConfig& c, json& out, bool hasPatternKey) {
    requireExpressible(out, c.slidingPattern == SlidingPattern::GlobalEveryN ||
                                c.slidingPattern == SlidingPattern::Explicit);
    requireExpressible(out, hasPatternKey || c.slidingPattern != SlidingPattern::GlobalEveryN || c.globalEvery == 2);
    out["sliding_window"] = c.slidingWindow;
    if (hasPatternKey) {
        out.erase("_sliding_window_pattern");
        out["sliding_window_pattern"] = c.globalEvery;
    }
    writeLayerTypes(c, out);
}

// ---- mixture of experts --------------------------------------------------------------------

void readQwenMoe(JsonFields& f, ModelConfig& c, const MixtureOfExperts& d) {
    c.ffnKind = FfnKind::Moe;
    c.moe = d;
    c.moe.numExperts = f.integer("num_experts", d.numExperts);
    c.moe.topK = f.integer("num_experts_per_tok", d.topK);
    c.moe.expertIntermediateSize = f.integer("moe_intermediate_size", d.expertIntermediateSize);
    c.moe.sparseStep = f.integer("decoder_sparse_step", d.sparseStep);
    c.moe.denseLayers = f.integers("mlp_only_layers");
    if (d.numSharedExperts > 0) { // Qwen2-MoE and the hybrids: one gated shared expert of this width
        c.moe.sharedExpertIntermediateSize =
            f.integer("shared_expert_intermediate_size", d.sharedExpertIntermediateSize);
    }
    if (c.moe.numExperts == 0) {
        // Qwen-MoE treats num_experts == 0 as a dense model; what the experts would be is not part
        // of it (the native format, which writes a dense model, keeps no experts either).
        c.ffnKind = FfnKind::Gated;
        c.moe = ModelConfig().moe;
    }
}

void writeQwenMoe(const ModelConfig& c, json& out) {
    requireExpressible(out, c.ffnKind == FfnKind::Moe && c.moe.firstDenseLayers == 0);
    out["num_experts"] = c.moe.numExperts;
    out["num_experts_per_tok"] = c.moe.topK;
    out["moe_intermediate_size"] = c.moe.expertIntermediateSize;
    out["decoder_sparse_step"] = c.moe.sparseStep;
    out["mlp_only_layers"] = c.moe.denseLayers;
}

// ---- the families --------------------------------------------------------------------------

void readLlama(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, {});
    setAttentionBias(c, f.flag("attention_bias", false));
    c.ffnBias = f.flag("mlp_bias", false);
}

void writeLlama(const ModelConfig& c, json& out) {
    writeCommon(c, out, {});
    requireExpressible(out, uniformAttentionBias(c));
    out["attention_bias"] = c.qBias;
    out["mlp_bias"] = c.ffnBias;
}

const Defaults kMistral{.vocab = 32000,
                        .hidden = 4096,
                        .intermediate = 14336,
                        .layers = 32,
                        .heads = 32,
                        .kvHeads = 8,
                        .maxPositions = 4096 * 32};

void readMistral(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kMistral);
    readUniformWindow(f, c, 4096);
}

void writeMistral(const ModelConfig& c, json& out) {
    writeCommon(c, out, kMistral);
    writeUniformWindow(c, out);
}

void readMixtral(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kMistral);
    readUniformWindow(f, c, std::nullopt);
    c.ffnKind = FfnKind::Moe;
    c.moe.numExperts = f.integer("num_local_experts", 8);
    c.moe.topK = f.integer("num_experts_per_tok", 2);
    c.moe.expertIntermediateSize = c.intermediateSize; // Mixtral's experts use intermediate_size
    c.moe.router.normaliseTopK = true;                 // MixtralSparseMoeBlock always renormalises the top k
}

void writeMixtral(const ModelConfig& c, json& out) {
    ModelConfig copy = c;
    copy.intermediateSize = c.moe.expertIntermediateSize;
    writeCommon(copy, out, kMistral);
    writeUniformWindow(c, out);
    requireExpressible(out, c.ffnKind == FfnKind::Moe && c.moe.numSharedExperts == 0 && c.moe.firstDenseLayers == 0 &&
                                c.moe.sparseStep == 1 && c.moe.denseLayers.empty() &&
                                c.intermediateSize == c.moe.expertIntermediateSize);
    out["num_local_experts"] = c.moe.numExperts;
    out["num_experts_per_tok"] = c.moe.topK;
}

const Defaults kQwen2{.vocab = 151936,
                      .hidden = 4096,
                      .intermediate = 22016,
                      .layers = 32,
                      .heads = 32,
                      .kvHeads = 32,
                      .maxPositions = 32768};

void readQwen2(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kQwen2);
    c.qBias = c.kBias = c.vBias = true; // hard-coded in Qwen2Attention
    readQwenWindow(f, c, QwenWindowRule::FromLayer);
}

void writeQwen2(const ModelConfig& c, json& out) {
    writeCommon(c, out, kQwen2);
    requireExpressible(out, c.qBias && c.kBias && c.vBias && !c.oBias);
    writeQwenWindow(c, out, QwenWindowRule::FromLayer);
}

const Defaults kQwen2Moe{.vocab = 151936,
                         .hidden = 2048,
                         .intermediate = 5632,
                         .layers = 24,
                         .heads = 16,
                         .kvHeads = 16,
                         .maxPositions = 32768};

void readQwen2Moe(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kQwen2Moe);
    c.tensorNaming = TensorNaming::QwenMoe;
    const bool qkvBias = f.flag("qkv_bias", true);
    c.qBias = c.kBias = c.vBias = qkvBias;
    readQwenWindow(f, c, QwenWindowRule::EvenBelow);
    readQwenMoe(f, c,
                {.numExperts = 60,
                 .topK = 4,
                 .expertIntermediateSize = 1408,
                 .numSharedExperts = 1,
                 .sharedExpertIntermediateSize = 5632,
                 .sharedExpertGate = true});
}

void writeQwen2Moe(const ModelConfig& c, json& out) {
    writeCommon(c, out, kQwen2Moe);
    requireExpressible(out, c.qBias == c.kBias && c.kBias == c.vBias && !c.oBias);
    out["qkv_bias"] = c.qBias;
    writeQwenWindow(c, out, QwenWindowRule::EvenBelow);
    writeQwenMoe(c, out);
    requireExpressible(out,
                       c.moe.numSharedExperts == 1 && c.moe.sharedExpertGate && c.moe.sharedExpertIntermediateSize > 0);
    out["shared_expert_intermediate_size"] = c.moe.sharedExpertIntermediateSize;
}

const Defaults kQwen3{.vocab = 151936,
                      .hidden = 4096,
                      .intermediate = 22016,
                      .layers = 32,
                      .heads = 32,
                      .kvHeads = 32,
                      .headDim = 128,
                      .maxPositions = 32768};

void readQwen3(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kQwen3);
    setAttentionBias(c, f.flag("attention_bias", false));
    c.qkNorm = QkNorm::PerHead;
    readQwenWindow(f, c, QwenWindowRule::FromLayer);
}

void writeQwen3(const ModelConfig& c, json& out) {
    writeCommon(c, out, kQwen3);
    requireExpressible(out, uniformAttentionBias(c) && c.qkNorm == QkNorm::PerHead);
    out["attention_bias"] = c.qBias;
    writeQwenWindow(c, out, QwenWindowRule::FromLayer);
}

const Defaults kQwen3Moe{.vocab = 151936,
                         .hidden = 2048,
                         .intermediate = 6144,
                         .layers = 24,
                         .heads = 32,
                         .kvHeads = 4,
                         .maxPositions = 32768};

void readQwen3Moe(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kQwen3Moe);
    setAttentionBias(c, f.flag("attention_bias", false));
    c.qkNorm = QkNorm::PerHead;
    readQwenWindow(f, c, QwenWindowRule::EveryLayer);
    readQwenMoe(f, c, {.numExperts = 128, .topK = 8, .expertIntermediateSize = 768});
}

void writeQwen3Moe(const ModelConfig& c, json& out) {
    writeCommon(c, out, kQwen3Moe);
    requireExpressible(out, uniformAttentionBias(c) && c.qkNorm == QkNorm::PerHead && c.moe.numSharedExperts == 0);
    out["attention_bias"] = c.qBias;
    writeQwenWindow(c, out, QwenWindowRule::EveryLayer);
    writeQwenMoe(c, out);
}

const Keys kGemmaKeys{.activation = "hidden_activation"};
const Defaults kGemma{.vocab = 256000,
                      .hidden = 3072,
                      .intermediate = 24576,
                      .layers = 28,
                      .heads = 16,
                      .kvHeads = 16,
                      .headDim = 256,
                      .maxPositions = 8192,
                      .tie = true,
                      .activation = Activation::GeluTanh};

// Gemma's MLP uses hidden_activation; when that is null it uses gelu_pytorch_tanh, whatever hidden_act says.
// Every Gemma scales the embeddings by sqrt(hidden_size) and its RMSNorm multiplies by (1 + weight).
void readGemmaCommon(JsonFields& f, ModelConfig& c, const Defaults& d) {
    readCommon(f, c, d, kGemmaKeys);
    setAttentionBias(c, f.flag("attention_bias", false));
    c.ffnKind = FfnKind::Gated;
    c.forward.embeddingScaledBySqrtHidden = true;
    c.forward.normGainPlusOne = true;
}

void readGemma(JsonFields& f, ModelConfig& c) {
    readGemmaCommon(f, c, kGemma);
}

void writeGemmaCommon(const ModelConfig& c, json& out, const Defaults& d) {
    writeCommon(c, out, d, kGemmaKeys);
    requireExpressible(out, uniformAttentionBias(c));
    out["attention_bias"] = c.qBias;
}

void writeGemma(const ModelConfig& c, json& out) {
    writeGemmaCommon(c, out, kGemma);
}

const Defaults kGemma2{.vocab = 256000,
                       .hidden = 2304,
                       .intermediate = 9216,
                       .layers = 26,
                       .heads = 8,
                       .kvHeads = 4,
                       .headDim = 256,
                       .maxPositions = 8192,
                       .tie = true,
                       .activation = Activation::GeluTanh};

void readGemma2(JsonFields& f, ModelConfig& c) {
    readGemmaCommon(f, c, kGemma2);
    c.normPlacement = NormPlacement::Sandwich;
    readGemmaWindow(f, c, 2, 4096);
}

void writeGemma2(const ModelConfig& c, json& out) {
    writeGemmaCommon(c, out, kGemma2);
    requireExpressible(out, c.normPlacement == NormPlacement::Sandwich);
    writeGemmaWindow(c, out, false);
}

const Defaults kGemma3{.vocab = 262208,
                       .hidden = 2304,
                       .intermediate = 9216,
                       .layers = 26,
                       .heads = 8,
                       .kvHeads = 4,
                       .headDim = 256,
                       .maxPositions = 131072,
                       .tie = true,
                       .activation = Activation::GeluTanh};

void readGemma3Text(JsonFields& f, ModelConfig& c) {
    readGemmaCommon(f, c, kGemma3);
    c.normPlacement = NormPlacement::Sandwich;
    c.qkNorm = QkNorm::PerHead;
    readGemmaWindow(f, c, 6, 4096);
}

void writeGemma3Text(const ModelConfig& c, json& out) {
    writeGemmaCommon(c, out, kGemma3);
    requireExpressible(out, c.normPlacement == NormPlacement::Sandwich && c.qkNorm == QkNorm::PerHead);
    writeGemmaWindow(c, out, true);
}

const Defaults kPhi{.vocab = 51200,
                    .hidden = 2048,
                    .intermediate = 8192,
                    .layers = 24,
                    .heads = 32,
                    .maxPositions = 2048,
                    .activation = Activation::GeluTanh};

void readPhi(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kPhi);
    c.tensorNaming = TensorNaming::Phi;
    c.normKind = NormKind::LayerNorm;
    c.normPlacement = NormPlacement::ParallelSingle;
    c.ffnKind = FfnKind::Mlp;
    setAttentionBias(c, true);
    c.ffnBias = true;
    c.outputHeadBias = true;
    c.rotaryFraction = f.number("partial_rotary_factor", 0.5);
    // PhiAttention's q_layernorm and k_layernorm: nn.LayerNorm(head_dim), shared by the heads.
    c.qkNorm = f.flag("qk_layernorm", false) ? QkNorm::PerHeadLayerNorm : QkNorm::None;
}

void writePhi(const ModelConfig& c, json& out) {
    writeCommon(c, out, kPhi);
    out["partial_rotary_factor"] = c.rotaryFraction;
    requireExpressible(out, c.qkNorm == QkNorm::None || c.qkNorm == QkNorm::PerHeadLayerNorm);
    out["qk_layernorm"] = c.qkNorm == QkNorm::PerHeadLayerNorm;
}

const Defaults kPhi3{
    .vocab = 32064, .hidden = 3072, .intermediate = 8192, .layers = 32, .heads = 32, .maxPositions = 4096};

void readPhi3(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kPhi3);
    c.tensorNaming = TensorNaming::Phi3;
    c.fusedQkv = true;
    c.rotaryFraction = f.number("partial_rotary_factor", 1.0);
    readUniformWindow(f, c, std::nullopt);
}

void writePhi3(const ModelConfig& c, json& out) {
    writeCommon(c, out, kPhi3);
    out["partial_rotary_factor"] = c.rotaryFraction;
    writeUniformWindow(c, out);
}

const Keys kGpt2Keys{.hidden = "n_embd",
                     .intermediate = "", // n_inner, null for 4 x n_embd: readInner() and writeInner()
                     .layers = "n_layer",
                     .heads = "n_head",
                     .kvHeads = "",
                     .headDim = "",
                     .maxPositions = "n_positions",
                     .activation = "activation_function"};

/// GPT-2 and GPT-J keep n_inner null for the default 4 x n_embd.
void readInner(JsonFields& f, ModelConfig& c) {
    c.intermediateSize = f.nullableInteger("n_inner", std::nullopt).value_or(saturatingProduct(4, c.hiddenSize));
}

void writeInner(const ModelConfig& c, json& out) {
    if (c.intermediateSize == saturatingProduct(4, c.hiddenSize)) {
        out["n_inner"] = nullptr;
    } else {
        out["n_inner"] = c.intermediateSize;
    }
}

void readGpt2(JsonFields& f, ModelConfig& c) {
    readCommon(f, c,
               {.vocab = 50257,
                .hidden = 768,
                .layers = 12,
                .heads = 12,
                .maxPositions = 1024,
                .tie = true,
                .activation = Activation::GeluTanh},
               kGpt2Keys);
    readInner(f, c);
    c.normKind = NormKind::LayerNorm;
    c.positional = PositionalKind::Learned;
    c.tensorNaming = TensorNaming::Gpt2;
    c.ffnKind = FfnKind::Mlp;
    c.fusedQkv = true;
    setAttentionBias(c, true);
    c.ffnBias = true;
    if (f.flag("add_cross_attention", false)) {
        f.notModelled("add_cross_attention", "GPT-2 cross-attention blocks are not modelled");
    }
}

void writeGpt2(const ModelConfig& c, json& out) {
    writeCommon(c, out, {}, kGpt2Keys);
    writeInner(c, out);
}

void readGptj(JsonFields& f, ModelConfig& c) {
    readCommon(f, c,
               {.vocab = 50400,
                .hidden = 4096,
                .layers = 28,
                .heads = 16,
                .maxPositions = 2048,
                .activation = Activation::GeluTanh},
               kGpt2Keys);
    readInner(f, c);
    c.normKind = NormKind::LayerNorm;
    c.normPlacement = NormPlacement::ParallelSingle;
    c.tensorNaming = TensorNaming::GptJ;
    c.ffnKind = FfnKind::Mlp;
    c.ffnBias = true;
    c.outputHeadBias = true;
    const std::int64_t rotaryDim = f.nullableInteger("rotary_dim", 64).value_or(c.effectiveHeadDim());
    const std::int64_t headDim = c.effectiveHeadDim();
    c.rotaryFraction = headDim > 0 ? static_cast<double>(rotaryDim) / static_cast<double>(headDim) : 1.0;
}

void writeGptj(const ModelConfig& c, json& out) {
    writeCommon(c, out, {}, kGpt2Keys);
    writeInner(c, out);
    out["rotary_dim"] =
        static_cast<std::int64_t>(std::llround(c.rotaryFraction * static_cast<double>(c.effectiveHeadDim())));
}

void readGptNeox(JsonFields& f, ModelConfig& c) {
    readCommon(f, c,
               {.vocab = 50432,
                .hidden = 6144,
                .intermediate = 24576,
                .layers = 44,
                .heads = 64,
                .maxPositions = 2048,
                .activation = Activation::Gelu},
               {.kvHeads = "", .headDim = ""});
    c.normKind = NormKind::LayerNorm;
    c.normPlacement = f.flag("use_parallel_residual", true) ? NormPlacement::ParallelDouble : NormPlacement::Pre;
    c.tensorNaming = TensorNaming::GptNeox;
    c.ffnKind = FfnKind::Mlp;
    c.fusedQkv = true;
    setAttentionBias(c, f.flag("attention_bias", true));
    c.ffnBias = true;
    const double legacyFraction = f.number("rotary_pct", 0.25);
    c.rotaryFraction = f.number("partial_rotary_factor", legacyFraction);
}

void writeGptNeox(const ModelConfig& c, json& out) {
    writeCommon(c, out, {}, {.kvHeads = "", .headDim = ""});
    out["use_parallel_residual"] = c.normPlacement == NormPlacement::ParallelDouble;
    out["attention_bias"] = c.qBias;
    out["rotary_pct"] = c.rotaryFraction;
    out["partial_rotary_factor"] = c.rotaryFraction;
}

void readFalcon(JsonFields& f, ModelConfig& c) {
    const bool refinedWeb = f.peekText("model_type") == "RefinedWeb";
    c.tensorNaming = TensorNaming::Falcon;
    c.vocabSize = f.integer("vocab_size", 65024);
    c.hiddenSize = f.integer({"hidden_size", "n_embed"}, 4544);
    c.numLayers = f.integer({"num_hidden_layers", "n_layer"}, 32);
    c.numHeads = f.integer({"num_attention_heads", "n_head"}, 71);
    const bool newArchitecture = f.flag("new_decoder_architecture", refinedWeb);
    const bool multiQuery = f.flag("multi_query", true);
    const std::int64_t kvHeads = f.integer({"num_kv_heads", "n_head_kv"}, c.numHeads);
    c.numKvHeads = newArchitecture ? kvHeads : multiQuery ? 1 : c.numHeads;
    // FalconAttention of the new decoder architecture caches K and V expanded to every query head.
    c.forward.kvRepeatedPerQueryHead = newArchitecture;
    c.intermediateSize =
        f.nullableInteger("ffn_hidden_size", std::nullopt).value_or(saturatingProduct(4, c.hiddenSize));
    c.maxPositions = f.integer("max_position_embeddings", 2048);
    c.tieWordEmbeddings = f.flag("tie_word_embeddings", true);
    const bool bias = f.flag("bias", false);
    setAttentionBias(c, bias);
    c.ffnBias = bias;
    c.positional = f.flag("alibi", false) ? PositionalKind::Alibi : PositionalKind::Rope;
    c.normKind = NormKind::LayerNorm;
    c.ffnKind = FfnKind::Mlp;
    c.activation = Activation::Gelu;
    c.fusedQkv = true;
    const bool parallel = f.flag("parallel_attn", true);
    const std::optional<std::int64_t> parallelNorms =
        f.nullableInteger("num_ln_in_parallel_attn", std::optional<std::int64_t>());
    const std::int64_t norms = parallelNorms.value_or(newArchitecture ? 2 : 1);
    c.normPlacement = !parallel    ? NormPlacement::Pre
                      : norms == 2 ? NormPlacement::ParallelDouble
                                   : NormPlacement::ParallelSingle;
}

void writeFalcon(const ModelConfig& c, json& out) {
    for (const char* legacy : {"n_embed", "n_layer", "n_head", "n_head_kv"}) {
        out.erase(legacy);
    }
    out["vocab_size"] = c.vocabSize;
    out["hidden_size"] = c.hiddenSize;
    out["num_hidden_layers"] = c.numLayers;
    out["num_attention_heads"] = c.numHeads;
    out["ffn_hidden_size"] = c.intermediateSize;
    out["max_position_embeddings"] = c.maxPositions;
    out["tie_word_embeddings"] = c.tieWordEmbeddings;
    out["bias"] = c.qBias;
    out["alibi"] = c.positional == PositionalKind::Alibi;
    out["parallel_attn"] = c.normPlacement != NormPlacement::Pre;
    const bool newArchitecture = c.forward.kvRepeatedPerQueryHead || c.normPlacement == NormPlacement::ParallelDouble ||
                                 (c.numKvHeads != 1 && c.numKvHeads != c.numHeads);
    out["new_decoder_architecture"] = newArchitecture;
    out["multi_query"] = c.numKvHeads == 1;
    out["num_kv_heads"] = c.numKvHeads;
    out["num_ln_in_parallel_attn"] = c.normPlacement == NormPlacement::ParallelDouble ? 2 : 1;
}

LatentAttention readLatent(JsonFields& f, const LatentAttention& defaults) {
    LatentAttention mla;
    mla.qLoraRank = f.nullableInteger("q_lora_rank", defaults.qLoraRank);
    mla.kvLoraRank = f.integer("kv_lora_rank", defaults.kvLoraRank);
    mla.qkNopeHeadDim = f.integer("qk_nope_head_dim", defaults.qkNopeHeadDim);
    mla.qkRopeHeadDim = f.integer("qk_rope_head_dim", defaults.qkRopeHeadDim);
    mla.vHeadDim = f.integer("v_head_dim", defaults.vHeadDim);
    return mla;
}

void writeLatent(const LatentAttention& mla, json& out) {
    out["q_lora_rank"] = mla.qLoraRank ? json(*mla.qLoraRank) : json(nullptr);
    out["kv_lora_rank"] = mla.kvLoraRank;
    out["qk_nope_head_dim"] = mla.qkNopeHeadDim;
    out["qk_rope_head_dim"] = mla.qkRopeHeadDim;
    out["v_head_dim"] = mla.vHeadDim;
}

// DeepSeek-V2/V3 (FORMULAS.md §2.15).
void readDeepseekWith(JsonFields& f, ModelConfig& c, bool v3, const Defaults& d, const LatentAttention& mlaDefaults,
                      const MixtureOfExperts& moeDefaults) {
    readCommon(f, c, d, {.headDim = ""});
    c.latent = readLatent(f, mlaDefaults);
    const bool bias = f.flag("attention_bias", false);
    c.qBias = c.kBias = c.oBias = bias;
    c.ffnKind = FfnKind::Moe;
    c.moe.numExperts = f.integer("n_routed_experts", moeDefaults.numExperts);
    c.moe.topK = f.integer("num_experts_per_tok", moeDefaults.topK);
    c.moe.expertIntermediateSize = f.integer("moe_intermediate_size", moeDefaults.expertIntermediateSize);
    c.moe.numSharedExperts = f.integer("n_shared_experts", moeDefaults.numSharedExperts);
    c.moe.sharedExpertIntermediateSize = 0;
    c.moe.firstDenseLayers = f.integer("first_k_dense_replace", moeDefaults.firstDenseLayers);
    if (v3) {
        c.mtpLayers = f.integer("num_nextn_predict_layers", 0);
    }
}

void readDeepseek(JsonFields& f, ModelConfig& c, bool v3) {
    if (v3) {
        readDeepseekWith(f, c, true,
                         {.vocab = 129280,
                          .hidden = 7168,
                          .intermediate = 18432,
                          .layers = 61,
                          .heads = 128,
                          .kvHeads = 128,
                          .maxPositions = 4096},
                         {.qLoraRank = 1536},
                         {.numExperts = 256,
                          .topK = 8,
                          .expertIntermediateSize = 2048,
                          .numSharedExperts = 1,
                          .firstDenseLayers = 3});
    } else {
        readDeepseekWith(
            f, c, false,
            {.vocab = 32000, .hidden = 4096, .intermediate = 11008, .layers = 32, .heads = 32, .maxPositions = 2048},
            {.qLoraRank = 1536}, {.numExperts = 64, .topK = 0, .expertIntermediateSize = 1407, .numSharedExperts = 2});
    }
}

void writeDeepseek(const ModelConfig& c, json& out, bool v3) {
    requireExpressible(out, !c.indexer);
    writeCommon(c, out, {}, {.headDim = ""});
    requireExpressible(out, c.latent.has_value() && c.ffnKind == FfnKind::Moe && c.qBias == c.kBias &&
                                c.kBias == c.oBias && !c.vBias && c.moe.sharedExpertIntermediateSize == 0 &&
                                c.moe.sparseStep == 1 && c.moe.denseLayers.empty() && (v3 || c.mtpLayers == 0));
    if (c.latent) {
        writeLatent(*c.latent, out);
    }
    out["attention_bias"] = c.qBias;
    out["n_routed_experts"] = c.moe.numExperts;
    out["num_experts_per_tok"] = c.moe.topK;
    out["moe_intermediate_size"] = c.moe.expertIntermediateSize;
    out["n_shared_experts"] = c.moe.numSharedExperts;
    out["first_k_dense_replace"] = c.moe.firstDenseLayers;
    if (v3) {
        out["num_nextn_predict_layers"] = c.mtpLayers;
    }
}

void readDeepseekV2(JsonFields& f, ModelConfig& c) {
    readDeepseek(f, c, false);
}
void readDeepseekV3(JsonFields& f, ModelConfig& c) {
    readDeepseek(f, c, true);
    c.moe.router.normaliseTopK = true; // DeepseekV3Config defaults norm_topk_prob to true
}
void writeDeepseekV2(const ModelConfig& c, json& out) {
    writeDeepseek(c, out, false);
}
void writeDeepseekV3(const ModelConfig& c, json& out) {
    writeDeepseek(c, out, true);
}

const Defaults kOlmo2{
    .vocab = 50304, .hidden = 4096, .intermediate = 11008, .layers = 32, .heads = 32, .maxPositions = 2048};

void readOlmo2(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kOlmo2, {.headDim = ""});
    setAttentionBias(c, f.flag("attention_bias", false));
    c.qkNorm = QkNorm::FullWidth;
    c.normPlacement = NormPlacement::PostOnly;
}

void writeOlmo2(const ModelConfig& c, json& out) {
    writeCommon(c, out, kOlmo2, {.headDim = ""});
    requireExpressible(out, uniformAttentionBias(c));
    out["attention_bias"] = c.qBias;
}

const Defaults kStarcoder2{.vocab = 49152,
                           .hidden = 3072,
                           .intermediate = 12288,
                           .layers = 30,
                           .heads = 24,
                           .kvHeads = 2,
                           .maxPositions = 4096,
                           .tie = true,
                           .activation = Activation::GeluTanh};

void readStarcoder2(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kStarcoder2, {.headDim = ""});
    c.tensorNaming = TensorNaming::Starcoder2;
    const bool bias = f.flag("use_bias", true);
    setAttentionBias(c, bias);
    c.ffnBias = bias;
    c.ffnKind = FfnKind::Mlp;
    c.normKind = NormKind::LayerNorm;
    readUniformWindow(f, c, std::nullopt);
}

void writeStarcoder2(const ModelConfig& c, json& out) {
    writeCommon(c, out, kStarcoder2, {.headDim = ""});
    requireExpressible(out, uniformAttentionBias(c) && c.qBias == c.ffnBias);
    out["use_bias"] = c.qBias;
    writeUniformWindow(c, out);
}

void readBloom(JsonFields& f, ModelConfig& c) {
    c.tensorNaming = TensorNaming::Bloom;
    c.vocabSize = f.integer("vocab_size", 250880);
    c.hiddenSize = f.integer({"n_embed", "hidden_size"}, 64);
    c.numLayers = f.integer({"n_layer", "num_hidden_layers"}, 2);
    c.numHeads = f.integer({"n_head", "num_attention_heads"}, 8);
    c.numKvHeads = c.numHeads;
    c.intermediateSize = saturatingProduct(4, c.hiddenSize);
    c.maxPositions = f.integer("seq_length", 2048);
    c.tieWordEmbeddings = f.flag("tie_word_embeddings", true);
    c.normKind = NormKind::LayerNorm;
    c.embeddingNorm = true;
    c.positional = PositionalKind::Alibi;
    c.ffnKind = FfnKind::Mlp;
    c.activation = Activation::GeluTanh;
    c.fusedQkv = true;
    setAttentionBias(c, true);
    c.ffnBias = true;
}

void writeBloom(const ModelConfig& c, json& out) {
    out.erase("n_embed");
    out.erase("num_hidden_layers");
    out.erase("num_attention_heads");
    out["vocab_size"] = c.vocabSize;
    out["hidden_size"] = c.hiddenSize;
    out["n_layer"] = c.numLayers;
    out["n_head"] = c.numHeads;
    out["seq_length"] = c.maxPositions;
    out["tie_word_embeddings"] = c.tieWordEmbeddings;
    requireExpressible(out, c.intermediateSize == saturatingProduct(4, c.hiddenSize));
}

void readOpt(JsonFields& f, ModelConfig& c) {
    c.tensorNaming = TensorNaming::Opt;
    readCommon(f, c,
               {.vocab = 50272,
                .hidden = 768,
                .intermediate = 3072,
                .layers = 12,
                .heads = 12,
                .maxPositions = 2048,
                .tie = true,
                .activation = Activation::Relu},
               {.intermediate = "ffn_dim", .kvHeads = "", .headDim = "", .activation = "activation_function"});
    c.normKind = f.flag("layer_norm_elementwise_affine", true) ? NormKind::LayerNorm : NormKind::NonParametric;
    const bool preNorm = f.flag("do_layer_norm_before", true);
    c.normPlacement = preNorm ? NormPlacement::Pre : NormPlacement::Post;
    const bool removeFinalNorm = f.flag("_remove_final_layer_norm", false);
    c.finalNorm = preNorm && !removeFinalNorm;
    c.positional = PositionalKind::Learned;
    c.positionOffset = 2;
    c.ffnKind = FfnKind::Mlp;
    const bool bias = f.flag("enable_bias", true);
    setAttentionBias(c, bias);
    c.ffnBias = bias;
    const std::int64_t projection = f.nullableInteger("word_embed_proj_dim", c.hiddenSize).value_or(c.hiddenSize);
    c.embeddingProjectionDim = projection == c.hiddenSize ? 0 : projection;
}

void writeOpt(const ModelConfig& c, json& out) {
    writeCommon(c, out, {},
                {.intermediate = "ffn_dim", .kvHeads = "", .headDim = "", .activation = "activation_function"});
    out["layer_norm_elementwise_affine"] = c.normKind != NormKind::NonParametric;
    out["do_layer_norm_before"] = c.normPlacement == NormPlacement::Pre;
    out["_remove_final_layer_norm"] = c.normPlacement == NormPlacement::Pre && !c.finalNorm;
    out["enable_bias"] = c.qBias;
    out["word_embed_proj_dim"] = c.embeddingProjectionDim > 0 ? c.embeddingProjectionDim : c.hiddenSize;
    requireExpressible(out, uniformAttentionBias(c) && c.qBias == c.ffnBias && c.positionOffset == 2 &&
                                (c.normPlacement == NormPlacement::Pre || !c.finalNorm));
}

// Counted as BertModel (with pooler, without pre-training heads), the convention of published BERT counts.
void readBert(JsonFields& f, ModelConfig& c) {
    c.tensorNaming = TensorNaming::Bert;
    readCommon(f, c,
               {.vocab = 30522,
                .hidden = 768,
                .intermediate = 3072,
                .layers = 12,
                .heads = 12,
                .maxPositions = 512,
                .tie = true,
                .activation = Activation::Gelu},
               {.kvHeads = "", .headDim = ""});
    c.architecture = ArchitectureKind::EncoderOnly;
    c.tokenTypes = f.integer("type_vocab_size", 2);
    c.normKind = NormKind::LayerNorm;
    c.normPlacement = NormPlacement::Post;
    c.embeddingNorm = true;
    c.finalNorm = false;
    c.positional = PositionalKind::Learned;
    c.ffnKind = FfnKind::Mlp;
    setAttentionBias(c, true);
    c.ffnBias = true;
    c.outputHead = false;
    c.pooler = true;
    const std::string positions = f.peekText("position_embedding_type");
    if (!positions.empty() && positions != "absolute") {
        f.notModelled(
            "position_embedding_type",
            fmt::format("position_embedding_type '{}' adds a distance embedding that is not modelled", positions));
    }
}

void writeBert(const ModelConfig& c, json& out) {
    writeCommon(c, out, {}, {.kvHeads = "", .headDim = ""});
    out["type_vocab_size"] = c.tokenTypes;
}

void readT5(JsonFields& f, ModelConfig& c) {
    c.tensorNaming = TensorNaming::T5;
    c.architecture = ArchitectureKind::EncoderDecoder;
    c.vocabSize = f.integer("vocab_size", 32128);
    c.hiddenSize = f.integer("d_model", 512);
    c.headDim = f.integer("d_kv", 64);
    c.intermediateSize = f.integer("d_ff", 2048);
    c.numEncoderLayers = f.integer("num_layers", 6);
    c.numLayers = f.nullableInteger("num_decoder_layers", c.numEncoderLayers).value_or(c.numEncoderLayers);
    c.numHeads = f.integer("num_heads", 8);
    c.numKvHeads = c.numHeads;
    c.relativeBuckets = f.integer("relative_attention_num_buckets", 32);
    c.maxPositions = f.integer("n_positions", 512);
    c.tieWordEmbeddings = f.flag("tie_word_embeddings", true);
    const std::string projection = f.text("feed_forward_proj", "relu");
    const bool gated = projection.starts_with("gated-");
    c.ffnKind = gated ? FfnKind::Gated : FfnKind::Mlp;
    const std::string act = gated ? projection.substr(6) : projection;
    c.activation = act == "gelu" ? Activation::GeluTanh : parseActivation(act); // T5 maps gated-gelu to gelu_new
    c.positional = PositionalKind::RelativeBias;
    // T5's initialisation absorbs the 1/sqrt(d) of attention; a tied head sees the output times d_model^-1/2.
    c.forward.attentionUnscaled = true;
    c.forward.tiedHeadInputScaled = true;
}

void writeT5(const ModelConfig& c, json& out) {
    out["vocab_size"] = c.vocabSize;
    out["d_model"] = c.hiddenSize;
    out["d_kv"] = c.effectiveHeadDim();
    out["d_ff"] = c.intermediateSize;
    out["num_layers"] = c.numEncoderLayers;
    out["num_decoder_layers"] = c.numLayers;
    out["num_heads"] = c.numHeads;
    out["relative_attention_num_buckets"] = c.relativeBuckets;
    out["n_positions"] = c.maxPositions;
    out["tie_word_embeddings"] = c.tieWordEmbeddings;
    const std::string act = c.activation == Activation::GeluTanh ? "gelu" : std::string(toString(c.activation));
    out["feed_forward_proj"] = c.ffnKind == FfnKind::Gated ? "gated-" + act : act;
    requireExpressible(out, c.headDim.has_value() && c.ffnKind != FfnKind::Moe);
}

void readBart(JsonFields& f, ModelConfig& c) {
    c.tensorNaming = TensorNaming::Bart;
    c.architecture = ArchitectureKind::EncoderDecoder;
    c.vocabSize = f.integer("vocab_size", 50265);
    c.hiddenSize = f.integer("d_model", 1024);
    c.numEncoderLayers = f.integer("encoder_layers", 12);
    c.numLayers = f.integer("decoder_layers", 12);
    // The encoder's heads and FFN width may differ from the decoder's (BartEncoderLayer reads
    // encoder_attention_heads and encoder_ffn_dim); kept apart only where they do.
    c.numHeads = f.integer("decoder_attention_heads", 16);
    c.numKvHeads = c.numHeads;
    c.intermediateSize = f.integer("decoder_ffn_dim", 4096);
    const std::int64_t encoderHeads = f.integer("encoder_attention_heads", 16);
    const std::int64_t encoderFfn = f.integer("encoder_ffn_dim", 4096);
    c.encoderHeads = encoderHeads != c.numHeads ? encoderHeads : 0;
    c.encoderIntermediateSize = encoderFfn != c.intermediateSize ? encoderFfn : 0;
    c.maxPositions = f.integer("max_position_embeddings", 1024);
    c.tieWordEmbeddings = f.flag("tie_word_embeddings", true);
    // Untied, transformers 5.x keeps the encoder's and the decoder's embed_tokens apart from `shared`.
    c.stackEmbeddingsFollowTie = true;
    c.normKind = NormKind::LayerNorm;
    c.normPlacement = NormPlacement::Post;
    c.embeddingNorm = true;
    c.finalNorm = false;
    c.positional = PositionalKind::Learned;
    c.positionOffset = 2;
    c.ffnKind = FfnKind::Mlp;
    setAttentionBias(c, true);
    c.ffnBias = true;
    const std::string act = f.peekText("activation_function");
    c.activation = act.empty() ? Activation::Gelu : parseActivation(act);
}

void writeBart(const ModelConfig& c, json& out) {
    out["vocab_size"] = c.vocabSize;
    out["d_model"] = c.hiddenSize;
    out["encoder_layers"] = c.numEncoderLayers;
    out["decoder_layers"] = c.numLayers;
    out["encoder_attention_heads"] = c.encoderHeadCount();
    out["decoder_attention_heads"] = c.numHeads;
    out["encoder_ffn_dim"] = c.encoderFfnWidth();
    out["decoder_ffn_dim"] = c.intermediateSize;
    out["max_position_embeddings"] = c.maxPositions;
    out["tie_word_embeddings"] = c.tieWordEmbeddings;
    requireExpressible(out, c.stackEmbeddingsFollowTie);
    writeActivation(c, out, "activation_function", Activation::Gelu);
}

// mBART (modeling_mbart.py): BART's fields and modules, with pre-norm layers and a LayerNorm closing
// each stack (MBartEncoder.layer_norm, MBartDecoder.layer_norm).
void readMbart(JsonFields& f, ModelConfig& c) {
    readBart(f, c);
    c.normPlacement = NormPlacement::Pre;
    c.finalNorm = true;
}

void writeMbart(const ModelConfig& c, json& out) {
    requireExpressible(out, c.normPlacement == NormPlacement::Pre && c.finalNorm);
    writeBart(c, out);
}

// ---- Mamba-1 and Mamba-2 language models: what the two share around their mixer ----------------

namespace {

/// int(expand x hidden_size), the inner width both MambaConfig and Mamba2Config compute; nullopt,
/// reported on `expand`, when it is not a width from 1 to 2^40.
std::optional<std::int64_t> expandedWidth(JsonFields& f, std::int64_t hidden) {
    const double width = f.number("expand", 2.0) * static_cast<double>(hidden);
    if (std::isfinite(width) && width >= 1 && width <= static_cast<double>(kMaxDimension)) {
        return static_cast<std::int64_t>(width);
    }
    f.error("expand", fmt::format("expand x hidden_size is {:g}, not an inner width from 1 to 2^40", width));
    return std::nullopt;
}

/// A stack of one state-space mixer and one RMSNorm per layer: no attention (heads unused), no
/// feed-forward block, no positions (the context is unbounded, taken as max_position_embeddings when
/// the config has one, else 1,048,576), SiLU unless hidden_act says otherwise.
void readStateSpaceStack(JsonFields& f, ModelConfig& c, TokenMixer mixer, bool tiedByDefault) {
    c.tensorNaming = TensorNaming::Mamba;
    c.numHeads = 1;
    c.numKvHeads = 1;
    c.mixers = {mixer};
    c.ffnKind = FfnKind::None;
    const std::string act = f.peekText("hidden_act");
    c.activation = act.empty() ? Activation::Silu : parseActivation(act);
    c.normKind = NormKind::RmsNorm;
    c.normPlacement = NormPlacement::Pre;
    c.positional = PositionalKind::None;
    c.maxPositions = f.integer("max_position_embeddings", 1 << 20);
    c.tieWordEmbeddings = f.flag("tie_word_embeddings", tiedByDefault);
}

/// Whether `c` is a stack readStateSpaceStack() reads back, of `mixer` layers.
bool isStateSpaceStack(const ModelConfig& c, TokenMixer mixer) {
    return c.mixers == std::vector<TokenMixer>{mixer} && c.ffnKind == FfnKind::None &&
           c.normKind == NormKind::RmsNorm && c.normPlacement == NormPlacement::Pre &&
           c.positional == PositionalKind::None;
}

void writeStateSpaceStack(const ModelConfig& c, json& out) {
    out["vocab_size"] = c.vocabSize;
    out["hidden_size"] = c.hiddenSize;
    out["num_hidden_layers"] = c.numLayers;
    out["tie_word_embeddings"] = c.tieWordEmbeddings;
    writeActivation(c, out, "hidden_act", Activation::Silu);
    if (c.maxPositions != (1 << 20)) {
        out["max_position_embeddings"] = c.maxPositions;
    }
}

} // namespace

// Mamba-1 language models (modeling_mamba.py, configuration_mamba.py): MambaBlocks of one RMSNorm and
// a MambaMixer, no attention and no feed-forward block. MambaConfig recomputes intermediate_size as
// int(expand x hidden_size) and time_step_rank "auto" as ceil(hidden_size / 16).
void readMamba(JsonFields& f, ModelConfig& c) {
    c.vocabSize = f.integer("vocab_size", 50280);
    c.hiddenSize = f.integer("hidden_size", 768);
    c.numLayers = f.integer("num_hidden_layers", 32);
    f.consume("intermediate_size"); // recomputed from expand by MambaConfig
    if (const std::optional<std::int64_t> width = expandedWidth(f, c.hiddenSize)) {
        c.mamba1.innerWidth = *width;
    }
    c.mamba1.stateSize = f.integer("state_size", 16);
    c.mamba1.convKernel = f.integer("conv_kernel", 4);
    const std::int64_t hidden = std::max<std::int64_t>(c.hiddenSize, 0);
    const std::int64_t autoRank = hidden / 16 + (hidden % 16 != 0); // ceil, without overflow at 2^63 - 1
    if (f.isText("time_step_rank") && f.peekText("time_step_rank") == "auto") {
        f.consume("time_step_rank");
        c.mamba1.timeStepRank = autoRank;
    } else {
        c.mamba1.timeStepRank = f.integer("time_step_rank", autoRank);
    }
    c.mamba1.convBias = f.flag("use_conv_bias", true);
    c.mamba1.projectionBias = f.flag("use_bias", false);
    readStateSpaceStack(f, c, TokenMixer::Mamba, true);
}

void writeMamba(const ModelConfig& c, json& out) {
    const double expand =
        c.hiddenSize > 0 ? static_cast<double>(c.mamba1.innerWidth) / static_cast<double>(c.hiddenSize) : 0.0;
    requireExpressible(out, isStateSpaceStack(c, TokenMixer::Mamba) &&
                                // MambaConfig reads the width back as int(expand x hidden_size).
                                std::floor(expand * static_cast<double>(c.hiddenSize)) ==
                                    static_cast<double>(c.mamba1.innerWidth));
    writeStateSpaceStack(c, out);
    out["expand"] = expand;
    out["intermediate_size"] = c.mamba1.innerWidth;
    out["state_size"] = c.mamba1.stateSize;
    out["conv_kernel"] = c.mamba1.convKernel;
    out["time_step_rank"] = c.mamba1.timeStepRank;
    out["use_conv_bias"] = c.mamba1.convBias;
    out["use_bias"] = c.mamba1.projectionBias;
}

// Mamba-2 language models (modeling_mamba2.py, configuration_mamba2.py): Mamba2Blocks of one RMSNorm
// and a Mamba2Mixer, no attention and no feed-forward block, tie_word_embeddings false by default.
// The mixer's projections are int(expand x hidden_size) wide while its heads reshape that width as
// num_heads x head_dim: a config where the two differ builds but cannot run, and is refused. The
// gated RMSNorm is always built (rms_norm only names it); use_bias covers in_proj and out_proj.
void readMamba2(JsonFields& f, ModelConfig& c) {
    c.vocabSize = f.integer("vocab_size", 32768);
    c.hiddenSize = f.integer("hidden_size", 4096);
    c.numLayers = f.integer("num_hidden_layers", 64);
    Mamba2Mixer& m = c.mamba;
    m.numHeads = f.integer("num_heads", 128);
    m.headDim = f.integer("head_dim", 64);
    m.stateSize = f.integer("state_size", 128);
    m.numGroups = f.integer("n_groups", 8);
    m.convKernel = f.integer("conv_kernel", 4);
    m.convBias = f.flag("use_conv_bias", true);
    m.inProjBias = f.flag("use_bias", false);
    m.outProjBias = m.inProjBias;
    m.gatedNorm = true;
    f.consume("rms_norm");
    f.consume("time_step_rank"); // Mamba2Mixer keeps it but builds nothing from it
    const Checked heads = m.innerWidth();
    if (const std::optional<std::int64_t> width = expandedWidth(f, c.hiddenSize);
        width && (heads.overflowed() || heads.value() != static_cast<std::uint64_t>(*width))) {
        f.error("num_heads", fmt::format("num_heads x head_dim ({} x {}) must equal int(expand x hidden_size) = {}: "
                                         "Mamba2Mixer reshapes its projections into the heads",
                                         m.numHeads, m.headDim, *width));
    }
    readStateSpaceStack(f, c, TokenMixer::Mamba2, false);
}

void writeMamba2(const ModelConfig& c, json& out) {
    const Mamba2Mixer& m = c.mamba;
    const Checked inner = m.innerWidth();
    const double expand = c.hiddenSize > 0 && !inner.overflowed()
                              ? static_cast<double>(inner.value()) / static_cast<double>(c.hiddenSize)
                              : 0.0;
    requireExpressible(out, isStateSpaceStack(c, TokenMixer::Mamba2) && m.gatedNorm && m.inProjBias == m.outProjBias &&
                                !inner.overflowed() &&
                                // Mamba2Mixer reads the width back as int(expand x hidden_size).
                                std::floor(expand * static_cast<double>(c.hiddenSize)) ==
                                    static_cast<double>(inner.value()));
    writeStateSpaceStack(c, out);
    out["expand"] = expand;
    out["num_heads"] = m.numHeads;
    out["head_dim"] = m.headDim;
    out["state_size"] = m.stateSize;
    out["n_groups"] = m.numGroups;
    out["conv_kernel"] = m.convKernel;
    out["use_conv_bias"] = m.convBias;
    out["use_bias"] = m.inProjBias;
}

void readGranite(JsonFields& f, ModelConfig& c) {
    readLlama(f, c);
}
void writeGranite(const ModelConfig& c, json& out) {
    writeLlama(c, out);
}

} // namespace archplay::core::familyio

namespace archplay::core {

using namespace familyio;

Activation parseActivation(std::string_view name) {
    if (name == "silu" || name == "swish") {
        return Activation::Silu;
    }
    if (name == "gelu" || name == "gelu_python") {
        return Activation::Gelu;
    }
    if (name == "gelu_new" || name == "gelu_pytorch_tanh" || name == "gelu_fast" || name == "gelu_tanh") {
        return Activation::GeluTanh;
    }
    if (name == "relu") {
        return Activation::Relu;
    }
    if (name == "xielu") {
        return Activation::XIelu;
    }
    return Activation::Other;
}

const std::vector<Family>& families() {
    static const std::vector<Family> all = {
        {"llama", readLlama, writeLlama},
        {"mistral", readMistral, writeMistral},
        {"mixtral", readMixtral, writeMixtral},
        {"qwen2", readQwen2, writeQwen2},
        {"qwen2_moe", readQwen2Moe, writeQwen2Moe},
        {"qwen3", readQwen3, writeQwen3},
        {"qwen3_moe", readQwen3Moe, writeQwen3Moe},
        {"gemma", readGemma, writeGemma},
        {"gemma2", readGemma2, writeGemma2},
        {"gemma3_text", readGemma3Text, writeGemma3Text},
        {"phi", readPhi, writePhi},
        {"phi3", readPhi3, writePhi3},
        {"gpt2", readGpt2, writeGpt2},
        {"gptj", readGptj, writeGptj},
        {"gpt_neox", readGptNeox, writeGptNeox},
        {"falcon", readFalcon, writeFalcon},
        {"RefinedWeb", readFalcon, writeFalcon},
        {"RefinedWebModel", readFalcon, writeFalcon},
        {"deepseek_v2", readDeepseekV2, writeDeepseekV2},
        {"deepseek_v3", readDeepseekV3, writeDeepseekV3},
        {"olmo2", readOlmo2, writeOlmo2},
        {"starcoder2", readStarcoder2, writeStarcoder2},
        {"granite", readGranite, writeGranite},
        {"bloom", readBloom, writeBloom},
        {"opt", readOpt, writeOpt},
        {"bert", readBert, writeBert},
        {"t5", readT5, writeT5},
        {"bart", readBart, writeBart},
        {"mbart", readMbart, writeMbart},
        {"mamba", readMamba, writeMamba},
        {"mamba2", readMamba2, writeMamba2},
    };
    static const std::vector<Family> withModern = [] {
        std::vector<Family> result = all;
        const std::vector<Family>& modern = modernFamilies();
        result.insert(result.end(), modern.begin(), modern.end());
        return result;
    }();
    return withModern;
}

const Family* findFamily(std::string_view modelType) {
    const auto& all = families();
    auto it = std::find_if(all.begin(), all.end(), [&](const Family& f) { return f.modelType == modelType; });
    return it == all.end() ? nullptr : &*it;
}

} // namespace archplay::core
