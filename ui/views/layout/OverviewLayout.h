// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QRectF>

#include <vector>

namespace archplay::ui::views::layout {

/// What a tile of the overview would like: its shape and whether it runs down two rows.
struct OverviewTileSpec {
    double aspect = 1.5; ///< preferred width / height
    int rowSpan = 1;     ///< rows it takes when the grid is tall enough for them (1 or 2)
};

/// Sizes below which a tile stops being legible, and the space between tiles. Units: pixels.
struct OverviewMetrics {
    qreal minTileWidth = 260;
    qreal minTileHeight = 180;
    qreal gap = 8;
};

struct OverviewLayout {
    std::vector<QRectF> tiles; ///< one per spec, in the specs' order
    int columns = 0;
    int rows = 0;
    /// Height of the grid: the bounds' height, or more when even the best grid needs the tiles'
    /// minimum height and the page has to scroll.
    qreal height = 0;
};

/// Arranges the tiles in reading order on a grid of equal cells that uses the width it has: every
/// column count whose cells are at least minTileWidth wide is tried, with and without the tall
/// tiles spanning two rows; holes at the end of a row are filled by widening the tile before them.
/// The grid kept is the one that scrolls least, then whose tiles come closest to their preferred
/// shapes. Tiles never overlap, stay inside (bounds.left, bounds.top, bounds.width, height), and
/// every spec gets a tile; an empty list or empty bounds give no tiles.
OverviewLayout layoutOverview(const std::vector<OverviewTileSpec>& tiles, const QRectF& bounds,
                              const OverviewMetrics& metrics = {});

} // namespace archplay::ui::views::layout
