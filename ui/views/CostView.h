// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/report/Costs.h"
#include "ui/views/PaintedView.h"
#include "ui/views/layout/CostLayout.h"

#include <vector>

class QAction;
class QToolButton;

namespace archplay::ui::views {

class CostChart;
class DerivationPanel;

/// What the compute, memory and speed views share: core's rows shown in a panel, charts that are
/// child widgets on screen and drawn through render() in exports, and an Explain toggle (a button
/// at the top right and the context menu) that shows core::explainCosts() for the view's topic,
/// every formula with this config's values, in place of the figure, with Copy as LaTeX and Copy
/// as Markdown. An export draws what the screen shows: the figure, or the explanation.
class CostView : public PaintedView {
    Q_OBJECT

public:
    CostView(core::CostTopic topic, QWidget* parent);
    ~CostView() override;

    core::CostTopic topic() const { return m_topic; }
    bool explaining() const { return m_explaining; }
    void setExplaining(bool explaining);
    QAction* explainAction() const { return m_explain; }
    /// The explanation's panel (its Copy actions, its derivation once shown or exported).
    DerivationPanel* explanation() const { return m_panel; }

signals:
    void explainingChanged(bool explaining);

protected:
    /// Recomputes what the figure derives from analysis(); called once per change. Data only (see
    /// PaintedView::rebuild()).
    virtual void rebuildFigure() = 0;
    /// Hands what rebuildFigure() derived to the charts (PaintedView::updateControls()).
    virtual void updateCharts() = 0;
    /// Paints the figure (a valid analysis) into `content`, the space under the header.
    virtual void paintFigure(QPainter& painter, const QRectF& content, bool onScreen) const = 0;
    /// Places the charts' widgets for the view drawn at `content` on screen.
    virtual void placeCharts(const QRectF& content) = 0;
    /// The charts, for palette changes and for hiding them while the explanation shows.
    virtual std::vector<CostChart*> charts() const = 0;
    virtual QString subtitle() const = 0;

    /// Puts a chart's widget at `rect` on screen; a chart without room (or data) stays hidden.
    static void placeChart(CostChart& chart, const QRectF& rect, bool wanted = true);

    /// The space under the header when the view is drawn into `target`.
    QRectF contentRect(const QRectF& target, bool onScreen) const;
    /// A font for headline figures.
    QFont headlineFont() const;
    /// Core's rows as panels show them.
    static std::vector<layout::RowText> rowTexts(const std::vector<core::SummaryRow>& rows);
    /// Draws rows placed by layout::layoutRows: label, value in bold coloured by its tone, detail muted.
    void paintRows(QPainter& painter, const std::vector<layout::RowPlacement>& placed,
                   const std::vector<core::SummaryRow>& rows) const;
    /// A headline: `value` large, `details` (the first that fits) muted beside it.
    void paintHeadline(QPainter& painter, const QRectF& rect, const QString& value, const QStringList& details) const;
    QColor toneColor(core::Tone tone) const;

    void rebuild() final;
    void updateControls() final;
    void paintContent(QPainter& painter, const QRectF& target) const final;
    void selectedLayerChanged() override {}
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void place();
    void showCharts();
    qreal reservedRight(bool onScreen) const;

    core::CostTopic m_topic;
    QAction* m_explain;
    QToolButton* m_explainButton;
    DerivationPanel* m_panel;
    bool m_explaining = false;
    bool m_explanationStale = true;
};

} // namespace archplay::ui::views
