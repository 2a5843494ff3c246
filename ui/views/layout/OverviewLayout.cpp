// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/layout/OverviewLayout.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace archplay::ui::views::layout {
namespace {

/// A tile's cells: rows [row, row + rows), columns [column, column + columns).
struct Cells {
    int row = 0;
    int column = 0;
    int rows = 1;
    int columns = 1;
};

/// Places the tiles in reading order on `columns` columns, each in the first free cell where its
/// span fits, then widens a tile into the holes after it in its row.
std::vector<Cells> place(const std::vector<OverviewTileSpec>& tiles, int columns, bool spans, int& rowCount) {
    std::vector<std::vector<int>> grid; // tile index per cell, -1 when free
    auto free = [&](int row, int column) {
        return row >= static_cast<int>(grid.size()) || grid[static_cast<std::size_t>(row)][std::size_t(column)] < 0;
    };
    std::vector<Cells> cells;
    for (std::size_t i = 0; i < tiles.size(); ++i) {
        const int span = spans ? std::clamp(tiles[i].rowSpan, 1, 2) : 1;
        Cells at;
        at.rows = span;
        for (int row = 0;; ++row) {
            int column = 0;
            while (column < columns && !(free(row, column) && (span == 1 || free(row + 1, column)))) {
                ++column;
            }
            if (column < columns) {
                at.row = row;
                at.column = column;
                break;
            }
        }
        while (static_cast<int>(grid.size()) < at.row + at.rows) {
            grid.emplace_back(std::size_t(columns), -1);
        }
        for (int r = at.row; r < at.row + at.rows; ++r) {
            grid[std::size_t(r)][std::size_t(at.column)] = static_cast<int>(i);
        }
        cells.push_back(at);
    }
    rowCount = static_cast<int>(grid.size());
    // A hole is widened into by the one-row tile on its left (a tall tile beside it keeps its width).
    for (int row = 0; row < rowCount; ++row) {
        for (int column = 1; column < columns; ++column) {
            const int left = grid[std::size_t(row)][std::size_t(column - 1)];
            if (grid[std::size_t(row)][std::size_t(column)] < 0 && left >= 0 && cells[std::size_t(left)].rows == 1) {
                grid[std::size_t(row)][std::size_t(column)] = left;
                ++cells[std::size_t(left)].columns;
            }
        }
    }
    return cells;
}

} // namespace

OverviewLayout layoutOverview(const std::vector<OverviewTileSpec>& tiles, const QRectF& bounds,
                              const OverviewMetrics& metrics) {
    OverviewLayout best;
    if (tiles.empty() || bounds.width() <= 0 || bounds.height() <= 0) {
        return best;
    }
    const qreal gap = metrics.gap;
    double bestScore = std::numeric_limits<double>::infinity();
    const int most = static_cast<int>(tiles.size());
    for (int columns = 1; columns <= most; ++columns) {
        const qreal cellWidth = (bounds.width() - (columns - 1) * gap) / columns;
        if (columns > 1 && cellWidth < metrics.minTileWidth) {
            break;
        }
        for (bool spans : {false, true}) {
            int rows = 0;
            const std::vector<Cells> cells = place(tiles, columns, spans, rows);
            const qreal cellHeight = std::max(metrics.minTileHeight, (bounds.height() - (rows - 1) * gap) / rows);
            const qreal height = rows * cellHeight + (rows - 1) * gap;
            OverviewLayout candidate;
            candidate.columns = columns;
            candidate.rows = rows;
            candidate.height = std::max(height, bounds.height());
            double misfit = 0;
            for (std::size_t i = 0; i < cells.size(); ++i) {
                const Cells& c = cells[i];
                const QRectF rect(
                    bounds.left() + c.column * (cellWidth + gap), bounds.top() + c.row * (cellHeight + gap),
                    c.columns * cellWidth + (c.columns - 1) * gap, c.rows * cellHeight + (c.rows - 1) * gap);
                candidate.tiles.push_back(rect);
                misfit += std::abs(std::log(rect.width() / rect.height() / tiles[i].aspect));
            }
            // Scrolling hides tiles, which the page exists to avoid: it outweighs any misshapen tile.
            const double overflow = (height - bounds.height()) / bounds.height();
            const double score = std::max(0.0, overflow) * 100.0 + misfit / static_cast<double>(cells.size());
            if (score < bestScore - 1e-9) {
                bestScore = score;
                best = std::move(candidate);
            }
        }
    }
    return best;
}

} // namespace archplay::ui::views::layout
