// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/layout/PlotLabels.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace archplay::ui::views::layout {
namespace {

/// Liang-Barsky: whether the segment from `a` to `b` meets `rect`.
bool segmentMeets(const QPointF& a, const QPointF& b, const QRectF& rect) {
    qreal t0 = 0;
    qreal t1 = 1;
    const qreal dx = b.x() - a.x();
    const qreal dy = b.y() - a.y();
    const qreal p[4] = {-dx, dx, -dy, dy};
    const qreal q[4] = {a.x() - rect.left(), rect.right() - a.x(), a.y() - rect.top(), rect.bottom() - a.y()};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0) {
                return false;
            }
            continue;
        }
        const qreal t = q[i] / p[i];
        if (p[i] < 0) {
            t0 = std::max(t0, t);
        } else {
            t1 = std::min(t1, t);
        }
        if (t0 > t1) {
            return false;
        }
    }
    return true;
}

bool inside(const QRectF& rect, const QRectF& bounds) {
    constexpr qreal slack = 0.5;
    return rect.left() >= bounds.left() - slack && rect.right() <= bounds.right() + slack &&
           rect.top() >= bounds.top() - slack && rect.bottom() <= bounds.bottom() + slack;
}

bool meetsAny(const QRectF& rect, const std::vector<QRectF>& others) {
    return std::any_of(others.begin(), others.end(), [&](const QRectF& other) { return rect.intersects(other); });
}

} // namespace

bool crosses(const Polyline& line, const QRectF& rect) {
    if (line.size() == 1) {
        return rect.contains(line.front());
    }
    for (std::size_t i = 0; i + 1 < line.size(); ++i) {
        if (segmentMeets(line[i], line[i + 1], rect)) {
            return true;
        }
    }
    return false;
}

std::vector<std::optional<QRectF>> placeLabels(const std::vector<std::vector<QRectF>>& candidates, const QRectF& bounds,
                                               const std::vector<QRectF>& blocked,
                                               const std::vector<Polyline>& curves) {
    std::vector<std::optional<QRectF>> result;
    std::vector<QRectF> taken = blocked;
    for (const std::vector<QRectF>& options : candidates) {
        std::optional<QRectF> chosen;
        for (const bool avoidCurves : {true, false}) {
            for (const QRectF& option : options) {
                if (!inside(option, bounds) || meetsAny(option, taken)) {
                    continue;
                }
                if (avoidCurves && std::any_of(curves.begin(), curves.end(),
                                               [&](const Polyline& curve) { return crosses(curve, option); })) {
                    continue;
                }
                chosen = option;
                break;
            }
            if (chosen) {
                break;
            }
        }
        if (chosen) {
            taken.push_back(*chosen);
        }
        result.push_back(chosen);
    }
    return result;
}

std::vector<QRectF> verticalLineCandidates(qreal x, const QSizeF& size, const QRectF& plot, int rows) {
    std::vector<QRectF> result;
    for (int row = 0; row < std::max(rows, 1); ++row) {
        const qreal top = plot.top() + 1 + row * size.height();
        result.emplace_back(QPointF(x - size.width() - 1, top), size);
        result.emplace_back(QPointF(x + 1, top), size);
    }
    return result;
}

std::vector<QRectF> horizontalLineCandidates(qreal y, const QSizeF& size, const QRectF& plot) {
    std::vector<QRectF> result;
    const qreal step = std::max<qreal>(size.width() / 2, 1);
    // On the line or hanging under it first; then a row further off, for lines a few pixels apart.
    for (int row = 0; row < 2; ++row) {
        for (qreal left = plot.left() + 1; left + size.width() <= plot.right(); left += step) {
            result.emplace_back(QPointF(left, y - (row + 1) * size.height()), size);
            result.emplace_back(QPointF(left, y + row * size.height()), size);
        }
    }
    return result;
}

std::vector<QRectF> pointCandidates(const QPointF& point, const QSizeF& size, qreal gap) {
    const qreal w = size.width();
    const qreal h = size.height();
    return {QRectF(QPointF(point.x() - gap - w, point.y() - gap - h), size),
            QRectF(QPointF(point.x() + gap, point.y() - gap - h), size),
            QRectF(QPointF(point.x() - gap - w, point.y() + gap), size),
            QRectF(QPointF(point.x() + gap, point.y() + gap), size)};
}

LegendPlacement placeLegend(const QRectF& plot, const QSizeF& legend, const std::vector<Polyline>& curves,
                            const std::vector<QRectF>& marks, qreal margin) {
    if (legend.width() > 0.5 * plot.width() || legend.height() > 0.4 * plot.height()) {
        return {};
    }
    const QRectF inner = plot.adjusted(margin, margin, -margin, -margin);
    const QRectF corners[] = {
        QRectF(QPointF(inner.right() - legend.width(), inner.bottom() - legend.height()), legend),
        QRectF(inner.topLeft(), legend),
        QRectF(QPointF(inner.left(), inner.bottom() - legend.height()), legend),
        QRectF(QPointF(inner.right() - legend.width(), inner.top()), legend),
    };
    for (const QRectF& corner : corners) {
        // A few pixels of air around the legend, so a curve does not graze its frame.
        const QRectF padded = corner.adjusted(-3, -3, 3, 3);
        const bool clear =
            std::none_of(curves.begin(), curves.end(), [&](const Polyline& curve) { return crosses(curve, padded); }) &&
            !meetsAny(padded, marks);
        if (clear) {
            return {true, corner};
        }
    }
    return {};
}

int legendColumns(const std::vector<qreal>& entryWidths, qreal width, qreal gap) {
    for (int columns = static_cast<int>(entryWidths.size()); columns > 1; --columns) {
        // Every column is as wide as its widest entry.
        qreal total = gap * (columns - 1);
        for (int column = 0; column < columns; ++column) {
            qreal widest = 0;
            for (std::size_t i = static_cast<std::size_t>(column); i < entryWidths.size();
                 i += static_cast<std::size_t>(columns)) {
                widest = std::max(widest, entryWidths[i]);
            }
            total += widest;
        }
        if (total <= width) {
            return columns;
        }
    }
    return 1;
}

} // namespace archplay::ui::views::layout
