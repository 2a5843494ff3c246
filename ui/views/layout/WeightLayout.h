// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/widgets/ShapedText.h"

#include <QRectF>
#include <QString>

#include <vector>

namespace archplay::ui::views::layout {

/// A weight to draw: a matrix, a grid of identical matrices (routed experts) or a vector.
struct WeightItem {
    QString name;        ///< first label line, e.g. "q_proj"
    QString detail;      ///< second label line, e.g. "4096 × 1024 · 4.19M"
    double elements = 0; ///< elements of one copy (drawn area is proportional to it)
    double aspect = 1;   ///< width / height of one copy: d_out / d_in for a matrix
    int copies = 1;      ///< more than one: drawn as a grid of copies
    bool vector = false; ///< 1-D: its length is to scale, its thickness is not
    int group = 0;       ///< index into the groups
};

/// A labelled frame around some items: "Attention", "Routed experts", ...
struct WeightGroup {
    QString title;
};

struct PlacedWeight {
    int item = 0;
    QRectF rect;               ///< the drawing: one matrix, or the bounding box of a grid
    std::vector<QRectF> cells; ///< one per copy (a single copy: rect itself)
    QRectF label;              ///< two lines under the drawing
    bool toScale = true;       ///< false when a side had to be widened to stay visible (vectors always)
};

struct PlacedGroup {
    int group = 0;
    QRectF frame;
    QRectF title;
};

/// Which drawings are labelled: all, the matrices only (the vectors' labels did not fit), none.
enum class WeightLabels { All, Matrices, None };

struct WeightLayout {
    /// Pixels per sqrt(element): a matrix of r x c elements is drawn (c * scale) wide, (r * scale) high.
    double scale = 0;
    std::vector<PlacedWeight> items;
    std::vector<PlacedGroup> groups;
    bool fits = true;                        ///< false when even the smallest drawing overflows `bounds`
    WeightLabels labels = WeightLabels::All; ///< which drawings have a label (the others' are empty)
};

/// Draws every item at one common scale, the largest at which the groups, flowed left to right
/// and top to bottom (items in rows inside their group, labels under each drawing), fit `bounds`.
/// So areas are proportional to element counts across the whole layer: GQA's narrow K and V and
/// MoE's expert grid show at their true relative sizes. Tries a few group orders and keeps the
/// one that allows the largest scale. Sides below one pixel are widened to one (toScale = false).
/// When the labels alone overflow `bounds` (a small tile), the vectors lose theirs, then the matrices.
WeightLayout layoutWeights(const std::vector<WeightItem>& items, const std::vector<WeightGroup>& groups,
                           const QRectF& bounds, const widgets::TextMetrics& metrics);

} // namespace archplay::ui::views::layout
