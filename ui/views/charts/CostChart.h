// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/views/layout/PlotLabels.h"

#include <QPointF>
#include <QRectF>
#include <QSize>
#include <QString>

#include <functional>
#include <vector>

class QCPGraph;
class QCPItemText;
class QCustomPlot;
class QFont;
class QPainter;
class QPalette;
class QWidget;

namespace archplay::ui::views {

/// What the charts of the compute, memory and speed views share: a QCustomPlot created once and
/// refilled, the legend in a corner no curve touches (or below the plot), labels placed where they
/// meet no other label, the legend or a curve (left out when they find no room), all decided for the
/// size the chart is drawn at by the pure functions of layout/PlotLabels, on screen at every replot
/// and in an export before it is drawn.
class CostChart {
public:
    explicit CostChart(QWidget* parent);
    virtual ~CostChart();
    CostChart(const CostChart&) = delete;
    CostChart& operator=(const CostChart&) = delete;

    QCustomPlot* widget() const { return m_plot; }
    /// Colours and fonts from the palette; call again on PaletteChange.
    void applyPalette(const QPalette& palette, const QFont& font);
    /// Draws the chart laid out at the size of `target`.
    void render(QPainter& painter, const QRectF& target) const;

    /// Where everything went for a chart drawn at one size, in its pixels.
    struct Arrangement {
        QRectF plotArea;                      ///< the axis rect
        std::vector<layout::Polyline> curves; ///< every visible line as drawn
        std::vector<QRectF> labels;           ///< the labels drawn
        std::vector<QString> labelTexts;      ///< their texts
        std::vector<QString> hidden;          ///< labels without room, left out
        std::vector<QRectF> marks;            ///< the marked points as drawn
        QRectF legend;                        ///< empty without entries
        bool legendInside = false;
    };
    /// Places legend and labels for a chart of `size` pixels and returns where they went.
    Arrangement arrange(const QSize& size) const;

    /// The (x, y) points of `graph` as plotted.
    static std::vector<QPointF> points(const QCPGraph* graph);

protected:
    /// Sets the colours of the subclass's plottables and items.
    virtual void style(const QPalette& palette, const QFont& font) = 0;

    /// A line the legend and labels keep clear of.
    void avoid(QCPGraph* graph);
    /// A marked point (plot coordinates) the legend keeps clear of; labels do too.
    void mark(QCPGraph* graph);
    /// A label whose candidate rectangles (best first, pixels) are computed from the axes at
    /// arrangement time, for a label of `size`.
    using Candidates = std::function<std::vector<QRectF>(const QSizeF& size)>;
    QCPItemText* addLabel(Candidates candidates);
    /// Candidates around the point at plot coordinates `coords`.
    Candidates nextTo(const QPointF& coords) const;
    /// Sets a label's text and whether it is wanted at all.
    static void setLabel(QCPItemText* item, const QString& text, bool wanted);

    QCustomPlot* m_plot;

private:
    struct Label {
        QCPItemText* item = nullptr;
        Candidates candidates;
    };
    void layOut(const QSize& size) const;
    std::vector<layout::Polyline> curvesAsDrawn() const;
    std::vector<QRectF> marksAsDrawn() const;

    std::vector<QCPGraph*> m_avoided;
    std::vector<QCPGraph*> m_marks;
    std::vector<Label> m_labels;
    mutable bool m_arranging = false;
};

} // namespace archplay::ui::views
