// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/KindNames.h"

#include "util/Format.h"

#include <QCoreApplication>
#include <QPainter>
#include <QPainterPath>

#include <cmath>

namespace archplay::ui {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("archplay::ui::KindNames", text);
}

} // namespace

QString attentionName(const core::LayerPlan& layer) {
    if (!layer.attends()) {
        return QString::fromUtf8(core::mixerName(layer.mixer).data(),
                                 static_cast<qsizetype>(core::mixerName(layer.mixer).size()));
    }
    if (layer.mixer == core::TokenMixer::AttentionWithMamba2) {
        core::LayerPlan attentionOnly = layer;
        attentionOnly.mixer = core::TokenMixer::Attention;
        return attentionName(attentionOnly) + tr(" + Mamba-2");
    }
    if (layer.latent) {
        return tr("latent (MLA)");
    }
    if (layer.attention == core::LayerAttention::Sliding && layer.window > 0) {
        return (layer.causal ? tr("sliding %1") : tr("local %1")).arg(layer.window);
    }
    if (layer.attention == core::LayerAttention::Chunked && layer.window > 0) {
        return tr("chunked %1").arg(layer.window);
    }
    return layer.causal ? tr("global") : tr("bidirectional");
}

QString ffnName(const core::ModelConfig& config, core::FfnKind kind) {
    switch (kind) {
    case core::FfnKind::Mlp:
        return tr("MLP");
    case core::FfnKind::Gated:
        return tr("gated");
    case core::FfnKind::Moe:
        return tr("MoE %1 × top-%2").arg(config.moe.numExperts).arg(config.moe.topK);
    }
    return {};
}

QString kindName(const core::ModelConfig& config, const core::LayerPlan& layer) {
    QString name = attentionName(layer);
    if (layer.crossAttention) {
        name += tr(" + cross");
    }
    return name + QStringLiteral(" · ") + ffnName(config, layer.ffn);
}

QString layerTitle(const core::Analysis& analysis, std::int64_t planIndex) {
    const auto& layers = analysis.plan.layers;
    if (planIndex < 0 || planIndex >= static_cast<std::int64_t>(layers.size())) {
        return tr("No layer");
    }
    const core::LayerPlan& layer = layers[static_cast<std::size_t>(planIndex)];
    std::int64_t inStack = 0;
    for (const core::LayerPlan& other : layers) {
        inStack += other.stack == layer.stack ? 1 : 0;
    }
    if (analysis.config.architecture == core::ArchitectureKind::EncoderDecoder) {
        return (layer.stack == core::Stack::Encoder ? tr("Encoder layer %1 of %2") : tr("Decoder layer %1 of %2"))
            .arg(layer.index)
            .arg(inStack);
    }
    return tr("Layer %1 of %2").arg(layer.index).arg(inStack);
}

QString exactCount(std::uint64_t value) {
    return QString::fromStdString(core::withThousands(value));
}

QString shortCount(std::uint64_t value) {
    return QString::fromStdString(core::shortCount(value));
}

QString bytesText(std::uint64_t bytes) {
    return QString::fromStdString(core::binaryBytes(bytes));
}

QString percentText(std::uint64_t part, std::uint64_t whole) {
    // Two digits below 1%, where one would round small shares away.
    const double share = core::fractionOf(part, whole);
    return QString::fromStdString(core::percentText(share, share < 0.01 ? 2 : 1));
}

void drawArrowHead(QPainter& painter, const QLineF& line, qreal size) {
    if (line.length() <= 0) {
        return;
    }
    const QPointF tip = line.p2();
    const QPointF direction = (line.p2() - line.p1()) / line.length();
    const QPointF normal(-direction.y(), direction.x());
    QPainterPath head;
    head.moveTo(tip);
    head.lineTo(tip - direction * size + normal * size * 0.5);
    head.lineTo(tip - direction * size - normal * size * 0.5);
    head.closeSubpath();
    painter.fillPath(head, painter.pen().color());
}

} // namespace archplay::ui
