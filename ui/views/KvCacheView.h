// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/report/KvFigure.h"
#include "ui/views/PaintedView.h"
#include "ui/views/charts/KvCurvePlot.h"
#include "ui/views/layout/KvLayout.h"

#include <memory>
#include <vector>

namespace archplay::ui::views {

/// The KV cache: a memory bar at the scenario's sequence length, batch and precision split by
/// layer kind, bytes per token and per layer, what sliding windows and MLA save, the cache against
/// sequence length (log axes, a line per precision, the current point marked), and whether weights
/// plus cache fit the scenario's number of devices of each memory size from 24 to 192 GiB. A model
/// without a KV cache (encoder-only) gets one line saying so.
class KvCacheView : public PaintedView {
    Q_OBJECT

public:
    explicit KvCacheView(QWidget* parent = nullptr);
    ~KvCacheView() override;

    core::ViewKind kind() const override { return core::ViewKind::KvCache; }
    QString title() const override { return tr("KV cache"); }

    /// What the view draws, for tests: the curve's points, the shares of the bar, the fits.
    /// (The plot's points and arrangement as shown: the view brought up to date first.)
    std::vector<QPointF> curvePoints(int index);
    /// Where the curve plot goes when the view is drawn into `target`.
    QRectF curveRect(const QRectF& target) const { return layoutFor(target).curve; }
    /// Where the curve's labels and legend go in a plot of `plotSize` pixels (see curveRect()).
    KvCurvePlot::Arrangement curveArrangement(const QSize& plotSize);
    const std::vector<core::KvCurve>& curves() const;
    const std::vector<core::KvKindShare>& shares() const;
    const std::vector<core::GpuFit>& fits() const;
    /// The text of each fit's row, as core words it.
    const std::vector<core::GpuFitText>& fitTexts() const;
    /// The one line shown instead of the view for a model that keeps no KV cache; empty otherwise.
    QString noCacheNote() const;
    layout::KvLayout layoutFor(const QRectF& target) const;

protected:
    void rebuild() override;
    void updateControls() override;
    void paintContent(QPainter& painter, const QRectF& target) const override;
    void selectedLayerChanged() override {}
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    QRectF contentRect(const QRectF& target) const;
    /// The notes wrapped to the width of `content`, one entry per line.
    QStringList noteLines(const QRectF& content) const;
    QFont headlineFont() const;
    void paintShares(QPainter& painter, const layout::KvLayout& placed) const;
    void paintFits(QPainter& painter, const layout::KvLayout& placed) const;
    void placePlot();

    std::unique_ptr<KvCurvePlot> m_plot;
    core::KvFigure m_figure; ///< what core says the view shows; the texts below are its QStrings
    QString m_noCache;
    std::vector<QString> m_notes;
    QString m_headline;
    QString m_subtitle;
    QString m_headlineDetail;
};

} // namespace archplay::ui::views
