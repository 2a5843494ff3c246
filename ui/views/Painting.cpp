// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/Painting.h"

#include <QPainter>
#include <QPainterPath>

namespace archplay::ui::views {

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
