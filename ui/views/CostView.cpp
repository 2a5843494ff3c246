// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/CostView.h"

#include "ui/theme/Theme.h"
#include "ui/views/DerivationPanel.h"
#include "ui/views/ViewColors.h"
#include "ui/views/charts/CostChart.h"
#include "ui/widgets/ShapedText.h"
#include "ui/widgets/TextLines.h"

#include <QAction>
#include <QEvent>
#include <QPainter>
#include <QToolButton>
#include <qcustomplot.h>

namespace archplay::ui::views {
namespace {

constexpr qreal kMargin = 14;

} // namespace

CostView::CostView(core::CostTopic topic, QWidget* parent)
    : PaintedView(parent)
    , m_topic(topic)
    , m_explain(new QAction(tr("Explain"), this))
    , m_explainButton(new QToolButton(this))
    , m_panel(new DerivationPanel(this)) {
    m_explain->setCheckable(true);
    m_explain->setToolTip(tr("Show how each figure is computed: the formulas with this configuration's values"));
    connect(m_explain, &QAction::toggled, this, &CostView::setExplaining);
    m_explainButton->setDefaultAction(m_explain);
    m_explainButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_panel->hide();
    addAction(m_explain);
    addAction(m_panel->copyLatexAction());
    addAction(m_panel->copyMarkdownAction());
}

CostView::~CostView() = default;

void CostView::setExplaining(bool explaining) {
    if (explaining == m_explaining) {
        return;
    }
    m_explaining = explaining;
    m_explain->setChecked(explaining);
    if (explaining && m_explanationStale) {
        m_explanationStale = false;
        m_panel->setDerivation(core::explainCosts(analysis(), m_topic));
    }
    showCharts();
    emit explainingChanged(explaining);
    repaintLater(rect());
}

void CostView::rebuild() {
    m_explanationStale = true;
    rebuildFigure();
}

void CostView::updateControls() {
    if (m_explaining && m_explanationStale) {
        m_explanationStale = false;
        m_panel->setDerivation(core::explainCosts(analysis(), m_topic));
    }
    updateCharts();
    for (CostChart* chart : charts()) {
        chart->applyPalette(snapshot().palette, snapshot().font);
    }
    if (isVisible()) {
        place();
    }
}

void CostView::showCharts() {
    const bool figure = analysis().valid && !m_explaining;
    for (CostChart* chart : charts()) {
        // A chart the figure leaves without room (or without data) stays hidden.
        chart->widget()->setVisible(figure && chart->widget()->property("wanted").toBool());
    }
    m_panel->setVisible(m_explaining && analysis().valid);
}

void CostView::placeChart(CostChart& chart, const QRectF& rect, bool wanted) {
    wanted = wanted && rect.width() >= 80 && rect.height() >= 80;
    chart.widget()->setProperty("wanted", wanted);
    if (wanted) {
        chart.widget()->setGeometry(rect.toAlignedRect());
    }
}

qreal CostView::reservedRight(bool onScreen) const {
    return onScreen ? m_explainButton->sizeHint().width() + 8 : 0;
}

QRectF CostView::contentRect(const QRectF& target, bool onScreen) const {
    const qreal top = headerBottom(target, title(), subtitle(), reservedRight(onScreen)) + 10;
    return QRectF(target.left() + kMargin, top, target.width() - 2 * kMargin, target.bottom() - top - 10);
}

QFont CostView::headlineFont() const {
    QFont big = snapshot().font;
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.7);
    return big;
}

std::vector<layout::RowText> CostView::rowTexts(const std::vector<core::SummaryRow>& rows) {
    std::vector<layout::RowText> texts;
    for (const core::SummaryRow& row : rows) {
        texts.push_back({qs(row.label), qs(row.value), qs(row.detail)});
    }
    return texts;
}

QColor CostView::toneColor(core::Tone tone) const {
    return colors::tone(tone, snapshot().palette);
}

void CostView::paintRows(QPainter& painter, const std::vector<layout::RowPlacement>& placed,
                         const std::vector<core::SummaryRow>& rows) const {
    const qreal line = widgets::TextMetrics(snapshot().font).height();
    QFont bold = snapshot().font;
    bold.setBold(true);
    for (std::size_t i = 0; i < placed.size() && i < rows.size(); ++i) {
        const layout::RowPlacement& row = placed[i];
        painter.setFont(snapshot().font);
        painter.setPen(snapshot().palette.color(QPalette::Text));
        widgets::drawLines(painter, row.labelLines, row.label.left(), row.label.top(), row.label.width(), line);
        painter.setFont(bold);
        painter.setPen(toneColor(rows[i].tone));
        painter.drawText(row.value, Qt::AlignRight | Qt::AlignVCenter, qs(rows[i].value));
        if (!row.detailLines.isEmpty()) {
            painter.setFont(snapshot().font);
            painter.setPen(colors::muted(snapshot().palette));
            widgets::drawLines(painter, row.detailLines, row.detail.left(), row.detail.top(), row.detail.width(), line);
        }
    }
    painter.setFont(snapshot().font);
}

void CostView::paintHeadline(QPainter& painter, const QRectF& rect, const QString& value,
                             const QStringList& details) const {
    const widgets::TextMetrics big(headlineFont());
    painter.setFont(headlineFont());
    painter.setPen(snapshot().palette.color(QPalette::Text));
    const qreal valueWidth = big.horizontalAdvance(value);
    painter.drawText(rect, Qt::AlignLeft | Qt::AlignVCenter, value);
    const QRectF rest(rect.left() + valueWidth + 14, rect.top(), rect.right() - rect.left() - valueWidth - 14,
                      rect.height());
    const widgets::TextMetrics metrics(snapshot().font);
    for (const QString& detail : details) {
        // The first detail that fits whole; none rather than a cut one.
        if (metrics.horizontalAdvance(detail) <= rest.width()) {
            painter.setFont(snapshot().font);
            painter.setPen(colors::muted(snapshot().palette));
            painter.drawText(rest, Qt::AlignLeft | Qt::AlignVCenter, detail);
            break;
        }
    }
    painter.setFont(snapshot().font);
}

void CostView::paintContent(QPainter& painter, const QRectF& target) const {
    const bool onScreen = painter.device() == this;
    if (m_explaining) {
        paintHeader(painter, target, title(),
                    tr("How each figure is computed, with this configuration's values substituted."),
                    reservedRight(onScreen));
        if (!onScreen) {
            // The panel is a widget on screen; an export typesets the whole explanation into the page.
            const QRectF content = contentRect(target, onScreen);
            m_panel->document().paintFitted(painter, content, snapshot().palette);
        }
        return;
    }
    paintHeader(painter, target, title(), subtitle(), reservedRight(onScreen));
    paintFigure(painter, contentRect(target, onScreen), onScreen);
}

void CostView::place() {
    const QSize hint = m_explainButton->sizeHint();
    m_explainButton->setGeometry(width() - int(kMargin) - hint.width(), 8, hint.width(), hint.height());
    const QRectF content = contentRect(QRectF(rect()), true);
    m_panel->setGeometry(content.adjusted(-kMargin, 0, kMargin, 10).toAlignedRect());
    placeCharts(content);
    showCharts();
}

void CostView::resizeEvent(QResizeEvent* event) {
    PaintedView::resizeEvent(event);
    // A hidden tab is laid out when it is shown: its size may be anything until then.
    if (isVisible()) {
        ensureBuilt();
        place();
    }
}

void CostView::showEvent(QShowEvent* event) {
    PaintedView::showEvent(event);
    ensureBuilt();
    place();
}

void CostView::changeEvent(QEvent* event) {
    PaintedView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        for (CostChart* chart : charts()) {
            chart->applyPalette(snapshot().palette, snapshot().font);
        }
    }
}

} // namespace archplay::ui::views
