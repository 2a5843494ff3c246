// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/views/AnalysisView.h"
#include "ui/views/FramePool.h"
#include "ui/views/layout/OverviewLayout.h"

#include <vector>

class QLabel;
class QScrollArea;
class QToolButton;

namespace archplay::ui::views {

class LayerSelection;
class PaintedView;

/// The default page: the consequences of a change side by side, live. Tiles are compact instances
/// of the views (layer stack, the selected layer's weights beside it, the KV cache with the
/// scenario's device fit, the model's attention masks, MoE routing, the selected layer's forward
/// pass) on a grid that reflows with the page (layout::layoutOverview). Each tile opens its full
/// view (expandRequested); a layer clicked in the stack tile is selected everywhere through the
/// shared LayerSelection. A tile that does not apply to the model is left out with one line saying
/// why (core::inapplicableReason). Tiles repaint only when what they draw changed, and draw on
/// every core (FramePool).
class OverviewPage : public AnalysisView {
    Q_OBJECT

public:
    explicit OverviewPage(QWidget* parent = nullptr);
    ~OverviewPage() override;

    core::ViewKind kind() const override { return core::ViewKind::Overview; }
    QString title() const override { return tr("Overview"); }
    void setSharedAnalysis(core::AnalysisPtr analysis) override;
    /// Draws the tiles shown, on the grid they take in `target`, and the notes under them.
    void render(QPainter& painter, const QRectF& target) const override;
    /// Each tile's (AnalysisView::prepareToRender()).
    void prepareToRender() override;

    /// The tiles share this selection (and the full views do too).
    void setLayerSelection(LayerSelection* selection);
    /// Every tile, in grid order, shown or not; tile(kind) is the one whose full view is `kind`.
    std::vector<PaintedView*> tiles() const;
    PaintedView* tile(core::ViewKind kind) const;
    /// The full views of the tiles shown, in grid order.
    std::vector<core::ViewKind> shownTiles() const;
    /// One line per tile left out, saying why; or the reason nothing is shown.
    const QStringList& notes() const { return m_notes; }
    /// The workers that draw the tiles beside the GUI thread; a tile leaves them with
    /// setFramePool(nullptr).
    FramePool* framePool() { return &m_frames; }
    /// The grid in a page of this size (the notes' line excluded), as render() and the screen use it.
    layout::OverviewLayout layoutFor(const QRectF& target) const;

signals:
    /// A tile asked for its full view.
    void expandRequested(core::ViewKind kind);

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Tile {
        PaintedView* view = nullptr;
        QToolButton* expand = nullptr;
        layout::OverviewTileSpec spec;
        bool shown = true;
    };
    void addTile(PaintedView* view, layout::OverviewTileSpec spec);
    void relayout();
    QRectF gridBounds(const QRectF& target) const;

    core::AnalysisPtr m_analysis = std::make_shared<const core::Analysis>();
    FramePool m_frames;
    std::vector<Tile> m_tiles;
    QStringList m_notes;
    QScrollArea* m_scroll;
    QWidget* m_canvas;
    QLabel* m_notesLabel;
};

} // namespace archplay::ui::views
