// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/PaintedView.h"

#include "ui/views/FramePool.h"
#include "ui/views/LayerSelection.h"
#include "ui/views/PaintedViewFrame.h"
#include "ui/views/ViewColors.h"
#include "ui/widgets/ShapedText.h"
#include "ui/widgets/TextLines.h"

#include <QEvent>
#include <QPaintEngine>
#include <QPaintEvent>
#include <QPainter>

#include <algorithm>

namespace archplay::ui::views {

PaintedView::PaintedView(QWidget* parent)
    : AnalysisView(parent)
    , m_selection(new LayerSelection(this)) {
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(320, 240);
    takeSnapshot();
    connect(m_selection, &LayerSelection::layerChanged, this, &PaintedView::onLayerChanged);
}

PaintedView::~PaintedView() {
    setFramePool(nullptr);
}

void PaintedView::setSharedAnalysis(core::AnalysisPtr analysis) {
    endFrame();
    m_analysis = std::move(analysis);
    takeSnapshot(); // the selected layer, resolved against the new plan
    m_dirty = true;
    if (m_compact && isVisible()) {
        ensureBuilt();
        QString key = contentKey();
        if (!key.isEmpty() && key == m_contentKey) {
            return;
        }
        const bool keyed = !key.isEmpty() && !m_contentKey.isEmpty();
        m_contentKey = std::move(key);
        if (keyed) {
            if (!startRecording()) {
                repaintChanged();
            }
            return;
        }
    }
    repaintLater(rect());
}

void PaintedView::setLayerSelection(LayerSelection* selection) {
    if (selection == nullptr || selection == m_selection) {
        return;
    }
    if (m_selection->parent() == this) {
        m_selection->deleteLater();
    }
    m_selection = selection;
    connect(m_selection, &LayerSelection::layerChanged, this, &PaintedView::onLayerChanged);
    onLayerChanged();
}

void PaintedView::onLayerChanged() {
    endFrame();
    takeSnapshot();
    selectedLayerChanged();
}

void PaintedView::setCompact(bool compact) {
    endFrame();
    if (compact != m_compact) {
        m_compact = compact;
        invalidate();
    }
}

void PaintedView::selectedLayerChanged() {
    invalidate();
}

void PaintedView::takeSnapshot() const {
    m_snapshot = {palette(), font(), m_selection->resolve(m_analysis->plan)};
}

void PaintedView::invalidate() {
    endFrame();
    m_dirty = true;
    m_contentKey.clear();
    repaintLater(rect());
}

void PaintedView::repaintLater(const QRegion& region) {
    m_recorded.reset(); // whatever asks for this repaint may change what the view paints
    update(region);
    if (m_frame) {
        m_pending += region; // the frame brings the controls up to date too (prepareFrame())
        m_framePool->startSoon();
    } else if (!m_prepareQueued) {
        // Before the repaint: a queued call runs ahead of the window's update request.
        m_prepareQueued = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_prepareQueued = false;
                if (isVisible()) {
                    prepareToRender();
                }
            },
            Qt::QueuedConnection);
    }
}

void PaintedView::prepareToRender() {
    endFrame();
    takeSnapshot();
    ensureBuilt();
    syncControls();
}

void PaintedView::syncControls() {
    if (m_controlsStale) {
        m_controlsStale = false;
        updateControls();
    }
}

void PaintedView::ensureBuilt() const {
    if (m_dirty) {
        m_dirty = false;
        ++m_generation;
        m_controlsStale = true;
        // Derived data is a cache of the analysis; building it does not change what the view shows.
        const_cast<PaintedView*>(this)->rebuild();
    }
}

void PaintedView::render(QPainter& painter, const QRectF& target) const {
    endFrame();
    takeSnapshot();
    ensureBuilt();
    draw(painter, target);
}

void PaintedView::draw(QPainter& painter, const QRectF& target) const {
    painter.save();
    painter.setClipRect(target, Qt::IntersectClip);
    painter.fillRect(target, m_snapshot.palette.color(QPalette::Base));
    painter.setFont(m_snapshot.font);
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    if (m_analysis->valid) {
        paintContent(painter, target);
    } else {
        painter.setPen(colors::muted(m_snapshot.palette));
        painter.drawText(target.adjusted(24, 24, -24, -24), Qt::AlignCenter | Qt::TextWordWrap,
                         tr("Nothing to show: the configuration has errors.\nFix the fields listed under "
                            "Diagnostics."));
    }
    painter.restore();
}

void PaintedView::repaintChanged() {
    if (m_drawn.empty() || !m_analysis->valid) {
        repaintLater(rect());
        return;
    }
    repaintRecorded(paintedItems(QRectF(rect())), size());
}

void PaintedView::repaintRecorded(std::vector<widgets::PaintedItem> next, QSize recordedAt) {
    if (recordedAt != size()) {
        repaintLater(rect()); // resized since: all of it
        return;
    }
    QRect changed; // one rect (see the declaration)
    for (const QRect& place : widgets::differingItems(m_drawn, next)) {
        changed |= place;
    }
    repaintLater(changed);
    m_recorded = Recording{std::move(next), m_generation, size()};
}

std::vector<widgets::PaintedItem> PaintedView::paintedItems(const QRectF& target) const {
    return recordItems(target, logicalDpiX(), logicalDpiY(), devicePixelRatioF());
}

std::vector<widgets::PaintedItem> PaintedView::recordItems(const QRectF& target, int dpiX, int dpiY,
                                                           qreal ratio) const {
    widgets::PaintRecorder recorder(target.toAlignedRect().size(), dpiX, dpiY, ratio);
    QPainter painter(&recorder);
    draw(painter, target);
    painter.end();
    return recorder.takeItems();
}

namespace {

constexpr qreal kHeaderMargin = 14;
constexpr qreal kCompactReserve = 56; // the overview's Open button
constexpr int kTitleLines = 2;
constexpr int kCompactTitleLines = 3; // a tile is narrow: "Layer 0 of 0–47: Gated DeltaNet · MoE 512 × top-10"
constexpr int kSubtitleLines = 3;

} // namespace

std::pair<QStringList, QStringList> PaintedView::headerLines(const QRectF& target, const QString& title,
                                                             const QString& subtitle, qreal reservedRight) const {
    if (m_compact) {
        reservedRight = std::max<qreal>(reservedRight, kCompactReserve);
    }
    const qreal titleWidth = target.width() - 2 * kHeaderMargin - reservedRight;
    QStringList titleLines =
        widgets::wrapLines(title, titleFont(), titleWidth, m_compact ? kCompactTitleLines : kTitleLines);
    QStringList subtitleLines;
    if (!subtitle.isEmpty() && !m_compact) {
        subtitleLines =
            widgets::wrapLines(subtitle, m_snapshot.font, target.width() - 2 * kHeaderMargin, kSubtitleLines);
    }
    return {std::move(titleLines), std::move(subtitleLines)};
}

qreal PaintedView::headerBottom(const QRectF& target, const QString& title, const QString& subtitle,
                                qreal reservedRight) const {
    const auto [titleLines, subtitleLines] = headerLines(target, title, subtitle, reservedRight);
    const qreal titleHeight = widgets::TextMetrics(titleFont()).height() * std::max<qsizetype>(1, titleLines.size());
    const qreal subtitleHeight =
        subtitleLines.isEmpty() ? 0 : 2 + widgets::TextMetrics(m_snapshot.font).height() * qreal(subtitleLines.size());
    return target.top() + 10 + titleHeight + subtitleHeight;
}

QRectF PaintedView::paintHeader(QPainter& painter, const QRectF& target, const QString& title, const QString& subtitle,
                                qreal reservedRight) const {
    const auto [titleLines, subtitleLines] = headerLines(target, title, subtitle, reservedRight);
    painter.save();
    const QFont heading = titleFont();
    const qreal titleLine = widgets::TextMetrics(heading).height();
    const qreal left = target.left() + kHeaderMargin;
    const qreal width = target.width() - 2 * kHeaderMargin;
    qreal y = target.top() + 10;
    painter.setFont(heading);
    painter.setPen(m_snapshot.palette.color(QPalette::Text));
    for (const QString& line : titleLines) {
        widgets::drawShaped(painter, QRectF(left, y, width, titleLine), Qt::AlignLeft | Qt::AlignVCenter, line);
        y += titleLine;
    }
    if (titleLines.isEmpty()) {
        y += titleLine;
    }
    if (!subtitleLines.isEmpty()) {
        painter.setFont(m_snapshot.font);
        painter.setPen(colors::muted(m_snapshot.palette));
        const qreal line = widgets::TextMetrics(m_snapshot.font).height();
        y += 2;
        for (const QString& text : subtitleLines) {
            widgets::drawShaped(painter, QRectF(left, y, width, line), Qt::AlignLeft | Qt::AlignVCenter, text);
            y += line;
        }
    }
    painter.restore();
    return QRectF(left, y + 10, width, target.bottom() - y - 20);
}

QFont PaintedView::titleFont() const {
    QFont heading = m_snapshot.font;
    heading.setBold(true);
    heading.setPointSizeF(heading.pointSizeF() * 1.2);
    return heading;
}

QFont PaintedView::smallFont() const {
    QFont small = m_snapshot.font;
    small.setPointSizeF(small.pointSizeF() * 0.88);
    return small;
}

bool PaintedView::event(QEvent* event) {
    if (event->type() != QEvent::Paint) {
        endFrame(); // whatever the event changes, no frame is reading it
    }
    return AnalysisView::event(event);
}

void PaintedView::paintEvent(QPaintEvent* event) {
    QPainter painter(this);
    if (m_frame) {
        paintFromImage(painter, event->region());
        return;
    }
    takeSnapshot();
    ensureBuilt();
    m_exposed = event->region();
    painter.setClipRegion(m_exposed);
    draw(painter, QRectF(rect()));
    m_drawn = m_compact && m_analysis->valid ? paintedItems(QRectF(rect())) : std::vector<widgets::PaintedItem>{};
}

void PaintedView::changeEvent(QEvent* event) {
    switch (event->type()) {
    case QEvent::PaletteChange:
    case QEvent::FontChange:
    case QEvent::EnabledChange: // palette()'s colour group
        takeSnapshot();
        invalidate();
        break;
    case QEvent::ActivationChange: // the colour group too, the same colours in archplay's themes
        takeSnapshot();
        break;
    default:
        break;
    }
    AnalysisView::changeEvent(event);
}

void PaintedView::showEvent(QShowEvent* event) {
    AnalysisView::showEvent(event);
    repaintLater(rect());
}

} // namespace archplay::ui::views
