// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/charts/CostChart.h"

#include "ui/views/charts/PlotSupport.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace archplay::ui::views {

CostChart::CostChart(QWidget* parent)
    : m_plot(plot::createPlot(parent)) {
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    QObject::connect(m_plot, &QCustomPlot::beforeReplot, m_plot, [this] { arrange(m_plot->viewport().size()); });
}

CostChart::~CostChart() = default;

void CostChart::applyPalette(const QPalette& palette, const QFont& font) {
    plot::applyPalette(*m_plot, palette, font);
    QColor backdrop = palette.color(QPalette::Base);
    backdrop.setAlpha(215);
    for (const Label& label : m_labels) {
        label.item->setBrush(QBrush(backdrop));
        label.item->setPen(Qt::NoPen);
        label.item->setFont(font);
        label.item->setColor(palette.color(QPalette::Text));
    }
    style(palette, font);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void CostChart::avoid(QCPGraph* graph) {
    m_avoided.push_back(graph);
}

void CostChart::mark(QCPGraph* graph) {
    m_marks.push_back(graph);
}

QCPItemText* CostChart::addLabel(Candidates candidates) {
    auto* item = new QCPItemText(m_plot);
    item->setSelectable(false);
    item->setPadding(QMargins(4, 1, 4, 1));
    item->position->setType(QCPItemPosition::ptAbsolute);
    item->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    item->setProperty("wanted", false);
    m_labels.push_back({item, std::move(candidates)});
    return item;
}

CostChart::Candidates CostChart::nextTo(const QPointF& coords) const {
    return [this, coords](const QSizeF& size) {
        const QPointF point(m_plot->xAxis->coordToPixel(coords.x()), m_plot->yAxis->coordToPixel(coords.y()));
        return layout::pointCandidates(point, size, 7);
    };
}

void CostChart::setLabel(QCPItemText* item, const QString& text, bool wanted) {
    item->setText(text);
    item->setVisible(wanted);
    // The wish is kept in the item's property, so arrange() can tell a label without room from one
    // the chart does not want.
    item->setProperty("wanted", wanted);
}

std::vector<QPointF> CostChart::points(const QCPGraph* graph) {
    std::vector<QPointF> result;
    if (graph == nullptr) {
        return result;
    }
    for (const QCPGraphData& point : *graph->data()) {
        result.emplace_back(point.key, point.value);
    }
    return result;
}

void CostChart::layOut(const QSize& size) const {
    m_plot->setViewport(QRect(QPoint(0, 0), size));
    for (const auto phase :
         {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout}) {
        m_plot->plotLayout()->update(phase);
    }
}

std::vector<layout::Polyline> CostChart::curvesAsDrawn() const {
    std::vector<layout::Polyline> curves;
    for (const QCPGraph* graph : m_avoided) {
        if (!graph->visible() || graph->data()->isEmpty()) {
            continue;
        }
        layout::Polyline line;
        for (const QCPGraphData& point : *graph->data()) {
            line.emplace_back(graph->keyAxis()->coordToPixel(point.key), graph->valueAxis()->coordToPixel(point.value));
        }
        curves.push_back(std::move(line));
    }
    return curves;
}

std::vector<QRectF> CostChart::marksAsDrawn() const {
    std::vector<QRectF> marks;
    for (const QCPGraph* graph : m_marks) {
        if (!graph->visible()) {
            continue;
        }
        for (const QCPGraphData& point : *graph->data()) {
            const QPointF at(graph->keyAxis()->coordToPixel(point.key), graph->valueAxis()->coordToPixel(point.value));
            marks.emplace_back(at - QPointF(6, 6), QSizeF(12, 12));
        }
    }
    return marks;
}

CostChart::Arrangement CostChart::arrange(const QSize& size) const {
    Arrangement result;
    if (m_arranging || size.width() < 1 || size.height() < 1) {
        return result;
    }
    m_arranging = true;
    plot::putLegend(*m_plot, true, 1);
    layOut(size);
    QRectF area = m_plot->axisRect()->rect();
    std::vector<layout::Polyline> curves = curvesAsDrawn();
    std::vector<QRectF> marks = marksAsDrawn();
    const bool entries = m_plot->legend->itemCount() > 0;
    const layout::LegendPlacement legend = plot::placeLegendClear(*m_plot, size, curves, marks, [&] { layOut(size); });
    if (!legend.inside) {
        // The plot is shorter with the legend below: everything drawn moved.
        area = m_plot->axisRect()->rect();
        curves = curvesAsDrawn();
        marks = marksAsDrawn();
    }
    result.plotArea = area;
    result.curves = curves;
    result.marks = marks;
    result.legendInside = legend.inside;
    result.legend = entries ? QRectF(m_plot->legend->outerRect()) : QRectF();

    std::vector<std::vector<QRectF>> candidates;
    std::vector<const Label*> wanted;
    for (const Label& label : m_labels) {
        if (!label.item->property("wanted").toBool() || label.item->text().isEmpty()) {
            label.item->setVisible(false);
            continue;
        }
        const QRect text = QFontMetrics(label.item->font())
                               .boundingRect(0, 0, 0, 0, Qt::TextDontClip | Qt::AlignCenter, label.item->text());
        const QMargins pad = label.item->padding();
        const QSizeF labelSize(text.width() + pad.left() + pad.right(), text.height() + pad.top() + pad.bottom());
        wanted.push_back(&label);
        candidates.push_back(label.candidates(labelSize));
    }
    std::vector<QRectF> blocked = marks;

    if (legend.inside && !result.legend.isEmpty()) {
        blocked.push_back(result.legend);
    }
    const std::vector<std::optional<QRectF>> placed = layout::placeLabels(candidates, area, blocked, curves);
    for (std::size_t i = 0; i < wanted.size(); ++i) {
        QCPItemText* item = wanted[i]->item;
        item->setVisible(placed[i].has_value());
        if (placed[i]) {
            item->position->setCoords(placed[i]->topLeft());
            result.labels.push_back(*placed[i]);
            result.labelTexts.push_back(item->text());
        } else {
            result.hidden.push_back(item->text());
        }
    }
    m_arranging = false;
    return result;
}

void CostChart::render(QPainter& painter, const QRectF& target) const {
    const QRect viewport = m_plot->viewport();
    arrange(QSize(std::max(1, static_cast<int>(std::lround(target.width()))),
                  std::max(1, static_cast<int>(std::lround(target.height())))));
    plot::renderPlot(*m_plot, painter, target);
    m_plot->setViewport(viewport);
}

} // namespace archplay::ui::views
