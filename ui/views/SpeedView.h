// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/report/Costs.h"
#include "ui/views/CostView.h"

#include <memory>
#include <vector>

namespace archplay::ui::views {

class DecodeSpeedPlot;
class RooflinePlot;

/// How fast the model can run on the scenario's devices, every figure an upper bound
/// (core::speedBoundLabel()): decode tokens per second against batch with the memory-bound and
/// compute-bound batches shaded and the scenario's batch marked, the roofline with this model's decode
/// steps and prefill on it, and core::speedRows(). A model without a decode step says so in one line
/// and shows its forward pass on the roofline alone.
class SpeedView : public CostView {
    Q_OBJECT

public:
    explicit SpeedView(QWidget* parent = nullptr);
    ~SpeedView() override;

    core::ViewKind kind() const override { return core::ViewKind::Speed; }
    QString title() const override { return tr("Speed"); }

    /// What the view draws, for tests.
    const std::vector<core::SummaryRow>& rows() const;
    /// The charts as shown: the view brought up to date first (prepareToRender()).
    const DecodeSpeedPlot& decodePlot();
    const RooflinePlot& rooflinePlot();
    /// core::noDecodeNote(): the line shown instead of the decode curve; empty with decode.
    QString noDecodeNote() const;
    layout::SpeedLayout layoutFor(const QRectF& target, bool onScreen = false) const;
    /// The titles drawn above the two charts.
    QString decodeTitle() const;
    QString rooflineTitle() const;

protected:
    void rebuildFigure() override;
    void updateCharts() override;
    void paintFigure(QPainter& painter, const QRectF& content, bool onScreen) const override;
    void placeCharts(const QRectF& content) override;
    std::vector<CostChart*> charts() const override;
    QString subtitle() const override { return m_subtitle; }

private:
    layout::SpeedLayout layoutIn(const QRectF& content) const;
    QStringList noteLines(qreal width) const;
    qreal rowsHeightFor(const QRectF& content) const;

    std::unique_ptr<DecodeSpeedPlot> m_decode;
    std::unique_ptr<RooflinePlot> m_roofline;
    std::vector<core::SummaryRow> m_rows;
    QString m_note;
    QString m_subtitle;
};

} // namespace archplay::ui::views
