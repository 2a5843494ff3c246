// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/views/PaintedView.h"
#include "ui/widgets/ShapedText.h"

#include <QImage>
#include <QPainter>
#include <QRunnable>

#include <atomic>
#include <semaphore>

namespace archplay::ui::views {

/// The view's pending repaint drawn on a worker (FramePool), straight into the window's backing
/// store: the view's pixels there, which no other widget paints until the view's paint event.
struct PaintedView::Frame final : QRunnable {
    explicit Frame(const PaintedView& owner)
        : view(owner) {
        setAutoDelete(false);
    }

    void run() override {
        // Pairs with startFrame()'s release: the pool's hand-over orders the same, but through
        // Qt's futex locks, which ThreadSanitizer cannot see.
        (void)started.load(std::memory_order_acquire);
        widgets::keepShapedTextOnThisThread();
        {
            QPainter painter(&image);
            painter.translate(offset);
            painter.setClipRegion(region);
            view.draw(painter, bounds);
        }
        done.release(); // the painter gone: nothing of the frame's runs after this
    }

    const PaintedView& view;
    QImage image;                      ///< the backing store's memory under the view (its part inside the window)
    QPointF offset;                    ///< where the view's origin lies in `image`
    QRectF bounds;                     ///< the view's rect when the frame started
    QRegion region;                    ///< what the frame draws, in the view's coordinates
    std::atomic<bool> started = false; ///< set before each start (see run())
    std::binary_semaphore done{0};     ///< released once drawn
    bool inFlight = false;             ///< started and not ended
};

} // namespace archplay::ui::views
