// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/charts/ZooChart.h"

#include "ui/Strings.h"
#include "ui/views/ViewColors.h"
#include "ui/views/charts/PlotSupport.h"

#include <QPixmap>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace archplay::ui::views::plot {
namespace {

constexpr QLatin1StringView kCurrentLayer("zoo-current");
const char* const kRowsProperty = "zooRows";
const char* const kCurrentProperty = "zooCurrent";

/// Area in proportion to the parameters: a marker's diameter grows with the square root.
int markerSize(double params) {
    return int(std::lround(std::clamp(3.0 * std::sqrt(std::max(params, 1.0) / 1e9), 4.0, 40.0)));
}

QCPScatterStyle::ScatterShape shapeOf(core::ZooMarker marker) {
    switch (marker) {
    case core::ZooMarker::Disc:
        return QCPScatterStyle::ssDisc;
    case core::ZooMarker::Circle:
        return QCPScatterStyle::ssCircle;
    case core::ZooMarker::Diamond:
        return QCPScatterStyle::ssDiamond;
    }
    return QCPScatterStyle::ssDisc;
}

/// The axis ranges around every point, with a margin; y starts at 0 on a linear axis.
void fitAxes(QCustomPlot& plot, const core::ZooPlotData& data) {
    QCPRange x;
    QCPRange y;
    bool any = false;
    auto extend = [&](double px, double py) {
        if (!any) {
            x = QCPRange(px, px);
            y = QCPRange(py, py);
            any = true;
        }
        x.expand(px);
        y.expand(py);
    };
    for (const core::ZooPlotSeries& series : data.series) {
        for (const core::ZooPlotPoint& point : series.points) {
            extend(point.x, point.y);
        }
    }
    if (data.current) {
        extend(data.current->x, data.current->y);
    }
    if (!any) {
        return;
    }
    if (data.info.logY) {
        plot.yAxis->setRange(y.lower / 1.5, y.upper * 1.5);
    } else {
        const double dy = std::max(y.size() * 0.08, 1.0);
        plot.yAxis->setRange(std::min(0.0, y.lower - dy), y.upper + dy);
    }
    if (data.info.logX) {
        plot.xAxis->setRange(std::max(1.0, x.lower / 1.5), x.upper * 1.5);
    } else {
        const double dx = std::max(x.size() * 0.05, data.info.xIsYear ? 0.5 : 1.0);
        plot.xAxis->setRange(x.lower - dx, x.upper + dx);
    }
}

/// `colour` composed over `base`, opaque.
QColor opaqueOver(const QColor& colour, const QColor& base) {
    const qreal a = colour.alphaF();
    return QColor::fromRgbF(float(colour.redF() * a + base.redF() * (1 - a)),
                            float(colour.greenF() * a + base.greenF() * (1 - a)),
                            float(colour.blueF() * a + base.blueF() * (1 - a)));
}

/// The style's marker drawn once into a pixmap at the screen's pixel ratio, for QCustomPlot to blit.
QCPScatterStyle rasterStyle(const QCPScatterStyle& style, qreal pixelRatio) {
    const int side = int(std::ceil(style.size())) + 3;
    QPixmap pixmap(QSize(side, side) * pixelRatio);
    pixmap.setDevicePixelRatio(pixelRatio);
    pixmap.fill(Qt::transparent);
    {
        QCPPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        style.applyTo(&painter, style.pen());
        style.drawShape(&painter, side / 2.0, side / 2.0);
    }
    return QCPScatterStyle(pixmap);
}

QCPGraph* currentGraph(QCustomPlot& plot) {
    for (int i = 0; i < plot.graphCount(); ++i) {
        if (plot.graph(i)->property(kCurrentProperty).toBool()) {
            return plot.graph(i);
        }
    }
    return nullptr;
}

} // namespace

void drawZooChart(QCustomPlot& plot, const core::ZooPlotData& data, const QPalette& palette, const QFont& font,
                  ZooMarkers markers) {
    plot.clearPlottables();
    plot.clearItems();
    const core::ZooPlotInfo& info = data.info;
    plot.xAxis->setLabel(qs(info.xLabel));
    plot.yAxis->setLabel(qs(info.yLabel));
    plot.xAxis->setNumberFormat(QStringLiteral("gb"));
    plot.xAxis->setNumberPrecision(6);
    if (info.xIsYear) {
        useYearTicker(plot.xAxis);
    } else if (info.logX && info.xIsCount) {
        useCountLogTicker(plot.xAxis);
    } else if (info.logX) {
        usePlainLogTicker(plot.xAxis, 2);
    } else {
        plot.xAxis->setScaleType(QCPAxis::stLinear);
        plot.xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    }
    if (info.logY) {
        useVocabularyLogTicker(plot.yAxis);
    } else {
        plot.yAxis->setScaleType(QCPAxis::stLinear);
        plot.yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    }

    for (const core::ZooPlotSeries& series : data.series) {
        // "Other families" in the muted text colour made opaque: a translucent grey stacked by models of
        // the same shape would darken towards the text colour.
        const QColor colour = series.colour < 0 ? opaqueOver(colors::muted(palette), palette.color(QPalette::Base))
                                                : colors::series(palette, series.colour);
        QColor fill = colour;
        fill.setAlpha(110);
        std::map<int, std::vector<const core::ZooPlotPoint*>> bySize;
        for (const core::ZooPlotPoint& point : series.points) {
            bySize[info.sizedByParams ? markerSize(point.params) : 7].push_back(&point);
        }
        bool first = true;
        for (const auto& [size, points] : bySize) {
            QVector<double> xs;
            QVector<double> ys;
            QVariantList rows;
            for (const core::ZooPlotPoint* point : points) { // sorted by x, as QCustomPlot's hit test needs
                xs << point->x;
                ys << point->y;
                rows << QVariant::fromValue(qulonglong(point->row));
            }
            QCPGraph* graph = plot.addGraph();
            graph->setLineStyle(QCPGraph::lsNone);
            const QCPScatterStyle style(shapeOf(series.marker), colour, fill, size);
            graph->setScatterStyle(markers == ZooMarkers::Raster ? rasterStyle(style, plot.devicePixelRatioF())
                                                                 : style);
            graph->setData(xs, ys, true);
            graph->setProperty(kRowsProperty, rows);
            graph->setName(qs(series.name));
            if (!first) {
                graph->removeFromLegend();
            }
            first = false;
        }
    }
    if (info.diagonal && !data.series.empty()) {
        auto* diagonal = new QCPItemStraightLine(&plot);
        diagonal->point1->setCoords(0, 0);
        diagonal->point2->setCoords(1, 1);
        diagonal->setPen(QPen(colors::muted(palette), 1, Qt::DashLine));
    }

    // The current config on a buffered layer of its own above the main one: moving it repaints that
    // layer's buffer alone, not the thousands of markers below.
    if (!plot.layer(QString(kCurrentLayer))) {
        plot.addLayer(QString(kCurrentLayer), plot.layer(QStringLiteral("main")), QCustomPlot::limAbove);
        plot.layer(QString(kCurrentLayer))->setMode(QCPLayer::lmBuffered);
    }
    QCPGraph* current = plot.addGraph();
    current->setLayer(QString(kCurrentLayer));
    current->setProperty(kCurrentProperty, true);
    current->setName(QObject::tr("current config"));
    current->setLineStyle(QCPGraph::lsNone);
    current->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCrossCircle, QPen(palette.color(QPalette::Text), 2.5), Qt::NoBrush, 16));
    if (data.current) {
        current->addData(data.current->x, data.current->y);
    }
    fitAxes(plot, data);
    applyPalette(plot, palette, font);
    plot.replot();
}

std::unique_ptr<QCustomPlot> zooChart(const core::ZooPlotData& data, const QSize& size, const QPalette& palette,
                                      const QFont& font) {
    std::unique_ptr<QCustomPlot> plot(createPlot(nullptr));
    plot->setPalette(palette);
    plot->setFont(font);
    plot->resize(size);
    placeLegendBelow(*plot);
    plot->legend->setWrap(4);
    drawZooChart(*plot, data, palette, font);
    return plot;
}

bool moveZooCurrent(QCustomPlot& plot, const std::optional<core::ZooPlotPoint>& current) {
    QCPGraph* graph = currentGraph(plot);
    if (!graph || !current || !plot.xAxis->range().contains(current->x) || !plot.yAxis->range().contains(current->y) ||
        graph->dataCount() == 0) {
        return false;
    }
    graph->data()->clear();
    graph->addData(current->x, current->y);
    graph->layer()->replot();
    return true;
}

std::optional<std::size_t> zooRowAt(QCustomPlot& plot, const QPointF& position) {
    int index = -1;
    QCPAbstractPlottable* plottable = plot.plottableAt(position, false, &index);
    const QVariantList rows = plottable ? plottable->property(kRowsProperty).toList() : QVariantList();
    if (index < 0 || index >= rows.size()) {
        return std::nullopt;
    }
    return std::size_t(rows[index].toULongLong());
}

} // namespace archplay::ui::views::plot
