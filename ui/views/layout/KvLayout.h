// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/widgets/ShapedText.h"

#include <QFont>
#include <QRectF>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace archplay::ui::views::layout {

/// The KV cache view: a headline, the memory bar split by layer kind with a table row per kind,
/// notes on what windows and MLA save, then the cache curve beside the GPU fit panel.
struct KvLayout {
    QRectF headline;           ///< the size in large type and the scenario
    QRectF bar;                ///< the memory bar
    std::vector<QRectF> rows;  ///< one per layer kind, under the bar
    std::vector<QRectF> notes; ///< one line each
    QRectF curve;              ///< the QCustomPlot
    QRectF gpuTitle;
    std::vector<QRectF> gpuRows; ///< the slot of each memory size, laid out by layoutGpuRow()
};

/// One memory size of the GPU panel: its label, the verdict beside it or on the lines below when it
/// does not fit beside, a bar, and the detail under the bar when the slot has room for all of it.
struct GpuRowLayout {
    QRectF label;    ///< the label's line
    QRectF examples; ///< the room on that line after the label (and before a verdict beside it)
    QRectF verdict;  ///< right-aligned lines, one per entry of verdictLines
    QStringList verdictLines;
    QRectF bar;
    QRectF detail;
    QStringList detailLines; ///< empty when the slot has no room for the whole detail
};

/// Lays the view out in `bounds`; the lower part splits into the curve (left, wider) and the GPU
/// panel (right). Nothing overlaps and everything stays inside `bounds`.
KvLayout layoutKvCache(const QRectF& bounds, const widgets::TextMetrics& metrics,
                       const widgets::TextMetrics& headlineMetrics, int kinds, int notes, int gpus);

/// Lays one GPU row out in `slot`: `bold` is the label's font, `font` the verdict's and the detail's.
/// Texts wrap (the verdict to three lines, the detail to two) and are not cut: a detail with no room
/// is left out; everything stays inside `slot`.
GpuRowLayout layoutGpuRow(const QRectF& slot, const QFont& font, const QFont& bold, const QString& label,
                          const QString& verdict, const QString& detail);

/// Splits `bar` left to right into segments proportional to `values`, covering it exactly
/// (an all-zero list gives empty segments at the left edge).
std::vector<QRectF> proportionalSegments(const std::vector<std::uint64_t>& values, const QRectF& bar);

} // namespace archplay::ui::views::layout
