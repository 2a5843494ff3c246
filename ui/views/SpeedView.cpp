// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/SpeedView.h"

#include "core/util/Format.h"
#include "ui/views/ViewColors.h"
#include "ui/views/charts/SpeedPlots.h"
#include "ui/widgets/ShapedText.h"
#include "ui/widgets/TextLines.h"

#include <QPainter>
#include <qcustomplot.h>

#include <algorithm>

namespace archplay::ui::views {
namespace {

constexpr int kSpeedNoteLines = 2;
constexpr qreal kSpeedColumnGap = 24;

/// The rows of each column: the first half left, the rest right.
std::pair<std::vector<core::SummaryRow>, std::vector<core::SummaryRow>>
columns(const std::vector<core::SummaryRow>& rows) {
    const auto half = static_cast<std::ptrdiff_t>((rows.size() + 1) / 2);
    return {{rows.begin(), rows.begin() + half}, {rows.begin() + half, rows.end()}};
}

} // namespace

SpeedView::SpeedView(QWidget* parent)
    : CostView(core::CostTopic::Speed, parent)
    , m_decode(std::make_unique<DecodeSpeedPlot>(this))
    , m_roofline(std::make_unique<RooflinePlot>(this)) {
    m_decode->applyPalette(snapshot().palette, snapshot().font);
    m_roofline->applyPalette(snapshot().palette, snapshot().font);
}

SpeedView::~SpeedView() = default;

const std::vector<core::SummaryRow>& SpeedView::rows() const {
    ensureBuilt();
    return m_rows;
}

const DecodeSpeedPlot& SpeedView::decodePlot() {
    prepareToRender();
    return *m_decode;
}

const RooflinePlot& SpeedView::rooflinePlot() {
    prepareToRender();
    return *m_roofline;
}

QString SpeedView::noDecodeNote() const {
    ensureBuilt();
    return m_note;
}

QString SpeedView::decodeTitle() const {
    return tr("Decode throughput against batch (upper bound)");
}

QString SpeedView::rooflineTitle() const {
    return tr("Roofline of %1 (upper bound)").arg(qs(analysis().scenario.gpu.name));
}

std::vector<CostChart*> SpeedView::charts() const {
    return {m_decode.get(), m_roofline.get()};
}

void SpeedView::updateCharts() {
    const core::Analysis& a = analysis();
    if (!a.valid) {
        return;
    }
    if (m_note.isEmpty()) {
        m_decode->setSpeed(a.speed);
    }
    m_roofline->setRoofline(a.speed, m_note.isEmpty());
}

void SpeedView::rebuildFigure() {
    m_rows.clear();
    const core::Analysis& a = analysis();
    m_note = a.valid ? qs(core::noDecodeCurveNote(a)) : QString();
    if (!a.valid) {
        return;
    }
    m_rows = core::speedRows(a);
    m_subtitle = tr("On %1 × %2. Every figure is an %3.")
                     .arg(a.scenario.gpuCount)
                     .arg(qs(a.scenario.gpu.name), qs(core::speedBoundLabel()));
}

QStringList SpeedView::noteLines(qreal width) const {
    return widgets::wrapLines(m_note, snapshot().font, width, widgets::kEveryLine);
}

qreal SpeedView::rowsHeightFor(const QRectF& content) const {
    QFont bold = snapshot().font;
    bold.setBold(true);
    const qreal width = (content.width() - kSpeedColumnGap) / 2;
    const auto split = columns(m_rows); // not a structured binding: clang 14 cannot capture one
    const auto height = [&](bool details) {
        return std::max(layout::rowsHeight(width, snapshot().font, bold, rowTexts(split.first), details),
                        layout::rowsHeight(width, snapshot().font, bold, rowTexts(split.second), details));
    };
    // Details while the rows take at most a third of the view; the charts keep the rest.
    const qreal full = height(true);
    return full <= content.height() / 3 ? full : std::min(height(false), content.height() / 3);
}

layout::SpeedLayout SpeedView::layoutIn(const QRectF& content) const {
    const QStringList note = noteLines(content.width());
    const int lines = note.size() <= kSpeedNoteLines ? static_cast<int>(note.size()) : 0;
    return layout::layoutSpeed(content, widgets::TextMetrics(snapshot().font), widgets::TextMetrics(headlineFont()),
                               lines, m_note.isEmpty(), rowsHeightFor(content));
}

layout::SpeedLayout SpeedView::layoutFor(const QRectF& target, bool onScreen) const {
    ensureBuilt();
    return layoutIn(contentRect(target, onScreen));
}

void SpeedView::placeCharts(const QRectF& content) {
    const layout::SpeedLayout placed = layoutIn(content);
    placeChart(*m_decode, placed.decode, m_note.isEmpty());
    placeChart(*m_roofline, placed.roofline);
}

void SpeedView::paintFigure(QPainter& painter, const QRectF& content, bool onScreen) const {
    const layout::SpeedLayout placed = layoutIn(content);
    if (!m_rows.empty()) {
        const core::SummaryRow& first = m_rows.front();
        paintHeadline(painter, placed.headline, qs(first.value),
                      {QStringLiteral("%1 · %2").arg(qs(first.label), qs(first.detail)), qs(first.label)});
    }
    const qreal line = widgets::TextMetrics(snapshot().font).height();
    if (!placed.note.isEmpty()) {
        painter.setFont(snapshot().font);
        painter.setPen(snapshot().palette.color(QPalette::Text));
        widgets::drawLines(painter, noteLines(placed.note.width()), placed.note.left(), placed.note.top(),
                           placed.note.width(), line);
    }
    QFont bold = snapshot().font;
    bold.setBold(true);
    const widgets::TextMetrics boldMetrics(bold);
    // The longest title that fits whole; each says the figure is an upper bound.
    const auto chartTitle = [&](const QRectF& rect, const QStringList& texts) {
        for (const QString& text : texts) {
            if (!rect.isEmpty() && boldMetrics.horizontalAdvance(text) <= rect.width()) {
                painter.setFont(bold);
                painter.setPen(snapshot().palette.color(QPalette::Text));
                painter.drawText(rect, Qt::AlignLeft | Qt::AlignVCenter, text);
                return;
            }
        }
    };
    chartTitle(placed.decodeTitle, {decodeTitle(), tr("Decode throughput (upper bound)"), tr("Decode (upper bound)")});
    chartTitle(placed.rooflineTitle, {rooflineTitle(), tr("Roofline (upper bound)")});
    if (!onScreen) {
        if (m_note.isEmpty() && placed.decode.width() >= 80 && placed.decode.height() >= 80) {
            m_decode->render(painter, placed.decode);
        }
        if (placed.roofline.width() >= 80 && placed.roofline.height() >= 80) {
            m_roofline->render(painter, placed.roofline);
        }
    }
    const auto [left, right] = columns(m_rows);
    paintRows(painter, layout::layoutRows(placed.rowsLeft, snapshot().font, bold, rowTexts(left)), left);
    paintRows(painter, layout::layoutRows(placed.rowsRight, snapshot().font, bold, rowTexts(right)), right);
}

} // namespace archplay::ui::views
