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
    m_currentLabel->setPadding(QMargins(4, 2, 4, 2));
    QObject::connect(m_plot, &QCustomPlot::beforeReplot, m_plot, [this] { arrange(m_plot->viewport().size()); });
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
        item->setPadding(QMargins(4, 1, 4, 1));
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
    m_currentCoords =
        QPointF(double(std::max<std::uint64_t>(currentLength, 1)), double(std::max<std::uint64_t>(currentBytes, 1)));
    m_current->data()->set({QCPGraphData(m_currentCoords.x(), m_currentCoords.y())}, true);
    m_currentLabel->setText(QStringLiteral("S = %1: %2").arg(exactCount(currentLength), bytesText(currentBytes)));

    m_lengths = lengths;
    m_sizes = sizes;
    std::size_t texts = 0;
    for (std::size_t i = 0; i < std::max(lengths.size(), m_verticals.size()); ++i) {
        QCPItemStraightLine* item = line(m_verticals, i);
        item->setVisible(i < lengths.size());
        if (i < lengths.size()) {
            item->point1->setCoords(lengths[i].value, 1);
            item->point2->setCoords(lengths[i].value, 2);
            text(texts++)->setText(lengths[i].label);
            entry(m_lengthEntries, i)->setName(lengths[i].label);
        }
    }
    for (std::size_t i = 0; i < std::max(sizes.size(), m_horizontals.size()); ++i) {
        QCPItemStraightLine* item = line(m_horizontals, i);
        item->setVisible(i < sizes.size());
        if (i < sizes.size()) {
            item->point1->setCoords(1, sizes[i].value);
            item->point2->setCoords(2, sizes[i].value);
            text(texts++)->setText(sizes[i].label);
            entry(m_sizeEntries, i)->setName(sizes[i].label);
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

QCPGraph* KvCurvePlot::entry(std::vector<QCPGraph*>& pool, std::size_t index) {
    while (pool.size() <= index) {
        QCPGraph* graph = m_plot->addGraph();
        graph->removeFromLegend();
        graph->setSelectable(QCP::stNone);
        pool.push_back(graph);
    }
    return pool[index];
}

void KvCurvePlot::layOut(const QSize& size) const {
    m_plot->setViewport(QRect(QPoint(0, 0), size));
    for (const auto phase :
         {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout}) {
        m_plot->plotLayout()->update(phase);
    }
}

KvCurvePlot::Arrangement KvCurvePlot::arrange(const QSize& size) const {
    Arrangement result;
    if (m_arranging || size.width() < 1 || size.height() < 1) {
        return result;
    }
    m_arranging = true;
    QCPAxis* x = m_plot->xAxis;
    QCPAxis* y = m_plot->yAxis;
    const std::size_t labelCount = 1 + m_lengths.size() + m_sizes.size();
    // Labels without room go to the legend, which changes its size: place again until nothing new is listed.
    std::vector<bool> listed(labelCount, false);
    for (std::size_t pass = 0; pass <= labelCount; ++pass) {
        for (std::size_t i = 0; i < m_lengthEntries.size(); ++i) {
            const bool show = i < m_lengths.size() && listed[1 + i];
            m_lengthEntries[i]->setVisible(show);
            show ? m_lengthEntries[i]->addToLegend() : m_lengthEntries[i]->removeFromLegend();
        }
        for (std::size_t i = 0; i < m_sizeEntries.size(); ++i) {
            const bool show = i < m_sizes.size() && listed[1 + m_lengths.size() + i];
            m_sizeEntries[i]->setVisible(show);
            show ? m_sizeEntries[i]->addToLegend() : m_sizeEntries[i]->removeFromLegend();
        }
        plot::putLegend(*m_plot, true, 1);
        layOut(size);
        QRectF area = m_plot->axisRect()->rect();
        auto curvesAsDrawn = [&] {
            std::vector<layout::Polyline> curves;
            for (QCPGraph* graph : m_graphs) {
                if (graph->visible()) {
                    layout::Polyline line;
                    for (const QCPGraphData& point : *graph->data()) {
                        line.emplace_back(x->coordToPixel(point.key), y->coordToPixel(point.value));
                    }
                    curves.push_back(std::move(line));
                }
            }
            for (QCPGraph* graph : m_alternatives) {
                if (graph->visible()) {
                    layout::Polyline line;
                    for (const QCPGraphData& point : *graph->data()) {
                        line.emplace_back(x->coordToPixel(point.key), y->coordToPixel(point.value));
                    }
                    curves.push_back(std::move(line));
                }
            }
            return curves;
        };
        std::vector<layout::Polyline> curves = curvesAsDrawn();
        auto pointRect = [&] {
            const QPointF point(x->coordToPixel(m_currentCoords.x()), y->coordToPixel(m_currentCoords.y()));
            return QRectF(point - QPointF(6, 6), QSizeF(12, 12));
        };
        const layout::LegendPlacement legend =
            plot::placeLegendClear(*m_plot, size, curves, {pointRect()}, [&] { layOut(size); });
        if (!legend.inside) {
            area = m_plot->axisRect()->rect();
            curves = curvesAsDrawn();
        }
        result.plotArea = area;
        result.curves = curves;
        result.currentPoint = pointRect();
        result.legendInside = legend.inside;
        result.legend = m_plot->legend->itemCount() == 0 ? QRectF() : QRectF(m_plot->legend->outerRect());

        // The candidates of every label, the marked point's first.
        std::vector<QCPItemText*> items;
        std::vector<std::vector<QRectF>> candidates;
        auto sizeOf = [](const QCPItemText* item) {
            const QRect text =
                QFontMetrics(item->font()).boundingRect(0, 0, 0, 0, Qt::TextDontClip | Qt::AlignCenter, item->text());
            const QMargins pad = item->padding();
            return QSizeF(text.width() + pad.left() + pad.right(), text.height() + pad.top() + pad.bottom());
        };
        items.push_back(m_currentLabel);
        candidates.push_back(layout::pointCandidates(result.currentPoint.center(), sizeOf(m_currentLabel), 7));
        const int rows = static_cast<int>(m_lengths.size()) + 2;
        for (std::size_t i = 0; i < m_lengths.size(); ++i) {
            QCPItemText* item = m_texts[i];
            items.push_back(item);
            candidates.push_back(
                layout::verticalLineCandidates(x->coordToPixel(m_lengths[i].value), sizeOf(item), area, rows));
        }
        for (std::size_t i = 0; i < m_sizes.size(); ++i) {
            QCPItemText* item = m_texts[m_lengths.size() + i];
            items.push_back(item);
            candidates.push_back(
                layout::horizontalLineCandidates(y->coordToPixel(m_sizes[i].value), sizeOf(item), area));
        }
        std::vector<QRectF> blocked{result.currentPoint};
        if (legend.inside && !result.legend.isEmpty()) {
            blocked.push_back(result.legend);
        }
        const std::vector<std::optional<QRectF>> placed = layout::placeLabels(candidates, area, blocked, curves);
        bool newlyListed = false;
        result.labels.clear();
        result.labelTexts.clear();
        result.listed.clear();
        for (std::size_t i = 0; i < items.size(); ++i) {
            QCPItemText* item = items[i];
            if (placed[i]) {
                item->setVisible(true);
                item->position->setType(QCPItemPosition::ptAbsolute);
                item->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
                item->position->setCoords(placed[i]->topLeft());
                result.labels.push_back(*placed[i]);
                result.labelTexts.push_back(item->text());
            } else {
                item->setVisible(false);
                result.listed.push_back(item->text());
                // The marked point's label has no line to stand in for it in the legend; its figure is
                // in the view's headline.
                if (i > 0 && !listed[i]) {
                    listed[i] = true;
                    newlyListed = true;
                }
            }
        }
        if (!newlyListed) {
            break;
        }
    }
    m_arranging = false;
    return result;
}

void KvCurvePlot::render(QPainter& painter, const QRectF& target) const {
    const QRect viewport = m_plot->viewport();
    arrange(QSize(std::max(1, static_cast<int>(std::lround(target.width()))),
                  std::max(1, static_cast<int>(std::lround(target.height())))));
    plot::renderPlot(*m_plot, painter, target);
    // renderPlot's queued replot places everything again for the widget.
    m_plot->setViewport(viewport);
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
        item->setBrush(QBrush(backdrop));
    }
    for (QCPGraph* graph : m_lengthEntries) {
        graph->setPen(QPen(muted, 1, Qt::DotLine));
    }
    for (QCPGraph* graph : m_sizeEntries) {
        graph->setPen(QPen(colors::faded(colors::weights(palette), 0.3, palette), 1, Qt::DashDotLine));
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
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
