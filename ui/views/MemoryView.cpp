// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/MemoryView.h"

#include "core/util/Format.h"
#include "ui/theme/Theme.h"
#include "ui/views/ViewColors.h"
#include "ui/widgets/ShapedText.h"
#include "ui/widgets/TextLines.h"

#include <QPainter>

#include <algorithm>

namespace archplay::ui::views {
namespace {

constexpr int kVerdictLines = 2;
constexpr qreal kPanelSplit = 620; ///< side by side from this width

} // namespace

MemoryView::MemoryView(QWidget* parent)
    : CostView(core::CostTopic::Memory, parent) {}

MemoryView::~MemoryView() = default;

const core::MemoryStack& MemoryView::serving() const {
    ensureBuilt();
    return m_serving;
}

const core::MemoryStack& MemoryView::training() const {
    ensureBuilt();
    return m_training;
}

const std::vector<core::SummaryRow>& MemoryView::servingRows() const {
    ensureBuilt();
    return m_servingRows;
}

const std::vector<core::SummaryRow>& MemoryView::trainingRows() const {
    ensureBuilt();
    return m_trainingRows;
}

void MemoryView::rebuildFigure() {
    const core::Analysis& a = analysis();
    m_serving = core::servingStack(a);
    m_training = core::trainingStack(a);
    m_servingRows = core::servingMemoryRows(a);
    m_trainingRows = core::trainingMemoryRows(a);
    const core::Scenario& s = a.scenario;
    m_subtitle = tr("One GPU's memory, part by part, against the %1 of a %2: serving a batch of %3 × %4 tokens, "
                    "and training on micro-batches of %5 × %4 tokens.")
                     .arg(qs(core::binaryBytes(s.gpu.memoryBytes())), qs(s.gpu.name))
                     .arg(s.batch)
                     .arg(qs(core::tokenCount(s.sequenceLength)))
                     .arg(s.microBatch);
}

double MemoryView::barScale(const core::MemoryStack& stack) {
    // A little room past the larger of the two, so the device's line never sits on the bar's end.
    return 1.08 * double(std::max<std::uint64_t>({stack.capacityBytes, stack.totalBytes, 1}));
}

std::vector<QRectF> MemoryView::segments(const core::MemoryStack& stack, const QRectF& bar) {
    std::vector<std::uint64_t> values;
    for (const core::MemorySegment& segment : stack.segments) {
        values.push_back(segment.bytes);
    }
    return layout::scaledSegments(values, bar, barScale(stack));
}

QStringList MemoryView::verdictLines(const core::MemoryStack& stack, qreal width) const {
    QFont bold = snapshot().font;
    bold.setBold(true);
    // The whole verdict, or its first clause when the whole needs more lines than the panel gives it.
    const QStringList whole = widgets::wrapLines(qs(stack.verdict), bold, width, widgets::kEveryLine);
    return whole.size() <= kVerdictLines ? whole
                                         : widgets::wrapLines(qs(stack.shortVerdict), bold, width, widgets::kEveryLine);
}

layout::MemoryLayout MemoryView::layoutIn(const QRectF& content) const {
    const bool wide = content.width() >= kPanelSplit;
    const qreal panelWidth = wide ? (content.width() - 28) / 2 : content.width();
    const int serving =
        static_cast<int>(std::min<qsizetype>(verdictLines(m_serving, panelWidth).size(), kVerdictLines));
    const int training =
        static_cast<int>(std::min<qsizetype>(verdictLines(m_training, panelWidth).size(), kVerdictLines));
    return layout::layoutMemory(content, widgets::TextMetrics(snapshot().font), serving, training, kPanelSplit);
}

layout::MemoryLayout MemoryView::layoutFor(const QRectF& target, bool onScreen) const {
    ensureBuilt();
    return layoutIn(contentRect(target, onScreen));
}

void MemoryView::paintFigure(QPainter& painter, const QRectF& content, bool) const {
    const layout::MemoryLayout placed = layoutIn(content);
    paintPanel(painter, placed.serving, m_serving, m_servingRows);
    paintPanel(painter, placed.training, m_training, m_trainingRows);
}

void MemoryView::paintPanel(QPainter& painter, const layout::MemoryPanelLayout& placed, const core::MemoryStack& stack,
                            const std::vector<core::SummaryRow>& rows) const {
    const QPalette pal = snapshot().palette;
    const widgets::TextMetrics metrics(snapshot().font);
    const qreal line = metrics.height();
    QFont bold = snapshot().font;
    bold.setBold(true);
    QFont heading = titleFont();
    heading.setPointSizeF(snapshot().font.pointSizeF() * 1.1);
    painter.setFont(heading);
    painter.setPen(pal.color(QPalette::Text));
    painter.drawText(placed.title, Qt::AlignLeft | Qt::AlignVCenter,
                     widgets::firstThatFits(widgets::TextMetrics(heading), {qs(stack.title)}, placed.title.width()));
    // The verdict, or nothing when even its short form needs more lines than it has: it is in the rows too.
    const QStringList verdict = verdictLines(stack, placed.verdict.width());
    if (verdict.size() <= kVerdictLines) {
        painter.setFont(bold);
        painter.setPen(toneColor(stack.tone));
        widgets::drawLines(painter, verdict, placed.verdict.left(), placed.verdict.top(), placed.verdict.width(), line);
    }

    // The bar, its parts and the device's memory line.
    const double scale = barScale(stack);
    const qreal capacityX = layout::scaledX(double(stack.capacityBytes), placed.bar, scale);
    painter.fillRect(placed.bar, colors::panel(pal));
    const std::vector<QRectF> parts = segments(stack, placed.bar);
    painter.setFont(snapshot().font);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const QColor color = colors::memory(stack.segments[i].part, pal);
        painter.fillRect(parts[i], color);
        // The size inside its part, on the side of the device's line with room for it, or not at all.
        const QString label = qs(core::binaryBytes(stack.segments[i].bytes));
        const qreal needed = metrics.horizontalAdvance(label) + 10;
        const QRectF& part = parts[i];
        QRectF room = part;
        if (capacityX > part.left() && capacityX < part.right()) {
            const QRectF before(part.left(), part.top(), capacityX - 3 - part.left(), part.height());
            const QRectF after(capacityX + 3, part.top(), part.right() - capacityX - 3, part.height());
            room = before.width() >= after.width() ? before : after;
        }
        if (needed < room.width()) {
            painter.setPen(colors::textOn(color));
            painter.drawText(room, Qt::AlignCenter, label);
        }
    }
    painter.setPen(QPen(stack.fits ? pal.color(QPalette::Text) : theme::severityColor(core::Severity::Error, pal), 2));
    painter.drawLine(QLineF(capacityX, placed.bar.top() - 3, capacityX, placed.bar.bottom() + 3));
    const QString capacity = tr("%1 ▾").arg(qs(stack.capacityLabel));
    const qreal capacityWidth = metrics.horizontalAdvance(capacity);
    if (capacityWidth <= placed.capacity.width()) {
        // Its arrow over the line: the label ends at the line, or starts there near the left edge.
        const qreal left = std::clamp(capacityX - capacityWidth + metrics.horizontalAdvance(QStringLiteral("▾")) / 2,
                                      placed.capacity.left(), placed.capacity.right() - capacityWidth);
        painter.setFont(snapshot().font);
        painter.setPen(colors::muted(pal));
        painter.drawText(QRectF(left, placed.capacity.top(), capacityWidth, line), Qt::AlignLeft | Qt::AlignVCenter,
                         capacity);
    }

    // The rows, with a swatch beside those that are a part of the bar.
    const qreal swatch = line * 0.7;
    const std::vector<layout::RowPlacement> placedRows =
        layout::layoutRows(placed.rows, snapshot().font, bold, rowTexts(rows), swatch + 8);
    paintRows(painter, placedRows, rows);
    for (std::size_t i = 0; i < placedRows.size() && i < rows.size(); ++i) {
        for (const core::MemorySegment& segment : stack.segments) {
            if (segment.rowKey == rows[i].key) {
                const QRectF& at = placedRows[i].whole;
                painter.fillRect(QRectF(at.left(), at.top() + (line - swatch) / 2, swatch, swatch),
                                 colors::memory(segment.part, pal));
            }
        }
    }
}

} // namespace archplay::ui::views
