// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/WillItRunTile.h"

#include "core/report/Fit.h"
#include "ui/theme/Theme.h"
#include "ui/views/KindNames.h"
#include "ui/views/ViewColors.h"
#include "ui/views/layout/KvLayout.h"
#include "ui/widgets/ShapedText.h"
#include "ui/widgets/TextLines.h"

#include <QPainter>

#include <algorithm>

namespace archplay::ui::views {

WillItRunTile::WillItRunTile(QWidget* parent)
    : PaintedView(parent) {}

const std::vector<core::SummaryRow>& WillItRunTile::rows() const {
    ensureBuilt();
    return m_rows;
}

QStringList WillItRunTile::texts() const {
    ensureBuilt();
    return {m_verdict, m_memory};
}

void WillItRunTile::rebuild() {
    m_rows.clear();
    m_stack = {};
    m_verdict.clear();
    m_memory.clear();
    const core::Analysis& a = analysis();
    if (!a.valid) {
        return;
    }
    if (!a.costsValid) {
        // No figure rather than one from another rule (an engine without a rule, an overflow).
        for (const core::Diagnostic& d : a.diagnostics) {
            if (d.target == core::Field::KvAllocator || d.severity == core::Severity::Warning) {
                m_verdict = qs(d.message);
                break;
            }
        }
        return;
    }
    m_stack = core::servingStack(a);
    m_rows = core::willItRunRows(a);
    m_verdict = tr("Serving: %1").arg(qs(m_stack.verdict));
    QStringList parts;
    for (const core::MemorySegment& segment : m_stack.segments) {
        switch (segment.part) {
        case core::MemoryPart::Weights:
            parts << tr("weights %1").arg(bytesText(segment.bytes));
            break;
        case core::MemoryPart::KvCache:
            parts << tr("cache %1 (%2)").arg(bytesText(segment.bytes), qs(core::allocatorLabel(a.kv.allocator)));
            break;
        default:
            parts << tr("workspace %1").arg(bytesText(segment.bytes));
            break;
        }
    }
    m_memory = tr("Per GPU of %1: %2").arg(qs(m_stack.capacityLabel), parts.join(QStringLiteral(" + ")));
}

QString WillItRunTile::contentKey() const {
    QStringList parts{m_verdict, m_memory, QString::number(m_stack.capacityBytes)};
    for (const core::MemorySegment& segment : m_stack.segments) {
        parts << QString::number(segment.bytes);
    }
    for (const core::SummaryRow& row : m_rows) {
        parts << qs(row.label) << qs(row.value) << QString::number(int(row.tone));
    }
    return parts.join(QChar(0x1f));
}

const WillItRunTile::Placement& WillItRunTile::placement(const QRectF& target) const {
    if (m_placementTarget == target && m_placementGeneration == generation()) {
        return m_placement;
    }
    Placement& at = m_placement;
    at = Placement{};
    m_placementTarget = target;
    m_placementGeneration = generation();
    const widgets::TextMetrics metrics(snapshot().font);
    at.line = metrics.height();
    QFont bold = snapshot().font;
    bold.setBold(true);
    const qreal headerBottom = this->headerBottom(target, title(), QString());
    const QRectF area(target.left() + 14, headerBottom + 2, target.width() - 28, target.bottom() - headerBottom - 12);
    // Top to bottom: the verdict, one GPU's memory as a bar and a line, then a row per answer.
    at.verdict = widgets::wrapLines(m_verdict, bold, area.width(), m_stack.segments.empty() ? 8 : 2);
    at.verdictTop = area.top();
    qreal y = at.verdictTop + at.line * qreal(at.verdict.size()) + 4;
    if (!m_stack.segments.empty()) {
        at.bar = QRectF(area.left(), y, area.width(), std::clamp(area.height() * 0.12, at.line * 0.7, at.line * 1.4));
        std::vector<std::uint64_t> values;
        for (const core::MemorySegment& segment : m_stack.segments) {
            values.push_back(segment.bytes);
        }
        // The bar is the device: the parts take their share of its memory, or all of it when over.
        const std::uint64_t whole = std::max(m_stack.capacityBytes, m_stack.totalBytes);
        values.push_back(whole > m_stack.totalBytes ? whole - m_stack.totalBytes : 0);
        at.segments = layout::proportionalSegments(values, at.bar);
        at.segments.pop_back();
        at.memory = widgets::wrapLines(m_memory, snapshot().font, area.width(), 3);
        at.memoryTop = at.bar.bottom() + 4;
        y = at.memoryTop + at.line * qreal(at.memory.size()) + 6;
    }
    for (std::size_t i = 0; i < m_rows.size() && y + at.line <= area.bottom(); ++i) {
        at.rows.emplace_back(area.left(), y, area.width(), at.line);
        y += at.line + 3;
    }
    return m_placement;
}

void WillItRunTile::paintContent(QPainter& painter, const QRectF& target) const {
    paintHeader(painter, target, title(), QString());
    const Placement& at = placement(target);
    const QPalette pal = snapshot().palette;
    const widgets::TextMetrics metrics(snapshot().font);
    const qreal line = at.line;
    QFont bold = snapshot().font;
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(colors::tone(m_stack.segments.empty() ? core::Tone::Bad : m_stack.tone, pal));
    widgets::drawLines(painter, at.verdict, at.bar.isNull() ? target.left() + 14 : at.bar.left(), at.verdictTop,
                       target.width() - 28, line);
    painter.setFont(snapshot().font);
    if (!at.bar.isNull()) {
        painter.fillRect(at.bar, colors::panel(pal));
        for (std::size_t i = 0; i < at.segments.size(); ++i) {
            painter.fillRect(at.segments[i], colors::memory(m_stack.segments[i].part, pal));
        }
        painter.setPen(m_stack.fits ? QPen(colors::rule(pal), 1)
                                    : QPen(theme::severityColor(core::Severity::Error, pal), 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(at.bar);
        painter.setPen(colors::muted(pal));
        widgets::drawLines(painter, at.memory, at.bar.left(), at.memoryTop, at.bar.width(), line);
    }
    for (std::size_t i = 0; i < at.rows.size(); ++i) {
        const core::SummaryRow& row = m_rows[i];
        const QRectF& box = at.rows[i];
        const widgets::TextMetrics boldMetrics(bold);
        const QString value = boldMetrics.elidedText(qs(row.value), Qt::ElideRight, box.width() * 0.45);
        const qreal valueWidth = boldMetrics.horizontalAdvance(value) + 4;
        const QRectF valueBox(box.right() - valueWidth, box.top(), valueWidth, box.height());
        const QRectF labelBox(box.left(), box.top(), box.width() - valueWidth - 8, box.height());
        painter.setPen(pal.color(QPalette::Text));
        widgets::drawShaped(painter, labelBox, Qt::AlignLeft | Qt::AlignVCenter,
                            metrics.elidedText(qs(row.label), Qt::ElideRight, labelBox.width()));
        painter.setFont(bold);
        painter.setPen(colors::tone(row.tone, pal));
        widgets::drawShaped(painter, valueBox, Qt::AlignRight | Qt::AlignVCenter, value);
        painter.setFont(snapshot().font);
    }
}

} // namespace archplay::ui::views
