// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/config/ConfigEdits.h"

#include "core/config/Snapping.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace archplay::core::edits {

namespace {

std::int64_t groupedKvHeads(std::int64_t heads) {
    const std::int64_t limit = std::max<std::int64_t>(2, heads / 4);
    for (std::int64_t d = limit; d > 1; --d) {
        if (d < heads && heads % d == 0) {
            return d;
        }
    }
    return heads;
}

/// The divisor of `heads` below `heads` itself nearest to `kvHeads`, so the heads stay grouped (ties
/// go to fewer KV heads, the smaller cache). A prime count of heads gets one KV head.
std::int64_t nearestGroupedKvHeads(std::int64_t heads, std::int64_t kvHeads) {
    std::int64_t best = 1;
    for (std::int64_t d = 1; d < heads; ++d) {
        if (heads % d == 0 && std::abs(d - kvHeads) < std::abs(best - kvHeads)) {
            best = d;
        }
    }
    return heads > 1 ? best : heads;
}

} // namespace

void setAttentionFamily(ModelConfig& config, AttentionFamily family) {
    if (family != AttentionFamily::MLA) {
        config.latent.reset();
    }
    switch (family) {
    case AttentionFamily::MHA:
        config.numKvHeads = config.numHeads;
        break;
    case AttentionFamily::GQA:
        config.numKvHeads = groupedKvHeads(config.numHeads);
        break;
    case AttentionFamily::MQA:
        config.numKvHeads = 1;
        break;
    case AttentionFamily::MLA:
        if (!config.latent) {
            config.latent = LatentAttention{};
        }
        config.numKvHeads = config.numHeads;
        break;
    }
}

void setHiddenSize(ModelConfig& config, std::int64_t hiddenSize, const EditContext& context) {
    config.hiddenSize = hiddenSize;
    if (context.keepFfnRatio && context.ffnRatio > 0.0) {
        auto width = static_cast<std::int64_t>(std::llround(context.ffnRatio * static_cast<double>(hiddenSize)));
        if (context.snap) {
            width = snapNearest(width, kFfnSnap, {}, multipleOf(kFfnSnap), INT64_MAX);
        }
        config.intermediateSize = std::max<std::int64_t>(1, width);
    }
}

void setHeadDimFollows(ModelConfig& config, bool follows) {
    if (follows) {
        config.headDim.reset();
    } else if (!config.headDim) {
        config.headDim = config.effectiveHeadDim();
    }
}

void setArchitecture(ModelConfig& config, ArchitectureKind kind) {
    config.architecture = kind;
    if (kind == ArchitectureKind::EncoderDecoder) {
        if (config.numEncoderLayers <= 0) {
            config.numEncoderLayers = config.numLayers;
        }
    } else {
        config.numEncoderLayers = 0;
    }
}

void setFfnKind(ModelConfig& config, FfnKind kind) {
    if (kind == FfnKind::Moe && config.ffnKind != FfnKind::Moe) {
        config.moe.expertIntermediateSize = config.intermediateSize;
        config.moe.topK = std::min(config.moe.topK, config.moe.numExperts);
    }
    config.ffnKind = kind;
}

void setNumExperts(ModelConfig& config, std::int64_t experts) {
    config.moe.numExperts = experts;
    config.moe.topK = std::clamp<std::int64_t>(config.moe.topK, 1, std::max<std::int64_t>(1, experts));
}

void setNumHeads(ModelConfig& config, std::int64_t heads) {
    const AttentionFamily family = attentionFamily(config);
    config.numHeads = heads;
    switch (family) {
    case AttentionFamily::MHA:
    case AttentionFamily::MLA:
        config.numKvHeads = heads;
        break;
    case AttentionFamily::MQA:
        config.numKvHeads = 1;
        break;
    case AttentionFamily::GQA:
        if (heads <= 0 || config.numKvHeads <= 0) {
            config.numKvHeads = groupedKvHeads(heads);
        } else if (heads % config.numKvHeads != 0 || config.numKvHeads >= heads) {
            config.numKvHeads = nearestGroupedKvHeads(heads, config.numKvHeads);
        }
        break;
    }
}

double ffnRatio(const ModelConfig& config) {
    return config.hiddenSize > 0 ? double(config.intermediateSize) / double(config.hiddenSize) : 0.0;
}

namespace {

/// Words separated by commas, semicolons or white space, lower-cased.
std::vector<std::string> words(std::string_view text) {
    std::vector<std::string> out;
    std::string word;
    for (const char ch : text) {
        if (ch == ',' || ch == ';' || std::isspace(static_cast<unsigned char>(ch))) {
            if (!word.empty()) {
                out.push_back(std::move(word));
                word.clear();
            }
        } else {
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        }
    }
    if (!word.empty()) {
        out.push_back(std::move(word));
    }
    return out;
}

std::string joined(const std::vector<std::string>& parts, std::string_view separator) {
    std::string out;
    for (const std::string& part : parts) {
        out += (out.empty() ? "" : std::string(separator)) + part;
    }
    return out;
}

struct MixerLetter {
    TokenMixer mixer;
    char letter;
};
constexpr MixerLetter kMixerLetters[] = {
    {TokenMixer::Attention, 'A'}, {TokenMixer::GatedDeltaNet, 'D'}, {TokenMixer::LightningAttention, 'L'},
    {TokenMixer::Mamba2, 'M'},    {TokenMixer::ShortConv, 'C'},     {TokenMixer::AttentionWithMamba2, 'P'},
    {TokenMixer::Mamba, 'S'},
};

} // namespace

std::optional<std::vector<std::int64_t>> parseLayerList(std::string_view text) {
    const std::vector<std::string> listed = words(text);
    std::vector<std::int64_t> layers;
    layers.reserve(listed.size());
    for (const std::string& word : listed) {
        if (word.empty() || word.size() > 18 ||
            !std::all_of(word.begin(), word.end(), [](unsigned char ch) { return std::isdigit(ch) != 0; })) {
            return std::nullopt;
        }
        layers.push_back(std::stoll(word));
    }
    return layers;
}

std::string formatLayerList(const std::vector<std::int64_t>& layers) {
    std::vector<std::string> parts;
    parts.reserve(layers.size());
    for (std::int64_t layer : layers) {
        parts.push_back(std::to_string(layer));
    }
    return joined(parts, ", ");
}

std::optional<std::vector<LayerAttention>> parseLayerTypes(std::string_view text) {
    const std::vector<std::string> listed = words(text);
    std::vector<LayerAttention> layers;
    layers.reserve(listed.size());
    for (const std::string& part : listed) {
        if (part == "s" || part == "l" || part == "sliding" || part == "local" || part == "sliding_attention") {
            layers.push_back(LayerAttention::Sliding);
        } else if (part == "g" || part == "f" || part == "global" || part == "full" || part == "full_attention") {
            layers.push_back(LayerAttention::Global);
        } else if (part == "c" || part == "chunked" || part == "chunked_attention") {
            layers.push_back(LayerAttention::Chunked);
        } else {
            return std::nullopt;
        }
    }
    return layers;
}

std::string formatLayerTypes(const std::vector<LayerAttention>& layers) {
    std::vector<std::string> parts;
    parts.reserve(layers.size());
    for (LayerAttention layer : layers) {
        parts.emplace_back(layer == LayerAttention::Global ? "G" : layer == LayerAttention::Sliding ? "S" : "C");
    }
    return joined(parts, " ");
}

std::optional<std::vector<TokenMixer>> parseMixers(std::string_view text) {
    const std::vector<std::string> listed = words(text);
    std::vector<TokenMixer> mixers;
    mixers.reserve(listed.size());
    for (const std::string& part : listed) {
        const auto it = std::find_if(std::begin(kMixerLetters), std::end(kMixerLetters), [&](const MixerLetter& m) {
            return part == std::string(1, char(std::tolower(m.letter))) || part == toString(m.mixer);
        });
        if (it == std::end(kMixerLetters)) {
            return std::nullopt;
        }
        mixers.push_back(it->mixer);
    }
    return mixers;
}

std::string formatMixers(const std::vector<TokenMixer>& mixers) {
    // The list repeats cyclically, so its shortest period that divides it reads the same: "D D D A".
    std::size_t period = 1;
    while (period < mixers.size() &&
           (mixers.size() % period != 0 ||
            !std::equal(mixers.begin() + std::ptrdiff_t(period), mixers.end(), mixers.begin()))) {
        ++period;
    }
    std::vector<std::string> parts;
    parts.reserve(std::min(period, mixers.size()));
    for (std::size_t i = 0; i < std::min(period, mixers.size()); ++i) {
        for (const MixerLetter& m : kMixerLetters) {
            if (m.mixer == mixers[i]) {
                parts.emplace_back(1, m.letter);
            }
        }
    }
    return joined(parts, " ");
}

} // namespace archplay::core::edits
