// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/layout/WeightLayout.h"

#include "ui/widgets/ShapedText.h"

#include <algorithm>
#include <cmath>

namespace archplay::ui::views::layout {
namespace {

constexpr qreal kPadding = 8;
constexpr qreal kItemGap = 14;
constexpr qreal kGroupGap = 12;
constexpr qreal kVectorThickness = 4;
constexpr qreal kLabelGap = 4;

struct Drawing {
    qreal width = 0;
    qreal height = 0;
    qreal cellWidth = 0;
    qreal cellHeight = 0;
    qreal gap = 0;
    int columns = 1;
    bool toScale = true;
};

Drawing measure(const WeightItem& item, double scale) {
    Drawing d;
    if (item.vector) {
        d.cellWidth = std::max(1.0, item.elements * scale);
        d.cellHeight = kVectorThickness;
        d.width = d.cellWidth;
        d.height = d.cellHeight;
        d.toScale = false;
        return d;
    }
    const double aspect = item.aspect > 0 ? item.aspect : 1.0;
    const qreal width = std::sqrt(item.elements * aspect) * scale;
    const qreal height = std::sqrt(item.elements / aspect) * scale;
    d.toScale = width >= 1 && height >= 1;
    d.cellWidth = std::max<qreal>(width, 1);
    d.cellHeight = std::max<qreal>(height, 1);
    const int copies = std::max(item.copies, 1);
    if (copies == 1) {
        d.width = d.cellWidth;
        d.height = d.cellHeight;
        return d;
    }
    d.gap = std::clamp(std::min(d.cellWidth, d.cellHeight) * 0.12, 1.0, 6.0);
    // A roughly square grid.
    d.columns = std::clamp(
        static_cast<int>(std::lround(std::sqrt(copies * (d.cellHeight + d.gap) / (d.cellWidth + d.gap)))), 1, copies);
    const int rows = (copies + d.columns - 1) / d.columns;
    d.width = d.columns * d.cellWidth + (d.columns - 1) * d.gap;
    d.height = rows * d.cellHeight + (rows - 1) * d.gap;
    return d;
}

/// The top-most, then left-most (or with `columnsFirst` the left-most, then top-most), position for a box of `size`
/// that overlaps no placed box (with a gap) and stays inside `bounds`; candidates are the bounds' corner and the
/// corners beside and below each placed box. When nothing fits, the spot below everything.
QPointF freeSpot(const std::vector<QRectF>& occupied, const QSizeF& size, const QRectF& bounds, bool columnsFirst) {
    std::vector<QPointF> candidates = {bounds.topLeft()};
    qreal lowest = bounds.top();
    for (const QRectF& box : occupied) {
        candidates.emplace_back(box.right() + kGroupGap, box.top());
        candidates.emplace_back(box.left(), box.bottom() + kGroupGap);
        candidates.emplace_back(bounds.left(), box.bottom() + kGroupGap);
        lowest = std::max(lowest, box.bottom() + kGroupGap);
    }
    std::sort(candidates.begin(), candidates.end(), [columnsFirst](const QPointF& a, const QPointF& b) {
        if (columnsFirst) {
            return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
        }
        return a.y() < b.y() || (a.y() == b.y() && a.x() < b.x());
    });
    for (const QPointF& spot : candidates) {
        const QRectF box(spot, size);
        if (box.right() > bounds.right() + 0.01 || box.bottom() > bounds.bottom() + 0.01) {
            continue;
        }
        const QRectF padded = box.adjusted(-kGroupGap / 2, -kGroupGap / 2, kGroupGap / 2, kGroupGap / 2);
        const bool free = std::none_of(occupied.begin(), occupied.end(),
                                       [&](const QRectF& other) { return padded.intersects(other); });
        if (free) {
            return spot;
        }
    }
    return QPointF(bounds.left(), lowest);
}

/// Text widths, measured once: the scale search places the groups dozens of times.
struct Measures {
    qreal line = 0;
    WeightLabels labels = WeightLabels::All; ///< which drawings get two lines of label under them
    std::vector<qreal> labelWidths;
    std::vector<qreal> titleWidths;
};

/// A group's drawings flowed in rows at one scale, relative to the group's inner top-left.
struct GroupFlow {
    QSizeF frame;     ///< the frame around them, padding included
    bool fits = true; ///< false when one drawing is wider than the room inside the frame
};

/// Flows group `g`'s items left to right in rows of `innerWidth` at `scale`. With `placed`, also
/// records each drawing (and its grid cells with `withCells`); the scale search only needs sizes.
GroupFlow flowGroup(const std::vector<WeightItem>& items, int g, const Measures& measures, double scale,
                    qreal innerWidth, std::vector<PlacedWeight>* placed, bool withCells) {
    GroupFlow flow;
    const qreal line = measures.line;
    qreal x = 0;
    qreal y = line + 4;
    qreal rowHeight = 0;
    qreal contentWidth = std::min(measures.titleWidths[static_cast<std::size_t>(g)], innerWidth);
    for (std::size_t i = 0; i < items.size(); ++i) {
        const WeightItem& item = items[i];
        if (item.group != g) {
            continue;
        }
        const Drawing d = measure(item, scale);
        const bool labelled =
            measures.labels == WeightLabels::All || (measures.labels == WeightLabels::Matrices && !item.vector);
        const qreal labelHeight = labelled ? 2 * line : 0;
        const qreal labelWidth = labelled ? measures.labelWidths[i] : 0;
        const qreal cellWidth = std::max(d.width, labelWidth);
        const qreal cellHeight = d.height + (labelled ? kLabelGap + labelHeight : 0);
        if (cellWidth > innerWidth) {
            flow.fits = false;
        }
        if (x > 0 && x + cellWidth > innerWidth) {
            x = 0;
            y += rowHeight + kItemGap;
            rowHeight = 0;
        }
        if (placed != nullptr) {
            PlacedWeight weight;
            weight.item = static_cast<int>(i);
            weight.toScale = d.toScale;
            weight.rect = QRectF(x + (cellWidth - d.width) / 2, y, d.width, d.height);
            if (labelled) {
                weight.label = QRectF(x, y + d.height + kLabelGap, cellWidth, labelHeight);
            }
            const int copies = withCells ? std::max(item.copies, 1) : 0;
            weight.cells.reserve(static_cast<std::size_t>(copies));
            for (int c = 0; c < copies; ++c) {
                const int column = c % d.columns;
                const int row = c / d.columns;
                weight.cells.emplace_back(weight.rect.left() + column * (d.cellWidth + d.gap),
                                          weight.rect.top() + row * (d.cellHeight + d.gap), d.cellWidth, d.cellHeight);
            }
            placed->push_back(std::move(weight));
        }
        x += cellWidth + kItemGap;
        rowHeight = std::max(rowHeight, cellHeight);
        contentWidth = std::max(contentWidth, x - kItemGap);
    }
    flow.frame = QSizeF(contentWidth + 2 * kPadding, y + rowHeight + 2 * kPadding);
    return flow;
}

/// Whether the groups in `order` fit `bounds` at `scale`: the scale search's test, which stops at
/// the first group that does not and keeps no drawing.
bool fitsAt(const std::vector<WeightItem>& items, const std::vector<int>& order, const QRectF& bounds,
            const Measures& measures, double scale, bool columnsFirst) {
    const qreal innerWidth = bounds.width() - 2 * kPadding;
    std::vector<QRectF> occupied;
    occupied.reserve(order.size());
    for (int g : order) {
        const GroupFlow flow = flowGroup(items, g, measures, scale, innerWidth, nullptr, false);
        if (!flow.fits) {
            return false;
        }
        occupied.emplace_back(freeSpot(occupied, flow.frame, bounds, columnsFirst), flow.frame);
        if (!bounds.contains(occupied.back())) {
            return false;
        }
    }
    return true;
}

/// Places the groups in `order` at `scale`, every drawing and grid cell.
WeightLayout place(const std::vector<WeightItem>& items, const std::vector<int>& order, const QRectF& bounds,
                   const Measures& measures, double scale, bool columnsFirst) {
    WeightLayout layout;
    layout.scale = scale;
    layout.labels = measures.labels;
    const qreal innerWidth = bounds.width() - 2 * kPadding;
    std::vector<QRectF> occupied;
    for (int g : order) {
        std::vector<PlacedWeight> placed;
        const GroupFlow flow = flowGroup(items, g, measures, scale, innerWidth, &placed, true);
        const QPointF origin = freeSpot(occupied, flow.frame, bounds, columnsFirst);
        occupied.emplace_back(origin, flow.frame);
        PlacedGroup group;
        group.group = g;
        group.frame = occupied.back();
        group.title =
            QRectF(origin.x() + kPadding, origin.y() + kPadding, flow.frame.width() - 2 * kPadding, measures.line);
        const QPointF offset = origin + QPointF(kPadding, kPadding);
        for (PlacedWeight& weight : placed) {
            weight.rect.translate(offset);
            weight.label.translate(offset);
            for (QRectF& cell : weight.cells) {
                cell.translate(offset);
            }
            layout.items.push_back(std::move(weight));
        }
        layout.groups.push_back(group);
        layout.fits = layout.fits && flow.fits && bounds.contains(group.frame);
    }
    return layout;
}

} // namespace

WeightLayout layoutWeights(const std::vector<WeightItem>& items, const std::vector<WeightGroup>& groups,
                           const QRectF& bounds, const widgets::TextMetrics& metrics) {
    std::vector<int> given;
    std::vector<int> gridsLast;
    std::vector<int> gridsFirst;
    std::vector<bool> hasGrid(groups.size(), false);
    std::vector<bool> used(groups.size(), false);
    double totalArea = 0;
    for (const WeightItem& item : items) {
        if (item.group >= 0 && item.group < static_cast<int>(groups.size())) {
            used[static_cast<std::size_t>(item.group)] = true;
            hasGrid[static_cast<std::size_t>(item.group)] =
                hasGrid[static_cast<std::size_t>(item.group)] || item.copies > 1;
        }
        totalArea += item.vector ? 0 : item.elements * std::max(item.copies, 1);
    }
    for (int g = 0; g < static_cast<int>(groups.size()); ++g) {
        if (used[static_cast<std::size_t>(g)]) {
            given.push_back(g);
            (hasGrid[static_cast<std::size_t>(g)] ? gridsFirst : gridsLast).push_back(g);
        }
    }
    std::vector<int> firstThenRest = gridsFirst;
    firstThenRest.insert(firstThenRest.end(), gridsLast.begin(), gridsLast.end());
    std::vector<int> restThenGrids = gridsLast;
    restThenGrids.insert(restThenGrids.end(), gridsFirst.begin(), gridsFirst.end());
    // Largest first, the classic order for packing boxes.
    std::vector<double> groupArea(groups.size(), 0.0);
    for (const WeightItem& item : items) {
        if (item.group >= 0 && item.group < static_cast<int>(groups.size())) {
            groupArea[static_cast<std::size_t>(item.group)] +=
                item.vector ? 0 : item.elements * std::max(item.copies, 1);
        }
    }
    std::vector<int> largestFirst = given;
    std::stable_sort(largestFirst.begin(), largestFirst.end(), [&](int a, int b) {
        return groupArea[static_cast<std::size_t>(a)] > groupArea[static_cast<std::size_t>(b)];
    });

    // The distinct orders only: for most layers two or more of them coincide.
    std::vector<std::vector<int>> orders;
    for (const std::vector<int>& order : {given, firstThenRest, restThenGrids, largestFirst}) {
        if (std::find(orders.begin(), orders.end(), order) == orders.end()) {
            orders.push_back(order);
        }
    }
    Measures measures;
    measures.line = metrics.height();
    for (const WeightItem& item : items) {
        measures.labelWidths.push_back(
            std::max(metrics.horizontalAdvance(item.name), metrics.horizontalAdvance(item.detail)));
    }
    for (const WeightGroup& group : groups) {
        measures.titleWidths.push_back(metrics.horizontalAdvance(group.title));
    }

    // No scale can exceed the one at which the drawings alone cover the whole bounds.
    const double ceiling = totalArea > 0 ? std::sqrt(bounds.width() * bounds.height() / totalArea) : 1.0;
    std::vector<int> bestOrder = given;
    bool bestColumns = false;
    double bestScale = 0.0;
    bool anyFits = false;
    // Every label if some order fits them, else the matrices' labels only, else none.
    for (WeightLabels labels : {WeightLabels::All, WeightLabels::Matrices, WeightLabels::None}) {
        measures.labels = labels;
        const bool fits = std::any_of(orders.begin(), orders.end(), [&](const std::vector<int>& order) {
            return fitsAt(items, order, bounds, measures, 0.0, false) ||
                   fitsAt(items, order, bounds, measures, 0.0, true);
        });
        if (fits) {
            break;
        }
    }
    for (bool columnsFirst : {false, true}) {
        for (const std::vector<int>& order : orders) {
            // Prefer the reading order (rows first) unless columns allow a clearly larger drawing.
            const double toBeat = bestScale * (columnsFirst ? 1.04 : 1.0);
            double low = 0.0;
            double high = ceiling;
            // An order that cannot fit at the scale to beat cannot win: one test instead of fifteen.
            if (!fitsAt(items, order, bounds, measures, anyFits ? toBeat : low, columnsFirst)) {
                continue;
            }
            // Fourteen halvings find the scale to 1/16,384 of the ceiling: well under a pixel.
            for (int i = 0; i < 14; ++i) {
                const double middle = (low + high) / 2;
                (fitsAt(items, order, bounds, measures, middle, columnsFirst) ? low = middle : high = middle);
            }
            if (!anyFits || low > toBeat) {
                bestScale = low;
                bestOrder = order;
                bestColumns = columnsFirst;
                anyFits = true;
            }
        }
    }
    return place(items, bestOrder, bounds, measures, bestScale, bestColumns);
}

} // namespace archplay::ui::views::layout
