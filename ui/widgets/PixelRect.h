// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QRect>
#include <QRectF>

#include <cmath>

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

} // namespace archplay::ui::widgets
