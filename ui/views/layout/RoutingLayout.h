// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/widgets/ShapedText.h"

#include <QRectF>

#include <vector>

namespace archplay::ui::views::layout {

/// The routing picture: a row per sample token (its label, its shared experts, one cell per routed
/// expert, the chosen experts in words), the load per expert under the grid, totals at the bottom.
struct RoutingLayout {
    QRectF header; ///< column titles above the rows
    std::vector<QRectF> tokenLabels;
    std::vector<QRectF> choices;
    QRectF shared; ///< the block of shared-expert cells (empty without shared experts)
    QRectF grid;   ///< the block of routed-expert cells
    qreal cellWidth = 0;
    qreal rowHeight = 0;
    int experts = 0;
    int sharedExperts = 0;
    QRectF loadTitle;
    QRectF load;   ///< bars aligned with the grid's columns; empty when the bounds are too short
    QRectF totals; ///< total versus active: a line of text over a bar; empty when too short
};

/// Cell of routed expert `expert` in row `token`.
QRectF routingCell(const RoutingLayout& layout, int token, int expert);
/// Cell of shared expert `expert` in row `token`.
QRectF sharedCell(const RoutingLayout& layout, int token, int expert);

/// Lays out `tokens` rows over `experts` routed and `sharedExperts` shared experts inside `bounds`.
/// Cells are whole pixels wide when at least two pixels fit, so narrow columns stay crisp. Short
/// bounds drop the totals, then shrink and drop the load, so everything stays inside `bounds`.
RoutingLayout layoutRouting(int tokens, int experts, int sharedExperts, const QRectF& bounds,
                            const widgets::TextMetrics& metrics, qreal tokenLabelWidth, qreal choiceWidth);

} // namespace archplay::ui::views::layout
