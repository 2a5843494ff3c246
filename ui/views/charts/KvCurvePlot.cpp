// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/charts/KvCurvePlot.h"

#include "ui/views/KindNames.h"
#include "ui/views/ViewColors.h"
#include "ui/views/charts/PlotSupport.h"

#include <QToolTip>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace archplay::ui::views {

KvCurvePlot::KvCurvePlot(QWidget* parent)
    : m_plot(plot::createPlot(parent)) {
    QCPAxis* x = m_plot->xAxis;
    QCPAxis* y = m_plot->yAxis;
    plot::useTokenLogTicker(x);
    plot::useBytesLogTicker(y);
    x->setLabel(QCoreApplication::translate("archplay::ui::views::KvCacheView", "sequence length (tokens)"));
    y->setLabel(QCoreApplication::translate("archplay::ui::views::KvCacheView", "KV cache"));
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    for (int i = 0; i < 4; ++i) {
        m_graphs.push_back(m_plot->addGraph());
    }
    for (int i = 0; i < 2; ++i) {
        m_alternatives.push_back(m_plot->addGraph());
    }
    m_current = m_plot->addGraph();
    m_current->setLineStyle(QCPGraph::lsNone);
    m_current->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 9));
    m_current->removeFromLegend();
    // The point draws above its label's backdrop.
    if (m_plot->addLayer(QStringLiteral("currentPoint"), m_plot->layer(QStringLiteral("main")),
                         QCustomPlot::limAbove)) {
        m_current->setLayer(QStringLiteral("currentPoint"));
    }
    m_currentLabel = new QCPItemText(m_plot);
    m_currentLabel->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    m_currentLabel->setPadding(QMargins(4, 2, 8, 6));
    QObject::connect(m_plot, &QCustomPlot::mouseMove, m_plot,
                     [this](QMouseEvent* event) { showToolTip(event->position()); });
}

QCPItemStraightLine* KvCurvePlot::line(std::vector<QCPItemStraightLine*>& pool, std::size_t index) {
    while (pool.size() <= index) {
        auto* item = new QCPItemStraightLine(m_plot);
        item->setSelectable(false);
        pool.push_back(item);
    }
    return pool[index];
}

QCPItemText* KvCurvePlot::text(std::size_t index) {
    while (m_texts.size() <= index) {
        auto* item = new QCPItemText(m_plot);
        item->setSelectable(false);
        m_texts.push_back(item);
    }
    return m_texts[index];
}

void KvCurvePlot::setCurves(const std::vector<core::KvCurve>& curves, core::DType current, std::uint64_t currentLength,
                            std::uint64_t currentBytes, const std::vector<Alternative>& alternatives,
                            const std::vector<Marker>& lengths, const std::vector<Marker>& sizes) {
    m_curves = curves;
    m_dtypes.clear();
    double top = 1;
    double bottom = 1e30;
    double right = 1;
    for (std::size_t i = 0; i < m_graphs.size(); ++i) {
        QCPGraph* graph = m_graphs[i];
        if (i >= curves.size()) {
            graph->data()->clear();
            graph->setVisible(false);
            graph->removeFromLegend();
            continue;
        }
        const core::KvCurve& curve = curves[i];
        m_dtypes.push_back(curve.dtype);
        QVector<QCPGraphData> points;
        points.reserve(static_cast<int>(curve.lengths.size()));
        for (std::size_t p = 0; p < curve.lengths.size(); ++p) {
            // A log axis has no zero: an empty cache sits off the plot.
            if (curve.bytes[p] > 0) {
                points.append(QCPGraphData(double(curve.lengths[p]), double(curve.bytes[p])));
                top = std::max(top, double(curve.bytes[p]));
                bottom = std::min(bottom, double(curve.bytes[p]));
            }
            right = std::max(right, double(curve.lengths[p]));
        }
        graph->data()->set(points, true);
        graph->setVisible(true);
        graph->setName(QString::fromLatin1(core::toString(curve.dtype).data()) +
                       (curve.dtype == current
                            ? QCoreApplication::translate("archplay::ui::views::KvCacheView", " (current)")
                            : QString()));
        graph->addToLegend();
        if (curve.dtype == current) {
            m_currentCurve = static_cast<int>(i);
        }
    }
    for (std::size_t i = 0; i < m_alternatives.size(); ++i) {
        QCPGraph* graph = m_alternatives[i];
        if (i >= alternatives.size()) {
            graph->data()->clear();
            graph->setVisible(false);
            graph->removeFromLegend();
            continue;
        }
        const core::KvCurve& curve = alternatives[i].curve;
        QVector<QCPGraphData> points;
        for (std::size_t p = 0; p < curve.lengths.size(); ++p) {
            if (curve.bytes[p] > 0) {
                points.append(QCPGraphData(double(curve.lengths[p]), double(curve.bytes[p])));
                top = std::max(top, double(curve.bytes[p]));
            }
        }
        graph->data()->set(points, true);
        graph->setVisible(true);
        graph->setName(alternatives[i].name);
        graph->addToLegend();
    }
    m_current->data()->set({QCPGraphData(double(std::max<std::uint64_t>(currentLength, 1)),
                                         double(std::max<std::uint64_t>(currentBytes, 1)))},
                           true);
    m_currentLabel->position->setCoords(double(std::max<std::uint64_t>(currentLength, 1)),
                                        double(std::max<std::uint64_t>(currentBytes, 1)));
    m_currentLabel->setText(QStringLiteral("S = %1: %2").arg(exactCount(currentLength), bytesText(currentBytes)));
    // Clear of the point and on a backdrop, so neighbouring curves do not run through the text; on the
    // side with more room.
    const bool leftHalf =
        right > 1 && std::log(double(std::max<std::uint64_t>(currentLength, 1))) < 0.4 * std::log(right);
    m_currentLabel->setPositionAlignment(leftHalf ? (Qt::AlignLeft | Qt::AlignBottom)
                                                  : (Qt::AlignRight | Qt::AlignBottom));
    m_currentLabel->setPadding(leftHalf ? QMargins(12, 2, 4, 10) : QMargins(4, 2, 12, 10));

    std::size_t texts = 0;
    for (std::size_t i = 0; i < std::max(lengths.size(), m_verticals.size()); ++i) {
        QCPItemStraightLine* item = line(m_verticals, i);
        item->setVisible(i < lengths.size());
        if (i < lengths.size()) {
            item->point1->setCoords(lengths[i].value, 1);
            item->point2->setCoords(lengths[i].value, 2);
            QCPItemText* label = text(texts++);
            label->setVisible(true);
            // Pooled labels may have served the other orientation: set both coordinate types.
            label->position->setTypeX(QCPItemPosition::ptPlotCoords);
            label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
            label->position->setCoords(lengths[i].value, 0.0);
            label->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
            label->setPadding(QMargins(4, 4, 4, 2));
            label->setText(lengths[i].label);
        }
    }
    for (std::size_t i = 0; i < std::max(sizes.size(), m_horizontals.size()); ++i) {
        QCPItemStraightLine* item = line(m_horizontals, i);
        item->setVisible(i < sizes.size());
        if (i < sizes.size()) {
            item->point1->setCoords(1, sizes[i].value);
            item->point2->setCoords(2, sizes[i].value);
            QCPItemText* label = text(texts++);
            label->setVisible(true);
            label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
            label->position->setTypeY(QCPItemPosition::ptPlotCoords);
            // At the left end: the length markers label the top right corner, and the curves rise to the right.
            label->position->setCoords(0.0, sizes[i].value);
            label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
            label->setPadding(QMargins(6, 0, 4, 1));
            label->setText(sizes[i].label);
            top = std::max(top, sizes[i].value);
        }
    }
    for (std::size_t i = texts; i < m_texts.size(); ++i) {
        m_texts[i]->setVisible(false);
    }
    m_plot->xAxis->setRange(1, right);
    m_plot->yAxis->setRange(std::max(1.0, bottom / 2), top * 3);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void KvCurvePlot::applyPalette(const QPalette& palette, const QFont& font) {
    plot::applyPalette(*m_plot, palette, font);
    for (std::size_t i = 0; i < m_graphs.size(); ++i) {
        const bool current = static_cast<int>(i) == m_currentCurve;
        const core::DType dtype = i < m_dtypes.size() ? m_dtypes[i] : core::DType::BF16;
        m_graphs[i]->setPen(
            QPen(colors::dtype(dtype, palette), current ? 2.6 : 1.3, current ? Qt::SolidLine : Qt::DashLine));
    }
    for (QCPGraph* graph : m_alternatives) {
        graph->setPen(QPen(colors::muted(palette), 1.6, Qt::DotLine));
    }
    const QColor text = palette.color(QPalette::Text);
    m_current->setPen(QPen(text));
    m_current->setBrush(Qt::NoBrush);
    m_current->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, text, palette.color(QPalette::Highlight), 9));
    m_currentLabel->setColor(text);
    QColor backdrop = palette.color(QPalette::Base);
    backdrop.setAlpha(215);
    m_currentLabel->setBrush(QBrush(backdrop));
    m_currentLabel->setPen(Qt::NoPen);
    QFont bold = font;
    bold.setBold(true);
    m_currentLabel->setFont(bold);
    const QColor muted = colors::muted(palette);
    for (QCPItemStraightLine* item : m_verticals) {
        item->setPen(QPen(muted, 1, Qt::DotLine));
    }
    for (QCPItemStraightLine* item : m_horizontals) {
        item->setPen(QPen(colors::faded(colors::weights(palette), 0.3, palette), 1, Qt::DashDotLine));
    }
    for (QCPItemText* item : m_texts) {
        item->setColor(muted);
        item->setFont(font);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void KvCurvePlot::render(QPainter& painter, const QRectF& target) const {
    plot::renderPlot(*m_plot, painter, target);
}

std::vector<QPointF> KvCurvePlot::points(int index) const {
    std::vector<QPointF> result;
    if (index < 0 || index >= static_cast<int>(m_graphs.size())) {
        return result;
    }
    for (const QCPGraphData& point : *m_graphs[static_cast<std::size_t>(index)]->data()) {
        result.emplace_back(point.key, point.value);
    }
    return result;
}

void KvCurvePlot::showToolTip(const QPointF& position) {
    if (m_curves.empty() || !m_plot->axisRect()->rect().contains(position.toPoint())) {
        QToolTip::hideText();
        return;
    }
    const core::KvCurve& curve = m_curves[static_cast<std::size_t>(m_currentCurve)];
    const double tokens = m_plot->xAxis->pixelToCoord(position.x());
    // The nearest plotted length on the log axis.
    auto it =
        std::lower_bound(curve.lengths.begin(), curve.lengths.end(), static_cast<std::uint64_t>(std::max(tokens, 1.0)));
    if (it == curve.lengths.end()) {
        --it;
    } else if (it != curve.lengths.begin() &&
               std::log(tokens) - std::log(double(*(it - 1))) < std::log(double(*it)) - std::log(tokens)) {
        --it;
    }
    const std::size_t index = static_cast<std::size_t>(it - curve.lengths.begin());
    QString text = QStringLiteral("S = %1 tokens").arg(exactCount(curve.lengths[index]));
    for (const core::KvCurve& other : m_curves) {
        text += QStringLiteral("\n%1: %2 (%3 B)")
                    .arg(QString::fromLatin1(core::toString(other.dtype).data()), bytesText(other.bytes[index]),
                         exactCount(other.bytes[index]));
    }
    QToolTip::showText(m_plot->mapToGlobal(position.toPoint()), text, m_plot);
}

} // namespace archplay::ui::views
