// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/report/Costs.h"
#include "ui/views/CostView.h"

#include <vector>

namespace archplay::ui::views {

/// What a model needs in memory, serving and training side by side: one GPU's memory as a bar of its
/// parts (weights, KV cache and workspace; weights, gradients, optimizer state and activations)
/// against the device's memory line, the fewest GPUs each fits on, and the rows of
/// core::servingMemoryRows() and core::trainingMemoryRows() under the bars.
class MemoryView : public CostView {
    Q_OBJECT

public:
    explicit MemoryView(QWidget* parent = nullptr);
    ~MemoryView() override;

    core::ViewKind kind() const override { return core::ViewKind::Memory; }
    QString title() const override { return tr("Memory"); }

    /// What the view draws, for tests.
    const core::MemoryStack& serving() const;
    const core::MemoryStack& training() const;
    const std::vector<core::SummaryRow>& servingRows() const;
    const std::vector<core::SummaryRow>& trainingRows() const;
    layout::MemoryLayout layoutFor(const QRectF& target, bool onScreen = false) const;
    /// The bytes one bar is drawn to: its whole width. At least the device's memory.
    static double barScale(const core::MemoryStack& stack);
    /// The segments of a stack's bar in `bar` (proportional to its parts' bytes).
    static std::vector<QRectF> segments(const core::MemoryStack& stack, const QRectF& bar);

protected:
    void rebuildFigure() override;
    void updateCharts() override {}
    void paintFigure(QPainter& painter, const QRectF& content, bool onScreen) const override;
    void placeCharts(const QRectF&) override {}
    std::vector<CostChart*> charts() const override { return {}; }
    QString subtitle() const override { return m_subtitle; }

private:
    layout::MemoryLayout layoutIn(const QRectF& content) const;
    QStringList verdictLines(const core::MemoryStack& stack, qreal width) const;
    void paintPanel(QPainter& painter, const layout::MemoryPanelLayout& placed, const core::MemoryStack& stack,
                    const std::vector<core::SummaryRow>& rows) const;

    core::MemoryStack m_serving;
    core::MemoryStack m_training;
    std::vector<core::SummaryRow> m_servingRows;
    std::vector<core::SummaryRow> m_trainingRows;
    QString m_subtitle;
};

} // namespace archplay::ui::views
