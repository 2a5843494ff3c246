// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/design/DesignShape.h"

#include "core/io/ConfigJson.h"
#include "core/validate/Validation.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>

namespace archplay::core {
namespace {

/// The family's config as its config.json reader builds it from {"model_type": ...} alone: every
/// convention (q/k norms, router rule, biases) as the family sets it.
const ModelConfig& familyTemplate(DesignFamily family) {
    static const std::array<ModelConfig, 3> templates = [] {
        std::array<ModelConfig, 3> result;
        const std::array<const char*, 3> types = {"llama", "qwen3_moe", "deepseek_v3"};
        for (std::size_t i = 0; i < types.size(); ++i) {
            ImportResult imported = importConfig(nlohmann::json{{"model_type", types[i]}});
            if (imported.config) {
                result[i] = std::move(*imported.config);
            }
        }
        return result;
    }();
    return templates[static_cast<std::size_t>(family)];
}

} // namespace

std::uint64_t DesignRange::size() const {
    if (!values.empty()) {
        return values.size();
    }
    if (step <= 0 || min > max) {
        return 0;
    }
    return static_cast<std::uint64_t>((max - min) / step) + 1;
}

std::vector<std::int64_t> DesignRange::expand() const {
    if (!values.empty()) {
        return values;
    }
    std::vector<std::int64_t> expanded;
    expanded.reserve(size());
    for (std::uint64_t i = 0; i < size(); ++i) {
        expanded.push_back(min + static_cast<std::int64_t>(i) * step);
    }
    return expanded;
}

DesignFamily designFamily(const DesignShape& shape) {
    if (shape.kvLoraRank > 0) {
        return DesignFamily::DeepseekV3;
    }
    return shape.numExperts > 0 ? DesignFamily::Qwen3Moe : DesignFamily::Llama;
}

std::int64_t llamaFfnWidth(std::int64_t hiddenSize, double multiplier, std::int64_t multipleOf) {
    if (hiddenSize <= 0 || hiddenSize > kMaxDimension || multipleOf <= 0 || multipleOf > kMaxDimension ||
        !std::isfinite(multiplier) || multiplier <= 0) {
        return 0;
    }
    // int(2 * (4 * dim) / 3), then int(ffn_dim_multiplier * hidden_dim), as Llama's Python computes it.
    const std::int64_t base = 8 * hiddenSize / 3;
    const double scaled = std::floor(multiplier * static_cast<double>(base));
    if (scaled > static_cast<double>(kMaxDimension)) {
        return 0;
    }
    const std::int64_t width = static_cast<std::int64_t>(scaled);
    const std::int64_t rounded = (width + multipleOf - 1) / multipleOf * multipleOf;
    return rounded > 0 && rounded <= kMaxDimension ? rounded : 0;
}

ModelConfig designConfig(const DesignShape& shape) {
    const DesignFamily family = designFamily(shape);
    ModelConfig config = familyTemplate(family);
    config.vocabSize = shape.vocabSize;
    config.hiddenSize = shape.hiddenSize;
    config.numLayers = shape.layers;
    config.numHeads = shape.numHeads;
    config.numKvHeads = shape.numKvHeads;
    config.headDim = shape.headDim;
    config.intermediateSize = shape.intermediateSize;
    config.maxPositions = shape.maxPositions;
    config.tieWordEmbeddings = shape.tiedEmbeddings;
    if (family == DesignFamily::Llama) {
        return config;
    }
    config.ffnKind = FfnKind::Moe;
    config.moe.numExperts = shape.numExperts;
    config.moe.topK = shape.topK;
    config.moe.expertIntermediateSize = shape.expertIntermediateSize;
    config.moe.numSharedExperts = shape.sharedExperts;
    if (family == DesignFamily::Qwen3Moe) {
        config.moe.firstDenseLayers = 0;
        config.moe.denseLayers.clear();
        for (std::int64_t i = 0; i < shape.denseFirstLayers; ++i) {
            config.moe.denseLayers.push_back(i);
        }
        return config;
    }
    config.moe.firstDenseLayers = shape.denseFirstLayers;
    config.headDim = std::nullopt; // deepseek_v3 has no head_dim: the latent dimensions below
    LatentAttention latent;
    latent.qLoraRank = shape.qLoraRank > 0 ? std::optional<std::int64_t>(shape.qLoraRank) : std::nullopt;
    latent.kvLoraRank = shape.kvLoraRank;
    latent.qkNopeHeadDim = shape.headDim;
    latent.qkRopeHeadDim = shape.headDim / 2;
    latent.vHeadDim = shape.headDim;
    config.latent = latent;
    return config;
}

} // namespace archplay::core
