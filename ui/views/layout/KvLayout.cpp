// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/layout/KvLayout.h"

#include "ui/widgets/ShapedText.h"
#include "ui/widgets/TextLines.h"

#include <algorithm>

namespace archplay::ui::views::layout {

KvLayout layoutKvCache(const QRectF& bounds, const widgets::TextMetrics& metrics,
                       const widgets::TextMetrics& headlineMetrics, int kinds, int notes, int gpus) {
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
    for (int i = 0; i < gpus; ++i) {
        layout.gpuRows.emplace_back(panelLeft, rowsTop + i * rowHeight, panelWidth, std::max(0.0, rowHeight - 4));
    }
    return layout;
}

GpuRowLayout layoutGpuRow(const QRectF& slot, const QFont& font, const QFont& bold, const QString& label,
                          const QString& verdict, const QString& detail) {
    GpuRowLayout row;
    const widgets::TextMetrics metrics(font);
    const qreal line = metrics.height();
    const qreal labelWidth = widgets::TextMetrics(bold).horizontalAdvance(label + QStringLiteral("  "));
    qreal y = slot.top();
    const qreal verdictWidth = metrics.horizontalAdvance(verdict);
    row.label = QRectF(slot.left(), y, slot.width(), line);
    y += line;
    if (verdictWidth <= slot.width() - labelWidth) {
        row.verdictLines = QStringList{verdict};
        row.verdict = QRectF(slot.left() + labelWidth, row.label.top(), slot.width() - labelWidth, line);
        row.examples = QRectF(slot.left() + labelWidth, row.label.top(),
                              std::max(0.0, slot.width() - labelWidth - verdictWidth - 8), line);
    } else {
        row.examples = QRectF(slot.left() + labelWidth, row.label.top(), slot.width() - labelWidth, line);
        row.verdictLines = widgets::wrapLines(verdict, font, slot.width(), 3);
        row.verdict = QRectF(slot.left(), y, slot.width(), line * qreal(row.verdictLines.size()));
        y = row.verdict.bottom();
    }
    const qreal gap = 2;
    // Wrapped without a limit, so a detail too long for two lines is left out rather than cut.
    const QStringList detailLines = widgets::wrapLines(detail, font, slot.width(), widgets::kEveryLine);
    const qreal detailHeight = line * qreal(detailLines.size());
    const qreal room = slot.bottom() - y - 2 * gap;
    // The bar keeps at least 4 px; the detail comes only when it fits whole beside a bar of 6 px or more.
    const bool withDetail = !detailLines.isEmpty() && detailLines.size() <= 2 && room - detailHeight >= 6;
    const qreal barHeight = std::clamp(withDetail ? room - detailHeight - 4 : room - 4, 0.0, 14.0);
    row.bar = QRectF(slot.left(), y + gap, slot.width(), barHeight);
    if (withDetail) {
        row.detailLines = detailLines;
        row.detail = QRectF(slot.left(), row.bar.bottom() + gap, slot.width(), detailHeight);
    }
    return row;
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
