// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/Compute.h"
#include "ui/views/CostView.h"

#include <memory>
#include <vector>

namespace archplay::ui::views {

class FlopsCurvePlot;

/// What a token costs to compute: the FLOPs of one token at the scenario's position as a bar by
/// component (weights by component, attention and recurrent states apart), a table by layer kind,
/// FLOPs per token against the position in the context (weights flat, attention growing, windows
/// flattening it; core::flopsPerTokenCurve), and core::computeRows() beside them (prefill,
/// training, compute-optimal tokens, training time).
class ComputeView : public CostView {
    Q_OBJECT

public:
    explicit ComputeView(QWidget* parent = nullptr);
    ~ComputeView() override;

    core::ViewKind kind() const override { return core::ViewKind::Compute; }
    QString title() const override { return tr("Compute"); }
    QString tabTitle() const override { return tr("FLOPs"); }

    /// What the view draws, for tests.
    const std::vector<core::FlopsPart>& parts() const;
    const std::vector<core::KindFlops>& kinds() const;
    const std::vector<core::TokenFlops>& curve() const;
    const std::vector<core::SummaryRow>& rows() const;
    /// The chart as shown: the view brought up to date first (prepareToRender()).
    const FlopsCurvePlot& plot();
    layout::ComputeLayout layoutFor(const QRectF& target, bool onScreen = false) const;
    /// The segments of the bar in `layout` (proportional to parts()).
    std::vector<QRectF> barSegments(const layout::ComputeLayout& placed) const;

protected:
    void rebuildFigure() override;
    void updateCharts() override;
    void paintFigure(QPainter& painter, const QRectF& content, bool onScreen) const override;
    void placeCharts(const QRectF& content) override;
    std::vector<CostChart*> charts() const override;
    QString subtitle() const override { return m_subtitle; }

private:
    layout::ComputeLayout layoutIn(const QRectF& content) const;
    std::vector<qreal> legendWidths() const;
    QString legendText(std::size_t part) const;
    void paintBar(QPainter& painter, const layout::ComputeLayout& placed) const;
    void paintKinds(QPainter& painter, const layout::ComputeLayout& placed) const;

    std::unique_ptr<FlopsCurvePlot> m_plot;
    std::vector<core::FlopsPart> m_parts;
    std::vector<core::KindFlops> m_kinds;
    std::vector<core::TokenFlops> m_curve;
    core::TokenFlops m_current; ///< the point of m_curve at the scenario's context
    std::vector<core::SummaryRow> m_rows;
    QString m_subtitle;
};

} // namespace archplay::ui::views
