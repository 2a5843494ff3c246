// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/Compute.h"
#include "ui/views/charts/CostChart.h"

#include <cstdint>
#include <vector>

namespace archplay::ui::views {

/// FLOPs per token against the position in the context on log-log axes: the weights flat, attention
/// growing with the keys each layer sees and flattening at windows, the recurrent states flat, their
/// total bold, and the scenario's position marked on it. Every point is core's
/// (core::flopsPerTokenCurve).
class FlopsCurvePlot : public CostChart {
public:
    explicit FlopsCurvePlot(QWidget* parent);

    /// `encoderOnly`: the x axis is the sequence length, each point the average over its tokens.
    void setCurve(const std::vector<core::TokenFlops>& curve, const core::TokenFlops& current, bool encoderOnly);

    /// The (position, FLOPs) points of each line as plotted; zero values (no states) are left out.
    std::vector<QPointF> totalPoints() const { return points(m_total); }
    std::vector<QPointF> weightPoints() const { return points(m_weights); }
    std::vector<QPointF> attentionPoints() const { return points(m_attention); }
    std::vector<QPointF> statePoints() const { return points(m_state); }

protected:
    void style(const QPalette& palette, const QFont& font) override;

private:
    QCPGraph* m_total;
    QCPGraph* m_weights;
    QCPGraph* m_attention;
    QCPGraph* m_state;
    QCPGraph* m_current;
    QCPItemText* m_currentLabel;
    QPointF m_currentCoords{1, 1};
};

} // namespace archplay::ui::views
