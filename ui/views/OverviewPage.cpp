// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/OverviewPage.h"

#include "core/report/Exports.h"
#include "ui/views/AttentionMaskView.h"
#include "ui/views/KvFitTile.h"
#include "ui/views/LayerStackView.h"
#include "ui/views/LayerStepView.h"
#include "ui/views/LayerWeightsView.h"
#include "ui/views/MoeRoutingView.h"
#include "ui/views/ViewColors.h"
#include "ui/views/WillItRunTile.h"
#include "ui/widgets/ShapedText.h"

#include <QEvent>
#include <QLabel>
#include <QPainter>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace archplay::ui::views {
namespace {

constexpr qreal kNotesGap = 6;

/// The tiles' "Open" button. At rest an auto-raised tool button is its label alone, and it repaints
/// with every repaint of the tile under it: drawn here from shaped text, not through the style,
/// which lays the label out again each time. Hovered, pressed or focused, the style draws it.
class OpenButton : public QToolButton {
public:
    using QToolButton::QToolButton;

protected:
    void paintEvent(QPaintEvent* event) override {
        if (underMouse() || isDown() || hasFocus() || !isEnabled()) {
            QToolButton::paintEvent(event);
            return;
        }
        QPainter painter(this);
        painter.setFont(font());
        painter.setPen(palette().color(QPalette::ButtonText));
        widgets::drawShaped(painter, QRectF(rect()), Qt::AlignCenter, text());
    }
};

} // namespace

OverviewPage::OverviewPage(QWidget* parent)
    : AnalysisView(parent)
    , m_scroll(new QScrollArea(this))
    , m_canvas(new QWidget)
    , m_notesLabel(new QLabel(this)) {
    m_canvas->setBackgroundRole(QPalette::Window);
    m_canvas->setAutoFillBackground(true);
    m_scroll->setWidget(m_canvas);
    m_scroll->setWidgetResizable(false);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->viewport()->installEventFilter(this);
    m_notesLabel->setObjectName(QStringLiteral("overview.notes"));
    m_notesLabel->setForegroundRole(QPalette::PlaceholderText);
    m_notesLabel->setWordWrap(true);
    m_notesLabel->setContentsMargins(8, 0, 8, 4);
    m_notesLabel->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_scroll, 1);
    layout->addWidget(m_notesLabel);
    setMinimumSize(320, 240);

    // Reading order: the stack with the selected layer's weights beside it, then what the config
    // costs and how it computes.
    addTile(new LayerStackView(m_canvas), {0.75, 2});
    addTile(new LayerWeightsView(m_canvas), {1.3, 2});
    addTile(new KvFitTile(m_canvas), {1.9, 1});
    addTile(new WillItRunTile(m_canvas), {1.9, 1});
    addTile(new AttentionMaskView(m_canvas), {1.9, 1});
    addTile(new MoeRoutingView(m_canvas), {1.9, 1});
    addTile(new LayerStepView(m_canvas), {1.6, 1});
}

OverviewPage::~OverviewPage() {
    for (const Tile& tile : m_tiles) {
        tile.view->setFramePool(nullptr); // its frame ended, before the pool and the tile go
    }
}

void OverviewPage::addTile(PaintedView* view, layout::OverviewTileSpec spec) {
    view->setCompact(true);
    view->setFramePool(&m_frames);
    view->setMinimumSize(0, 0);
    view->installEventFilter(this);
    auto* expand = new OpenButton(m_canvas);
    expand->setObjectName(QStringLiteral("overview.open.%1").arg(view->name()));
    expand->setText(tr("Open"));
    expand->setToolTip(tr("Show the full %1 view (double-click the tile does too)").arg(view->title()));
    expand->setAutoRaise(true);
    const core::ViewKind focus = view->kind();
    connect(expand, &QToolButton::clicked, this, [this, focus] { emit expandRequested(focus); });
    m_tiles.push_back({view, expand, spec, true});
}

void OverviewPage::setLayerSelection(LayerSelection* selection) {
    for (const Tile& tile : m_tiles) {
        tile.view->setLayerSelection(selection);
    }
}

std::vector<PaintedView*> OverviewPage::tiles() const {
    std::vector<PaintedView*> views;
    for (const Tile& tile : m_tiles) {
        views.push_back(tile.view);
    }
    return views;
}

PaintedView* OverviewPage::tile(core::ViewKind kind) const {
    for (const Tile& tile : m_tiles) {
        if (tile.view->kind() == kind) {
            return tile.view;
        }
    }
    return nullptr;
}

std::vector<core::ViewKind> OverviewPage::shownTiles() const {
    std::vector<core::ViewKind> kinds;
    for (const Tile& tile : m_tiles) {
        if (tile.shown) {
            kinds.push_back(tile.view->kind());
        }
    }
    return kinds;
}

void OverviewPage::setSharedAnalysis(core::AnalysisPtr analysis) {
    m_frames.endFrames();
    m_analysis = std::move(analysis);
    QStringList notes;
    bool changed = false;
    for (Tile& tile : m_tiles) {
        bool shown = m_analysis->valid;
        if (m_analysis->valid) {
            const std::string reason = core::inapplicableReason(tile.view->kind(), *m_analysis);
            shown = reason.empty();
            if (!shown) {
                notes << tr("%1 — %2").arg(tile.view->title(), qs(reason));
            }
        }
        changed = changed || shown != tile.shown;
        tile.shown = shown;
    }
    if (!m_analysis->valid) {
        notes << tr("Nothing to show: the configuration has errors. Fix the fields listed under Diagnostics.");
    }
    if (changed) {
        relayout(); // before the analysis reaches the tiles, so only the shown ones rebuild
    }
    for (const Tile& tile : m_tiles) {
        tile.view->setSharedAnalysis(m_analysis);
    }
    if (notes != m_notes) {
        m_notes = notes;
        m_notesLabel->setText(m_notes.join(QLatin1Char('\n')));
        m_notesLabel->setVisible(!m_notes.isEmpty());
    }
}

QRectF OverviewPage::gridBounds(const QRectF& target) const {
    if (m_notes.isEmpty()) {
        return target;
    }
    const qreal notesHeight = m_notes.size() * widgets::TextMetrics(font()).height() + kNotesGap;
    return target.adjusted(0, 0, 0, -notesHeight);
}

layout::OverviewLayout OverviewPage::layoutFor(const QRectF& target) const {
    std::vector<layout::OverviewTileSpec> specs;
    for (const Tile& tile : m_tiles) {
        if (tile.shown) {
            specs.push_back(tile.spec);
        }
    }
    return layout::layoutOverview(specs, target);
}

void OverviewPage::relayout() {
    m_frames.endFrames();
    const QSize viewport = m_scroll->viewport()->size();
    const layout::OverviewLayout grid = layoutFor(QRectF(0, 0, viewport.width(), viewport.height()));
    m_canvas->resize(viewport.width(), static_cast<int>(std::ceil(grid.height)));
    std::size_t next = 0;
    for (const Tile& tile : m_tiles) {
        tile.view->setVisible(tile.shown && next < grid.tiles.size());
        tile.expand->setVisible(tile.view->isVisibleTo(this));
        if (!tile.shown || next >= grid.tiles.size()) {
            continue;
        }
        const QRect rect = grid.tiles[next++].toAlignedRect();
        tile.view->setGeometry(rect);
        tile.expand->adjustSize();
        tile.expand->move(rect.right() - tile.expand->width() - 6, rect.top() + 6);
        tile.expand->raise();
    }
}

void OverviewPage::prepareToRender() {
    for (const Tile& tile : m_tiles) {
        tile.view->prepareToRender();
    }
}

void OverviewPage::render(QPainter& painter, const QRectF& target) const {
    painter.save();
    painter.setClipRect(target, Qt::IntersectClip);
    painter.fillRect(target, palette().color(QPalette::Window));
    const QRectF bounds = gridBounds(target);
    std::vector<layout::OverviewTileSpec> specs;
    std::vector<const PaintedView*> views;
    for (const Tile& tile : m_tiles) {
        if (tile.shown) {
            specs.push_back(tile.spec);
            views.push_back(tile.view);
        }
    }
    // A picture has no scroll bar: the tiles shrink below their screen minimum to fit it.
    layout::OverviewMetrics metrics;
    metrics.minTileHeight = 0;
    const layout::OverviewLayout grid = layout::layoutOverview(specs, bounds, metrics);
    for (std::size_t i = 0; i < grid.tiles.size(); ++i) {
        views[i]->render(painter, grid.tiles[i]);
    }
    if (!m_notes.isEmpty()) {
        painter.setPen(colors::muted(palette()));
        painter.setFont(font());
        painter.drawText(QRectF(target.left() + 8, bounds.bottom() + kNotesGap, target.width() - 16,
                                target.bottom() - bounds.bottom() - kNotesGap),
                         Qt::AlignLeft | Qt::AlignTop, m_notes.join(QLatin1Char('\n')));
    }
    painter.restore();
}

void OverviewPage::resizeEvent(QResizeEvent* event) {
    AnalysisView::resizeEvent(event);
    relayout();
}

bool OverviewPage::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_scroll->viewport() && event->type() == QEvent::Resize) {
        relayout();
    } else if (event->type() == QEvent::MouseButtonDblClick) {
        if (auto* view = qobject_cast<PaintedView*>(watched)) {
            emit expandRequested(view->kind());
            return true;
        }
    }
    return AnalysisView::eventFilter(watched, event);
}

} // namespace archplay::ui::views
