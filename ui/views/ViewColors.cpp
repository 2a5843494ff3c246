// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/ViewColors.h"

#include "ui/theme/Theme.h"

#include <array>
#include <utility>

namespace archplay::ui::views::colors {
namespace {

/// One hue, in its light-theme and dark-theme shades.
QColor pick(const QPalette& palette, QRgb light, QRgb dark) {
    return QColor::fromRgb(theme::isDark(palette) ? dark : light);
}

} // namespace

QColor attention(const core::LayerPlan& layer, const QPalette& palette) {
    if (!layer.attends()) {
        return component(core::Component::Mixer, palette); // linear attention, state space, convolution
    }
    if (layer.latent) {
        return pick(palette, 0x7b4fc4, 0xa888e8);
    }
    if (!layer.causal && layer.attention == core::LayerAttention::Global) {
        return pick(palette, 0x3a5fc8, 0x7e9cf0);
    }
    switch (layer.attention) {
    case core::LayerAttention::Global:
        return pick(palette, 0x2f74c0, 0x5fa2ea);
    case core::LayerAttention::Sliding:
        return pick(palette, 0x1c9a8e, 0x45c7b8);
    case core::LayerAttention::Chunked:
        return pick(palette, 0x5e8f2f, 0x94c25c);
    }
    return pick(palette, 0x2f74c0, 0x5fa2ea);
}

QColor crossAttention(const QPalette& palette) {
    return pick(palette, 0xc0508f, 0xe884bb);
}

QColor kvShare(const core::KvKindShare& share, const QPalette& palette) {
    if (share.cross) {
        return crossAttention(palette);
    }
    core::LayerPlan layer;
    layer.mixer = share.fixedState ? core::TokenMixer::Mamba2 : core::TokenMixer::Attention;
    layer.attention = share.attention;
    layer.latent = share.latent;
    return attention(layer, palette);
}

QColor ffn(core::FfnKind kind, const QPalette& palette) {
    switch (kind) {
    case core::FfnKind::Mlp:
        return pick(palette, 0xd29b1e, 0xe8bd55);
    case core::FfnKind::Gated:
        return pick(palette, 0xe07a28, 0xf3a05a);
    case core::FfnKind::Moe:
        return pick(palette, 0xcc4b37, 0xf07a66);
    case core::FfnKind::None:
        return pick(palette, 0x8a8a8a, 0x9a9a9a); // no block: drawn as an empty slot
    }
    return pick(palette, 0xe07a28, 0xf3a05a);
}

QColor series(const QPalette& palette, int index) {
    // Okabe & Ito (2008), "Color Universal Design"; the dark theme takes each a step lighter.
    static constexpr std::array<std::pair<QRgb, QRgb>, 8> kSeries = {{{0x0072b2, 0x56a8e0},
                                                                      {0xd55e00, 0xf08a40},
                                                                      {0x009e73, 0x3cc79c},
                                                                      {0xcc79a7, 0xe6a3c8},
                                                                      {0xe69f00, 0xf5bf4a},
                                                                      {0x56b4e9, 0x8fd0f5},
                                                                      {0x8a6d00, 0xd0c040},
                                                                      {0x555555, 0xaaaaaa}}};
    const auto& [light, dark] = kSeries[std::size_t(index < 0 ? 0 : index) % kSeries.size()];
    return pick(palette, light, dark);
}

QColor component(core::Component component, const QPalette& palette) {
    switch (component) {
    case core::Component::Embedding:
        return pick(palette, 0x3a9a5b, 0x68c98a);
    case core::Component::Positional:
        return pick(palette, 0x8aa23a, 0xb6cc6a);
    case core::Component::Attention:
        return pick(palette, 0x2f74c0, 0x5fa2ea);
    case core::Component::Norm:
        return pick(palette, 0x8a909a, 0xa6acb6);
    case core::Component::Ffn:
        return pick(palette, 0xe07a28, 0xf3a05a);
    case core::Component::Router:
        return pick(palette, 0xb8870b, 0xdcb343);
    case core::Component::Experts:
        return pick(palette, 0xcc4b37, 0xf07a66);
    case core::Component::SharedExperts:
        return pick(palette, 0x9c5a3c, 0xcf8c6c);
    case core::Component::OutputHead:
        return pick(palette, 0x23968a, 0x4fc4b6);
    case core::Component::Pooler:
        return pick(palette, 0x7d6aa8, 0xa797d4);
    case core::Component::Mixer:
        return pick(palette, 0xb0479a, 0xe07cc8);
    }
    return palette.color(QPalette::Text);
}

QColor dtype(core::DType dtype, const QPalette& palette) {
    switch (core::bitsOf(dtype)) {
    case 32:
        return pick(palette, 0x7d6aa8, 0xa797d4);
    case 16:
        return pick(palette, 0x2f74c0, 0x5fa2ea);
    case 8:
        return pick(palette, 0x1c9a8e, 0x45c7b8);
    default:
        return pick(palette, 0xd29b1e, 0xe8bd55);
    }
}

QColor flops(core::FlopsKind kind, core::Component component, const QPalette& palette) {
    switch (kind) {
    case core::FlopsKind::Weights:
        return colors::component(component, palette);
    case core::FlopsKind::Attention:
        return pick(palette, 0x6a4fc9, 0x9d87ef);
    case core::FlopsKind::State:
        return pick(palette, 0x6f7d2c, 0xa9bb5e); // apart from the mixers' weights
    }
    return palette.color(QPalette::Text);
}

QColor memory(core::MemoryPart part, const QPalette& palette) {
    switch (part) {
    case core::MemoryPart::Weights:
        return weights(palette);
    case core::MemoryPart::KvCache:
        return pick(palette, 0x2f74c0, 0x5fa2ea);
    case core::MemoryPart::Workspace:
        return pick(palette, 0x1c9a8e, 0x45c7b8);
    case core::MemoryPart::Gradients:
        return pick(palette, 0xd29b1e, 0xe8bd55);
    case core::MemoryPart::Optimizer:
        return pick(palette, 0xcc4b37, 0xf07a66);
    case core::MemoryPart::Activations:
        return pick(palette, 0x7d6aa8, 0xa797d4);
    }
    return palette.color(QPalette::Text);
}

QColor weights(const QPalette& palette) {
    return pick(palette, 0x6b7380, 0x8d95a3);
}

QColor textOn(const QColor& fill) {
    // Relative luminance with the sRGB weights; the threshold favours white on mid tones.
    const double luminance = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return luminance > 0.55 ? QColor(0x1d, 0x21, 0x27) : QColor(Qt::white);
}

QColor tone(core::Tone tone, const QPalette& palette) {
    switch (tone) {
    case core::Tone::Good:
        return theme::goodColor(palette);
    case core::Tone::Caution:
        return theme::cautionColor(palette);
    case core::Tone::Bad:
        return theme::severityColor(core::Severity::Error, palette);
    case core::Tone::Normal:
        break;
    }
    return palette.color(QPalette::Text);
}

QColor muted(const QPalette& palette) {
    return theme::mutedText(palette);
}

QColor rule(const QPalette& palette) {
    QColor color = palette.color(QPalette::Text);
    color.setAlpha(theme::isDark(palette) ? 60 : 45);
    return color;
}

QColor panel(const QPalette& palette) {
    return theme::isDark(palette) ? palette.color(QPalette::Base).lighter(118) : palette.color(QPalette::AlternateBase);
}

QColor faded(const QColor& color, double amount, const QPalette& palette) {
    const QColor base = palette.color(QPalette::Base);
    const double keep = 1.0 - amount;
    return QColor::fromRgbF(static_cast<float>(color.redF() * keep + base.redF() * amount),
                            static_cast<float>(color.greenF() * keep + base.greenF() * amount),
                            static_cast<float>(color.blueF() * keep + base.blueF() * amount));
}

} // namespace archplay::ui::views::colors
