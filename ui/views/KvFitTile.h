// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/scenario/KvCurve.h"
#include "ui/views/PaintedView.h"

#include <QStringList>

#include <utility>
#include <vector>

namespace archplay::ui::views {

/// The KV cache at a glance, the overview's tile of the KV cache view: the cache at the scenario's
/// length, batch and precision as a bar split by layer kind, and weights plus cache against the
/// scenario's devices (core's DeviceFit, the figure the summary card shows).
class KvFitTile : public PaintedView {
    Q_OBJECT

public:
    explicit KvFitTile(QWidget* parent = nullptr);

    core::ViewKind kind() const override { return core::ViewKind::KvCache; }
    QString title() const override { return tr("KV cache"); }

    /// The shares of the bar, for tests.
    const std::vector<core::KvKindShare>& shares() const;
    /// The texts drawn: headline, detail, device verdict, device detail.
    QStringList texts() const;
    /// Where the cache bar is drawn in `target`, for tests.
    QRectF cacheBar(const QRectF& target) const { return placement(target).bar; }

protected:
    void rebuild() override;
    void paintContent(QPainter& painter, const QRectF& target) const override;
    void selectedLayerChanged() override {}
    QString contentKey() const override;

private:
    /// Where paintContent() draws for a target: the lines as wrapped, and the boxes they go in.
    struct Placement {
        qreal line = 0; ///< the height of a line of text
        qreal left = 0; ///< the content's left edge and width, below the headline
        qreal width = 0;
        QStringList detail;
        qreal detailTop = 0;
        QRectF bar;                   ///< the cache split by layer kind
        std::vector<QRectF> segments; ///< per kind, its part of the bar
        std::vector<QRectF> rows;     ///< per kind that has room, its swatch and label
        QStringList deviceTitle;
        qreal deviceTitleTop = 0;
        QRectF deviceBar; ///< weights and cache against the devices' memory
        QStringList deviceDetail;
    };
    /// The placement for `target`, computed once per rebuild and target.
    const Placement& placement(const QRectF& target) const;
    /// The widths of the weights and of the cache in a device bar `width` wide.
    std::pair<qreal, qreal> deviceShares(qreal width) const;

    std::vector<core::KvKindShare> m_shares;
    std::vector<QStringList> m_shareLabels; ///< per layer kind, its row's label, longest first
    QString m_headline;
    QString m_detail;
    QString m_deviceTitle;
    QString m_deviceDetail;
    mutable Placement m_placement;
    mutable QRectF m_placementTarget;
    mutable quint64 m_placementGeneration = 0;
};

} // namespace archplay::ui::views
