// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/layout/KvLayout.h"

#include <algorithm>

namespace archplay::ui::views::layout {

KvLayout layoutKvCache(const QRectF& bounds, const QFontMetricsF& metrics, const QFontMetricsF& headlineMetrics,
                       int kinds, int notes, int gpus) {
    KvLayout layout;
    const qreal line = metrics.height();
    qreal y = bounds.top();
    layout.headline = QRectF(bounds.left(), y, bounds.width(), headlineMetrics.height());
    y += headlineMetrics.height() + 6;
    layout.bar = QRectF(bounds.left(), y, bounds.width(), std::max(22.0, line * 1.5));
    y += layout.bar.height() + 6;
    for (int i = 0; i < kinds; ++i) {
        layout.rows.emplace_back(bounds.left(), y, bounds.width(), line);
        y += line + 2;
    }
    y += 4;
    for (int i = 0; i < notes; ++i) {
        layout.notes.emplace_back(bounds.left(), y, bounds.width(), line);
        y += line + 2;
    }
    y += 10;
    const qreal lower = std::max(0.0, bounds.bottom() - y);
    const qreal gap = 18;
    const qreal panelWidth = std::clamp(bounds.width() * 0.38, std::min(260.0, bounds.width() * 0.5), 460.0);
    const qreal curveWidth = std::max(0.0, bounds.width() - panelWidth - gap);
    layout.curve = QRectF(bounds.left(), y, curveWidth, lower);
    const qreal panelLeft = bounds.left() + curveWidth + gap;
    layout.gpuTitle = QRectF(panelLeft, y, panelWidth, line);
    const qreal rowsTop = y + line + 6;
    const qreal rowHeight = gpus > 0 ? std::max(0.0, (bounds.bottom() - rowsTop) / gpus) : 0;
    const bool details = rowHeight >= 2 * line + 18;
    const qreal barHeight = std::clamp(rowHeight - line * (details ? 2 : 1) - 10, 0.0, 14.0);
    for (int i = 0; i < gpus; ++i) {
        const qreal top = rowsTop + i * rowHeight;
        layout.gpuRows.emplace_back(panelLeft, top, panelWidth, line);
        layout.gpuBars.emplace_back(panelLeft, top + line + 2, panelWidth, barHeight);
        layout.gpuDetails.push_back(details ? QRectF(panelLeft, top + line + 4 + barHeight, panelWidth, line)
                                            : QRectF());
    }
    return layout;
}

std::vector<QRectF> proportionalSegments(const std::vector<std::uint64_t>& values, const QRectF& bar) {
    std::vector<QRectF> segments;
    long double total = 0;
    for (std::uint64_t value : values) {
        total += static_cast<long double>(value);
    }
    qreal x = bar.left();
    long double running = 0;
    for (std::uint64_t value : values) {
        running += static_cast<long double>(value);
        // Each edge from the running sum, so rounding never accumulates and the last edge is exact.
        const qreal right = total > 0 ? bar.left() + static_cast<qreal>(running / total) * bar.width() : bar.left();
        segments.emplace_back(x, bar.top(), right - x, bar.height());
        x = right;
    }
    return segments;
}

} // namespace archplay::ui::views::layout
