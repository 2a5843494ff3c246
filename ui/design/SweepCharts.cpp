// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/design/SweepCharts.h"

#include "core/analysis/DesignFigures.h"
#include "ui/Strings.h"
#include "ui/views/ViewColors.h"
#include "ui/views/charts/PlotSupport.h"

#include <qcustomplot.h>

#include <algorithm>
#include <map>

namespace archplay::ui::design {
namespace {

/// The y axis of a unit: counts linear from zero, the rest logarithmic in core's units.
void styleValueAxis(QCPAxis* axis, core::FigureUnit unit) {
    switch (unit) {
    case core::FigureUnit::Count:
        views::plot::useCountTicker(axis);
        break;
    case core::FigureUnit::Bytes:
        views::plot::useBytesLogTicker(axis);
        break;
    case core::FigureUnit::Flops:
        views::plot::useFlopLogTicker(axis);
        break;
    case core::FigureUnit::TokensPerSecond:
        views::plot::useTokenRateLogTicker(axis);
        break;
    case core::FigureUnit::Seconds:
        views::plot::usePlainLogTicker(axis, 10);
        break;
    }
}

/// The x (or y) axis of a swept field: tokens on powers of four, other fields plain, log when asked.
void styleFieldAxis(QCPAxis* axis, const core::SweepField& field, bool log) {
    axis->setLabel(qs(std::string(field.label)));
    if (log) {
        if (field.key == "sequence_length" || field.key == "max_position_embeddings") {
            views::plot::useTokenLogTicker(axis);
        } else {
            views::plot::usePlainLogTicker(axis, 2);
        }
    } else {
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    }
}

/// Viridis (van der Walt and Smith, matplotlib): perceptually uniform and colour-blind safe, which
/// QCustomPlot 2.1's presets are not; five of its stops.
QCPColorGradient viridis() {
    QCPColorGradient gradient;
    gradient.clearColorStops();
    gradient.setColorStopAt(0.0, QColor(0x44, 0x01, 0x54));
    gradient.setColorStopAt(0.25, QColor(0x3b, 0x52, 0x8b));
    gradient.setColorStopAt(0.5, QColor(0x21, 0x91, 0x8c));
    gradient.setColorStopAt(0.75, QColor(0x5e, 0xc9, 0x62));
    gradient.setColorStopAt(1.0, QColor(0xfd, 0xe7, 0x25));
    return gradient;
}

QString unitTitle(core::FigureUnit unit) {
    switch (unit) {
    case core::FigureUnit::Count:
        return QObject::tr("parameters");
    case core::FigureUnit::Bytes:
        return QObject::tr("bytes");
    case core::FigureUnit::Flops:
        return QObject::tr("FLOPs");
    case core::FigureUnit::TokensPerSecond:
        return QObject::tr("tokens/s");
    case core::FigureUnit::Seconds:
        return QObject::tr("seconds");
    }
    return {};
}

} // namespace

void drawSweepLines(QCustomPlot& plot, const core::SweepResult& result, const std::vector<core::DesignFigure>& figures,
                    bool logX, const QPalette& pal, const QFont& font) {
    plot.clearPlottables();
    plot.clearItems();
    plot.plotLayout()->clear();
    plot.setAutoAddPlottableToLegend(false);
    const core::SweepField* field = result.field;
    if (!field || result.points.empty()) {
        plot.replot();
        return;
    }
    // One chart per unit among the chosen figures, stacked, sharing the field's axis.
    std::map<core::FigureUnit, std::vector<core::DesignFigure>> byUnit;
    std::vector<core::FigureUnit> order;
    for (core::DesignFigure figure : figures) {
        const core::FigureUnit unit = core::figureInfo(figure).unit;
        if (byUnit.find(unit) == byUnit.end()) {
            order.push_back(unit);
        }
        byUnit[unit].push_back(figure);
    }
    int seriesIndex = 0;
    int row = 0;
    for (core::FigureUnit unit : order) {
        auto* rect = new QCPAxisRect(&plot);
        plot.plotLayout()->addElement(row++, 0, rect);
        QCPAxis* x = rect->axis(QCPAxis::atBottom);
        QCPAxis* y = rect->axis(QCPAxis::atLeft);
        styleFieldAxis(x, *field, logX);
        styleValueAxis(y, unit);
        y->setLabel(unitTitle(unit));
        auto* legend = new QCPLegend;
        rect->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignLeft);
        legend->setLayer(QStringLiteral("legend"));
        double low = 0;
        double high = 0;
        for (core::DesignFigure figure : byUnit[unit]) {
            QCPGraph* graph = plot.addGraph(x, y);
            graph->setName(qs(std::string(core::figureInfo(figure).label)));
            // Active equals total on a dense model: dashed, so both lines show.
            graph->setPen(QPen(views::colors::series(pal, seriesIndex++), 2,
                               figure == core::DesignFigure::ActiveParams ? Qt::DashLine : Qt::SolidLine));
            graph->addToLegend(legend);
            for (const core::SweepPoint& point : result.points) {
                const std::optional<double>& value =
                    point.figures.empty() ? std::optional<double>() : point.figures[static_cast<std::size_t>(figure)];
                const bool drawable = value && (unit == core::FigureUnit::Count || *value > 0);
                graph->addData(double(point.value), drawable ? *value : qQNaN());
                if (drawable) {
                    low = low == 0 ? *value : std::min(low, *value);
                    high = std::max(high, *value);
                }
            }
        }
        x->setRange(double(result.points.front().value), double(result.points.back().value));
        if (unit == core::FigureUnit::Count) {
            y->setRange(0, high > 0 ? high * 1.08 : 1);
        } else {
            y->setRange(low > 0 ? low / 1.5 : 1, high > 0 ? high * 1.5 : 10);
        }
        if (result.currentPosition) {
            auto* marker = new QCPItemStraightLine(&plot);
            marker->setClipAxisRect(rect);
            marker->point1->setAxes(x, y);
            marker->point2->setAxes(x, y);
            marker->point1->setCoords(double(result.currentValue), y->range().lower);
            marker->point2->setCoords(double(result.currentValue), y->range().upper);
            marker->setPen(QPen(pal.color(QPalette::Text), 1, Qt::DashLine));
        }
        views::plot::applyPalette(plot, pal, font);
        legend->setBrush(views::colors::panel(pal));
        legend->setBorderPen(QPen(views::colors::rule(pal)));
        legend->setTextColor(pal.color(QPalette::Text));
        legend->setFont(font);
    }
    if (order.empty()) {
        auto* text = new QCPTextElement(&plot, QObject::tr("Choose a figure to chart (list on the right)."));
        plot.plotLayout()->addElement(0, 0, text);
    }
    plot.replot();
}

void drawSweepGrid(QCustomPlot& plot, const core::SweepGrid& grid, bool logX, bool logY, const QPalette& pal,
                   const QFont& font) {
    plot.clearPlottables();
    plot.clearItems();
    plot.plotLayout()->clear();
    if (!grid.xField || !grid.yField || grid.xValues.size() < 2 || grid.yValues.size() < 2) {
        plot.replot();
        return;
    }
    auto* rect = new QCPAxisRect(&plot);
    plot.plotLayout()->addElement(0, 0, rect);
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    styleFieldAxis(x, *grid.xField, logX);
    styleFieldAxis(y, *grid.yField, logY);

    // The heat map: one cell per grid point, painted over the swept ranges.
    auto* map = new QCPColorMap(x, y);
    const int nx = int(grid.xValues.size());
    const int ny = int(grid.yValues.size());
    map->data()->setSize(nx, ny);
    map->data()->setRange(QCPRange(double(grid.xValues.front()), double(grid.xValues.back())),
                          QCPRange(double(grid.yValues.front()), double(grid.yValues.back())));
    double low = 0;
    double high = 0;
    for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
            const std::optional<double>& value = grid.at(std::size_t(i), std::size_t(j)).value;
            map->data()->setCell(i, j, value ? *value : qQNaN());
            if (value && *value > 0) {
                low = low == 0 ? *value : std::min(low, *value);
                high = std::max(high, *value);
            }
        }
    }
    auto* scale = new QCPColorScale(&plot);
    plot.plotLayout()->addElement(0, 1, scale);
    scale->setType(QCPAxis::atRight);
    map->setColorScale(scale);
    map->setGradient(viridis());
    map->setInterpolate(false);
    const core::FigureUnit unit = core::figureInfo(grid.figure).unit;
    const bool logValues = low > 0 && high / low > 50;
    scale->setDataScaleType(logValues ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (logValues) {
        styleValueAxis(scale->axis(), unit == core::FigureUnit::Count ? core::FigureUnit::Flops : unit);
        if (unit == core::FigureUnit::Count) {
            views::plot::usePlainLogTicker(scale->axis(), 10);
        }
    } else if (unit == core::FigureUnit::Count) {
        views::plot::useCountTicker(scale->axis());
    }
    scale->setDataRange(QCPRange(low > 0 ? low : 0, high > 0 ? high : 1));
    scale->axis()->setLabel(qs(std::string(core::figureInfo(grid.figure).label)));
    auto* group = new QCPMarginGroup(&plot);
    rect->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    scale->setMarginGroup(QCP::msBottom | QCP::msTop, group);

    // Iso-lines with their level, at the middle of their longest piece.
    const QColor lineColor = pal.color(QPalette::Base);
    for (const core::IsoLine& line : grid.isoLines) {
        const core::IsoPolyline* longest = nullptr;
        for (const core::IsoPolyline& polyline : line.polylines) {
            auto* curve = new QCPCurve(x, y);
            curve->setPen(QPen(lineColor, 1.5));
            curve->removeFromLegend();
            QVector<double> keys;
            QVector<double> values;
            for (const core::IsoPoint& point : polyline) {
                keys << point.x;
                values << point.y;
            }
            curve->setData(keys, values);
            if (!longest || polyline.size() > longest->size()) {
                longest = &polyline;
            }
        }
        if (longest && !longest->empty()) {
            const core::IsoPoint& middle = (*longest)[longest->size() / 2];
            auto* label = new QCPItemText(&plot);
            label->setClipAxisRect(rect);
            label->position->setAxes(x, y);
            label->position->setCoords(middle.x, middle.y);
            label->setText(qs(core::figureText(grid.figure, line.level)));
            label->setColor(lineColor);
            label->setFont(font);
        }
    }

    // The published models of the same kind, and the current config.
    auto* presets = new QCPGraph(x, y);
    presets->setLineStyle(QCPGraph::lsNone);
    presets->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, pal.color(QPalette::Text), 7));
    presets->setName(QObject::tr("published models"));
    QFont small = font;
    small.setPointSizeF(small.pointSizeF() * 0.85);
    for (const core::PlacedPreset& preset : grid.presets) {
        if (!preset.inRange) {
            continue;
        }
        presets->addData(double(preset.x), double(preset.y));
        auto* label = new QCPItemText(&plot);
        label->setClipAxisRect(rect);
        label->position->setAxes(x, y);
        label->position->setCoords(double(preset.x), double(preset.y));
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        label->setPadding(QMargins(4, 0, 0, 2));
        label->setText(qs(preset.name));
        label->setColor(pal.color(QPalette::Text));
        label->setFont(small);
    }
    auto* current = new QCPGraph(x, y);
    current->setLineStyle(QCPGraph::lsNone);
    current->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCrossCircle, QPen(QColor(0xd5, 0x5e, 0x00), 2.5), Qt::NoBrush, 14));
    current->setName(QObject::tr("current config"));
    current->addData(double(grid.currentX), double(grid.currentY));

    x->setRange(double(grid.xValues.front()), double(grid.xValues.back()));
    y->setRange(double(grid.yValues.front()), double(grid.yValues.back()));
    views::plot::applyPalette(plot, pal, font);
    plot.replot();
}

} // namespace archplay::ui::design
