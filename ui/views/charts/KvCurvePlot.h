// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/scenario/KvCurve.h"
#include "ui/views/layout/PlotLabels.h"

#include <QPointF>
#include <QRectF>
#include <QSize>
#include <QString>

#include <cstdint>
#include <vector>

class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QCustomPlot;
class QFont;
class QPainter;
class QPalette;
class QRectF;
class QWidget;

namespace archplay::ui::views {

/// The cache-size curve of the KV cache view: bytes against sequence length on log-log axes, a line
/// per precision (the current one bold), the current point marked, and reference lines for the
/// model's context length, its windows and the room GPUs leave beside the weights. Plottables are
/// created once and refilled.
///
/// Labels and legend are placed for the size the plot is drawn at (on screen at every replot, in an
/// export before it is drawn) by the pure functions of layout/PlotLabels: labels never overlap each
/// other, a label that finds no room is listed in the legend with its line instead, and the legend
/// sits in a corner no curve touches or, when there is none, below the plot.
class KvCurvePlot {
public:
    /// A reference line: vertical at a sequence length or horizontal at a byte count.
    struct Marker {
        double value = 0;
        QString label;
    };

    /// A cache the architecture avoids (no windows, expanded MLA), drawn dotted for comparison.
    struct Alternative {
        QString name;
        core::KvCurve curve;
    };

    explicit KvCurvePlot(QWidget* parent);

    QCustomPlot* widget() const { return m_plot; }
    void setCurves(const std::vector<core::KvCurve>& curves, core::DType current, std::uint64_t currentLength,
                   std::uint64_t currentBytes, const std::vector<Alternative>& alternatives,
                   const std::vector<Marker>& lengths, const std::vector<Marker>& sizes);
    void applyPalette(const QPalette& palette, const QFont& font);
    void render(QPainter& painter, const QRectF& target) const;

    /// The (tokens, bytes) points of curve `index` as plotted.
    std::vector<QPointF> points(int index) const;

    /// Where everything went for a plot drawn at one size, in its pixels.
    struct Arrangement {
        QRectF plotArea;                      ///< the axis rect
        std::vector<layout::Polyline> curves; ///< every visible curve as drawn
        QRectF currentPoint;                  ///< the marked point
        std::vector<QRectF> labels;           ///< every label drawn on the plot (the point's first)
        std::vector<QString> labelTexts;      ///< their texts
        std::vector<QString> listed;          ///< labels without room, listed in the legend instead
        QRectF legend;
        bool legendInside = false;
    };
    /// Places labels and legend for a plot of `size` pixels and returns where they went; render()
    /// and every replot call it.
    Arrangement arrange(const QSize& size) const;

private:
    void showToolTip(const QPointF& position);
    QCPItemStraightLine* line(std::vector<QCPItemStraightLine*>& pool, std::size_t index);
    QCPItemText* text(std::size_t index);
    QCPGraph* entry(std::vector<QCPGraph*>& pool, std::size_t index);
    void layOut(const QSize& size) const;

    QCustomPlot* m_plot;
    std::vector<QCPGraph*> m_graphs;
    std::vector<QCPGraph*> m_alternatives;
    QCPGraph* m_current;
    QCPItemText* m_currentLabel;
    std::vector<QCPItemStraightLine*> m_verticals;
    std::vector<QCPItemStraightLine*> m_horizontals;
    std::vector<QCPItemText*> m_texts;
    std::vector<QCPGraph*> m_lengthEntries; ///< stand-ins in the legend for length labels without room
    std::vector<QCPGraph*> m_sizeEntries;   ///< the same for the device rooms
    std::vector<Marker> m_lengths;
    std::vector<Marker> m_sizes;
    QPointF m_currentCoords;
    mutable bool m_arranging = false;
    std::vector<core::KvCurve> m_curves;
    std::vector<core::DType> m_dtypes;
    int m_currentCurve = 0;
};

} // namespace archplay::ui::views
