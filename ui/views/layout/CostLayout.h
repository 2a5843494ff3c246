// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/widgets/ShapedText.h"

#include <QFont>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace archplay::ui::views::layout {

/// The geometry of the compute, memory and speed views: rectangles from the sizes of their texts and
/// the counts core reports, tested for overlaps and bounds, never pixels.

/// One row of core's cost rows as a panel shows it.
struct RowText {
    QString label;
    QString value;
    QString detail;
};

/// Where one row went: its label lines with the value right-aligned on the first, and the detail's
/// lines under them when there was room.
struct RowPlacement {
    QRectF label; ///< the label's lines, left of the value
    QStringList labelLines;
    QRectF value;  ///< right-aligned on the label's first line
    QRectF detail; ///< empty without a detail shown
    QStringList detailLines;
    QRectF whole; ///< the row's full extent
};

/// Rows top to bottom in `bounds`: each row's label (wrapped beside its value, in `font`) and its
/// value (in `bold`), as many rows as fit; then their details (wrapped to at most two lines in
/// `font`), first rows first, as long as the rest still fits. A row or a detail with no room is left
/// out whole, never cut. `indent` keeps room at the left of the label (a colour swatch). Nothing
/// overlaps; everything stays inside `bounds`.
std::vector<RowPlacement> layoutRows(const QRectF& bounds, const QFont& font, const QFont& bold,
                                     const std::vector<RowText>& rows, qreal indent = 0);

/// The height layoutRows() needs to show every row in `width`, with their details or without.
qreal rowsHeight(qreal width, const QFont& font, const QFont& bold, const std::vector<RowText>& rows, bool details,
                 qreal indent = 0);

/// Entries (a swatch and a text of the given width each) flowed left to right in lines of
/// `bounds`' width, `gap` apart; entries that do not fit the height are left out (fewer rectangles).
std::vector<QRectF> flowEntries(const QRectF& bounds, const std::vector<qreal>& widths, qreal lineHeight, qreal gap);

/// Segments of a horizontal bar drawn to a scale: segment i is values[i] / scale of the bar's width,
/// left to right from the bar's left edge. Units: `values` and `scale` alike (bytes, FLOPs).
std::vector<QRectF> scaledSegments(const std::vector<std::uint64_t>& values, const QRectF& bar, double scale);
/// The x of `value` on a bar drawn to `scale`, clamped to the bar.
qreal scaledX(double value, const QRectF& bar, double scale);

/// The compute view: a headline, the bar of a token's FLOPs by component with its legend, the table
/// by layer kind (a header and a line per kind), the curve against position, and core's rows in a
/// panel at the right over the whole height.
struct ComputeLayout {
    QRectF headline;
    QRectF bar;
    std::vector<QRectF> legend; ///< one per component entry that fits
    QRectF kindHeader;
    std::vector<QRectF> kindRows; ///< one per layer kind, at most as many as fit
    QRectF curve;
    QRectF rows;
};
ComputeLayout layoutCompute(const QRectF& bounds, const widgets::TextMetrics& metrics,
                            const widgets::TextMetrics& headline, const std::vector<qreal>& legendWidths, int kinds);

/// One side of the memory view: a heading, the verdict's lines, the device's memory line's label
/// above the bar, the bar, and the rows.
struct MemoryPanelLayout {
    QRectF title;
    QRectF verdict;
    QRectF capacity;
    QRectF bar;
    QRectF rows;
};
/// The memory view: serving and training side by side (one above the other when narrower than
/// `sideBySide`), their bars drawn to one scale.
struct MemoryLayout {
    MemoryPanelLayout serving;
    MemoryPanelLayout training;
};
MemoryLayout layoutMemory(const QRectF& bounds, const widgets::TextMetrics& metrics, int servingVerdictLines,
                          int trainingVerdictLines, qreal sideBySide = 620);

/// The speed view: a headline, a note (its lines), the decode curve and the roofline side by side
/// (the roofline alone for a model without decode), and core's rows in two columns under them.
struct SpeedLayout {
    QRectF headline;
    QRectF note;
    QRectF decodeTitle; ///< a line above its chart; empty without decode
    QRectF decode;      ///< empty without decode
    QRectF rooflineTitle;
    QRectF roofline;
    QRectF rowsLeft;
    QRectF rowsRight;
};
SpeedLayout layoutSpeed(const QRectF& bounds, const widgets::TextMetrics& metrics, const widgets::TextMetrics& headline,
                        int noteLines, bool decode, qreal rowsHeight);

} // namespace archplay::ui::views::layout
