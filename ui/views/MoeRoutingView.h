// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/routing/RoutingSimulation.h"
#include "ui/views/PaintedView.h"
#include "ui/views/layout/RoutingLayout.h"

#include <QImage>

#include <utility>
#include <vector>

namespace archplay::ui::views {

/// MoE routing on a sample sentence: each token's router scores over the experts as a row of cells
/// with the top-k lit and shared experts always on, the load per expert over the sample, and total
/// versus active parameters. The scores come from core::simulateRouting(), a deterministic and
/// documented simulation seeded from the config, and the view says they are illustrative. For a
/// dense config it explains that every token goes through the same FFN.
class MoeRoutingView : public PaintedView {
    Q_OBJECT

public:
    explicit MoeRoutingView(QWidget* parent = nullptr);

    core::ViewKind kind() const override { return core::ViewKind::MoeRouting; }
    QString title() const override { return tr("MoE routing"); }
    QString tabTitle() const override { return tr("Routing"); }

    const core::RoutingSimulation& simulation() const;
    layout::RoutingLayout layoutFor(const QRectF& target) const;

protected:
    void rebuild() override;
    void paintContent(QPainter& painter, const QRectF& target) const override;
    QString contentKey() const override;

private:
    QString headerTitle() const;
    /// The router's rule ("8 routed experts, top-2 · softmax …"), wrapped to the width of `target`.
    QStringList ruleLines(const QRectF& target) const;
    QRectF contentRect(const QRectF& target) const;
    void paintDense(QPainter& painter, const QRectF& area) const;
    void paintTotals(QPainter& painter, const QRectF& area) const;
    /// Dashed lines between the expert groups of group-limited routing, from `top` to `bottom`.
    void paintGroupSeparators(QPainter& painter, const layout::RoutingLayout& placed, qreal top, qreal bottom) const;
    qreal tokenLabelWidth() const;
    qreal choiceWidth(const QRectF& area) const;

    core::RoutingSimulation m_simulation;
    core::RoutingInputs m_inputs; ///< what m_simulation was simulated from
    quint64 m_simulations = 0;    ///< how many times it was simulated
    QImage m_heat;              ///< one pixel per (token, routed expert), drawn scaled: thousands of cells in one call
    std::vector<QRgb> m_shades; ///< the heat map's scale, from idle to routed
    std::pair<QRgb, QRgb> m_shadesFor{}; ///< the routed and base colours m_shades was made from
    quint64 m_heatSimulation = 0;        ///< the simulation (m_simulations) m_heat and m_choices show
    QString m_subtitle;
    QString m_rule;
    QString m_ruleShort;                ///< the layer and its experts, without the scoring: the tile's rule
    std::vector<QStringList> m_choices; ///< per token, its chosen experts ("e5 0.61" or "e5")
};

} // namespace archplay::ui::views
