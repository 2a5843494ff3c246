// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/ConfigEdits.h"

#include "ui/ConfigFields.h"

#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace archplay::ui::edits {

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

} // namespace

void setAttentionFamily(core::ModelConfig& config, core::AttentionFamily family) {
    if (family != core::AttentionFamily::MLA) {
        config.latent.reset();
    }
    switch (family) {
    case core::AttentionFamily::MHA:
        config.numKvHeads = config.numHeads;
        break;
    case core::AttentionFamily::GQA:
        config.numKvHeads = groupedKvHeads(config.numHeads);
        break;
    case core::AttentionFamily::MQA:
        config.numKvHeads = 1;
        break;
    case core::AttentionFamily::MLA:
        if (!config.latent) {
            config.latent = core::LatentAttention{};
        }
        config.numKvHeads = config.numHeads;
        break;
    }
}

void setHiddenSize(core::ModelConfig& config, std::int64_t hiddenSize, const EditContext& context) {
    config.hiddenSize = hiddenSize;
    if (context.keepFfnRatio && context.ffnRatio > 0.0) {
        auto width = static_cast<std::int64_t>(std::llround(context.ffnRatio * static_cast<double>(hiddenSize)));
        if (context.snap) {
            width = std::max<std::int64_t>(128, (width + 64) / 128 * 128);
        }
        config.intermediateSize = std::max<std::int64_t>(1, width);
    }
}

void setHeadDimFollows(core::ModelConfig& config, bool follows) {
    if (follows) {
        config.headDim.reset();
    } else if (!config.headDim) {
        config.headDim = config.effectiveHeadDim();
    }
}

void setArchitecture(core::ModelConfig& config, core::ArchitectureKind kind) {
    config.architecture = kind;
    if (kind == core::ArchitectureKind::EncoderDecoder) {
        if (config.numEncoderLayers <= 0) {
            config.numEncoderLayers = config.numLayers;
        }
    } else {
        config.numEncoderLayers = 0;
    }
}

void setFfnKind(core::ModelConfig& config, core::FfnKind kind) {
    if (kind == core::FfnKind::Moe && config.ffnKind != core::FfnKind::Moe) {
        config.moe.expertIntermediateSize = config.intermediateSize;
        config.moe.topK = std::min(config.moe.topK, config.moe.numExperts);
    }
    config.ffnKind = kind;
}

void setNumExperts(core::ModelConfig& config, std::int64_t experts) {
    config.moe.numExperts = experts;
    config.moe.topK = std::clamp<std::int64_t>(config.moe.topK, 1, std::max<std::int64_t>(1, experts));
}

void setNumHeads(core::ModelConfig& config, std::int64_t heads) {
    const core::AttentionFamily family = core::attentionFamily(config);
    config.numHeads = heads;
    switch (family) {
    case core::AttentionFamily::MHA:
    case core::AttentionFamily::MLA:
        config.numKvHeads = heads;
        break;
    case core::AttentionFamily::MQA:
        config.numKvHeads = 1;
        break;
    case core::AttentionFamily::GQA:
        if (heads <= 0 || config.numKvHeads <= 0 || heads % config.numKvHeads != 0) {
            config.numKvHeads = groupedKvHeads(heads);
        }
        break;
    }
}

std::optional<std::vector<std::int64_t>> parseLayerList(const QString& text) {
    std::vector<std::int64_t> layers;
    const QStringList parts = text.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    for (const QString& part : parts) {
        bool ok = false;
        const qlonglong value = part.toLongLong(&ok);
        if (!ok || value < 0) {
            return std::nullopt;
        }
        layers.push_back(value);
    }
    return layers;
}

QString formatLayerList(const std::vector<std::int64_t>& layers) {
    QStringList parts;
    for (std::int64_t layer : layers) {
        parts << QString::number(layer);
    }
    return parts.join(QStringLiteral(", "));
}

std::optional<std::vector<core::LayerAttention>> parseLayerTypes(const QString& text) {
    std::vector<core::LayerAttention> layers;
    const QStringList parts = text.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    for (const QString& raw : parts) {
        const QString part = raw.toLower();
        if (part == QLatin1String("s") || part == QLatin1String("l") || part == QLatin1String("sliding") ||
            part == QLatin1String("local") || part == QLatin1String("sliding_attention")) {
            layers.push_back(core::LayerAttention::Sliding);
        } else if (part == QLatin1String("g") || part == QLatin1String("f") || part == QLatin1String("global") ||
                   part == QLatin1String("full") || part == QLatin1String("full_attention")) {
            layers.push_back(core::LayerAttention::Global);
        } else if (part == QLatin1String("c") || part == QLatin1String("chunked") ||
                   part == QLatin1String("chunked_attention")) {
            layers.push_back(core::LayerAttention::Chunked);
        } else {
            return std::nullopt;
        }
    }
    return layers;
}

QString formatLayerTypes(const std::vector<core::LayerAttention>& layers) {
    QStringList parts;
    for (core::LayerAttention layer : layers) {
        switch (layer) {
        case core::LayerAttention::Global:
            parts << QStringLiteral("G");
            break;
        case core::LayerAttention::Sliding:
            parts << QStringLiteral("S");
            break;
        case core::LayerAttention::Chunked:
            parts << QStringLiteral("C");
            break;
        }
    }
    return parts.join(QLatin1Char(' '));
}

namespace {

struct MixerLetter {
    core::TokenMixer mixer;
    QLatin1Char letter;
};
constexpr MixerLetter kMixerLetters[] = {
    {core::TokenMixer::Attention, QLatin1Char('A')},          {core::TokenMixer::GatedDeltaNet, QLatin1Char('D')},
    {core::TokenMixer::LightningAttention, QLatin1Char('L')}, {core::TokenMixer::Mamba2, QLatin1Char('M')},
    {core::TokenMixer::ShortConv, QLatin1Char('C')},          {core::TokenMixer::AttentionWithMamba2, QLatin1Char('P')},
};

} // namespace

std::optional<std::vector<core::TokenMixer>> parseMixers(const QString& text) {
    std::vector<core::TokenMixer> mixers;
    const QStringList parts = text.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    for (const QString& part : parts) {
        const auto it = std::find_if(std::begin(kMixerLetters), std::end(kMixerLetters), [&](const MixerLetter& m) {
            const std::string_view name = core::toString(m.mixer);
            return part.compare(QString(m.letter), Qt::CaseInsensitive) == 0 ||
                   part.compare(QLatin1String(name.data(), qsizetype(name.size())), Qt::CaseInsensitive) == 0;
        });
        if (it == std::end(kMixerLetters)) {
            return std::nullopt;
        }
        mixers.push_back(it->mixer);
    }
    return mixers;
}

QString formatMixers(const std::vector<core::TokenMixer>& mixers) {
    // The list repeats cyclically, so its shortest period that divides it reads the same: "D D D A".
    std::size_t period = 1;
    while (period < mixers.size() &&
           (mixers.size() % period != 0 ||
            !std::equal(mixers.begin() + std::ptrdiff_t(period), mixers.end(), mixers.begin()))) {
        ++period;
    }
    QStringList parts;
    for (core::TokenMixer mixer :
         std::vector(mixers.begin(), mixers.begin() + std::ptrdiff_t(std::min(period, mixers.size())))) {
        for (const MixerLetter& m : kMixerLetters) {
            if (m.mixer == mixer) {
                parts << QString(m.letter);
            }
        }
    }
    return parts.join(QLatin1Char(' '));
}

} // namespace archplay::ui::edits
