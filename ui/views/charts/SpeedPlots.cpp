// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/charts/SpeedPlots.h"

#include "core/util/Format.h"
#include "ui/Strings.h"
#include "ui/views/ViewColors.h"
#include "ui/views/charts/PlotSupport.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace archplay::ui::views {
namespace {

QString speedTr(const char* text) {
    return QCoreApplication::translate("archplay::ui::views::SpeedView", text);
}

/// A rectangle spanning the plot's height between two x coordinates.
QCPItemRect* band(QCustomPlot* plot) {
    auto* rect = new QCPItemRect(plot);
    rect->setSelectable(false);
    rect->setLayer(QStringLiteral("background"));
    rect->setClipToAxisRect(true);
    for (QCPItemPosition* corner : {rect->topLeft, rect->bottomRight}) {
        corner->setTypeX(QCPItemPosition::ptPlotCoords);
        corner->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    return rect;
}

void setBand(QCPItemRect* rect, double from, double to) {
    rect->setVisible(to > from);
    rect->topLeft->setCoords(from, 0);
    rect->bottomRight->setCoords(to, 1);
}

/// Candidates for a region's label: at the top of the band between `from` and `to` (plot
/// coordinates), left then right, then at its bottom; only those within the band.
std::vector<QRectF> bandCandidates(const QCustomPlot& plot, double from, double to, const QSizeF& size) {
    const QRectF area = plot.axisRect()->rect();
    const qreal left = plot.xAxis->coordToPixel(from);
    const qreal right = plot.xAxis->coordToPixel(to);
    std::vector<QRectF> result;
    for (const qreal top : {area.top() + 4, area.bottom() - 4 - size.height()}) {
        for (const qreal x : {left + 4, right - 4 - size.width()}) {
            const QRectF rect(QPointF(x, top), size);
            if (rect.left() >= left && rect.right() <= right) {
                result.push_back(rect);
            }
        }
    }
    return result;
}

QColor tint(const QColor& color, int alpha) {
    QColor result = color;
    result.setAlpha(alpha);
    return result;
}

} // namespace

DecodeSpeedPlot::DecodeSpeedPlot(QWidget* parent)
    : CostChart(parent) {
    plot::usePlainLogTicker(m_plot->xAxis, 2);
    plot::useTokenRateLogTicker(m_plot->yAxis);
    m_plot->xAxis->setLabel(speedTr("batch (sequences decoded together)"));
    m_plot->yAxis->setLabel(speedTr("tokens per second"));
    m_memory = band(m_plot);
    m_compute = band(m_plot);
    m_aggregate = m_plot->addGraph();
    m_perSequence = m_plot->addGraph();
    m_aggregate->setName(speedTr("all sequences"));
    m_perSequence->setName(speedTr("each sequence"));
    avoid(m_aggregate);
    avoid(m_perSequence);
    m_current = m_plot->addGraph();
    m_current->setLineStyle(QCPGraph::lsNone);
    m_current->removeFromLegend();
    mark(m_current);
    m_currentLabel = addLabel([this](const QSizeF& size) { return nextTo(m_currentCoords)(size); });
    m_memoryLabel = addLabel([this](const QSizeF& size) {
        return bandCandidates(*m_plot, m_left, m_boundary > 0 ? m_boundary : m_right, size);
    });
    m_computeLabel = addLabel([this](const QSizeF& size) {
        return m_boundary > 0 ? bandCandidates(*m_plot, m_boundary, m_right, size) : std::vector<QRectF>{};
    });
}

void DecodeSpeedPlot::setSpeed(const core::RooflineReport& report) {
    QVector<QCPGraphData> aggregate, perSequence;
    double bottom = 1e300;
    double top = 1e-300;
    // The curve stops at the largest batch that fits; the axis runs to it, or to the scenario's batch
    // where that has a speed.
    m_right = 2;
    for (const core::DecodeStep& step : report.curve) {
        const double batch = double(step.batch);
        m_right = std::max(m_right, batch);
        if (step.tokensPerSecond > 0 && step.perSequence > 0) {
            aggregate.append(QCPGraphData(batch, step.tokensPerSecond));
            perSequence.append(QCPGraphData(batch, step.perSequence));
            bottom = std::min(bottom, step.perSequence);
            top = std::max(top, step.tokensPerSecond);
        }
    }
    const core::DecodeStep& scenario = report.scenario;
    if (report.fits) {
        m_right = std::max(m_right, double(scenario.batch));
    }
    m_aggregate->data()->set(aggregate, true);
    m_perSequence->data()->set(perSequence, true);
    m_currentCoords =
        QPointF(double(std::max<std::uint64_t>(scenario.batch, 1)), std::max(scenario.tokensPerSecond, 1e-9));
    m_current->data()->set(report.fits ? QVector<QCPGraphData>{QCPGraphData(m_currentCoords.x(), m_currentCoords.y())}
                                       : QVector<QCPGraphData>{},
                           true);
    CostChart::setLabel(
        m_currentLabel,
        speedTr("batch %1: %2")
            .arg(qs(core::withThousands(scenario.batch)), qs(core::tokenRateText(scenario.tokensPerSecond))),
        report.fits && scenario.tokensPerSecond > 0);
    m_left = 1;
    m_boundary = report.computeBoundBatch > 0 && double(report.computeBoundBatch) < m_right
                     ? double(report.computeBoundBatch)
                     : 0;
    setBand(m_memory, m_left, m_boundary > 0 ? m_boundary : m_right);
    setBand(m_compute, m_boundary > 0 ? m_boundary : m_right, m_right);
    CostChart::setLabel(m_memoryLabel, speedTr("memory-bound"), true);
    CostChart::setLabel(m_computeLabel, speedTr("compute-bound"), m_boundary > 0);
    if (!(bottom <= top)) {
        bottom = 1;
        top = 10;
    }
    m_plot->xAxis->setRange(m_left, m_right);
    m_plot->yAxis->setRange(bottom / 3, top * 4);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QRectF DecodeSpeedPlot::memoryRegion() const {
    return m_memory->visible()
               ? QRectF(QPointF(m_memory->topLeft->coords().x(), 0), QPointF(m_memory->bottomRight->coords().x(), 1))
               : QRectF();
}

QRectF DecodeSpeedPlot::computeRegion() const {
    return m_compute->visible()
               ? QRectF(QPointF(m_compute->topLeft->coords().x(), 0), QPointF(m_compute->bottomRight->coords().x(), 1))
               : QRectF();
}

void DecodeSpeedPlot::style(const QPalette& palette, const QFont& font) {
    const QColor text = palette.color(QPalette::Text);
    const QColor memory = colors::weights(palette);
    const QColor compute = colors::component(core::Component::Ffn, palette);
    m_memory->setBrush(QBrush(tint(memory, 34)));
    m_memory->setPen(Qt::NoPen);
    m_compute->setBrush(QBrush(tint(compute, 40)));
    m_compute->setPen(Qt::NoPen);
    m_aggregate->setPen(QPen(text, 2.4));
    m_aggregate->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, text, palette.color(QPalette::Base), 5));
    m_perSequence->setPen(QPen(colors::component(core::Component::Attention, palette), 1.6, Qt::DashLine));
    m_current->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, text, palette.color(QPalette::Highlight), 10));
    QFont bold = font;
    bold.setBold(true);
    m_currentLabel->setFont(bold);
    m_memoryLabel->setColor(colors::muted(palette));
    m_computeLabel->setColor(colors::muted(palette));
    m_memoryLabel->setBrush(Qt::NoBrush);
    m_computeLabel->setBrush(Qt::NoBrush);
}

RooflinePlot::RooflinePlot(QWidget* parent)
    : CostChart(parent) {
    plot::usePlainLogTicker(m_plot->xAxis, 10);
    plot::useFlopRateLogTicker(m_plot->yAxis);
    m_plot->xAxis->setLabel(speedTr("arithmetic intensity (FLOP per byte moved)"));
    m_plot->yAxis->setLabel(speedTr("attainable FLOP/s"));
    m_roof = m_plot->addGraph();
    m_roof->setName(speedTr("roof: min(peak, bandwidth × intensity)"));
    avoid(m_roof);
    m_decode = m_plot->addGraph();
    m_decode->setLineStyle(QCPGraph::lsNone);
    m_decode->setName(speedTr("decode, batch 1 to 512"));
    mark(m_decode);
    m_scenario = m_plot->addGraph();
    m_scenario->setLineStyle(QCPGraph::lsNone);
    m_scenario->removeFromLegend();
    mark(m_scenario);
    m_prefill = m_plot->addGraph();
    m_prefill->setLineStyle(QCPGraph::lsNone);
    mark(m_prefill);
    m_ridge = new QCPItemStraightLine(m_plot);
    m_ridge->setSelectable(false);
    m_ridgeLabel = addLabel([this](const QSizeF& size) {
        return layout::verticalLineCandidates(m_plot->xAxis->coordToPixel(m_ridgeAt), size,
                                              m_plot->axisRect()->rect().adjusted(0, size.height() * 1.5, 0, 0), 3);
    });
    m_scenarioLabel = addLabel([this](const QSizeF& size) { return nextTo(m_scenarioCoords)(size); });
    m_prefillLabel = addLabel([this](const QSizeF& size) { return nextTo(m_prefillCoords)(size); });
}

void RooflinePlot::setRoofline(const core::RooflineReport& report, bool decode) {
    std::vector<core::RooflinePoint> steps;
    if (decode) {
        for (const core::DecodeStep& step : report.curve) {
            steps.push_back(core::rooflinePoint(step));
        }
    }
    const core::RooflinePoint scenario = core::rooflinePoint(report.scenario);
    const core::RooflinePoint prefill = core::prefillPoint(report);
    double low = report.ridge > 0 ? report.ridge : 1;
    double high = low;
    QVector<QCPGraphData> decodeData;
    for (const core::RooflinePoint& point : steps) {
        if (point.intensity > 0 && point.flopsPerSecond > 0) {
            decodeData.append(QCPGraphData(point.intensity, point.flopsPerSecond));
            low = std::min(low, point.intensity);
            high = std::max(high, point.intensity);
        }
    }
    m_decode->data()->set(decodeData, true);
    m_decode->setVisible(decode && !decodeData.isEmpty());
    if (!report.curve.empty()) {
        m_decode->setName(speedTr("decode, batch 1 to %1").arg(qs(core::withThousands(report.curve.back().batch))));
    }
    decode && !decodeData.isEmpty() ? m_decode->addToLegend() : m_decode->removeFromLegend();
    // No point for a batch that does not fit in the devices' memory: it has no speed.
    const bool scenarioShown = decode && report.fits && scenario.intensity > 0 && scenario.flopsPerSecond > 0;
    m_scenarioCoords = QPointF(std::max(scenario.intensity, 1e-9), std::max(scenario.flopsPerSecond, 1e-9));
    m_scenario->data()->set(scenarioShown
                                ? QVector<QCPGraphData>{QCPGraphData(m_scenarioCoords.x(), m_scenarioCoords.y())}
                                : QVector<QCPGraphData>{},
                            true);
    m_scenario->setVisible(scenarioShown);
    if (scenarioShown) {
        low = std::min(low, scenario.intensity);
        high = std::max(high, scenario.intensity);
    }
    CostChart::setLabel(
        m_scenarioLabel,
        speedTr("decode, batch %1: %2")
            .arg(qs(core::withThousands(report.scenario.batch)), qs(core::flopRateText(scenario.flopsPerSecond))),
        scenarioShown);
    const bool prefillShown = report.fits && prefill.intensity > 0 && prefill.flopsPerSecond > 0;
    m_prefillCoords = QPointF(std::max(prefill.intensity, 1e-9), std::max(prefill.flopsPerSecond, 1e-9));
    m_prefill->data()->set(prefillShown ? QVector<QCPGraphData>{QCPGraphData(m_prefillCoords.x(), m_prefillCoords.y())}
                                        : QVector<QCPGraphData>{},
                           true);
    m_prefill->setVisible(prefillShown);
    m_prefill->setName(decode ? speedTr("prefill") : speedTr("forward pass"));
    prefillShown ? m_prefill->addToLegend() : m_prefill->removeFromLegend();
    CostChart::setLabel(m_prefillLabel,
                        speedTr("%1: %2").arg(decode ? speedTr("prefill") : speedTr("forward pass"),
                                              qs(core::flopRateText(prefill.flopsPerSecond))),
                        prefillShown);
    if (prefillShown) {
        low = std::min(low, prefill.intensity);
        high = std::max(high, prefill.intensity);
    }
    // Whole decades a little past the points, so the log axes are labelled at round numbers.
    low = std::pow(10.0, std::floor(std::log10(low / 2)));
    high = std::pow(10.0, std::ceil(std::log10(high * 2)));
    m_ridgeAt = report.ridge > 0 ? report.ridge : 1;
    QVector<QCPGraphData> roof;
    for (const double intensity : {low, m_ridgeAt, high}) {
        roof.append(QCPGraphData(intensity, core::attainableFlops(report, intensity)));
    }
    m_roof->data()->set(roof, true);
    m_ridge->point1->setCoords(m_ridgeAt, 1);
    m_ridge->point2->setCoords(m_ridgeAt, 2);
    CostChart::setLabel(
        m_ridgeLabel,
        speedTr("ridge %1 FLOP/byte").arg(qs(core::withThousands(static_cast<std::uint64_t>(m_ridgeAt + 0.5)))),
        report.ridge > 0);
    const double bottom = std::max(core::attainableFlops(report, low), 1.0);
    m_plot->xAxis->setRange(low, high);
    m_plot->yAxis->setRange(std::pow(10.0, std::floor(std::log10(bottom))),
                            std::pow(10.0, std::ceil(std::log10(std::max(report.peakFlops, bottom) * 2))));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void RooflinePlot::style(const QPalette& palette, const QFont& font) {
    const QColor text = palette.color(QPalette::Text);
    m_roof->setPen(QPen(text, 2.4));
    const QColor decode = colors::component(core::Component::Attention, palette);
    m_decode->setPen(QPen(decode));
    m_decode->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, decode, palette.color(QPalette::Base), 7));
    m_scenario->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, text, palette.color(QPalette::Highlight), 10));
    const QColor prefill = colors::component(core::Component::Ffn, palette);
    m_prefill->setPen(QPen(prefill));
    m_prefill->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, prefill, prefill, 10));
    m_ridge->setPen(QPen(colors::muted(palette), 1, Qt::DotLine));
    m_ridgeLabel->setColor(colors::muted(palette));
    QFont bold = font;
    bold.setBold(true);
    m_scenarioLabel->setFont(bold);
}

} // namespace archplay::ui::views
