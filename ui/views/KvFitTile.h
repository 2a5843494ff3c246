// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/memory/KvCurve.h"
#include "ui/views/PaintedView.h"

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

protected:
    void rebuild() override;
    void paintContent(QPainter& painter, const QRectF& target) const override;
    void selectedLayerChanged() override {}
    QString contentKey() const override;

private:
    std::vector<core::KvKindShare> m_shares;
    std::vector<QStringList> m_shareLabels; ///< per layer kind, its row's label, longest first
    QString m_headline;
    QString m_detail;
    QString m_deviceTitle;
    QString m_deviceDetail;
};

} // namespace archplay::ui::views
