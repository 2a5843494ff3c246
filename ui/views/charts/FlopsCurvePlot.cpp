// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/charts/FlopsCurvePlot.h"

#include "core/util/Format.h"
#include "ui/Strings.h"
#include "ui/views/ViewColors.h"
#include "ui/views/charts/PlotSupport.h"

#include <qcustomplot.h>

#include <algorithm>

namespace archplay::ui::views {
namespace {

QString flopsTr(const char* text) {
    return QCoreApplication::translate("archplay::ui::views::ComputeView", text);
}

} // namespace

FlopsCurvePlot::FlopsCurvePlot(QWidget* parent)
    : CostChart(parent) {
    plot::useTokenLogTicker(m_plot->xAxis);
    plot::useFlopLogTicker(m_plot->yAxis);
    m_plot->yAxis->setLabel(flopsTr("FLOPs per token"));
    m_weights = m_plot->addGraph();
    m_state = m_plot->addGraph();
    m_attention = m_plot->addGraph();
    m_total = m_plot->addGraph();
    m_weights->setName(flopsTr("weights"));
    m_attention->setName(flopsTr("attention"));
    m_state->setName(flopsTr("recurrent states"));
    m_total->setName(flopsTr("total"));
    for (QCPGraph* graph : {m_weights, m_state, m_attention, m_total}) {
        avoid(graph);
    }
    m_current = m_plot->addGraph();
    m_current->setLineStyle(QCPGraph::lsNone);
    m_current->removeFromLegend();
    mark(m_current);
    m_currentLabel = addLabel([this](const QSizeF& size) { return nextTo(m_currentCoords)(size); });
}

void FlopsCurvePlot::setCurve(const std::vector<core::TokenFlops>& curve, const core::TokenFlops& current,
                              bool encoderOnly) {
    m_plot->xAxis->setLabel(encoderOnly ? flopsTr("sequence length (tokens): the average token")
                                        : flopsTr("position in the context (tokens)"));
    QVector<QCPGraphData> total, weights, attention, state;
    double bottom = 1e300;
    double top = 1;
    double right = 1;
    const auto add = [&](QVector<QCPGraphData>& line, double x, double y) {
        // A log axis has no zero: a part that costs nothing is left off the plot.
        if (y > 0) {
            line.append(QCPGraphData(x, y));
            bottom = std::min(bottom, y);
            top = std::max(top, y);
        }
    };
    for (const core::TokenFlops& point : curve) {
        const double x = double(point.position);
        right = std::max(right, x);
        add(total, x, point.total);
        add(weights, x, point.weights);
        add(attention, x, point.attention);
        add(state, x, point.state);
    }
    m_total->data()->set(total, true);
    m_weights->data()->set(weights, true);
    m_attention->data()->set(attention, true);
    m_state->data()->set(state, true);
    for (QCPGraph* graph : {m_weights, m_attention, m_state}) {
        const bool shown = !graph->data()->isEmpty();
        graph->setVisible(shown);
        shown ? graph->addToLegend() : graph->removeFromLegend();
    }
    const QPointF at(double(std::max<std::uint64_t>(current.position, 1)), std::max(current.total, 1.0));
    m_current->data()->set({QCPGraphData(at.x(), at.y())}, true);
    CostChart::setLabel(m_currentLabel,
                        QStringLiteral("%1 = %2: %3")
                            .arg(encoderOnly ? QStringLiteral("S") : QStringLiteral("p"),
                                 qs(core::tokenCount(current.position)), qs(core::flopText(current.total))),
                        current.position > 0);
    // A little room past the last position, so a point there is drawn whole.
    m_plot->xAxis->setRange(1, right * 1.25);
    m_plot->yAxis->setRange(bottom > top ? 1 : bottom / 3, top * 3);
    m_currentCoords = at;
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void FlopsCurvePlot::style(const QPalette& palette, const QFont& font) {
    const QColor text = palette.color(QPalette::Text);
    m_total->setPen(QPen(text, 2.4));
    m_weights->setPen(QPen(colors::weights(palette), 1.6, Qt::DashLine));
    m_attention->setPen(QPen(colors::flops(core::FlopsKind::Attention, core::Component::Attention, palette), 1.8));
    m_state->setPen(QPen(colors::flops(core::FlopsKind::State, core::Component::Mixer, palette), 1.6, Qt::DashDotLine));
    m_current->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, text, palette.color(QPalette::Highlight), 9));
    QFont bold = font;
    bold.setBold(true);
    m_currentLabel->setFont(bold);
}

} // namespace archplay::ui::views
