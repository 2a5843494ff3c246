// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/layout/MaskLayout.h"

#include "ui/widgets/ShapedText.h"

#include <algorithm>
#include <cmath>

namespace archplay::ui::views::layout {
namespace {

/// The number of columns whose square panels come out largest for `count` panels in `area`, and that
/// side: each panel gives `reserved` (width, height) to its axes and text.
struct Grid {
    int columns = 1;
    qreal side = -1;
};

Grid bestGrid(int count, const QSizeF& area, qreal gap, const QSizeF& reserved) {
    Grid best;
    for (int columns = 1; columns <= count; ++columns) {
        const int rows = (count + columns - 1) / columns;
        const qreal panelWidth = (area.width() - (columns - 1) * gap) / columns;
        const qreal panelHeight = (area.height() - (rows - 1) * gap) / rows;
        const qreal side = std::min(panelWidth - reserved.width(), panelHeight - reserved.height());
        if (side > best.side) {
            best = {columns, side};
        }
    }
    return best;
}

constexpr qreal kGap = 22;

} // namespace

QRectF maskCell(const MaskPanel& panel, int cells, int row, int column) {
    const qreal size = cells > 0 ? panel.grid.width() / cells : 0;
    return QRectF(panel.grid.left() + column * size, panel.grid.top() + row * size, size, size);
}

MaskLayout layoutMasks(int count, int cells, const QRectF& bounds, const widgets::TextMetrics& metrics) {
    MaskLayout layout;
    if (count <= 0 || cells <= 0 || bounds.isEmpty()) {
        return layout;
    }
    const qreal line = metrics.height();
    const qreal captionHeight = 2 * line + 4;
    // Three text lines, then half a line so the first row label clears them.
    const qreal textHeight = 3.5 * line + 6;
    const qreal leftAxis = line + 4 + metrics.horizontalAdvance(QStringLiteral("000,000")) + 4;
    const qreal bottomAxis = 2 * line + 4;
    const qreal tickWidth = metrics.horizontalAdvance(QStringLiteral("000,000"));
    const qreal area = bounds.height() - captionHeight - 6;

    const auto [bestColumns, bestSide] =
        bestGrid(count, QSizeF(bounds.width(), area), kGap, {leftAxis + tickWidth / 2, textHeight + bottomAxis});
    // Whole pixels per cell keep the grid crisp; never below one.
    const qreal cellSize = std::max<qreal>(1, std::floor(std::max<qreal>(bestSide, 0) / cells));
    const qreal side = cellSize * cells;
    layout.cellSize = cellSize;
    const int columns = bestColumns;
    const qreal panelWidth =
        std::min((bounds.width() - (columns - 1) * kGap) / columns,
                 std::max(side + leftAxis + tickWidth / 2, metrics.horizontalAdvance(QStringLiteral("M")) * 28));
    const qreal panelHeight = textHeight + side + bottomAxis;
    qreal bottom = bounds.top();
    for (int i = 0; i < count; ++i) {
        const int row = i / columns;
        const int column = i % columns;
        MaskPanel panel;
        const QPointF origin(bounds.left() + column * (panelWidth + kGap), bounds.top() + row * (panelHeight + kGap));
        panel.frame = QRectF(origin, QSizeF(panelWidth, panelHeight));
        panel.title = QRectF(origin.x(), origin.y(), panelWidth, line);
        panel.subtitle = QRectF(origin.x(), origin.y() + line + 2, panelWidth, line);
        panel.stats = QRectF(origin.x(), origin.y() + 2 * line + 4, panelWidth, line);
        panel.grid = QRectF(origin.x() + leftAxis, origin.y() + textHeight, side, side);
        panel.queryAxis = QRectF(origin.x(), panel.grid.top(), line, side);
        panel.keyAxis = QRectF(panel.grid.left(), panel.grid.bottom() + line + 2, side, line);
        const int step = std::max(1, cells / 4);
        for (int boundary = 0; boundary <= cells; boundary += step) {
            panel.tickCells.push_back(boundary);
            const qreal offset = boundary * cellSize;
            // The last row boundary would meet the first column label at the corner; the columns show it.
            panel.rowTicks.push_back(
                boundary < cells
                    ? QRectF(origin.x() + line + 4, panel.grid.top() + offset - line / 2, leftAxis - line - 10, line)
                    : QRectF());
            panel.columnTicks.emplace_back(panel.grid.left() + offset - tickWidth / 2, panel.grid.bottom() + 2,
                                           tickWidth, line);
        }
        bottom = std::max(bottom, panel.frame.bottom());
        layout.panels.push_back(std::move(panel));
    }
    layout.caption =
        QRectF(bounds.left(), std::min(bottom + 8, bounds.bottom() - captionHeight), bounds.width(), captionHeight);
    return layout;
}

MaskLayout layoutMaskThumbnails(int count, int cells, const QRectF& bounds, const widgets::TextMetrics& metrics) {
    MaskLayout layout;
    if (count <= 0 || cells <= 0 || bounds.isEmpty()) {
        return layout;
    }
    const qreal line = metrics.height();
    const qreal textHeight = 4 * line + 6; // two lines each for the title and the stats
    const qreal gap = 14;
    const auto [bestColumns, bestSide] = bestGrid(count, bounds.size(), gap, {0, textHeight});
    const qreal cellSize = std::max<qreal>(1, std::floor(std::max<qreal>(bestSide, 0) / cells));
    const qreal side = cellSize * cells;
    layout.cellSize = cellSize;
    const int columns = bestColumns;
    const qreal panelWidth = (bounds.width() - (columns - 1) * gap) / columns;
    for (int i = 0; i < count; ++i) {
        const QPointF origin(bounds.left() + (i % columns) * (panelWidth + gap),
                             bounds.top() + (i / columns) * (textHeight + side + gap));
        MaskPanel panel;
        panel.frame = QRectF(origin, QSizeF(panelWidth, textHeight + side));
        panel.title = QRectF(origin.x(), origin.y(), panelWidth, 2 * line);
        panel.stats = QRectF(origin.x(), origin.y() + 2 * line + 2, panelWidth, 2 * line);
        panel.grid = QRectF(origin.x(), origin.y() + textHeight, side, side);
        layout.panels.push_back(std::move(panel));
    }
    return layout;
}

} // namespace archplay::ui::views::layout
