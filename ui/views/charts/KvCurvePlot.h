// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/memory/KvCurve.h"

#include <QPointF>
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

private:
    void showToolTip(const QPointF& position);
    QCPItemStraightLine* line(std::vector<QCPItemStraightLine*>& pool, std::size_t index);
    QCPItemText* text(std::size_t index);

    QCustomPlot* m_plot;
    std::vector<QCPGraph*> m_graphs;
    std::vector<QCPGraph*> m_alternatives;
    QCPGraph* m_current;
    QCPItemText* m_currentLabel;
    std::vector<QCPItemStraightLine*> m_verticals;
    std::vector<QCPItemStraightLine*> m_horizontals;
    std::vector<QCPItemText*> m_texts;
    std::vector<core::KvCurve> m_curves;
    std::vector<core::DType> m_dtypes;
    int m_currentCurve = 0;
};

} // namespace archplay::ui::views
