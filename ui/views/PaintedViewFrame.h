// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/views/PaintedView.h"
#include "ui/widgets/ShapedText.h"

#include <QImage>
#include <QPainter>
#include <QRunnable>

#include <semaphore>
#include <vector>

namespace archplay::ui::views {

/// A view's pixels as a tile of the overview (FramePool): an image of its own, which a frame brings
/// up to date on a worker after each change, and which the view's paint event copies to the window.
/// The frame reads the view's derived data, analysis and snapshot, which nothing changes while it
/// is in flight (every change ends it first), and writes only the image.
struct PaintedView::Frame final : QRunnable {
    explicit Frame(const PaintedView& owner)
        : view(owner) {}

    /// On a worker.
    void run() override {
        widgets::keepShapedTextOnThisThread();
        paint();
        done.release(); // the painter gone: nothing of the frame's runs after this
    }

    /// Records the view, or draws it into the image.
    void paint() {
        if (recording) {
            items = view.recordItems(bounds, dpiX, dpiY, ratio);
        } else {
            drawImage();
        }
    }

    /// Draws `region` of the view into the image.
    void drawImage() {
        QPainter painter(&image);
        painter.setClipRegion(region);
        view.draw(painter, bounds);
    }

    const PaintedView& view;
    QImage image;                  ///< the view's pixels: its size times its device pixel ratio
    QRectF bounds;                 ///< the view's rect when the frame started
    QRegion region;                ///< what the frame draws, in the view's coordinates
    std::binary_semaphore done{0}; ///< released once drawn on a worker
    bool inFlight = false;         ///< started and not ended
    /// A recording of the whole view after a change (PaintedView::startRecording()), at the
    /// widget's resolution, instead of a drawing: what the change repaints.
    bool recording = false;
    int dpiX = 0;
    int dpiY = 0;
    qreal ratio = 1;
    std::vector<widgets::PaintedItem> items; ///< the recording's
};

} // namespace archplay::ui::views
