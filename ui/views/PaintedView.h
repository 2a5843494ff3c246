// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/Strings.h"
#include "ui/views/AnalysisView.h"

#include <QFont>
#include <QHashFunctions>
#include <QRegion>
#include <QString>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace archplay::ui::views {

class FramePool;
class LayerSelection;

/// Base of the custom-painted views. setSharedAnalysis() only keeps the analysis and schedules a repaint;
/// what a view derives from it (core calls, texts) is rebuilt once per change, on the first paint
/// or export after it, so hidden tabs cost nothing while a slider is dragged. paintEvent() calls
/// render(), which the exporters call too.
class PaintedView : public AnalysisView {
    Q_OBJECT

public:
    explicit PaintedView(QWidget* parent = nullptr);
    ~PaintedView() override;

    void setSharedAnalysis(core::AnalysisPtr analysis) override;
    void render(QPainter& painter, const QRectF& target) const override;

    /// Shares the selected layer with other views. Without one, the view keeps its own.
    void setLayerSelection(LayerSelection* selection);
    LayerSelection* layerSelection() const { return m_selection; }

    /// As a tile of the overview: the view leaves out its on-screen controls and keeps to what a
    /// glance needs; the full view stays the tab of its kind.
    void setCompact(bool compact);
    bool compact() const { return m_compact; }
    /// On screen, the view's pending repaint is drawn by `pool`'s workers while the GUI thread
    /// paints the rest of the window (FramePool). Null, the default: always on the GUI thread.
    void setFramePool(FramePool* pool);

    const core::Analysis& analysis() const { return *m_analysis; }
    /// Monotonic count of rebuilds, for caches keyed on the analysis.
    quint64 generation() const { return m_generation; }

protected:
    /// Recomputes what the view derives from analysis(); called once per change, before painting.
    virtual void rebuild() = 0;
    /// Paints the view for a valid analysis into `target`, background already filled.
    virtual void paintContent(QPainter& painter, const QRectF& target) const = 0;
    /// Called when the selected layer changes; the default rebuilds and repaints.
    virtual void selectedLayerChanged();
    /// A digest of everything the view draws, for views that can tell. A compact view on screen
    /// rebuilds as soon as a new analysis arrives, and skips the repaint when its digest is unchanged
    /// (the masks of a model stay when its width moves). Empty, the default: always repaint.
    virtual QString contentKey() const { return {}; }
    /// Where the view's pixels change for the analysis just built, against what it last painted:
    /// a compact view on screen repaints only there when its digest changed. The default: the
    /// bounding rect of the drawnItems() that differ from those last painted (one rect: Qt's raster
    /// engine fills inside a rect by rows of memory and inside a region span by span, slower than
    /// filling the bounding rect), or everywhere for a view that lists none.
    virtual QRegion changedRegion() const;

    /// One thing a view draws: every pixel it may touch, and a digest of how it draws them.
    struct DrawnItem {
        QRect rect;
        size_t digest = 0;
        bool operator==(const DrawnItem&) const = default;
        friend size_t qHash(const DrawnItem& item, size_t seed = 0) {
            return qHashMulti(seed, item.digest, item.rect.x(), item.rect.y(), item.rect.width(), item.rect.height());
        }
    };
    /// What paintContent() draws into `target`, item by item, for a valid analysis: outside these
    /// rects the view is its base colour. A view that lists its items repaints, after an edit,
    /// only the items that changed, appeared or went (changedRegion()). Empty, the default: the
    /// view repaints whole.
    virtual std::vector<DrawnItem> drawnItems(const QRectF& target) const;
    /// The places of the items in one list and not the other: gone, new, moved or drawn differently.
    static std::vector<QRect> differing(const std::vector<DrawnItem>& before, const std::vector<DrawnItem>& after);
    /// An item drawn in `rect` (to the fraction of a pixel: antialiased edges and text move with it),
    /// touching its pixels and `margin` more on each side (antialiased edges, strokes).
    static DrawnItem drawnItem(const QRectF& rect, size_t digest, int margin = 1);

    /// The selected layer resolved against the current plan (LayerSelection::resolve).
    std::int64_t selectedLayer() const;
    /// Marks the derived data stale and schedules a repaint.
    void invalidate();
    /// Rebuilds the derived data if stale.
    void ensureBuilt() const;

    /// Draws a title and a muted subtitle at the top of `target` and returns the space below them.
    /// Both wrap rather than being cut (up to two lines of title, three of subtitle).
    /// `reservedRight` keeps room for on-screen controls at the right of the title. A compact view
    /// draws the title alone.
    QRectF paintHeader(QPainter& painter, const QRectF& target, const QString& title, const QString& subtitle,
                       qreal reservedRight = 0) const;
    /// Where paintHeader()'s text ends for the same arguments, below the subtitle (below the title
    /// in a compact view).
    qreal headerBottom(const QRectF& target, const QString& title, const QString& subtitle,
                       qreal reservedRight = 0) const;
    QFont titleFont() const;
    /// The title's and the subtitle's lines for this target.
    std::pair<QStringList, QStringList> headerLines(const QRectF& target, const QString& title, const QString& subtitle,
                                                    qreal reservedRight) const;
    /// What the current paint event on the view redraws.
    const QRegion& exposedRegion() const { return m_exposed; }
    /// True when `painter` paints the view on screen (or into its frame, for the screen); false for
    /// an export.
    bool forScreen(const QPainter& painter) const;
    QFont smallFont() const;

    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    friend class FramePool;
    struct Frame;

    /// Ends the frame in flight, then lets the view follow the selected layer.
    void onLayerChanged();
    /// Asks Qt to repaint `region` and remembers it, for a frame to draw.
    void repaintLater(const QRegion& region);
    /// Starts drawing the pending repaint into the frame on a worker: only on screen, for a view
    /// built, shown and with no frame in flight.
    void startFrame();
    /// Ends the frame in flight: takes it back if no worker has started it, else runs the frames
    /// waiting on this thread until it is drawn. True when it was drawn (it holds its region).
    bool endFrame() const;
    /// Runs the frame in flight on this thread if no worker has started it; true when it ran.
    bool runWaitingFrame();
    /// render() without ending the frame in flight: what a frame runs.
    void draw(QPainter& painter, const QRectF& target) const;
    /// The window's backing store when it is an image (the raster backing stores), else null.
    QImage* backingStoreImage() const;

    // First: event() reads them from the constructor on (a child added is an event).
    FramePool* m_framePool = nullptr;
    std::unique_ptr<Frame> m_frame;
    core::AnalysisPtr m_analysis = std::make_shared<const core::Analysis>();
    LayerSelection* m_selection;
    bool m_compact = false;
    QString m_contentKey;
    std::vector<DrawnItem> m_drawn; ///< the items on screen, from the last paint event
    QRegion m_exposed;              ///< what the current paint event redraws
    QRegion m_pending;              ///< asked to repaint and not painted yet
    mutable bool m_dirty = true;
    mutable quint64 m_generation = 0;
};

} // namespace archplay::ui::views
