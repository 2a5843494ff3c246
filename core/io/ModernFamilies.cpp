// SPDX-License-Identifier: GPL-3.0-or-later
// config.json readers and writers of the 2025-2026 families. Defaults are those of each family's
// configuration class in huggingface/transformers; tensor layouts follow its modeling file
// (configuration_<type>.py / modeling_<type>.py), as the comments say family by family.
#include "core/config/LayerPlan.h"
#include "core/io/FamilyIo.h"
#include "core/util/Checked.h"
#include "core/validate/Validation.h"

#include <fmt/format.h>

#include <algorithm>

namespace archplay::core::familyio {
namespace {

using nlohmann::json;

/// Hugging Face layer_types that name token mixers as well as attention kinds (hybrid stacks).
/// Fills mixers and, for the attention layers, the attention kinds. An unknown name is an error.
bool readMixerTypes(JsonFields& f, ModelConfig& c, std::string_view key = "layer_types") {
    if (!f.has(key)) {
        f.consume(key);
        return false;
    }
    std::vector<TokenMixer> mixers;
    std::vector<LayerAttention> kinds;
    for (const std::string& name : f.texts(key)) {
        TokenMixer mixer = TokenMixer::Attention;
        LayerAttention kind = LayerAttention::Global;
        if (name == "full_attention" || name == "attention") {
        } else if (name == "sliding_attention") {
            kind = LayerAttention::Sliding;
        } else if (name == "chunked_attention") {
            kind = LayerAttention::Chunked;
        } else if (name == "linear_attention") {
            mixer = c.modelType == "minimax" ? TokenMixer::LightningAttention : TokenMixer::GatedDeltaNet;
        } else if (name == "mamba") {
            mixer = TokenMixer::Mamba2;
        } else if (name == "conv") {
            mixer = TokenMixer::ShortConv;
        } else {
            f.error(std::string(key), fmt::format("{}: unknown layer type '{}'", key, name));
            return false;
        }
        mixers.push_back(mixer);
        kinds.push_back(kind);
    }
    c.mixers = std::move(mixers);
    // Attention layers that are all global keep the family's window pattern (usually none).
    if (std::any_of(kinds.begin(), kinds.end(), [](LayerAttention kind) { return kind != LayerAttention::Global; })) {
        c.layerTypes = std::move(kinds);
        c.slidingPattern = SlidingPattern::Explicit;
    }
    return true;
}

/// Writes mixers and attention kinds back as Hugging Face layer_types.
void writeMixerTypes(const ModelConfig& c, json& out, std::string_view linearName) {
    json list = json::array();
    for (std::int64_t i = 0; i < c.numLayers && i < 100000; ++i) {
        const TokenMixer mixer = c.mixerAt(i);
        if (mixer == TokenMixer::Attention) {
            const LayerAttention kind = c.layerTypes.empty()
                                            ? LayerAttention::Global
                                            : c.layerTypes[static_cast<std::size_t>(i) % c.layerTypes.size()];
            list.push_back(std::string(toString(kind)));
        } else if (mixer == TokenMixer::Mamba2) {
            list.push_back("mamba");
        } else if (mixer == TokenMixer::ShortConv) {
            list.push_back("conv");
        } else {
            list.push_back(std::string(linearName));
        }
    }
    out["layer_types"] = std::move(list);
}

/// Indices i < layers where `pick(i)` holds.
template <typename Pick> std::vector<std::int64_t> layersWhere(std::int64_t layers, Pick pick) {
    std::vector<std::int64_t> result;
    for (std::int64_t i = 0; i < layers && i < 100000; ++i) {
        if (pick(i)) {
            result.push_back(i);
        }
    }
    return result;
}

/// no_rope_layers (Llama 4, SmolLM3): one flag per layer, 1 = the layer uses RoPE. Absent or empty:
/// every `interval`-th layer is NoPE.
void readNoRopeLayers(JsonFields& f, ModelConfig& c, std::int64_t defaultInterval) {
    const std::int64_t interval = f.integer("no_rope_layer_interval", defaultInterval);
    const std::vector<std::int64_t> flags = f.integers("no_rope_layers");
    if (flags.empty()) {
        c.nopeLayers =
            layersWhere(c.numLayers, [&](std::int64_t i) { return interval > 0 && (i + 1) % interval == 0; });
    } else {
        c.nopeLayers = layersWhere(std::min<std::int64_t>(c.numLayers, static_cast<std::int64_t>(flags.size())),
                                   [&](std::int64_t i) { return flags[static_cast<std::size_t>(i)] == 0; });
    }
}

/// One flag per layer (at most 100,000): true for a NoPE layer.
std::vector<bool> nopeFlags(const ModelConfig& c) {
    std::vector<bool> flags(static_cast<std::size_t>(std::clamp<std::int64_t>(c.numLayers, 0, 100000)), false);
    for (std::int64_t index : c.nopeLayers) {
        if (index >= 0 && index < static_cast<std::int64_t>(flags.size())) {
            flags[static_cast<std::size_t>(index)] = true;
        }
    }
    return flags;
}

void writeNoRopeLayers(const ModelConfig& c, json& out) {
    json flags = json::array();
    for (bool none : nopeFlags(c)) {
        flags.push_back(none ? 0 : 1);
    }
    out["no_rope_layers"] = std::move(flags);
    out.erase("no_rope_layer_interval");
}

/// A per-layer list that must hold one value: accepted when uniform, refused otherwise.
std::int64_t uniformInteger(JsonFields& f, std::string_view key, std::int64_t fallback) {
    if (!f.has(key)) {
        f.consume(key);
        return fallback;
    }
    if (!f.isList(key)) {
        return f.integer(key, fallback);
    }
    const std::vector<std::int64_t> values = f.integers(key);
    if (values.empty() || std::adjacent_find(values.begin(), values.end(), std::not_equal_to<>()) != values.end()) {
        f.error(std::string(key), fmt::format("{} differs from layer to layer; archplay cannot count per-layer "
                                              "expert counts exactly yet",
                                              key));
        return fallback;
    }
    return values.front();
}

// ---- gpt-oss (modeling_gpt_oss.py) ----------------------------------------------------------

const Defaults kGptOss{.vocab = 201088,
                       .hidden = 2880,
                       .intermediate = 2880,
                       .layers = 36,
                       .heads = 64,
                       .kvHeads = 8,
                       .headDim = 64,
                       .maxPositions = 131072};

void readGptOss(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kGptOss);
    c.tensorNaming = TensorNaming::GptOss;
    setAttentionBias(c, f.flag("attention_bias", true));
    c.attentionSinks = true; // self_attn.sinks [heads]
    c.slidingWindow = f.nullableInteger("sliding_window", 128).value_or(128);
    if (!readLayerTypes(f, c)) {
        c.slidingPattern = SlidingPattern::Explicit; // sliding, full, sliding, ...
        c.layerTypes = {LayerAttention::Sliding, LayerAttention::Global};
    }
    c.ffnKind = FfnKind::Moe;
    c.moe.numExperts = f.integer("num_local_experts", 128);
    c.moe.topK = f.integer("num_experts_per_tok", 4);
    f.consume("experts_per_token"); // the original key; transformers reads num_experts_per_tok
    c.moe.expertIntermediateSize = c.intermediateSize;
    c.moe.routerBias = true;
    c.moe.expertBias = true; // gate_up_proj_bias [E, 2I], down_proj_bias [E, H]
}

void writeGptOss(const ModelConfig& c, json& out) {
    ModelConfig copy = c;
    copy.intermediateSize = c.moe.expertIntermediateSize;
    writeCommon(copy, out, kGptOss);
    requireExpressible(out, uniformAttentionBias(c) && c.attentionSinks && c.ffnKind == FfnKind::Moe &&
                                c.moe.routerBias && c.moe.expertBias);
    out["attention_bias"] = c.qBias;
    out["sliding_window"] = c.slidingWindow;
    writeLayerTypes(c, out);
    out["num_local_experts"] = c.moe.numExperts;
    out["num_experts_per_tok"] = c.moe.topK;
}

// ---- Llama 4 (modeling_llama4.py, the text model) -------------------------------------------

const Defaults kLlama4{.vocab = 202048,
                       .hidden = 5120,
                       .intermediate = 16384,
                       .layers = 48,
                       .heads = 40,
                       .kvHeads = 8,
                       .headDim = 128,
                       .maxPositions = 4096 * 32};

void readLlama4Text(JsonFields& f, ModelConfig& c) {
    // intermediate_size is the expert (and shared expert) width; intermediate_size_mlp the dense width.
    readCommon(f, c, kLlama4, {.intermediate = "intermediate_size_mlp"});
    c.tensorNaming = TensorNaming::Llama4;
    setAttentionBias(c, f.flag("attention_bias", false));
    f.consume("use_qk_norm"); // an L2 norm without weights
    c.attentionChunkSize = f.integer("attention_chunk_size", 8192);
    readNoRopeLayers(f, c, 4);
    if (!readLayerTypes(f, c)) {
        // RoPE layers are chunked, NoPE layers global.
        c.slidingPattern = SlidingPattern::Explicit;
        c.layerTypes.clear();
        const std::vector<bool> nope = nopeFlags(c);
        for (bool none : nope) {
            c.layerTypes.push_back(none ? LayerAttention::Global : LayerAttention::Chunked);
        }
    }
    c.ffnKind = FfnKind::Moe;
    c.moe.numExperts = f.integer("num_local_experts", 16);
    c.moe.topK = f.integer("num_experts_per_tok", 1);
    c.moe.expertIntermediateSize = f.integer("intermediate_size", 8192);
    c.moe.numSharedExperts = 1;
    c.moe.sharedExpertIntermediateSize = c.moe.expertIntermediateSize;
    // Llama4TextConfig: moe_layers, else every interleave_moe_layer_step-th layer, range(step - 1, n, step).
    // The other layers are dense Llama4TextMLPs of width intermediate_size_mlp.
    const std::int64_t step = f.integer("interleave_moe_layer_step", 1);
    if (f.has("moe_layers")) {
        c.moe.moeLayers = f.integers("moe_layers");
        if (c.moe.moeLayers.empty()) {
            c.moe.denseLayers = layersWhere(c.numLayers, [](std::int64_t) { return true; }); // moe_layers: []
        }
    } else {
        f.consume("moe_layers");
        c.moe.sparseStep = step;
    }
}

void writeLlama4Text(const ModelConfig& c, json& out) {
    writeCommon(c, out, kLlama4, {.intermediate = "intermediate_size_mlp"});
    requireExpressible(out, uniformAttentionBias(c) && c.ffnKind == FfnKind::Moe && c.moe.numSharedExperts == 1 &&
                                c.moe.sharedWidth() == c.moe.expertIntermediateSize);
    out["attention_bias"] = c.qBias;
    out["attention_chunk_size"] = c.attentionChunkSize;
    writeNoRopeLayers(c, out);
    writeLayerTypes(c, out);
    out["num_local_experts"] = c.moe.numExperts;
    out["num_experts_per_tok"] = c.moe.topK;
    out["intermediate_size"] = c.moe.expertIntermediateSize;
    json moeLayers = json::array();
    for (const LayerPlan& layer : planLayers(c).layers) {
        if (layer.ffn == FfnKind::Moe) {
            moeLayers.push_back(layer.index);
        }
    }
    out["moe_layers"] = std::move(moeLayers);
    out.erase("interleave_moe_layer_step");
}

// ---- Seed-OSS, ERNIE 4.5, Hunyuan, SmolLM3 ---------------------------------------------------

const Defaults kSeedOss{.vocab = 155136,
                        .hidden = 4096,
                        .intermediate = 27648,
                        .layers = 64,
                        .heads = 80,
                        .kvHeads = 8,
                        .headDim = 128,
                        .maxPositions = 524288};

void readSeedOss(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kSeedOss);
    c.qBias = c.kBias = c.vBias = f.flag("attention_bias", true);
    c.oBias = f.flag("attention_out_bias", false);
    c.ffnBias = f.flag("mlp_bias", false);
}

void writeSeedOss(const ModelConfig& c, json& out) {
    writeCommon(c, out, kSeedOss);
    requireExpressible(out, c.qBias == c.kBias && c.kBias == c.vBias);
    out["attention_bias"] = c.qBias;
    out["attention_out_bias"] = c.oBias;
    out["mlp_bias"] = c.ffnBias;
}

const Defaults kErnie{.vocab = 103424,
                      .hidden = 1024,
                      .intermediate = 3072,
                      .layers = 18,
                      .heads = 16,
                      .kvHeads = 2,
                      .headDim = 128,
                      .maxPositions = 131072,
                      .tie = true};

void readErnie(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kErnie);
    const bool bias = f.flag("use_bias", false);
    setAttentionBias(c, bias);
    c.ffnBias = bias;
}

void writeErnie(const ModelConfig& c, json& out) {
    writeCommon(c, out, kErnie);
    requireExpressible(out, uniformAttentionBias(c) && c.ffnBias == c.qBias && !c.outputHeadBias);
    out["use_bias"] = c.qBias;
}

const Defaults kErnieMoe{.vocab = 103424,
                         .hidden = 2560,
                         .intermediate = 12288,
                         .layers = 28,
                         .heads = 20,
                         .kvHeads = 4,
                         .maxPositions = 131072,
                         .tie = true};

// Ernie4_5_MoeForCausalLM: layer i is MoE iff start <= i <= end and (i + 1) % interval == 0; the
// shared experts form one MLP of width n_shared x Im; e_score_correction_bias is an nn.Parameter.
// use_bias gives biases to the attention, the dense MLPs, the shared experts and the LM head, not to
// the routed experts (Ernie4_5_MoeExperts has none) nor the router.
void readErnieMoe(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kErnieMoe);
    c.tensorNaming = TensorNaming::Ernie45Moe;
    const bool bias = f.flag("use_bias", false);
    setAttentionBias(c, bias);
    c.ffnBias = bias;
    c.outputHeadBias = bias;
    c.ffnKind = FfnKind::Moe;
    c.moe.numExperts = uniformInteger(f, "moe_num_experts", 64);
    c.moe.topK = f.integer("moe_k", 6);
    c.moe.expertIntermediateSize = f.integer("moe_intermediate_size", 1536);
    c.moe.numSharedExperts = f.integer("moe_num_shared_experts", 2);
    c.moe.correctionBiasParameter = true;
    const std::int64_t start = f.integer("moe_layer_start_index", 1);
    std::int64_t end = f.integer("moe_layer_end_index", -1);
    if (end == -1) {
        end = std::max<std::int64_t>(c.numLayers, 0) - 1; // a negative count is refused by validation
    }
    const std::int64_t interval = f.integer("moe_layer_interval", 1);
    c.moe.moeLayers = layersWhere(
        c.numLayers, [&](std::int64_t i) { return interval > 0 && (i + 1) % interval == 0 && i >= start && i <= end; });
    c.mtpLayers = 0;
    f.consume("num_nextn_predict_layers"); // skipped on load by transformers
}

void writeErnieMoe(const ModelConfig& c, json& out) {
    writeCommon(c, out, kErnieMoe);
    requireExpressible(out, uniformAttentionBias(c) && c.ffnBias == c.qBias && c.outputHeadBias == c.qBias &&
                                c.ffnKind == FfnKind::Moe && c.moe.correctionBiasParameter && !c.moe.expertBias &&
                                !c.moe.routerBias);
    out["use_bias"] = c.qBias;
    out["moe_num_experts"] = c.moe.numExperts;
    out["moe_k"] = c.moe.topK;
    out["moe_intermediate_size"] = c.moe.expertIntermediateSize;
    out["moe_num_shared_experts"] = c.moe.numSharedExperts;
    // Written as an explicit range only when the MoE layers are contiguous from some start.
    const auto& layers = c.moe.moeLayers;
    const bool contiguous =
        !layers.empty() && layers.back() - layers.front() + 1 == static_cast<std::int64_t>(layers.size());
    requireExpressible(out, contiguous);
    if (contiguous) {
        out["moe_layer_start_index"] = layers.front();
        out["moe_layer_end_index"] = layers.back();
        out["moe_layer_interval"] = 1;
    }
}

const Defaults kHunyuan{
    .vocab = 290943, .hidden = 4096, .intermediate = 11008, .layers = 32, .heads = 32, .maxPositions = 2048};

// HunYuan builds query_layernorm and key_layernorm [head_dim] whatever use_qk_norm says.
void readHunyuanCommon(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kHunyuan);
    c.tensorNaming = TensorNaming::Hunyuan;
    setAttentionBias(c, f.flag("attention_bias", false));
    c.qkNorm = QkNorm::PerHead;
    f.consume("use_qk_norm");
}

void readHunyuanDense(JsonFields& f, ModelConfig& c) {
    readHunyuanCommon(f, c);
}

void writeHunyuanDense(const ModelConfig& c, json& out) {
    writeCommon(c, out, kHunyuan);
    requireExpressible(out, uniformAttentionBias(c) && c.qkNorm == QkNorm::PerHead);
    out["attention_bias"] = c.qBias;
}

// Experts and the always-on shared MLP both use intermediate_size.
void readHunyuanMoe(JsonFields& f, ModelConfig& c) {
    readHunyuanCommon(f, c);
    c.ffnKind = FfnKind::Moe;
    c.moe.numExperts = uniformInteger(f, "num_experts", 1);
    c.moe.topK = uniformInteger(f, "moe_topk", 1);
    c.moe.expertIntermediateSize = c.intermediateSize;
    c.moe.numSharedExperts = 1;
    c.moe.sharedExpertIntermediateSize = c.intermediateSize;
    for (std::string_view ignored : {"moe_intermediate_size", "num_shared_expert", "use_mixed_mlp_moe"}) {
        f.consume(ignored); // not read by the transformers modeling code
    }
}

void writeHunyuanMoe(const ModelConfig& c, json& out) {
    writeHunyuanDense(c, out);
    requireExpressible(out, c.ffnKind == FfnKind::Moe && c.moe.expertIntermediateSize == c.intermediateSize &&
                                c.moe.numSharedExperts == 1 && c.moe.sharedWidth() == c.intermediateSize);
    out["num_experts"] = c.moe.numExperts;
    out["moe_topk"] = c.moe.topK;
}

const Defaults kSmolLm3{.vocab = 128256,
                        .hidden = 2048,
                        .intermediate = 11008,
                        .layers = 36,
                        .heads = 16,
                        .kvHeads = 4,
                        .maxPositions = 32768,
                        .tie = true};

// SmolLM3: Llama layers; every 4th layer has no RoPE; with use_sliding_window the NoPE layers slide.
void readSmolLm3(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kSmolLm3);
    setAttentionBias(c, f.flag("attention_bias", false));
    c.ffnBias = f.flag("mlp_bias", false);
    readNoRopeLayers(f, c, 4);
    const bool sliding = f.flag("use_sliding_window", false);
    c.slidingWindow = f.nullableInteger("sliding_window", 4096).value_or(4096);
    if (!readLayerTypes(f, c) && sliding) {
        c.slidingPattern = SlidingPattern::Explicit;
        for (bool none : nopeFlags(c)) {
            c.layerTypes.push_back(none ? LayerAttention::Sliding : LayerAttention::Global);
        }
    }
}

void writeSmolLm3(const ModelConfig& c, json& out) {
    writeCommon(c, out, kSmolLm3);
    requireExpressible(out, uniformAttentionBias(c));
    out["attention_bias"] = c.qBias;
    out["mlp_bias"] = c.ffnBias;
    out["sliding_window"] = c.slidingWindow;
    writeNoRopeLayers(c, out);
    writeLayerTypes(c, out);
}

// ---- Qwen3-Next and Qwen3.5 (modeling_qwen3_next.py, modeling_qwen3_5.py) --------------------

void readGatedDeltaNet(JsonFields& f, ModelConfig& c) {
    c.deltaNet.numKeyHeads = f.integer("linear_num_key_heads", 16);
    c.deltaNet.numValueHeads = f.integer("linear_num_value_heads", 32);
    c.deltaNet.keyHeadDim = f.integer("linear_key_head_dim", 128);
    c.deltaNet.valueHeadDim = f.integer("linear_value_head_dim", 128);
    c.deltaNet.convKernel = f.integer("linear_conv_kernel_dim", 4);
}

void writeGatedDeltaNet(const ModelConfig& c, json& out) {
    out["linear_num_key_heads"] = c.deltaNet.numKeyHeads;
    out["linear_num_value_heads"] = c.deltaNet.numValueHeads;
    out["linear_key_head_dim"] = c.deltaNet.keyHeadDim;
    out["linear_value_head_dim"] = c.deltaNet.valueHeadDim;
    out["linear_conv_kernel_dim"] = c.deltaNet.convKernel;
}

/// Gated attention with per-head QK-norm every full_attention_interval-th layer, Gated DeltaNet
/// elsewhere (unless layer_types says otherwise).
void readQwenHybridStack(JsonFields& f, ModelConfig& c, const Defaults& d) {
    readCommon(f, c, d);
    setAttentionBias(c, f.flag("attention_bias", false));
    c.qkNorm = QkNorm::PerHead;
    c.attentionOutputGate = true; // q_proj [2 x heads x head_dim]: transformers has no switch to drop it
    f.consume("attn_output_gate");
    c.rotaryFraction = f.number("partial_rotary_factor", 0.25);
    readGatedDeltaNet(f, c);
    const std::int64_t interval = f.integer("full_attention_interval", 4);
    if (!readMixerTypes(f, c)) {
        c.mixers.clear();
        for (std::int64_t i = 0; i < c.numLayers && i < 100000; ++i) {
            c.mixers.push_back(interval > 0 && (i + 1) % interval == 0 ? TokenMixer::Attention
                                                                       : TokenMixer::GatedDeltaNet);
        }
    }
    f.consume("use_sliding_window");
}

void writeQwenHybridStack(const ModelConfig& c, json& out, const Defaults& d) {
    writeCommon(c, out, d);
    requireExpressible(out, uniformAttentionBias(c) && c.qkNorm == QkNorm::PerHead && c.attentionOutputGate);
    out["attention_bias"] = c.qBias;
    out["partial_rotary_factor"] = c.rotaryFraction;
    writeGatedDeltaNet(c, out);
    writeMixerTypes(c, out, "linear_attention");
    out.erase("full_attention_interval");
}

const Defaults kQwen3Next{.vocab = 151936,
                          .hidden = 2048,
                          .intermediate = 5632,
                          .layers = 48,
                          .heads = 16,
                          .kvHeads = 2,
                          .headDim = 256,
                          .maxPositions = 32768};

/// Qwen-MoE experts plus the gated shared expert of width shared_expert_intermediate_size.
void writeQwenHybridMoe(const ModelConfig& c, json& out) {
    writeQwenMoe(c, out);
    requireExpressible(out, c.moe.numSharedExperts == 1 && c.moe.sharedExpertGate && c.moe.moeLayers.empty());
    out["shared_expert_intermediate_size"] = c.moe.sharedExpertIntermediateSize;
}

const MixtureOfExperts kQwenHybridExperts{.numExperts = 512,
                                          .topK = 10,
                                          .expertIntermediateSize = 512,
                                          .numSharedExperts = 1,
                                          .sharedExpertIntermediateSize = 512,
                                          .sharedExpertGate = true};

void readQwen3Next(JsonFields& f, ModelConfig& c) {
    readQwenHybridStack(f, c, kQwen3Next);
    c.tensorNaming = TensorNaming::QwenMoe;
    readQwenMoe(f, c, kQwenHybridExperts); // with the gated shared expert
}

void writeQwen3Next(const ModelConfig& c, json& out) {
    writeQwenHybridStack(c, out, kQwen3Next);
    writeQwenHybridMoe(c, out);
}

const Defaults kQwen35Text{.vocab = 248320,
                           .hidden = 4096,
                           .intermediate = 12288,
                           .layers = 32,
                           .heads = 16,
                           .kvHeads = 4,
                           .headDim = 256,
                           .maxPositions = 32768};

void readQwen35Text(JsonFields& f, ModelConfig& c) {
    readQwenHybridStack(f, c, kQwen35Text);
    c.tensorNaming = TensorNaming::Qwen35;
}

void writeQwen35Text(const ModelConfig& c, json& out) {
    writeQwenHybridStack(c, out, kQwen35Text);
    requireExpressible(out, c.ffnKind == FfnKind::Gated);
}

const Defaults kQwen35MoeText{.vocab = 248320,
                              .hidden = 2048,
                              .intermediate = 5632,
                              .layers = 40,
                              .heads = 16,
                              .kvHeads = 2,
                              .headDim = 256,
                              .maxPositions = 32768};

void readQwen35MoeText(JsonFields& f, ModelConfig& c) {
    readQwenHybridStack(f, c, kQwen35MoeText);
    c.tensorNaming = TensorNaming::Qwen35;
    readQwenMoe(f, c, kQwenHybridExperts); // with the gated shared expert
}

void writeQwen35MoeText(const ModelConfig& c, json& out) {
    writeQwenHybridStack(c, out, kQwen35MoeText);
    writeQwenHybridMoe(c, out);
}

// ---- MiniMax (modeling_minimax.py, modeling_minimax_m2.py) ------------------------------------

const Defaults kMiniMax{.vocab = 32000,
                        .hidden = 4096,
                        .intermediate = 14336,
                        .layers = 32,
                        .heads = 32,
                        .kvHeads = 8,
                        .maxPositions = 4096 * 32};

// MiniMax-Text-01: lightning attention except every 8th layer; Mixtral-style experts of width
// intermediate_size. attn_type_list (the original key) reads 0 as lightning, 1 as softmax attention.
void readMiniMax(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kMiniMax);
    readUniformWindow(f, c, std::nullopt);
    if (!readMixerTypes(f, c)) {
        const std::vector<std::int64_t> attnTypes = f.integers("attn_type_list");
        c.mixers.clear();
        for (std::int64_t i = 0; i < c.numLayers && i < 100000; ++i) {
            const bool softmax =
                attnTypes.empty() ? i % 2 == 0 : attnTypes[static_cast<std::size_t>(i) % attnTypes.size()] == 1;
            c.mixers.push_back(softmax ? TokenMixer::Attention : TokenMixer::LightningAttention);
        }
    } else {
        f.consume("attn_type_list");
    }
    c.ffnKind = FfnKind::Moe;
    c.moe.numExperts = f.integer("num_local_experts", 8);
    c.moe.topK = f.integer("num_experts_per_tok", 2);
    c.moe.expertIntermediateSize = c.intermediateSize;
}

void writeMiniMax(const ModelConfig& c, json& out) {
    ModelConfig copy = c;
    copy.intermediateSize = c.moe.expertIntermediateSize;
    writeCommon(copy, out, kMiniMax);
    writeUniformWindow(c, out);
    requireExpressible(out, c.ffnKind == FfnKind::Moe && c.moe.numSharedExperts == 0 && c.moe.moeLayers.empty() &&
                                c.moe.firstDenseLayers == 0 && c.moe.sparseStep == 1 && c.moe.denseLayers.empty());
    writeMixerTypes(c, out, "linear_attention");
    out.erase("attn_type_list");
    out["num_local_experts"] = c.moe.numExperts;
    out["num_experts_per_tok"] = c.moe.topK;
}

const Defaults kMiniMaxM2{.vocab = 200064,
                          .hidden = 3072,
                          .intermediate = 1536,
                          .layers = 62,
                          .heads = 48,
                          .kvHeads = 8,
                          .headDim = 128,
                          .maxPositions = 196608};

// MiniMax-M2: softmax attention everywhere with full-width QK-norm; the expert-score correction
// bias is a buffer.
void readMiniMaxM2(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kMiniMaxM2);
    c.qkNorm = QkNorm::FullWidth;
    for (std::string_view ignored : {"use_qk_norm", "qk_norm_type", "rotary_dim", "attn_type_list", "use_mtp",
                                     "num_mtp_modules", "mtp_transformer_layers", "scoring_func", "use_routing_bias"}) {
        f.consume(ignored); // not read by the transformers modeling code
    }
    readUniformWindow(f, c, std::nullopt);
    c.ffnKind = FfnKind::Moe;
    c.moe.numExperts = f.integer("num_local_experts", 256);
    c.moe.topK = f.integer("num_experts_per_tok", 8);
    c.moe.expertIntermediateSize = c.intermediateSize;
}

void writeMiniMaxM2(const ModelConfig& c, json& out) {
    ModelConfig copy = c;
    copy.intermediateSize = c.moe.expertIntermediateSize;
    writeCommon(copy, out, kMiniMaxM2);
    writeUniformWindow(c, out);
    requireExpressible(out, c.qkNorm == QkNorm::FullWidth && c.ffnKind == FfnKind::Moe && c.moe.numSharedExperts == 0 &&
                                c.moe.moeLayers.empty() && c.moe.firstDenseLayers == 0);
    out["num_local_experts"] = c.moe.numExperts;
    out["num_experts_per_tok"] = c.moe.topK;
}

// ---- LFM2 (modeling_lfm2.py) -----------------------------------------------------------------

const Defaults kLfm2{.vocab = 65536,
                     .hidden = 2560,
                     .intermediate = 12288,
                     .layers = 32,
                     .heads = 32,
                     .kvHeads = 8,
                     .maxPositions = 128000,
                     .tie = true};

// LFM2: short convolutions with attention at the listed layers; per-head QK-norm; block_ff_dim
// overrides intermediate_size and, with block_auto_adjust_ff_dim, is scaled as in Llama.
void readLfm2(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kLfm2);
    c.tensorNaming = TensorNaming::Lfm2;
    c.tieWordEmbeddings = f.flag("tie_embedding", c.tieWordEmbeddings);
    c.qkNorm = QkNorm::PerHead;
    c.shortConv.kernel = f.integer("conv_L_cache", 3);
    c.shortConv.bias = f.flag("conv_bias", false);
    std::int64_t width = f.integer("block_ff_dim", c.intermediateSize);
    if (f.flag("block_auto_adjust_ff_dim", false)) {
        width = width / 3 * 2 + width % 3 * 2 / 3; // 2 * width / 3, without overflow for any width
        const double multiplier = f.number("block_ffn_dim_multiplier", 0.0);
        const std::int64_t multipleOf = f.integer("block_multiple_of", 256);
        if (multiplier > 0.0 && multipleOf > 0) {
            // Clamped just past validation's cap (which then reports it), so the cast and the rounding
            // stay defined for any number config.json holds.
            const double limit = static_cast<double>(kMaxDimension) + 1.0;
            width = static_cast<std::int64_t>(std::clamp(multiplier * static_cast<double>(width), -limit, limit));
            if (width > 0 && multipleOf <= kMaxDimension) {
                width = (width + multipleOf - 1) / multipleOf * multipleOf;
            }
        }
    } else {
        f.consume("block_ffn_dim_multiplier");
        f.consume("block_multiple_of");
    }
    c.intermediateSize = width;
    if (!readMixerTypes(f, c)) {
        // Without full_attn_idxs every layer is attention.
        c.mixers = {TokenMixer::Attention};
        if (f.has("full_attn_idxs")) {
            const std::int64_t layers = std::clamp<std::int64_t>(c.numLayers, 0, 100000);
            c.mixers.assign(static_cast<std::size_t>(layers), TokenMixer::ShortConv);
            for (std::int64_t index : f.integers("full_attn_idxs")) {
                if (index >= 0 && index < layers) {
                    c.mixers[static_cast<std::size_t>(index)] = TokenMixer::Attention;
                }
            }
        }
    } else {
        f.consume("full_attn_idxs");
    }
    for (std::string_view same : {"block_dim", "conv_dim", "conv_dim_out", "num_heads"}) {
        f.consume(same); // copies of hidden_size and num_attention_heads
    }
}

void writeLfm2(const ModelConfig& c, json& out) {
    writeCommon(c, out, kLfm2);
    requireExpressible(out, c.qkNorm == QkNorm::PerHead && !c.qBias && !c.kBias && !c.vBias && !c.oBias);
    out["tie_embedding"] = c.tieWordEmbeddings;
    out["conv_L_cache"] = c.shortConv.kernel;
    out["conv_bias"] = c.shortConv.bias;
    out["block_ff_dim"] = c.intermediateSize;
    out["block_auto_adjust_ff_dim"] = false;
    writeMixerTypes(c, out, "conv");
    out.erase("full_attn_idxs");
}

// ---- Granite 4.0 H and Falcon-H1 (Mamba-2 hybrids) -------------------------------------------

const Defaults kGraniteHybrid{.vocab = 100352,
                              .hidden = 4096,
                              .intermediate = 8192,
                              .layers = 40,
                              .heads = 32,
                              .kvHeads = 8,
                              .maxPositions = 131072};

void readMamba2Fields(JsonFields& f, ModelConfig& c, std::int64_t innerWidth) {
    Mamba2Mixer& m = c.mamba;
    m.numHeads = f.integer("mamba_n_heads", 128);
    m.headDim = f.nullableInteger("mamba_d_head", std::nullopt).value_or(m.numHeads > 0 ? innerWidth / m.numHeads : 0);
    m.stateSize = f.integer("mamba_d_state", 256);
    m.numGroups = f.integer("mamba_n_groups", 1);
    m.convKernel = f.integer("mamba_d_conv", 4);
    m.convBias = f.flag("mamba_conv_bias", true);
    m.inProjBias = f.flag("mamba_proj_bias", false);
}

// GraniteMoeHybrid: Mamba-2 or attention per layer_types, every layer with routed experts of width
// intermediate_size plus an always-on shared MLP of width shared_intermediate_size.
void readGraniteHybrid(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kGraniteHybrid);
    c.tensorNaming = TensorNaming::GraniteHybrid;
    setAttentionBias(c, f.flag("attention_bias", false));
    const std::string positions = f.text("position_embedding_type", "rope");
    c.positional = positions == "nope" ? PositionalKind::None : PositionalKind::Rope;
    if (positions != "nope" && positions != "rope") {
        f.error("position_embedding_type", fmt::format("position_embedding_type '{}' is not rope or nope", positions));
    }
    readMamba2Fields(f, c, saturatingProduct(f.integer("mamba_expand", 2), c.hiddenSize));
    c.mamba.gatedNorm = true;
    c.mamba.outProjBias = c.mamba.inProjBias;
    if (!readMixerTypes(f, c)) {
        c.mixers = {TokenMixer::Mamba2};
    }
    const std::int64_t experts = f.integer("num_local_experts", 8);
    const std::int64_t shared = f.integer("shared_intermediate_size", 1024);
    if (experts > 0) {
        c.ffnKind = FfnKind::Moe;
        c.moe.numExperts = experts;
        c.moe.topK = f.integer("num_experts_per_tok", 2);
        c.moe.expertIntermediateSize = c.intermediateSize;
        c.moe.numSharedExperts = shared > 0 ? 1 : 0;
        c.moe.sharedExpertIntermediateSize = shared;
    } else {
        f.consume("num_experts_per_tok");
        c.ffnKind = FfnKind::Gated; // the shared MLP is the only feed-forward
        c.intermediateSize = shared;
    }
}

void writeGraniteHybrid(const ModelConfig& c, json& out) {
    writeCommon(c, out, kGraniteHybrid);
    requireExpressible(
        out,
        uniformAttentionBias(c) && c.mamba.gatedNorm && c.mamba.inProjBias == c.mamba.outProjBias &&
            !c.mamba.innerWidth().overflowed() &&
            c.mamba.innerWidth().value() % static_cast<std::uint64_t>(std::max<std::int64_t>(c.hiddenSize, 1)) == 0);
    out["attention_bias"] = c.qBias;
    out["position_embedding_type"] = c.positional == PositionalKind::None ? "nope" : "rope";
    out["mamba_n_heads"] = c.mamba.numHeads;
    out["mamba_d_head"] = c.mamba.headDim;
    out["mamba_d_state"] = c.mamba.stateSize;
    out["mamba_n_groups"] = c.mamba.numGroups;
    out["mamba_d_conv"] = c.mamba.convKernel;
    out["mamba_conv_bias"] = c.mamba.convBias;
    out["mamba_proj_bias"] = c.mamba.inProjBias;
    out["mamba_expand"] =
        c.mamba.innerWidth().value() / static_cast<std::uint64_t>(std::max<std::int64_t>(c.hiddenSize, 1));
    writeMixerTypes(c, out, "mamba");
    if (c.ffnKind == FfnKind::Moe) {
        requireExpressible(out, c.moe.expertIntermediateSize == c.intermediateSize && c.moe.numSharedExperts <= 1 &&
                                    c.moe.moeLayers.empty() && c.moe.firstDenseLayers == 0);
        out["num_local_experts"] = c.moe.numExperts;
        out["num_experts_per_tok"] = c.moe.topK;
        out["shared_intermediate_size"] = c.moe.numSharedExperts > 0 ? c.moe.sharedExpertIntermediateSize : 0;
    } else {
        out["num_local_experts"] = 0;
        out["shared_intermediate_size"] = c.intermediateSize;
    }
}

const Defaults kFalconH1{.vocab = 128000,
                         .hidden = 4096,
                         .intermediate = 14336,
                         .layers = 32,
                         .heads = 32,
                         .kvHeads = 8,
                         .maxPositions = 8192};

// Falcon-H1: attention and Mamba-2 side by side in every layer, then a gated MLP. mamba_d_ssm is
// the SSM width (default 1024); mamba_proj_bias covers in_proj, projectors_bias out_proj.
void readFalconH1(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kFalconH1);
    c.tensorNaming = TensorNaming::FalconH1;
    setAttentionBias(c, f.flag("attention_bias", false));
    c.ffnBias = f.flag("mlp_bias", false);
    f.consume("mamba_expand");
    readMamba2Fields(f, c, f.nullableInteger("mamba_d_ssm", 1024).value_or(1024));
    c.mamba.gatedNorm = f.flag("mamba_rms_norm", false);
    c.mamba.outProjBias = f.flag("projectors_bias", false);
    c.mixers = {TokenMixer::AttentionWithMamba2};
}

void writeFalconH1(const ModelConfig& c, json& out) {
    writeCommon(c, out, kFalconH1);
    requireExpressible(out, uniformAttentionBias(c) && c.mixers.size() == 1 &&
                                c.mixers.front() == TokenMixer::AttentionWithMamba2 && c.ffnKind == FfnKind::Gated &&
                                !c.mamba.innerWidth().overflowed());
    out["attention_bias"] = c.qBias;
    out["mlp_bias"] = c.ffnBias;
    out["mamba_n_heads"] = c.mamba.numHeads;
    out["mamba_d_head"] = c.mamba.headDim;
    out["mamba_d_ssm"] = c.mamba.innerWidth().value();
    out["mamba_d_state"] = c.mamba.stateSize;
    out["mamba_n_groups"] = c.mamba.numGroups;
    out["mamba_d_conv"] = c.mamba.convKernel;
    out["mamba_conv_bias"] = c.mamba.convBias;
    out["mamba_proj_bias"] = c.mamba.inProjBias;
    out["projectors_bias"] = c.mamba.outProjBias;
    out["mamba_rms_norm"] = c.mamba.gatedNorm;
}

// ---- DeepSeek-V3 layouts: aliases, V3.2's sparse attention, GLM-5 (modeling_deepseek_v32.py,
// modeling_glm_moe_dsa.py) --------------------------------------------------------------------

const Defaults kDeepseekV3Shape{.vocab = 129280,
                                .hidden = 7168,
                                .intermediate = 18432,
                                .layers = 61,
                                .heads = 128,
                                .kvHeads = 128,
                                .maxPositions = 4096};
const MixtureOfExperts kDeepseekV3Experts{
    .numExperts = 256, .topK = 8, .expertIntermediateSize = 2048, .numSharedExperts = 1, .firstDenseLayers = 3};

void readSparseIndexer(JsonFields& f, ModelConfig& c, const SparseIndexer& d) {
    SparseIndexer ix;
    ix.numHeads = f.integer("index_n_heads", d.numHeads);
    ix.headDim = f.integer("index_head_dim", d.headDim);
    ix.topK = f.integer("index_topk", d.topK);
    c.indexer = ix;
}

void writeSparseIndexer(const ModelConfig& c, json& out) {
    requireExpressible(out, c.indexer.has_value());
    if (c.indexer) {
        out["index_n_heads"] = c.indexer->numHeads;
        out["index_head_dim"] = c.indexer->headDim;
        out["index_topk"] = c.indexer->topK;
    }
}

// kimi_k2: DeepSeek-V3's layout under another model_type (DeepSeek's remote code).
void readDeepseekV3Alias(JsonFields& f, ModelConfig& c) {
    readDeepseekWith(f, c, true, kDeepseekV3Shape, {.qLoraRank = 1536}, kDeepseekV3Experts);
    f.consume("moe_layer_freq");
}

void writeDeepseekV3Alias(const ModelConfig& c, json& out) {
    writeDeepseek(c, out, true);
}

void readDeepseekV32(JsonFields& f, ModelConfig& c) {
    readDeepseekWith(f, c, true, kDeepseekV3Shape, {.qLoraRank = 1536}, kDeepseekV3Experts);
    readSparseIndexer(f, c, {.numHeads = 64, .headDim = 128, .topK = 2048});
    c.forward.latentCachedExpanded = true; // DeepseekV32Attention caches the up-projected K and V
}

void writeDeepseekV32(const ModelConfig& c, json& out) {
    ModelConfig plain = c;
    plain.indexer.reset();
    writeDeepseek(plain, out, true);
    writeSparseIndexer(c, out);
}

// GLM-5: DeepSeek-V3.2's layout with its own defaults. indexer_types "shared" layers reuse another
// layer's indexer, which the transformers code has built two different ways: refused.
void readGlmMoeDsa(JsonFields& f, ModelConfig& c) {
    readDeepseekWith(f, c, true,
                     {.vocab = 154880,
                      .hidden = 6144,
                      .intermediate = 12288,
                      .layers = 78,
                      .heads = 64,
                      .kvHeads = 64,
                      .maxPositions = 202752},
                     {.qLoraRank = 2048, .kvLoraRank = 512, .qkNopeHeadDim = 192, .qkRopeHeadDim = 64, .vHeadDim = 256},
                     kDeepseekV3Experts);
    readSparseIndexer(f, c, {.numHeads = 32, .headDim = 128, .topK = 2048});
    c.forward.latentCachedExpanded = true; // as DeepSeek-V3.2: up-projected K and V
    for (const std::string& type : f.texts("indexer_types")) {
        if (type != "full") {
            f.error("indexer_types", "indexer_types with shared indexers cannot be counted exactly yet (the "
                                     "transformers code has built them two different ways)");
            break;
        }
    }
}

void writeGlmMoeDsa(const ModelConfig& c, json& out) {
    writeDeepseekV32(c, out);
}

// ---- GLM-4 and GLM-4.5 (modeling_glm4.py, modeling_glm4_moe.py) ------------------------------

const Defaults kGlm4{.vocab = 151552,
                     .hidden = 4096,
                     .intermediate = 13696,
                     .layers = 40,
                     .heads = 32,
                     .kvHeads = 2,
                     .headDim = 128,
                     .maxPositions = 131072};

// GLM-4-0414: q/k/v biases (never on o_proj), four RMSNorms per layer, a fused gate_up_proj.
void readGlm4(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kGlm4);
    c.tensorNaming = TensorNaming::Glm4;
    c.qBias = c.kBias = c.vBias = f.flag("attention_bias", true);
    c.normPlacement = NormPlacement::Sandwich;
    c.rotaryFraction = f.number("partial_rotary_factor", 0.5);
}

void writeGlm4(const ModelConfig& c, json& out) {
    writeCommon(c, out, kGlm4);
    requireExpressible(out, c.qBias == c.kBias && c.kBias == c.vBias && !c.oBias &&
                                c.normPlacement == NormPlacement::Sandwich);
    out["attention_bias"] = c.qBias;
    out["partial_rotary_factor"] = c.rotaryFraction;
}

const Defaults kGlm4Moe{.vocab = 151552,
                        .hidden = 4096,
                        .intermediate = 10944,
                        .layers = 46,
                        .heads = 96,
                        .kvHeads = 8,
                        .maxPositions = 131072};

// GLM-4.5: q/k/v biases, optional per-head QK-norm, DeepSeek-style experts after
// first_k_dense_replace dense layers; the correction bias is a buffer; the multi-token-prediction
// layer is stored in the checkpoint but not built by transformers (reported apart).
void readGlm4Moe(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kGlm4Moe);
    c.qBias = c.kBias = c.vBias = f.flag("attention_bias", false);
    c.qkNorm = f.flag("use_qk_norm", false) ? QkNorm::PerHead : QkNorm::None;
    c.rotaryFraction = f.number("partial_rotary_factor", 0.5);
    c.ffnKind = FfnKind::Moe;
    c.moe.numExperts = f.integer("n_routed_experts", 128);
    c.moe.topK = f.integer("num_experts_per_tok", 8);
    c.moe.expertIntermediateSize = f.integer("moe_intermediate_size", 1408);
    c.moe.numSharedExperts = f.integer("n_shared_experts", 1);
    c.moe.firstDenseLayers = f.integer("first_k_dense_replace", 1);
    c.mtpLayers = f.integer("num_nextn_predict_layers", 1);
}

void writeGlm4Moe(const ModelConfig& c, json& out) {
    writeCommon(c, out, kGlm4Moe);
    requireExpressible(out, c.qBias == c.kBias && c.kBias == c.vBias && !c.oBias && c.qkNorm != QkNorm::FullWidth &&
                                c.ffnKind == FfnKind::Moe && c.moe.sharedExpertIntermediateSize == 0 &&
                                c.moe.moeLayers.empty() && c.moe.sparseStep == 1 && c.moe.denseLayers.empty());
    out["attention_bias"] = c.qBias;
    out["use_qk_norm"] = c.qkNorm == QkNorm::PerHead;
    out["partial_rotary_factor"] = c.rotaryFraction;
    out["n_routed_experts"] = c.moe.numExperts;
    out["num_experts_per_tok"] = c.moe.topK;
    out["moe_intermediate_size"] = c.moe.expertIntermediateSize;
    out["n_shared_experts"] = c.moe.numSharedExperts;
    out["first_k_dense_replace"] = c.moe.firstDenseLayers;
    out["num_nextn_predict_layers"] = c.mtpLayers;
}

// ---- dots.llm1 (modeling_dots1.py): Qwen3 attention, DeepSeek-V3 experts ---------------------

const Defaults kDots1{.vocab = 152064,
                      .hidden = 4608,
                      .intermediate = 10944,
                      .layers = 62,
                      .heads = 32,
                      .kvHeads = 32,
                      .maxPositions = 2048};

void readDots1(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kDots1);
    setAttentionBias(c, f.flag("attention_bias", false));
    c.qkNorm = QkNorm::PerHead;
    c.slidingWindow = f.nullableInteger("sliding_window", 4096).value_or(4096);
    f.consume("max_window_layers");
    f.consume("use_sliding_window");
    readLayerTypes(f, c);
    for (std::string_view required : {"n_routed_experts", "num_experts_per_tok", "n_shared_experts"}) {
        if (!f.has(required)) {
            f.error(std::string(required), fmt::format("{} is required: Dots1Config has no default for it", required));
        }
    }
    c.ffnKind = FfnKind::Moe;
    c.moe.numExperts = f.integer("n_routed_experts", 0);
    c.moe.topK = f.integer("num_experts_per_tok", 0);
    c.moe.expertIntermediateSize = f.integer("moe_intermediate_size", 1408);
    c.moe.numSharedExperts = f.integer("n_shared_experts", 0);
    c.moe.firstDenseLayers = f.integer("first_k_dense_replace", 0);
}

void writeDots1(const ModelConfig& c, json& out) {
    writeCommon(c, out, kDots1);
    requireExpressible(out, uniformAttentionBias(c) && c.qkNorm == QkNorm::PerHead && c.ffnKind == FfnKind::Moe &&
                                c.moe.sharedExpertIntermediateSize == 0 && c.moe.moeLayers.empty() &&
                                c.moe.sparseStep == 1 && c.moe.denseLayers.empty());
    out["attention_bias"] = c.qBias;
    out["sliding_window"] = c.slidingWindow;
    writeLayerTypes(c, out);
    out["n_routed_experts"] = c.moe.numExperts;
    out["num_experts_per_tok"] = c.moe.topK;
    out["moe_intermediate_size"] = c.moe.expertIntermediateSize;
    out["n_shared_experts"] = c.moe.numSharedExperts;
    out["first_k_dense_replace"] = c.moe.firstDenseLayers;
}

// ---- Command A (modeling_cohere2.py) ---------------------------------------------------------

const Defaults kCohere2{.vocab = 256000,
                        .hidden = 8192,
                        .intermediate = 22528,
                        .layers = 40,
                        .heads = 64,
                        .maxPositions = 8192,
                        .tie = true};

// Cohere2: one bias-free LayerNorm per layer before parallel attention and MLP; head_dim as the
// config gives it (Cohere2Config.head_dim, hidden / heads when absent); layer i slides unless
// (i + 1) % sliding_window_pattern == 0.
void readCohere2(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kCohere2);
    setAttentionBias(c, f.flag("attention_bias", false));
    c.normKind = NormKind::LayerNormNoBias;
    c.normPlacement = NormPlacement::ParallelSingle;
    for (std::string_view unread : {"order_of_interleaved_layers", "position_embedding_type", "rotary_pct"}) {
        f.consume(unread); // not read by the transformers modeling code
    }
    c.slidingWindow = f.nullableInteger("sliding_window", 4096).value_or(4096);
    c.globalEvery = f.integer("sliding_window_pattern", 4);
    c.slidingPattern = SlidingPattern::GlobalEveryN;
    readLayerTypes(f, c);
}

void writeCohere2(const ModelConfig& c, json& out) {
    writeCommon(c, out, kCohere2);
    requireExpressible(
        out, uniformAttentionBias(c) && c.normKind == NormKind::LayerNormNoBias &&
                 c.normPlacement == NormPlacement::ParallelSingle &&
                 (c.slidingPattern == SlidingPattern::GlobalEveryN || c.slidingPattern == SlidingPattern::Explicit));
    out["attention_bias"] = c.qBias;
    out["sliding_window"] = c.slidingWindow;
    out["sliding_window_pattern"] = c.globalEvery;
    writeLayerTypes(c, out);
}

// ---- OLMo 3, Apertus, EXAONE 4 ---------------------------------------------------------------

const Defaults kOlmo3{
    .vocab = 50304, .hidden = 4096, .intermediate = 11008, .layers = 32, .heads = 32, .maxPositions = 2048};

// OLMo 3: OLMo 2's post-norm layers with full-width QK-norm, three sliding layers to one global.
void readOlmo3(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kOlmo3, {.headDim = ""});
    setAttentionBias(c, f.flag("attention_bias", false));
    c.qkNorm = QkNorm::FullWidth;
    c.normPlacement = NormPlacement::PostOnly;
    c.slidingWindow = f.nullableInteger("sliding_window", 4096).value_or(4096);
    c.globalEvery = 4;
    c.slidingPattern = SlidingPattern::GlobalEveryN;
    readLayerTypes(f, c);
}

void writeOlmo3(const ModelConfig& c, json& out) {
    writeCommon(c, out, kOlmo3, {.headDim = ""});
    requireExpressible(out, uniformAttentionBias(c) && c.qkNorm == QkNorm::FullWidth &&
                                c.normPlacement == NormPlacement::PostOnly && !c.headDim &&
                                (c.slidingPattern == SlidingPattern::Explicit ||
                                 (c.slidingPattern == SlidingPattern::GlobalEveryN && c.globalEvery == 4)));
    out["attention_bias"] = c.qBias;
    out["sliding_window"] = c.slidingWindow;
    writeLayerTypes(c, out);
}

const Defaults kApertus{.vocab = 131072,
                        .hidden = 4096,
                        .intermediate = 14336,
                        .layers = 32,
                        .heads = 32,
                        .maxPositions = 65536,
                        .activation = Activation::XIelu};

// Apertus: per-head QK-norm always, a bias-free up/down MLP with xIELU (alpha_p, alpha_n trainable).
void readApertus(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kApertus);
    c.tensorNaming = TensorNaming::Apertus;
    setAttentionBias(c, f.flag("attention_bias", false));
    c.qkNorm = QkNorm::PerHead;
    c.ffnKind = FfnKind::Mlp;
    for (std::string_view unread : {"qk_norm", "post_norm", "mlp_bias"}) {
        f.consume(unread); // not read by the transformers modeling code
    }
}

void writeApertus(const ModelConfig& c, json& out) {
    writeCommon(c, out, kApertus);
    requireExpressible(out, uniformAttentionBias(c) && c.qkNorm == QkNorm::PerHead && c.ffnKind == FfnKind::Mlp &&
                                !c.ffnBias);
    out["attention_bias"] = c.qBias;
}

const Defaults kExaone4{.vocab = 102400,
                        .hidden = 4096,
                        .intermediate = 16384,
                        .layers = 32,
                        .heads = 32,
                        .kvHeads = 32,
                        .maxPositions = 2048};

// EXAONE 4: per-head QK-norm, norms after attention and MLP only, three sliding layers to one
// global. sliding_window_pattern may be an integer or a string such as "LLLG".
void readExaone4(JsonFields& f, ModelConfig& c) {
    readCommon(f, c, kExaone4);
    c.qkNorm = QkNorm::PerHead;
    c.normPlacement = NormPlacement::PostOnly;
    const std::optional<std::int64_t> window = f.nullableInteger("sliding_window", 4096);
    c.slidingWindow = window.value_or(4096);
    if (readLayerTypes(f, c)) {
        f.consume("sliding_window_pattern");
        return;
    }
    if (!window) {
        c.slidingPattern = SlidingPattern::None;
        f.consume("sliding_window_pattern");
        return;
    }
    c.slidingPattern = SlidingPattern::GlobalEveryN;
    if (f.isText("sliding_window_pattern")) {
        const std::string pattern = f.text("sliding_window_pattern", "");
        c.slidingPattern = SlidingPattern::Explicit;
        for (char letter : pattern) {
            if (letter != 'L' && letter != 'G') {
                f.error("sliding_window_pattern",
                        fmt::format("sliding_window_pattern '{}' may hold only L (local) and G (global)", pattern));
                return;
            }
            c.layerTypes.push_back(letter == 'L' ? LayerAttention::Sliding : LayerAttention::Global);
        }
    } else {
        c.globalEvery = f.integer("sliding_window_pattern", 4);
    }
}

void writeExaone4(const ModelConfig& c, json& out) {
    writeCommon(c, out, kExaone4);
    requireExpressible(out, !c.qBias && !c.kBias && !c.vBias && !c.oBias && c.qkNorm == QkNorm::PerHead &&
                                c.normPlacement == NormPlacement::PostOnly);
    if (c.slidingPattern == SlidingPattern::None) {
        out["sliding_window"] = nullptr;
    } else {
        out["sliding_window"] = c.slidingWindow;
    }
    if (c.slidingPattern == SlidingPattern::GlobalEveryN) {
        out["sliding_window_pattern"] = c.globalEvery;
    }
    writeLayerTypes(c, out);
}

} // namespace

const std::vector<Family>& modernFamilies() {
    static const std::vector<Family> all = {
        {"gpt_oss", readGptOss, writeGptOss},
        {"llama4_text", readLlama4Text, writeLlama4Text},
        {"seed_oss", readSeedOss, writeSeedOss},
        {"ernie4_5", readErnie, writeErnie},
        {"ernie4_5_moe", readErnieMoe, writeErnieMoe},
        {"hunyuan_v1_dense", readHunyuanDense, writeHunyuanDense},
        {"hunyuan_v1_moe", readHunyuanMoe, writeHunyuanMoe},
        {"smollm3", readSmolLm3, writeSmolLm3},
        {"qwen3_next", readQwen3Next, writeQwen3Next},
        {"qwen3_5_text", readQwen35Text, writeQwen35Text},
        {"qwen3_5_moe_text", readQwen35MoeText, writeQwen35MoeText},
        {"minimax", readMiniMax, writeMiniMax},
        {"minimax_m2", readMiniMaxM2, writeMiniMaxM2},
        {"lfm2", readLfm2, writeLfm2},
        {"granitemoehybrid", readGraniteHybrid, writeGraniteHybrid},
        {"falcon_h1", readFalconH1, writeFalconH1},
        {"kimi_k2", readDeepseekV3Alias, writeDeepseekV3Alias},
        {"deepseek_v32", readDeepseekV32, writeDeepseekV32},
        {"glm_moe_dsa", readGlmMoeDsa, writeGlmMoeDsa},
        {"glm4", readGlm4, writeGlm4},
        {"glm4_moe", readGlm4Moe, writeGlm4Moe},
        {"dots1", readDots1, writeDots1},
        {"cohere2", readCohere2, writeCohere2},
        {"olmo3", readOlmo3, writeOlmo3},
        {"apertus", readApertus, writeApertus},
        {"exaone4", readExaone4, writeExaone4},
    };
    return all;
}

} // namespace archplay::core::familyio
