// SPDX-License-Identifier: GPL-3.0-or-later
// PaintedView's frames: its pixels kept in an image, drawn beside the GUI thread (FramePool).
#include "ui/views/FramePool.h"
#include "ui/views/PaintedView.h"
#include "ui/views/PaintedViewFrame.h"

#include <QBackingStore>

namespace archplay::ui::views {

void PaintedView::setFramePool(FramePool* pool) {
    endFrame();
    if (m_framePool != nullptr) {
        m_framePool->remove(this);
    }
    m_framePool = pool;
    m_frame.reset();
    m_pending = QRegion();
    if (m_framePool != nullptr) {
        m_framePool->add(this);
        m_frame = std::make_unique<Frame>(*this);
        repaintLater(rect());
    }
}

bool PaintedView::prepareFrame(const QRegion& within) {
    takeSnapshot();
    ensureBuilt();
    QImage& image = m_frame->image;
    const qreal ratio = devicePixelRatio();
    const QSize pixels = (QSizeF(size()) * ratio).toSize();
    if (pixels.isEmpty()) {
        return false;
    }
    // The window's pixel format, so that text is blended as it is where the view paints itself.
    QBackingStore* store = backingStore();
    const QPaintDevice* device = store != nullptr ? store->paintDevice() : nullptr;
    QImage::Format format = device != nullptr && device->devType() == QInternal::Image
                                ? static_cast<const QImage*>(device)->format()
                                : QImage::Format_Invalid;
    if (format == QImage::Format_Invalid) { // no store yet, or not an image
        format = QImage::Format_ARGB32_Premultiplied;
    }
    if (image.size() != pixels || image.devicePixelRatio() != ratio || image.format() != format) {
        image = QImage(pixels, format);
        image.setDevicePixelRatio(ratio);
        // The widget's resolution, so that the fonts are the sizes they are on screen.
        image.setDotsPerMeterX(qRound(logicalDpiX() / 0.0254));
        image.setDotsPerMeterY(qRound(logicalDpiY() / 0.0254));
        m_pending = rect();
    }
    if (image.isNull()) {
        return false; // no memory for it (paintFromImage() then draws on the widget)
    }
    const QRegion region = m_pending & within & rect();
    if (region.isEmpty()) {
        return false;
    }
    m_pending -= region;
    m_frame->bounds = QRectF(rect());
    m_frame->region = region;
    m_exposed = region;
    // Before the frame starts: recording fills the caches the frame's drawing then reads (a
    // recording kept since the change filled them then).
    if (m_recorded && m_recorded->generation == m_generation && m_recorded->size == size()) {
        m_drawn = std::move(m_recorded->items);
    } else {
        m_drawn = m_analysis->valid ? paintedItems(m_frame->bounds) : std::vector<widgets::PaintedItem>{};
    }
    m_recorded.reset();
    return true;
}

bool PaintedView::startRecording() {
    if (!m_frame || m_frame->inFlight || m_framePool->workers() == 0 || m_drawn.empty() || !m_analysis->valid) {
        return false;
    }
    m_frame->recording = true;
    m_frame->bounds = QRectF(rect());
    m_frame->dpiX = logicalDpiX();
    m_frame->dpiY = logicalDpiY();
    m_frame->ratio = devicePixelRatioF();
    m_frame->inFlight = true;
    m_framePool->start(m_frame.get());
    m_framePool->startSoon(); // ends it, and starts the frame that draws the change, before the repaint
    return true;
}

void PaintedView::startFrame() {
    if (m_frame && m_frame->recording) {
        endFrame(); // the region a change repaints, from its recording
    }
    // What is on screen first; the rest is drawn when it is shown (scrolled to).
    if (!m_frame || m_frame->inFlight || m_pending.isEmpty() || !isVisible()) {
        return;
    }
    takeSnapshot();
    ensureBuilt();
    syncControls(); // outside paint, before the frame reads the view
    if (!prepareFrame(visibleRegion())) {
        return;
    }
    m_frame->inFlight = true;
    m_framePool->start(m_frame.get());
}

void PaintedView::endFrame() const {
    if (!m_frame || !m_frame->inFlight) {
        return;
    }
    m_frame->inFlight = false;
    if (m_framePool->takeBack(m_frame.get())) {
        m_frame->paint(); // no worker had started it
    } else {
        while (!m_frame->done.try_acquire()) {
            if (!m_framePool->runWaitingFrame()) {
                m_frame->done.acquire();
                break;
            }
        }
        m_framePool->countDrawnOnWorker();
    }
    if (m_frame->recording) {
        m_frame->recording = false;
        // Ending a recording repaints where the view changed, from the const paths too (render()).
        const_cast<PaintedView*>(this)->repaintRecorded(std::move(m_frame->items), m_frame->bounds.size().toSize());
    }
}

bool PaintedView::runWaitingFrame() const {
    // A recording is left to its view's endFrame(), which repaints where it changed: not from
    // inside another view's paint event.
    if (!m_frame || !m_frame->inFlight || m_frame->recording || !m_framePool->takeBack(m_frame.get())) {
        return false;
    }
    m_frame->inFlight = false;
    m_frame->drawImage();
    return true;
}

void PaintedView::paintFromImage(QPainter& painter, const QRegion& region) {
    endFrame();
    if (prepareFrame(region)) {
        m_frame->drawImage(); // what no frame drew: newly shown, or changed since the frame started
    }
    const QImage& image = m_frame->image;
    if (image.isNull()) {
        m_exposed = region;
        painter.setClipRegion(region);
        draw(painter, QRectF(rect()));
        return;
    }
    const qreal ratio = image.devicePixelRatio();
    painter.setCompositionMode(QPainter::CompositionMode_Source); // opaque: copied, not blended
    for (const QRect& place : region) {
        painter.drawImage(QRectF(place), image, QRectF(QPointF(place.topLeft()) * ratio, QSizeF(place.size()) * ratio));
    }
}

bool PaintedView::forScreen(const QPainter& painter) const {
    return painter.device() == this || (m_frame && painter.device() == &m_frame->image) ||
           widgets::PaintRecorder::of(painter) != nullptr;
}

} // namespace archplay::ui::views
