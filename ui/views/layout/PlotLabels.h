// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointF>
#include <QRectF>
#include <QSizeF>

#include <optional>
#include <vector>

namespace archplay::ui::views::layout {

/// Where labels and the legend of a chart go, in the chart's pixels: computed from the plot area,
/// the curves as drawn and each label's size, without drawing anything. Units: device-independent
/// pixels.

/// A curve as drawn: its sampled points joined by straight segments.
using Polyline = std::vector<QPointF>;

/// True when `rect` contains a point of `line` or one of its segments crosses `rect`.
bool crosses(const Polyline& line, const QRectF& rect);

/// Places labels one after the other, earlier ones first. A label takes the first of its
/// candidates (best first) that lies inside `bounds` and meets no label already placed, no rectangle
/// of `blocked` and no curve; failing that, the first that meets no placed label and nothing of
/// `blocked` (a curve may then run beneath it); failing that, it is left out (nullopt) and the
/// caller lists it elsewhere. Placed labels never intersect each other nor `blocked`.
std::vector<std::optional<QRectF>> placeLabels(const std::vector<std::vector<QRectF>>& candidates, const QRectF& bounds,
                                               const std::vector<QRectF>& blocked, const std::vector<Polyline>& curves);

/// Candidates for the label of a vertical reference line at `x`: against the top of `plot`, left of
/// the line, then right of it, then each a label's height further down, `rows` times.
std::vector<QRectF> verticalLineCandidates(qreal x, const QSizeF& size, const QRectF& plot, int rows);

/// Candidates for the label of a horizontal reference line at `y`: sitting on the line at the left of
/// `plot`, then hanging under it, then each moved right along the line by half a label's width; then
/// the same a label's height further from the line.
std::vector<QRectF> horizontalLineCandidates(qreal y, const QSizeF& size, const QRectF& plot);

/// Candidates for the label of a point: above left, above right, below left, below right of it,
/// `gap` away.
std::vector<QRectF> pointCandidates(const QPointF& point, const QSizeF& size, qreal gap);

/// Where a chart's legend goes.
struct LegendPlacement {
    bool inside = false; ///< in a corner of the plot area; otherwise outside it (the chart puts it below)
    QRectF rect;         ///< the legend's rectangle when inside
};

/// The legend inside `plot` in the first corner (bottom right, top left, bottom left, top right),
/// `margin` in from the edges, that no curve and no point of `marks` touches, when the legend takes
/// at most half the plot's width and 40% of its height; otherwise outside the plot, so it never
/// covers a curve.
LegendPlacement placeLegend(const QRectF& plot, const QSizeF& legend, const std::vector<Polyline>& curves,
                            const std::vector<QRectF>& marks, qreal margin);

/// Legend columns that fit `width` when the legend runs in rows under a chart: as many entries per
/// row as fit with `gap` between them, at least 1.
int legendColumns(const std::vector<qreal>& entryWidths, qreal width, qreal gap);

} // namespace archplay::ui::views::layout
