// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QRect>
#include <QRectF>

#include <cmath>
#include <vector>

namespace archplay::ui::widgets {

/// The pixels a fill of `rect` without antialiasing covers: those whose centre lies inside it,
/// past its left and top edges and up to its right and bottom ones (as Qt's rasteriser rounds).
/// QPainter fills a list of these (drawRects(const QRect*)) as spans of memory, where a list of
/// QRectF goes through the rasteriser rect by rect; the pixels are the same.
inline QRect pixelRect(const QRectF& rect) {
    const auto after = [](qreal edge) {
        return static_cast<int>(std::floor(edge - 0.5)) + 1; // the first pixel whose centre is past `edge`
    };
    const int left = after(rect.left());
    const int top = after(rect.top());
    const int right = after(rect.right());
    const int bottom = after(rect.bottom());
    return QRect(left, top, right - left, bottom - top);
}

/// Appends the whole pixels of a line `width` pixels wide centred on the edges of `rect`, as four
/// rects (top, bottom, left, right), for filling with others of its colour in one drawRects call.
/// An antialiased pen would trace the outline and rasterise the box it bounds: the routing tile's
/// top-k outlines cost more than the rest of its grid.
inline void appendPixelRing(std::vector<QRect>& rects, const QRectF& rect, qreal width = 1) {
    const qreal half = width / 2;
    const QRect outer = pixelRect(rect.adjusted(-half, -half, half, half));
    const QRect inner = pixelRect(rect.adjusted(half, half, -half, -half));
    if (inner.width() <= 0 || inner.height() <= 0) {
        rects.push_back(outer); // the line is as wide as the rect: it fills it
        return;
    }
    rects.emplace_back(outer.left(), outer.top(), outer.width(), inner.top() - outer.top());
    rects.emplace_back(outer.left(), inner.bottom() + 1, outer.width(), outer.bottom() - inner.bottom());
    rects.emplace_back(outer.left(), inner.top(), inner.left() - outer.left(), inner.height());
    rects.emplace_back(inner.right() + 1, inner.top(), outer.right() - inner.right(), inner.height());
}

} // namespace archplay::ui::widgets
