// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/design/StacksStrip.h"

#include "ui/Strings.h"
#include "ui/views/ViewColors.h"

#include <QPainter>

#include <algorithm>

namespace archplay::ui::design {

namespace {

/// Draws the first of `forms` (longest first) that fits `box` wrapped, or none: never a cut text.
void drawFitting(QPainter& painter, const QRectF& box, const QStringList& forms) {
    constexpr int flags = Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap;
    for (const QString& text : forms) {
        const QRectF needed = painter.fontMetrics().boundingRect(box.toRect(), flags, text);
        if (needed.height() <= box.height() + 0.5 && needed.width() <= box.width() + 0.5) {
            painter.drawText(box, flags, text);
            return;
        }
    }
}

} // namespace

StacksStrip::StacksStrip(QWidget* parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("design.compare.stacks.strip"));
    setMinimumHeight(160);
}

void StacksStrip::setComparison(const core::Comparison* comparison) {
    m_comparison = comparison;
    update();
}

QSize StacksStrip::sizeHint() const {
    return {480, 260};
}

void StacksStrip::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QPalette pal = palette();
    painter.fillRect(rect(), pal.color(QPalette::Base));
    if (!m_comparison || m_comparison->columns.empty()) {
        return;
    }
    const auto& columns = m_comparison->columns;
    std::int64_t most = 1;
    for (const core::CompareColumn& column : columns) {
        most = std::max(most, column.stack.layerCount);
    }
    const QFontMetricsF metrics(font());
    const qreal line = metrics.height();
    const qreal width = qreal(this->width()) / qreal(columns.size());
    const QRectF area = QRectF(rect()).adjusted(0, 6 + 2 * line, 0, -6 - 2 * line);
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const core::CompareColumn& column = columns[i];
        const QRectF cell(width * qreal(i), 0, width, height());
        painter.setPen(pal.color(QPalette::Text));
        drawFitting(painter, QRectF(cell.left() + 4, 4, cell.width() - 8, 2 * line), {qs(column.name)});
        if (!column.valid || column.stack.layerCount <= 0) {
            painter.setPen(views::colors::muted(pal));
            painter.drawText(QRectF(cell.left() + 4, area.top(), cell.width() - 8, area.height()),
                             Qt::AlignCenter | Qt::TextWordWrap, tr("no stack: the config has errors"));
            continue;
        }
        // Deeper stacks are taller: the deepest fills the height, one layer is at least a pixel.
        const qreal barHeight = area.height() * qreal(column.stack.layerCount) / qreal(most);
        const qreal barWidth = std::min<qreal>(cell.width() * 0.5, 120);
        const QRectF bar(cell.center().x() - barWidth / 2, area.bottom() - barHeight, barWidth, barHeight);
        const qreal perLayer = barHeight / qreal(column.stack.layerCount);
        std::int64_t before = 0; // encoder layers first, from the top, as the stack reads
        for (const core::CompareLayerRun& run : column.stack.runs) {
            const QRectF band(bar.left(), bar.top() + perLayer * qreal(before), bar.width(),
                              std::max<qreal>(1, perLayer * qreal(run.run.count)));
            const QRectF mixer(band.left(), band.top(), band.width() / 2, band.height());
            const QRectF ffn(band.center().x(), band.top(), band.width() / 2, band.height());
            painter.fillRect(mixer, views::colors::attention(run.run.kind, pal));
            painter.fillRect(ffn, views::colors::ffn(run.run.kind.ffn, pal));
            before += run.run.count;
        }
        painter.setPen(QPen(views::colors::rule(pal), 1));
        painter.drawRect(bar);
        painter.setPen(pal.color(QPalette::Text));
        drawFitting(painter, QRectF(cell.left() + 4, area.bottom() + 4, cell.width() - 8, 2 * line),
                    {tr("%1 layers · %2").arg(column.stack.layerCount).arg(qs(column.stack.kindsLabel)),
                     tr("%1 layers").arg(column.stack.layerCount)});
    }
}

} // namespace archplay::ui::design
