// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/Roofline.h"
#include "ui/views/charts/CostChart.h"

#include <cstdint>
#include <vector>

class QCPItemRect;
class QCPItemStraightLine;

namespace archplay::ui::views {

/// Decode throughput against batch (log axes): the aggregate tokens per second and each sequence's,
/// the batches where a step is memory-bound and where it is compute-bound shaded (core's
/// RooflineReport::computeBoundBatch), the scenario's batch marked. Upper bounds, as the title says.
class DecodeSpeedPlot : public CostChart {
public:
    explicit DecodeSpeedPlot(QWidget* parent);

    void setSpeed(const core::RooflineReport& report);

    /// (batch, tokens/s) as plotted.
    std::vector<QPointF> aggregatePoints() const { return points(m_aggregate); }
    std::vector<QPointF> perSequencePoints() const { return points(m_perSequence); }
    /// The shaded batch ranges [from, to] on the x axis: memory-bound, then compute-bound (empty
    /// when decode never turns compute-bound on the plot).
    QRectF memoryRegion() const;
    QRectF computeRegion() const;

protected:
    void style(const QPalette& palette, const QFont& font) override;

private:
    QCPGraph* m_aggregate;
    QCPGraph* m_perSequence;
    QCPGraph* m_current;
    QCPItemRect* m_memory;
    QCPItemRect* m_compute;
    QCPItemText* m_memoryLabel;
    QCPItemText* m_computeLabel;
    QCPItemText* m_currentLabel;
    QPointF m_currentCoords{1, 1};
    double m_left = 1;
    double m_boundary = 0; ///< first compute-bound batch on the plot; 0 for none
    double m_right = 512;
};

/// The roofline of the scenario's devices (log-log): attainable FLOP/s = min(peak, bandwidth x
/// intensity), the ridge where it turns, and this model's decode steps (batch 1 to 512, the
/// scenario's marked) and prefill on it. Every point is core's (core::rooflinePoint, prefillPoint,
/// attainableFlops).
class RooflinePlot : public CostChart {
public:
    explicit RooflinePlot(QWidget* parent);

    /// `decode`: false for a model without a decode step (its forward pass is the prefill point).
    void setRoofline(const core::RooflineReport& report, bool decode);

    std::vector<QPointF> roofPoints() const { return points(m_roof); }
    std::vector<QPointF> decodePoints() const { return points(m_decode); }
    std::vector<QPointF> scenarioPoint() const { return points(m_scenario); }
    std::vector<QPointF> prefillPoint() const { return points(m_prefill); }

protected:
    void style(const QPalette& palette, const QFont& font) override;

private:
    QCPGraph* m_roof;
    QCPGraph* m_decode;
    QCPGraph* m_scenario;
    QCPGraph* m_prefill;
    QCPItemStraightLine* m_ridge;
    QCPItemText* m_ridgeLabel;
    QCPItemText* m_scenarioLabel;
    QCPItemText* m_prefillLabel;
    QPointF m_scenarioCoords{1, 1};
    QPointF m_prefillCoords{1, 1};
    double m_ridgeAt = 1;
};

} // namespace archplay::ui::views
