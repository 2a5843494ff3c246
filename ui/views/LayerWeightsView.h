// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/views/PaintedView.h"
#include "ui/views/layout/WeightItems.h"
#include "ui/views/layout/WeightLayout.h"

#include <QColor>

#include <vector>

class QComboBox;

namespace archplay::ui::views {

/// Inside one layer: every weight of the selected layer drawn to one scale (area proportional to
/// parameters, d_in rows by d_out columns): Q, K, V, O or MLA's down and up projections, gate, up
/// and down, the router, the routed experts as a grid with the top-k of a sample token lit, shared
/// experts, norms and biases, each labelled with its shape and parameter count.
class LayerWeightsView : public PaintedView {
    Q_OBJECT

public:
    explicit LayerWeightsView(QWidget* parent = nullptr);

    core::ViewKind kind() const override { return core::ViewKind::LayerWeights; }
    QString title() const override { return tr("Inside a layer"); }
    QString tabTitle() const override { return tr("Weights"); }

    /// The items drawn for the selected layer, their groups and their layout in a target of this size.
    const std::vector<layout::WeightItem>& items() const;
    const std::vector<layout::WeightGroup>& groups() const;
    layout::WeightLayout layoutFor(const QRectF& target) const;
    /// The routed experts lit in the grid: the first sample token's top-k (core::simulateRouting).
    const std::vector<int>& litExperts() const;

protected:
    void rebuild() override;
    void updateControls() override;
    void paintContent(QPainter& painter, const QRectF& target) const override;
    QString contentKey() const override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    QColor colorOf(layout::WeightRole role) const;
    QRectF contentRect(const QRectF& target) const;
    /// Whether the layer picker is shown: in the full view, for a model with layers.
    bool pickerShown() const;
    /// Room kept right of the title for the layer picker.
    qreal pickerReserve() const;
    const layout::WeightLayout& cachedLayout(const QRectF& target) const;
    void refillPicker();

    QComboBox* m_picker;
    QString m_pickerSignature;
    layout::WeightItems m_weights;
    std::vector<int> m_litExperts;
    QString m_title;
    QString m_subtitle;
    QString m_note;
    mutable layout::WeightLayout m_layout;
    mutable QRectF m_layoutTarget;
    mutable quint64 m_layoutGeneration = 0;
};

} // namespace archplay::ui::views
