// SPDX-License-Identifier: GPL-3.0-or-later
// The Search page's scatter: two of the candidates' figures against each other, the Pareto front
// and the selected candidate marked, ticks written by core.
#include "core/util/Format.h"
#include "ui/Strings.h"
#include "ui/design/SearchColumns.h"
#include "ui/design/SearchPage.h"
#include "ui/views/ViewColors.h"
#include "ui/views/charts/PlotSupport.h"

#include <QComboBox>
#include <QTableWidget>
#include <qcustomplot.h>

#include <variant>

namespace archplay::ui::design {
namespace {

/// Tick labels in the axis's own unit, written by core: "7B", "128 KiB", "17 GFLOP".
void useAxisTicker(QCPAxis* axis, const core::SearchAxis& choice) {
    if (const auto* figure = std::get_if<core::DesignFigure>(&choice)) {
        views::plot::useFormattedTicker(axis, [figure = *figure](double value) {
            return value < 0 ? std::string() : core::figureText(figure, value);
        });
    } else if (std::get<core::CandidateFigure>(choice) == core::CandidateFigure::Distance) {
        views::plot::useFormattedTicker(axis, [](double value) {
            return value < 0 ? std::string() : core::figureText(core::DesignFigure::TotalParams, value);
        });
    } else {
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    }
}

} // namespace

void SearchPage::drawScatter() {
    QCustomPlot& plot = *m_scatter;
    plot.clearPlottables();
    const QPalette pal = palette();
    const auto x = core::axisFromKey(m_xAxis->currentData().toString().toStdString());
    const auto y = core::axisFromKey(m_yAxis->currentData().toString().toStdString());
    if (!x || !y) {
        plot.replot();
        return;
    }
    plot.xAxis->setLabel(qs(std::string(core::axisLabel(*x))));
    plot.yAxis->setLabel(qs(std::string(core::axisLabel(*y))));
    useAxisTicker(plot.xAxis, *x);
    useAxisTicker(plot.yAxis, *y);
    auto* all = plot.addGraph();
    all->setName(tr("results"));
    all->setLineStyle(QCPGraph::lsNone);
    all->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, views::colors::series(pal, 0), 7));
    auto* front = plot.addGraph();
    front->setName(tr("Pareto front"));
    front->setLineStyle(QCPGraph::lsStepLeft);
    front->setPen(QPen(views::colors::series(pal, 1), 1.5));
    front->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, views::colors::series(pal, 1), 8));
    std::vector<std::pair<double, double>> frontPoints;
    QCPRange xRange;
    QCPRange yRange;
    bool any = false;
    auto extend = [&](double a, double b) {
        if (!any) {
            xRange = QCPRange(a, a);
            yRange = QCPRange(b, b);
            any = true;
        } else {
            xRange.expand(a);
            yRange.expand(b);
        }
    };
    for (const core::TargetCandidate& c : m_result.candidates) {
        const auto a = core::axisValue(c, *x);
        const auto b = core::axisValue(c, *y);
        if (!a || !b) {
            continue;
        }
        all->addData(*a, *b);
        extend(*a, *b);
        if (c.pareto) {
            frontPoints.emplace_back(*a, *b);
        }
    }
    std::sort(frontPoints.begin(), frontPoints.end());
    for (const auto& [a, b] : frontPoints) {
        front->addData(a, b);
    }
    // The seed heuristic's design, for the figures of its analysis (not the candidates' own figures).
    if (const auto* xFigure = std::get_if<core::DesignFigure>(&*x); xFigure && m_seedDesign.analysis) {
        if (const auto* yFigure = std::get_if<core::DesignFigure>(&*y)) {
            const auto a = core::figureValue(*m_seedDesign.analysis, *xFigure);
            const auto b = core::figureValue(*m_seedDesign.analysis, *yFigure);
            if (a && b) {
                auto* seed = plot.addGraph();
                seed->setName(tr("seed heuristic"));
                seed->setLineStyle(QCPGraph::lsNone);
                seed->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, views::colors::series(pal, 2), 12));
                seed->addData(*a, *b);
                extend(*a, *b);
            }
        }
    }
    if (!m_table->selectedItems().isEmpty()) {
        const int index = m_table->item(m_table->selectedItems().first()->row(), Rank)->data(Qt::UserRole).toInt();
        if (index >= 0 && std::size_t(index) < m_result.candidates.size()) {
            const auto a = core::axisValue(m_result.candidates[std::size_t(index)], *x);
            const auto b = core::axisValue(m_result.candidates[std::size_t(index)], *y);
            if (a && b) {
                auto* selected = plot.addGraph();
                selected->setName(tr("selected"));
                selected->setLineStyle(QCPGraph::lsNone);
                selected->setScatterStyle(
                    QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(pal.color(QPalette::Text), 2), Qt::NoBrush, 14));
                selected->addData(*a, *b);
            }
        }
    }
    if (any) {
        const double dx = std::max(xRange.size() * 0.08, std::abs(xRange.center()) * 0.02 + 1e-9);
        const double dy = std::max(yRange.size() * 0.08, std::abs(yRange.center()) * 0.02 + 1e-9);
        plot.xAxis->setRange(xRange.lower - dx, xRange.upper + dx);
        plot.yAxis->setRange(yRange.lower - dy, yRange.upper + dy);
    }
    views::plot::applyPalette(plot, pal, font());
    plot.replot();
}

} // namespace archplay::ui::design
