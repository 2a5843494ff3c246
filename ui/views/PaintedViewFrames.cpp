// SPDX-License-Identifier: GPL-3.0-or-later
// PaintedView's frames: its pending repaint drawn beside the GUI thread (FramePool).
#include "ui/views/FramePool.h"
#include "ui/views/PaintedView.h"
#include "ui/views/PaintedViewFrame.h"

#include <QBackingStore>

#include <cmath>

namespace archplay::ui::views {

void PaintedView::setFramePool(FramePool* pool) {
    endFrame();
    if (m_framePool != nullptr) {
        m_framePool->remove(this);
    }
    m_framePool = pool;
    if (m_framePool != nullptr) {
        m_framePool->add(this);
    }
}

QImage* PaintedView::backingStoreImage() const {
    QBackingStore* store = backingStore();
    QPaintDevice* device = store != nullptr ? store->paintDevice() : nullptr;
    return device != nullptr && device->devType() == QInternal::Image ? static_cast<QImage*>(device) : nullptr;
}

void PaintedView::startFrame() {
    if (m_dirty || (m_frame && m_frame->inFlight) || !isVisible()) {
        return;
    }
    const QRegion region = m_pending & visibleRegion();
    QImage* store = backingStoreImage();
    const qreal ratio = devicePixelRatio();
    if (region.isEmpty() || store == nullptr || ratio != std::floor(ratio)) {
        return; // whole device pixels only: the view's place in the store is a rect of them
    }
    // The store's pixels under the view, shared: what the frame draws is on screen at once. The
    // painter of this repaint has detached the store already; bits() could detach it again.
    const QRect place = QRect(mapTo(window(), QPoint(0, 0)), size()) & QRect(QPoint(0, 0), window()->size());
    const QRect pixels(place.topLeft() * int(ratio), place.size() * int(ratio));
    if (place.isEmpty() || !store->rect().contains(pixels)) {
        return;
    }
    if (!m_frame) {
        m_frame = std::make_unique<Frame>(*this);
    }
    QImage& image = m_frame->image;
    image = QImage(const_cast<uchar*>(store->constBits()) + pixels.y() * store->bytesPerLine() +
                       pixels.x() * (store->depth() / 8),
                   pixels.width(), pixels.height(), store->bytesPerLine(), store->format());
    image.setDevicePixelRatio(ratio);
    // The widget's resolution, so that the fonts are the sizes they are on screen.
    image.setDotsPerMeterX(qRound(logicalDpiX() / 0.0254));
    image.setDotsPerMeterY(qRound(logicalDpiY() / 0.0254));
    m_frame->offset = QPointF(mapTo(window(), QPoint(0, 0)) - place.topLeft());
    m_frame->bounds = QRectF(rect());
    m_frame->region = region;
    m_frame->inFlight = true;
    m_exposed = region;
    m_frame->started.store(true, std::memory_order_release);
    m_framePool->start(m_frame.get());
}

bool PaintedView::endFrame() const {
    if (!m_frame || !m_frame->inFlight) {
        return false;
    }
    m_frame->inFlight = false;
    if (m_framePool->takeBack(m_frame.get())) {
        return false;
    }
    while (!m_frame->done.try_acquire()) {
        if (!m_framePool->runWaitingFrame()) {
            m_frame->done.acquire();
            break;
        }
    }
    return true;
}

bool PaintedView::runWaitingFrame() {
    if (!m_frame || !m_frame->inFlight || !m_framePool->takeBack(m_frame.get())) {
        return false;
    }
    m_frame->run(); // its paint event finds it drawn
    return true;
}

bool PaintedView::forScreen(const QPainter& painter) const {
    return painter.device() == this || (m_frame && painter.device() == &m_frame->image);
}

} // namespace archplay::ui::views
