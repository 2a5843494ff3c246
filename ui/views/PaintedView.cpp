// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/PaintedView.h"

#include "ui/views/LayerSelection.h"
#include "ui/views/ViewColors.h"

#include <QEvent>
#include <QPainter>

#include <algorithm>

namespace archplay::ui::views {

PaintedView::PaintedView(QWidget* parent)
    : AnalysisView(parent)
    , m_selection(new LayerSelection(this)) {
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(320, 240);
    connect(m_selection, &LayerSelection::layerChanged, this, &PaintedView::selectedLayerChanged);
}

void PaintedView::setSharedAnalysis(core::AnalysisPtr analysis) {
    m_analysis = std::move(analysis);
    m_dirty = true;
    if (m_compact && isVisible()) {
        ensureBuilt();
        QString key = contentKey();
        if (!key.isEmpty() && key == m_contentKey) {
            return;
        }
        m_contentKey = std::move(key);
    }
    update();
}

void PaintedView::setLayerSelection(LayerSelection* selection) {
    if (selection == nullptr || selection == m_selection) {
        return;
    }
    if (m_selection->parent() == this) {
        m_selection->deleteLater();
    }
    m_selection = selection;
    connect(m_selection, &LayerSelection::layerChanged, this, &PaintedView::selectedLayerChanged);
    selectedLayerChanged();
}

void PaintedView::setCompact(bool compact) {
    if (compact != m_compact) {
        m_compact = compact;
        invalidate();
    }
}

void PaintedView::selectedLayerChanged() {
    invalidate();
}

std::int64_t PaintedView::selectedLayer() const {
    return m_selection->resolve(m_analysis->plan);
}

void PaintedView::invalidate() {
    m_dirty = true;
    m_contentKey.clear();
    update();
}

void PaintedView::ensureBuilt() const {
    if (m_dirty) {
        m_dirty = false;
        ++m_generation;
        // Derived data is a cache of the analysis; building it does not change what the view shows.
        const_cast<PaintedView*>(this)->rebuild();
    }
}

void PaintedView::render(QPainter& painter, const QRectF& target) const {
    ensureBuilt();
    painter.save();
    painter.setClipRect(target, Qt::IntersectClip);
    painter.fillRect(target, palette().color(QPalette::Base));
    painter.setFont(font());
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    if (m_analysis->valid) {
        paintContent(painter, target);
    } else {
        painter.setPen(colors::muted(palette()));
        painter.drawText(target.adjusted(24, 24, -24, -24), Qt::AlignCenter | Qt::TextWordWrap,
                         tr("Nothing to show: the configuration has errors.\nFix the fields listed under "
                            "Diagnostics."));
    }
    painter.restore();
}

QRectF PaintedView::paintHeader(QPainter& painter, const QRectF& target, const QString& title, const QString& subtitle,
                                qreal reservedRight) const {
    const qreal margin = 14;
    if (m_compact) {
        reservedRight = std::max<qreal>(reservedRight, 56); // the overview's Open button
    }
    QRectF area = target.adjusted(margin, 10, -margin - reservedRight, 0);
    painter.save();
    const QFont heading = titleFont();
    painter.setFont(heading);
    painter.setPen(palette().color(QPalette::Text));
    const QFontMetricsF headingMetrics(heading);
    const QRectF titleRect(area.left(), area.top(), area.width(), headingMetrics.height());
    painter.drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter,
                     headingMetrics.elidedText(title, Qt::ElideRight, titleRect.width()));
    qreal bottom = titleRect.bottom();
    if (!subtitle.isEmpty() && !m_compact) {
        painter.setFont(font());
        painter.setPen(colors::muted(palette()));
        const QFontMetricsF metrics(font());
        const QRectF subtitleRect(area.left(), bottom + 2, target.width() - 2 * margin, metrics.height());
        painter.drawText(subtitleRect, Qt::AlignLeft | Qt::AlignVCenter,
                         metrics.elidedText(subtitle, Qt::ElideRight, subtitleRect.width()));
        bottom = subtitleRect.bottom();
    }
    painter.restore();
    return QRectF(target.left() + margin, bottom + 10, target.width() - 2 * margin, target.bottom() - bottom - 20);
}

qreal PaintedView::headerBottom(const QRectF& target) const {
    const qreal title = target.top() + 10 + QFontMetricsF(titleFont()).height();
    return m_compact ? title : title + 2 + QFontMetricsF(font()).height();
}

QFont PaintedView::titleFont() const {
    QFont heading = font();
    heading.setBold(true);
    heading.setPointSizeF(heading.pointSizeF() * 1.2);
    return heading;
}

QFont PaintedView::smallFont() const {
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.88);
    return small;
}

void PaintedView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    render(painter, QRectF(rect()));
}

void PaintedView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        invalidate();
    }
    AnalysisView::changeEvent(event);
}

void PaintedView::showEvent(QShowEvent* event) {
    AnalysisView::showEvent(event);
    update();
}

} // namespace archplay::ui::views
