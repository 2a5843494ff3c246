// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/KindNames.h"

#include "core/util/Format.h"

#include <QCoreApplication>
#include <QPainter>
#include <QPainterPath>

#include <cmath>

namespace archplay::ui::views {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("archplay::ui::KindNames", text);
}

} // namespace

QString attentionName(const core::LayerPlan& layer) {
    return QString::fromStdString(core::attentionKindName(layer));
}

QString ffnName(const core::ModelConfig& config, core::FfnKind kind) {
    return QString::fromStdString(core::ffnKindName(config, kind));
}

QString kindName(const core::ModelConfig& config, const core::LayerPlan& layer) {
    return QString::fromStdString(core::layerKindName(config, layer));
}

QString layerTitle(const core::Analysis& analysis, std::int64_t planIndex) {
    const auto& layers = analysis.plan.layers;
    if (planIndex < 0 || planIndex >= static_cast<std::int64_t>(layers.size())) {
        return tr("No layer");
    }
    return QString::fromStdString(core::layerTitle(analysis.config, layers[static_cast<std::size_t>(planIndex)]));
}

QString exactCount(std::uint64_t value) {
    return QString::fromStdString(core::withThousands(value));
}

QString shortCount(std::uint64_t value) {
    return QString::fromStdString(core::shortCount(value));
}

QString tokenCount(std::uint64_t tokens) {
    return QString::fromStdString(core::tokenCount(tokens));
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

} // namespace archplay::ui::views
