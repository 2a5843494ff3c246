// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/mask/AttentionMask.h"
#include "ui/views/PaintedView.h"
#include "ui/views/layout/MaskLayout.h"

#include <vector>

class QCheckBox;

namespace archplay::ui::views {

/// Attention masks: query rows by key columns for every distinct mask of the model (causal,
/// bidirectional encoder, sliding window, chunked, cross-attention), at a stated scale so windows
/// from the config stay visible, with the selected layer's mask outlined. "Compare every kind"
/// adds the other kinds (prefix-LM among them) at the same scale.
class AttentionMaskView : public PaintedView {
    Q_OBJECT

public:
    explicit AttentionMaskView(QWidget* parent = nullptr);

    core::ViewKind kind() const override { return core::ViewKind::AttentionMask; }
    QString title() const override { return tr("Attention mask"); }
    QString tabTitle() const override { return tr("Masks"); }

    /// Shows the reference masks of every kind after the model's own.
    void setCompareAll(bool compare);
    bool compareAll() const { return m_compare; }
    /// The grids drawn, model masks first.
    const std::vector<core::MaskGrid>& grids() const;
    layout::MaskLayout layoutFor(const QRectF& target) const;

    static constexpr int kCells = 32;

protected:
    void rebuild() override;
    void updateControls() override;
    void paintContent(QPainter& painter, const QRectF& target) const override;
    void selectedLayerChanged() override { repaintLater(rect()); }
    void resizeEvent(QResizeEvent* event) override;
    QString contentKey() const override;

private:
    struct Panel {
        core::MaskUse use;
        bool reference = false;
        QString subtitle;
        QString stats; ///< what a query sees and the pairs scored, e.g. "all earlier keys · 8.39M pairs at S = 4K"
        QString briefStats; ///< the same without the counts, for a panel too small for them
    };
    QRectF contentRect(const QRectF& target) const;
    /// The panel of the selected layer's mask; the panel count when none.
    std::size_t outlinedPanel() const;
    QColor colorOf(const core::MaskSpec& mask) const;
    void paintPanel(QPainter& painter, const layout::MaskPanel& geometry, const Panel& panel,
                    const core::MaskGrid& grid, bool selected) const;

    QCheckBox* m_compareBox;
    bool m_compare = false;
    std::vector<Panel> m_panels;
    std::vector<core::MaskGrid> m_grids;
    std::uint64_t m_tokensPerCell = 1;
    QString m_subtitle;
    QString m_caption;
    mutable layout::MaskLayout m_layout;
    mutable QRectF m_layoutTarget;
    mutable quint64 m_layoutGeneration = 0;
};

} // namespace archplay::ui::views
