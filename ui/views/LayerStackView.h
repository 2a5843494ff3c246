// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/views/PaintedView.h"
#include "ui/views/layout/LayerStackLayout.h"

#include <QColor>

#include <cstdint>
#include <vector>

namespace archplay::ui::views {

/// The whole stack as slabs, bottom to top from the token embeddings to the output head, every
/// layer coloured by its attention kind (left part) and feed-forward kind (right part). Runs of
/// identical layers get a bracket with a count, so deep and heterogeneous stacks read at a glance;
/// encoder and decoder stand side by side with cross-attention drawn. Clicking a layer selects it
/// for the views that show one layer.
class LayerStackView : public PaintedView {
    Q_OBJECT

public:
    explicit LayerStackView(QWidget* parent = nullptr);

    core::ViewKind kind() const override { return core::ViewKind::LayerStack; }
    QString title() const override { return tr("Layer stack"); }
    QString tabTitle() const override { return tr("Layers"); }

    /// The stack's layout inside a target of this size, as render() draws it.
    layout::LayerStackLayout layoutFor(const QRectF& target) const;

signals:
    /// A layer was clicked: it is selected, and the window opens it (its weight matrices).
    void layerOpened(std::int64_t planIndex);

protected:
    void rebuild() override;
    void paintContent(QPainter& painter, const QRectF& target) const override;
    void selectedLayerChanged() override { repaintLater(rect()); }
    QString contentKey() const override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    struct LegendEntry {
        QString text;
        QColor color;
    };
    QString screenSubtitle() const;
    /// The header and the legend, painted with a painter when given; returns the area below them.
    QRectF paintChrome(QPainter* painter, const QRectF& target) const;
    const layout::LayerStackLayout& cachedLayout(const QRectF& target) const;
    int slabAt(const QPointF& position) const;
    QString toolTipFor(int planIndex) const;

    std::vector<layout::StackColumnInput> m_columns;
    std::vector<LegendEntry> m_legend;
    QString m_parameterHeader;
    QString m_cacheHeader;
    QString m_subtitle;
    mutable layout::LayerStackLayout m_layout;
    mutable QRectF m_layoutTarget;
    mutable quint64 m_layoutGeneration = 0;
    int m_hover = -1;
};

} // namespace archplay::ui::views
