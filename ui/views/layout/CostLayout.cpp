// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/layout/CostLayout.h"

#include "ui/widgets/ShapedText.h"
#include "ui/widgets/TextLines.h"

#include <algorithm>

namespace archplay::ui::views::layout {
namespace {

constexpr qreal kRowGap = 5;    ///< between rows
constexpr qreal kValueGap = 10; ///< between a label and its value
constexpr int kDetailLines = 2; ///< a detail longer than this is left out

struct MeasuredRow {
    QStringList labelLines;
    qreal valueWidth = 0;
    QStringList detailLines;
};

MeasuredRow measure(qreal width, const QFont& font, const QFont& bold, const RowText& row, qreal indent) {
    MeasuredRow measured;
    measured.valueWidth = widgets::TextMetrics(bold).horizontalAdvance(row.value);
    const qreal labelWidth = std::max<qreal>(1, width - indent - measured.valueWidth - kValueGap);
    measured.labelLines = widgets::wrapLines(row.label, font, labelWidth, widgets::kEveryLine);
    if (measured.labelLines.isEmpty()) {
        measured.labelLines << QString();
    }
    measured.detailLines =
        widgets::wrapLines(row.detail, font, std::max<qreal>(1, width - indent), widgets::kEveryLine);
    return measured;
}

} // namespace

qreal rowsHeight(qreal width, const QFont& font, const QFont& bold, const std::vector<RowText>& rows, bool details,
                 qreal indent) {
    const qreal line = widgets::TextMetrics(font).height();
    qreal height = 0;
    for (const RowText& row : rows) {
        const MeasuredRow measured = measure(width, font, bold, row, indent);
        height += line * qreal(measured.labelLines.size()) + kRowGap;
        if (details && !measured.detailLines.isEmpty() && measured.detailLines.size() <= kDetailLines) {
            height += line * qreal(measured.detailLines.size());
        }
    }
    return height;
}

std::vector<RowPlacement> layoutRows(const QRectF& bounds, const QFont& font, const QFont& bold,
                                     const std::vector<RowText>& rows, qreal indent) {
    const qreal line = widgets::TextMetrics(font).height();
    std::vector<MeasuredRow> measured;
    qreal used = 0;
    // Every row's label line first, as many as fit.
    for (const RowText& row : rows) {
        MeasuredRow each = measure(bounds.width(), font, bold, row, indent);
        const qreal height = line * qreal(each.labelLines.size());
        if (used + height > bounds.height() + 0.01) {
            break;
        }
        used += height + kRowGap;
        measured.push_back(std::move(each));
    }
    // Then details, first rows first, while they fit.
    std::vector<bool> withDetail(measured.size(), false);
    for (std::size_t i = 0; i < measured.size(); ++i) {
        const QStringList& lines = measured[i].detailLines;
        const qreal height = line * qreal(lines.size());
        if (!lines.isEmpty() && lines.size() <= kDetailLines && used + height <= bounds.height() + kRowGap + 0.01) {
            withDetail[i] = true;
            used += height;
        }
    }
    std::vector<RowPlacement> placed;
    qreal y = bounds.top();
    for (std::size_t i = 0; i < measured.size(); ++i) {
        RowPlacement row;
        const MeasuredRow& each = measured[i];
        const qreal labelHeight = line * qreal(each.labelLines.size());
        row.labelLines = each.labelLines;
        row.label =
            QRectF(bounds.left() + indent, y, bounds.width() - indent - each.valueWidth - kValueGap, labelHeight);
        row.value = QRectF(bounds.right() - each.valueWidth, y, each.valueWidth, line);
        qreal bottom = y + labelHeight;
        if (withDetail[i]) {
            row.detailLines = each.detailLines;
            row.detail =
                QRectF(bounds.left() + indent, bottom, bounds.width() - indent, line * qreal(each.detailLines.size()));
            bottom = row.detail.bottom();
        }
        row.whole = QRectF(bounds.left(), y, bounds.width(), bottom - y);
        placed.push_back(row);
        y = bottom + kRowGap;
    }
    return placed;
}

std::vector<QRectF> flowEntries(const QRectF& bounds, const std::vector<qreal>& widths, qreal lineHeight, qreal gap) {
    std::vector<QRectF> entries;
    qreal x = bounds.left();
    qreal y = bounds.top();
    for (qreal width : widths) {
        width = std::min(width, bounds.width());
        if (x > bounds.left() && x + width > bounds.right()) {
            x = bounds.left();
            y += lineHeight;
        }
        if (y + lineHeight > bounds.bottom() + 0.01) {
            break;
        }
        entries.emplace_back(x, y, width, lineHeight);
        x += width + gap;
    }
    return entries;
}

std::vector<QRectF> scaledSegments(const std::vector<std::uint64_t>& values, const QRectF& bar, double scale) {
    std::vector<QRectF> segments;
    long double running = 0;
    qreal x = bar.left();
    for (std::uint64_t value : values) {
        running += static_cast<long double>(value);
        // Each edge from the running sum, so rounding never accumulates.
        const qreal right =
            scale > 0 ? bar.left() + static_cast<qreal>(running / static_cast<long double>(scale)) * bar.width()
                      : bar.left();
        segments.emplace_back(x, bar.top(), std::max<qreal>(0, right - x), bar.height());
        x = right;
    }
    return segments;
}

qreal scaledX(double value, const QRectF& bar, double scale) {
    if (!(scale > 0)) {
        return bar.left();
    }
    return bar.left() + std::clamp(value / scale, 0.0, 1.0) * bar.width();
}

ComputeLayout layoutCompute(const QRectF& bounds, const widgets::TextMetrics& metrics,
                            const widgets::TextMetrics& headline, const std::vector<qreal>& legendWidths, int kinds) {
    ComputeLayout layout;
    const qreal line = metrics.height();
    const qreal gap = 18;
    const qreal panel = std::clamp(bounds.width() * 0.34, std::min(240.0, bounds.width() * 0.45), 440.0);
    const qreal left = bounds.left();
    const qreal width = std::max<qreal>(0, bounds.width() - panel - gap);
    layout.rows = QRectF(bounds.right() - panel, bounds.top(), panel, bounds.height());
    qreal y = bounds.top();
    layout.headline = QRectF(left, y, width, headline.height());
    y += headline.height() + 6;
    layout.bar = QRectF(left, y, width, std::max(22.0, line * 1.5));
    y += layout.bar.height() + 6;
    // Every component has its legend entry (a line each at most): the curve keeps the rest.
    const qreal legendRoom = line * qreal(std::max<std::size_t>(legendWidths.size(), 1));
    const QRectF legendBounds(left, y, width, std::clamp<qreal>(bounds.bottom() - y, 0, legendRoom));
    layout.legend = flowEntries(legendBounds, legendWidths, line, 14);
    qreal legendBottom = y;
    for (const QRectF& entry : layout.legend) {
        legendBottom = std::max(legendBottom, entry.bottom());
    }
    y = legendBottom + 10;
    const qreal rowHeight = line + 2;
    const qreal tableRoom = std::max<qreal>(0, (bounds.bottom() - y) * 0.45);
    const int fitting = std::max(0, static_cast<int>(tableRoom / rowHeight) - 1);
    const int shown = std::min(kinds, fitting);
    if (shown > 0) {
        layout.kindHeader = QRectF(left, y, width, rowHeight);
        y += rowHeight;
        for (int i = 0; i < shown; ++i) {
            layout.kindRows.emplace_back(left, y, width, rowHeight);
            y += rowHeight;
        }
        y += 10;
    }
    layout.curve = QRectF(left, y, width, std::max<qreal>(0, bounds.bottom() - y));
    return layout;
}

MemoryLayout layoutMemory(const QRectF& bounds, const widgets::TextMetrics& metrics, int servingVerdictLines,
                          int trainingVerdictLines, qreal sideBySide) {
    MemoryLayout layout;
    const qreal line = metrics.height();
    const qreal gap = 28;
    const bool wide = bounds.width() >= sideBySide;
    const int verdictLines = std::max(servingVerdictLines, trainingVerdictLines);
    const auto panel = [&](const QRectF& area) {
        MemoryPanelLayout placed;
        qreal y = area.top();
        placed.title = QRectF(area.left(), y, area.width(), line * 1.2);
        y += placed.title.height() + 2;
        // Both panels give the verdict the same height, so their bars line up.
        placed.verdict = QRectF(area.left(), y, area.width(), line * verdictLines);
        y += placed.verdict.height() + 8;
        placed.capacity = QRectF(area.left(), y, area.width(), line);
        y += line + 2;
        placed.bar = QRectF(area.left(), y, area.width(), std::max(24.0, line * 1.6));
        y += placed.bar.height() + 12;
        placed.rows = QRectF(area.left(), y, area.width(), std::max<qreal>(0, area.bottom() - y));
        return placed;
    };
    if (wide) {
        const qreal half = (bounds.width() - gap) / 2;
        layout.serving = panel(QRectF(bounds.left(), bounds.top(), half, bounds.height()));
        layout.training = panel(QRectF(bounds.right() - half, bounds.top(), half, bounds.height()));
    } else {
        const qreal half = (bounds.height() - gap) / 2;
        layout.serving = panel(QRectF(bounds.left(), bounds.top(), bounds.width(), half));
        layout.training = panel(QRectF(bounds.left(), bounds.bottom() - half, bounds.width(), half));
    }
    return layout;
}

SpeedLayout layoutSpeed(const QRectF& bounds, const widgets::TextMetrics& metrics, const widgets::TextMetrics& headline,
                        int noteLines, bool decode, qreal rowsHeight) {
    SpeedLayout layout;
    const qreal line = metrics.height();
    qreal y = bounds.top();
    layout.headline = QRectF(bounds.left(), y, bounds.width(), headline.height());
    y += headline.height() + 4;
    if (noteLines > 0) {
        layout.note = QRectF(bounds.left(), y, bounds.width(), line * noteLines);
        y += layout.note.height() + 6;
    }
    const qreal gap = 24;
    rowsHeight = std::clamp<qreal>(rowsHeight, 0, std::max<qreal>(0, bounds.bottom() - y));
    const qreal chartsBottom = bounds.bottom() - rowsHeight - (rowsHeight > 0 ? 12 : 0);
    const qreal titleHeight = line + 2;
    const qreal chartsHeight = std::max<qreal>(0, chartsBottom - y - titleHeight);
    if (decode) {
        const qreal half = (bounds.width() - gap) / 2;
        layout.decodeTitle = QRectF(bounds.left(), y, half, line);
        layout.decode = QRectF(bounds.left(), y + titleHeight, half, chartsHeight);
        layout.rooflineTitle = QRectF(bounds.right() - half, y, half, line);
        layout.roofline = QRectF(bounds.right() - half, y + titleHeight, half, chartsHeight);
    } else {
        layout.rooflineTitle = QRectF(bounds.left(), y, bounds.width(), line);
        layout.roofline = QRectF(bounds.left(), y + titleHeight, bounds.width(), chartsHeight);
    }
    const qreal rowsTop = bounds.bottom() - rowsHeight;
    const qreal half = (bounds.width() - gap) / 2;
    layout.rowsLeft = QRectF(bounds.left(), rowsTop, half, rowsHeight);
    layout.rowsRight = QRectF(bounds.right() - half, rowsTop, half, rowsHeight);
    return layout;
}

} // namespace archplay::ui::views::layout
