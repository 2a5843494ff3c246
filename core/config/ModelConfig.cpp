// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/config/ModelConfig.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace archplay::core {

namespace {

/// One empty object shared by every default-constructed config: a config is built often (every
/// edit copies one) and most have nothing to pass through.
const std::shared_ptr<const nlohmann::json>& emptyObject() {
    static const auto empty = std::make_shared<const nlohmann::json>(nlohmann::json::object());
    return empty;
}

} // namespace

Passthrough::Passthrough()
    : m_json(emptyObject()) {}

Passthrough::Passthrough(nlohmann::json json)
    : m_json(std::make_shared<const nlohmann::json>(std::move(json))) {}

bool Passthrough::operator==(const Passthrough& other) const {
    return m_json == other.m_json || *m_json == *other.m_json;
}

std::int64_t ModelConfig::effectiveHeadDim() const {
    if (headDim) {
        return *headDim;
    }
    return numHeads > 0 ? hiddenSize / numHeads : 0;
}

bool ModelConfig::readsHeadDim() const {
    return !latent || hasEncoder() || usesMixer(TokenMixer::LightningAttention);
}

std::int64_t ModelConfig::queryKeyHeadDim() const {
    return latent ? latent->qkNopeHeadDim + latent->qkRopeHeadDim : effectiveHeadDim();
}

TokenMixer ModelConfig::mixerAt(std::int64_t index) const {
    if (mixers.empty() || index < 0) {
        return TokenMixer::Attention;
    }
    return mixers[static_cast<std::size_t>(index) % mixers.size()];
}

bool ModelConfig::hybrid() const {
    return std::any_of(mixers.begin(), mixers.end(), [](TokenMixer m) { return m != TokenMixer::Attention; });
}

bool ModelConfig::hasDenseFfnLayers() const {
    if (ffnKind == FfnKind::None) {
        return false;
    }
    if (ffnKind != FfnKind::Moe) {
        return true;
    }
    if (!moe.moeLayers.empty()) {
        return static_cast<std::int64_t>(moe.moeLayers.size()) < numLayers;
    }
    return moe.firstDenseLayers > 0 || moe.sparseStep > 1 || !moe.denseLayers.empty();
}

bool ModelConfig::hasAttentionLayers() const {
    return mixers.empty() || std::any_of(mixers.begin(), mixers.end(), [](TokenMixer m) { return hasAttention(m); });
}

bool ModelConfig::usesMixer(TokenMixer mixer) const {
    return std::find(mixers.begin(), mixers.end(), mixer) != mixers.end();
}

bool hasAttention(TokenMixer mixer) {
    return mixer == TokenMixer::Attention || mixer == TokenMixer::AttentionWithMamba2;
}

std::string_view toString(TokenMixer mixer) {
    switch (mixer) {
    case TokenMixer::Attention:
        return "attention";
    case TokenMixer::GatedDeltaNet:
        return "gated_deltanet";
    case TokenMixer::LightningAttention:
        return "lightning_attention";
    case TokenMixer::Mamba2:
        return "mamba2";
    case TokenMixer::Mamba:
        return "mamba";
    case TokenMixer::ShortConv:
        return "short_conv";
    case TokenMixer::AttentionWithMamba2:
        return "attention_with_mamba2";
    }
    return {};
}

AttentionFamily attentionFamily(const ModelConfig& config) {
    if (config.latent) {
        return AttentionFamily::MLA;
    }
    if (config.numKvHeads == 1 && config.numHeads > 1) {
        return AttentionFamily::MQA;
    }
    if (config.numKvHeads < config.numHeads) {
        return AttentionFamily::GQA;
    }
    return AttentionFamily::MHA;
}

std::string_view toString(ArchitectureKind kind) {
    switch (kind) {
    case ArchitectureKind::DecoderOnly:
        return "decoder-only";
    case ArchitectureKind::EncoderOnly:
        return "encoder-only";
    case ArchitectureKind::EncoderDecoder:
        return "encoder-decoder";
    }
    return {};
}

std::string_view toString(FfnKind kind) {
    switch (kind) {
    case FfnKind::Mlp:
        return "mlp";
    case FfnKind::Gated:
        return "gated";
    case FfnKind::Moe:
        return "moe";
    case FfnKind::None:
        return "none";
    }
    return {};
}

std::string_view toString(NormKind kind) {
    switch (kind) {
    case NormKind::LayerNorm:
        return "layernorm";
    case NormKind::RmsNorm:
        return "rmsnorm";
    case NormKind::LayerNormNoBias:
        return "layernorm_no_bias";
    case NormKind::NonParametric:
        return "nonparametric";
    }
    return {};
}

std::string_view toString(NormPlacement placement) {
    switch (placement) {
    case NormPlacement::Pre:
        return "pre";
    case NormPlacement::Post:
        return "post";
    case NormPlacement::Sandwich:
        return "sandwich";
    case NormPlacement::ParallelSingle:
        return "parallel-single";
    case NormPlacement::ParallelDouble:
        return "parallel-double";
    case NormPlacement::PostOnly:
        return "post-only";
    }
    return {};
}

std::string_view toString(PositionalKind kind) {
    switch (kind) {
    case PositionalKind::Learned:
        return "learned";
    case PositionalKind::Sinusoidal:
        return "sinusoidal";
    case PositionalKind::Rope:
        return "rope";
    case PositionalKind::Alibi:
        return "alibi";
    case PositionalKind::RelativeBias:
        return "relative";
    case PositionalKind::None:
        return "none";
    }
    return {};
}

std::string_view toString(TensorNaming naming) {
    switch (naming) {
    case TensorNaming::Llama:
        return "llama";
    case TensorNaming::Bert:
        return "bert";
    case TensorNaming::T5:
        return "t5";
    case TensorNaming::Bart:
        return "bart";
    case TensorNaming::Opt:
        return "opt";
    case TensorNaming::Gpt2:
        return "gpt2";
    case TensorNaming::GptJ:
        return "gptj";
    case TensorNaming::GptNeox:
        return "gpt_neox";
    case TensorNaming::Falcon:
        return "falcon";
    case TensorNaming::Bloom:
        return "bloom";
    case TensorNaming::Phi:
        return "phi";
    case TensorNaming::Phi3:
        return "phi3";
    case TensorNaming::Mamba:
        return "mamba";
    case TensorNaming::Starcoder2:
        return "starcoder2";
    case TensorNaming::QwenMoe:
        return "qwen2_moe";
    case TensorNaming::Qwen35:
        return "qwen3_5";
    case TensorNaming::Glm4:
        return "glm4";
    case TensorNaming::Apertus:
        return "apertus";
    case TensorNaming::Hunyuan:
        return "hunyuan_v1_moe";
    case TensorNaming::Ernie45Moe:
        return "ernie4_5_moe";
    case TensorNaming::Llama4:
        return "llama4_text";
    case TensorNaming::GptOss:
        return "gpt_oss";
    case TensorNaming::GraniteHybrid:
        return "granitemoehybrid";
    case TensorNaming::FalconH1:
        return "falcon_h1";
    case TensorNaming::Lfm2:
        return "lfm2";
    }
    return {};
}

std::string_view toString(QkNorm norm) {
    switch (norm) {
    case QkNorm::None:
        return "none";
    case QkNorm::PerHead:
        return "per-head";
    case QkNorm::FullWidth:
        return "full-width";
    case QkNorm::PerHeadLayerNorm:
        return "per-head-layernorm";
    }
    return {};
}

std::string_view toString(LayerAttention attention) {
    switch (attention) {
    case LayerAttention::Global:
        return "full_attention";
    case LayerAttention::Sliding:
        return "sliding_attention";
    case LayerAttention::Chunked:
        return "chunked_attention";
    }
    return {};
}

std::string_view toString(Activation activation) {
    switch (activation) {
    case Activation::Relu:
        return "relu";
    case Activation::Gelu:
        return "gelu";
    case Activation::GeluTanh:
        return "gelu_pytorch_tanh";
    case Activation::Silu:
        return "silu";
    case Activation::XIelu:
        return "xielu";
    case Activation::Other:
        return "other";
    }
    return {};
}

std::string_view toString(AttentionFamily family) {
    switch (family) {
    case AttentionFamily::MHA:
        return "MHA";
    case AttentionFamily::GQA:
        return "GQA";
    case AttentionFamily::MQA:
        return "MQA";
    case AttentionFamily::MLA:
        return "MLA";
    }
    return {};
}

std::string_view toString(SlidingPattern pattern) {
    switch (pattern) {
    case SlidingPattern::None:
        return "none";
    case SlidingPattern::All:
        return "all";
    case SlidingPattern::GlobalEveryN:
        return "global-every-n";
    case SlidingPattern::FromLayer:
        return "from-layer";
    case SlidingPattern::Explicit:
        return "explicit";
    }
    return {};
}

} // namespace archplay::core
