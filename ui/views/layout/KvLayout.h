// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFontMetricsF>
#include <QRectF>

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
    std::vector<QRectF> gpuRows;    ///< label and verdict of each memory size
    std::vector<QRectF> gpuBars;    ///< the bar of each memory size
    std::vector<QRectF> gpuDetails; ///< a line under each bar; empty when there is no room for it
};

/// Lays the view out in `bounds`; the lower part splits into the curve (left, wider) and the GPU
/// panel (right). Nothing overlaps and everything stays inside `bounds`.
KvLayout layoutKvCache(const QRectF& bounds, const QFontMetricsF& metrics, const QFontMetricsF& headlineMetrics,
                       int kinds, int notes, int gpus);

/// Splits `bar` left to right into segments proportional to `values`, covering it exactly
/// (an all-zero list gives empty segments at the left edge).
std::vector<QRectF> proportionalSegments(const std::vector<std::uint64_t>& values, const QRectF& bar);

} // namespace archplay::ui::views::layout
