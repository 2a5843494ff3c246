// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/config/LayerPlan.h"

#include <algorithm>

namespace archplay::core {
namespace {

LayerAttention scheduledAttention(const ModelConfig& config, std::int64_t index) {
    // Without a per-layer list, a chunk size makes every layer chunked.
    if (config.attentionChunkSize > 0 && config.slidingPattern != SlidingPattern::Explicit) {
        return LayerAttention::Chunked;
    }
    switch (config.slidingPattern) {
    case SlidingPattern::None:
        return LayerAttention::Global;
    case SlidingPattern::All:
        return LayerAttention::Sliding;
    case SlidingPattern::GlobalEveryN:
        return config.globalEvery > 0 && (index + 1) % config.globalEvery == 0 ? LayerAttention::Global
                                                                               : LayerAttention::Sliding;
    case SlidingPattern::FromLayer:
        return index >= config.firstSlidingLayer ? LayerAttention::Sliding : LayerAttention::Global;
    case SlidingPattern::Explicit:
        if (config.layerTypes.empty()) {
            return LayerAttention::Global;
        }
        return config.layerTypes[static_cast<std::size_t>(index) % config.layerTypes.size()];
    }
    return LayerAttention::Global;
}

// Qwen2-MoE / Qwen3-MoE: MoE iff not in mlp_only_layers and (i+1) % decoder_sparse_step == 0;
// DeepSeek: dense for i < first_k_dense_replace (FORMULAS.md §2.5, §2.15).
/// Marks the listed layer indices below `count`, so that each layer is looked up in constant time.
std::vector<bool> marked(const std::vector<std::int64_t>& indices, std::int64_t count) {
    std::vector<bool> result(static_cast<std::size_t>(count), false);
    for (std::int64_t index : indices) {
        if (index >= 0 && index < count) {
            result[static_cast<std::size_t>(index)] = true;
        }
    }
    return result;
}

FfnKind scheduledFfn(const ModelConfig& config, std::int64_t index, const std::vector<bool>& listedMoe,
                     const std::vector<bool>& listedDense) {
    if (config.ffnKind != FfnKind::Moe) {
        return config.ffnKind;
    }
    const MixtureOfExperts& moe = config.moe;
    const auto at = static_cast<std::size_t>(index);
    if (!moe.moeLayers.empty()) {
        return listedMoe[at] ? FfnKind::Moe : FfnKind::Gated;
    }
    const bool dense =
        index < moe.firstDenseLayers || moe.sparseStep <= 0 || (index + 1) % moe.sparseStep != 0 || listedDense[at];
    return dense ? FfnKind::Gated : FfnKind::Moe;
}

} // namespace

bool sameKind(const LayerPlan& a, const LayerPlan& b) {
    return a.stack == b.stack && a.mixer == b.mixer && a.positional == b.positional && a.attention == b.attention &&
           a.latent == b.latent && a.window == b.window && a.causal == b.causal &&
           a.crossAttention == b.crossAttention && a.ffn == b.ffn;
}

std::string_view mixerName(TokenMixer mixer) {
    switch (mixer) {
    case TokenMixer::Attention:
        return "attention";
    case TokenMixer::GatedDeltaNet:
        return "Gated DeltaNet";
    case TokenMixer::LightningAttention:
        return "lightning attention";
    case TokenMixer::Mamba2:
        return "Mamba-2";
    case TokenMixer::Mamba:
        return "Mamba";
    case TokenMixer::ShortConv:
        return "short conv";
    case TokenMixer::AttentionWithMamba2:
        return "attention + Mamba-2";
    }
    return {};
}

std::string attentionKindName(const LayerPlan& layer) {
    std::string name;
    if (!layer.attends()) {
        name = mixerName(layer.mixer);
    } else if (layer.latent) {
        name = "latent (MLA)";
    } else if (layer.attention == LayerAttention::Sliding && layer.window > 0) {
        name = (layer.causal ? "sliding " : "local ") + std::to_string(layer.window);
    } else if (layer.attention == LayerAttention::Chunked && layer.window > 0) {
        name = "chunked " + std::to_string(layer.window);
    } else {
        name = layer.causal ? "global" : "bidirectional";
    }
    if (layer.mixer == TokenMixer::AttentionWithMamba2) {
        name += " + Mamba-2";
    }
    if (layer.attends() && !layer.positional) {
        name += " (NoPE)";
    }
    return name;
}

std::string ffnKindName(const ModelConfig& config, FfnKind kind) {
    switch (kind) {
    case FfnKind::Mlp:
        return "MLP";
    case FfnKind::Gated:
        return "gated";
    case FfnKind::Moe:
        return "MoE " + std::to_string(config.moe.numExperts) + " × top-" + std::to_string(config.moe.topK);
    case FfnKind::None:
        return "no FFN";
    }
    return {};
}

std::string layerKindName(const ModelConfig& config, const LayerPlan& layer) {
    return attentionKindName(layer) + (layer.crossAttention ? " + cross" : "") + " · " + ffnKindName(config, layer.ffn);
}

std::string layerTitle(const ModelConfig& config, const LayerPlan& layer) {
    const bool encoderDecoder = config.architecture == ArchitectureKind::EncoderDecoder;
    const std::int64_t inStack =
        encoderDecoder && layer.stack == Stack::Encoder ? config.numEncoderLayers : config.numLayers;
    const std::string prefix = !encoderDecoder                 ? "Layer"
                               : layer.stack == Stack::Encoder ? "Encoder layer"
                                                               : "Decoder layer";
    // Numbered from 0 like every layer list of config.json and every view ("layers 0–31"), so the
    // range is given instead of a count that would read as numbering from 1.
    return prefix + " " + std::to_string(layer.index) + " of 0–" +
           std::to_string(std::max<std::int64_t>(inStack, 1) - 1);
}

std::vector<LayerRun> ModelPlan::runs() const {
    std::vector<LayerRun> result;
    for (const LayerPlan& layer : layers) {
        if (!result.empty() && sameKind(result.back().kind, layer)) {
            ++result.back().count;
        } else {
            result.push_back({layer, layer.index, 1});
        }
    }
    return result;
}

ModelPlan planLayers(const ModelConfig& config) {
    ModelPlan plan;
    auto addStack = [&](Stack stack, std::int64_t count) {
        // Guard against absurd sizes: validation reports them; the plan stays small.
        if (count <= 0 || count > 100000) {
            return;
        }
        plan.layers.reserve(plan.layers.size() + static_cast<std::size_t>(count));
        const std::vector<bool> listedMoe = marked(config.moe.moeLayers, count);
        const std::vector<bool> listedDense = marked(config.moe.denseLayers, count);
        const std::vector<bool> nope = marked(config.nopeLayers, count);
        for (std::int64_t i = 0; i < count; ++i) {
            LayerPlan layer;
            layer.stack = stack;
            layer.index = i;
            layer.causal = stack == Stack::Decoder;
            layer.crossAttention = stack == Stack::Decoder && config.architecture == ArchitectureKind::EncoderDecoder;
            layer.latent = config.latent.has_value() && stack == Stack::Decoder;
            layer.mixer = stack == Stack::Decoder ? config.mixerAt(i) : TokenMixer::Attention;
            layer.attention = layer.attends() ? scheduledAttention(config, i) : LayerAttention::Global;
            layer.positional = !(config.positional == PositionalKind::Rope && nope[static_cast<std::size_t>(i)]);
            if (!layer.attends()) {
                layer.latent = false;
            }
            if (layer.attention == LayerAttention::Sliding) {
                layer.window = config.slidingWindow;
            } else if (layer.attention == LayerAttention::Chunked) {
                layer.window = config.attentionChunkSize;
            }
            layer.ffn = scheduledFfn(config, i, listedMoe, listedDense);
            plan.layers.push_back(layer);
        }
    };
    switch (config.architecture) {
    case ArchitectureKind::DecoderOnly:
        addStack(Stack::Decoder, config.numLayers);
        break;
    case ArchitectureKind::EncoderOnly:
        addStack(Stack::Encoder, config.numLayers);
        break;
    case ArchitectureKind::EncoderDecoder:
        addStack(Stack::Encoder, config.numEncoderLayers);
        addStack(Stack::Decoder, config.numLayers);
        break;
    }
    return plan;
}

} // namespace archplay::core
