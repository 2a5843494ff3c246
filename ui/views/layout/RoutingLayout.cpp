// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/layout/RoutingLayout.h"

#include "ui/widgets/ShapedText.h"

#include <algorithm>
#include <cmath>

namespace archplay::ui::views::layout {

QRectF routingCell(const RoutingLayout& layout, int token, int expert) {
    return QRectF(layout.grid.left() + expert * layout.cellWidth, layout.grid.top() + token * layout.rowHeight,
                  layout.cellWidth, layout.rowHeight);
}

QRectF sharedCell(const RoutingLayout& layout, int token, int expert) {
    const qreal width = layout.sharedExperts > 0 ? layout.shared.width() / layout.sharedExperts : 0;
    return QRectF(layout.shared.left() + expert * width, layout.shared.top() + token * layout.rowHeight, width,
                  layout.rowHeight);
}

RoutingLayout layoutRouting(int tokens, int experts, int sharedExperts, const QRectF& bounds,
                            const widgets::TextMetrics& metrics, qreal tokenLabelWidth, qreal choiceWidth) {
    RoutingLayout layout;
    layout.experts = std::max(experts, 0);
    layout.sharedExperts = std::max(sharedExperts, 0);
    if (tokens <= 0 || experts <= 0 || bounds.isEmpty()) {
        return layout;
    }
    const qreal line = metrics.height();
    const qreal gap = 12;
    const qreal headerHeight = line + 4;
    // Rows of at least 6 px first; when the bounds are short, the totals go, then the load shrinks,
    // then it goes too, so nothing is drawn past the bottom.
    qreal loadHeight = std::clamp(bounds.height() * 0.14, 40.0, 90.0);
    qreal totalsHeight = 2 * line + 18;
    bool withLoad = true;
    auto rowsHeight = [&] {
        return bounds.height() - headerHeight - (withLoad ? line + 6 + loadHeight + 10 : 0) - totalsHeight - 10;
    };
    if (rowsHeight() < 6 * tokens) {
        totalsHeight = 0;
    }
    if (rowsHeight() < 6 * tokens) {
        loadHeight = std::max(16.0, loadHeight - (6 * tokens - rowsHeight()));
    }
    if (rowsHeight() < 4 * tokens) {
        withLoad = false;
    }
    layout.rowHeight = std::clamp(std::floor(rowsHeight() / tokens), 1.0, 28.0);

    const qreal sharedWidth =
        layout.sharedExperts > 0 ? std::min(layout.sharedExperts * layout.rowHeight * 1.6, 120.0) : 0;
    const qreal gridLeft = bounds.left() + tokenLabelWidth + gap + (sharedWidth > 0 ? sharedWidth + gap : 0);
    const qreal gridSpace = std::max(0.0, bounds.right() - choiceWidth - gap - gridLeft);
    qreal cellWidth = gridSpace / experts;
    if (cellWidth >= 2) {
        cellWidth = std::min(std::floor(cellWidth), layout.rowHeight * 2.2);
    }
    layout.cellWidth = cellWidth;
    const qreal gridWidth = cellWidth * experts;
    const qreal top = bounds.top() + headerHeight;
    layout.header = QRectF(bounds.left(), bounds.top(), bounds.width(), line);
    layout.grid = QRectF(gridLeft, top, gridWidth, layout.rowHeight * tokens);
    if (sharedWidth > 0) {
        layout.shared = QRectF(bounds.left() + tokenLabelWidth + gap, top, sharedWidth, layout.rowHeight * tokens);
    }
    const qreal choiceLeft = layout.grid.right() + gap;
    for (int t = 0; t < tokens; ++t) {
        const qreal y = top + t * layout.rowHeight;
        layout.tokenLabels.emplace_back(bounds.left(), y, tokenLabelWidth, layout.rowHeight);
        layout.choices.emplace_back(choiceLeft, y, std::max(0.0, bounds.right() - choiceLeft), layout.rowHeight);
    }
    qreal bottom = layout.grid.bottom();
    if (withLoad) {
        layout.loadTitle = QRectF(bounds.left(), bottom + 10, bounds.width(), line);
        layout.load = QRectF(gridLeft, layout.loadTitle.bottom() + 6, gridWidth, loadHeight);
        bottom = layout.load.bottom();
    }
    if (totalsHeight > 0) {
        layout.totals = QRectF(bounds.left(), bottom + 14, bounds.width(), totalsHeight);
    }
    return layout;
}

} // namespace archplay::ui::views::layout
