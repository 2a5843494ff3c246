// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/widgets/ShapedText.h"

#include <QRectF>

#include <vector>

namespace archplay::ui::views::layout {

/// One mask panel: three text lines above a square grid with tick labels on two sides.
struct MaskPanel {
    QRectF frame;
    QRectF title;
    QRectF subtitle;
    QRectF stats;
    QRectF grid;                     ///< square, a whole number of pixels per cell
    QRectF queryAxis;                ///< left of the grid, for the rotated "query i" caption
    QRectF keyAxis;                  ///< under the tick labels, for the "key j" caption
    std::vector<QRectF> rowTicks;    ///< labels at cell boundaries 0, n/4, n/2, 3n/4, n along the rows
    std::vector<QRectF> columnTicks; ///< the same along the columns
    std::vector<int> tickCells;      ///< the boundaries ticked, in cells
};

struct MaskLayout {
    std::vector<MaskPanel> panels;
    QRectF caption; ///< below the panels, for the scale
    qreal cellSize = 0;
};

/// The cell rectangle of (row, column) in a panel's grid.
QRectF maskCell(const MaskPanel& panel, int cells, int row, int column);

/// Arranges `count` panels of `cells` x `cells` in the number of columns that gives the largest
/// grid, all grids the same size. Panels never overlap and stay inside `bounds`.
MaskLayout layoutMasks(int count, int cells, const QRectF& bounds, const widgets::TextMetrics& metrics);

/// Thumbnails for the overview: each panel two lines of title and two of stats over its grid, without tick
/// labels, axis captions or the scale caption (those rectangles stay empty). Same guarantees.
MaskLayout layoutMaskThumbnails(int count, int cells, const QRectF& bounds, const widgets::TextMetrics& metrics);

} // namespace archplay::ui::views::layout
