// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/Strings.h"
#include "ui/views/AnalysisView.h"
#include "ui/widgets/PaintRecorder.h"

#include <QFont>
#include <QPalette>
#include <QRegion>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace archplay::ui::views {

class FramePool;
class LayerSelection;

/// Base of the custom-painted views. setSharedAnalysis() only keeps the analysis and schedules a repaint;
/// what a view derives from it (core calls, texts; rebuild(), then updateControls()) is rebuilt once
/// per change, before the view's next repaint or export, so hidden tabs cost nothing while a slider
/// is dragged. paintEvent() draws what render() draws, which the exporters call too.
///
/// Drawing reads the view's derived data, its analysis and snapshot(), never the QWidget: a tile of
/// the overview draws on a worker thread (FramePool), and QWidget is GUI-thread only.
class PaintedView : public AnalysisView {
    Q_OBJECT

public:
    explicit PaintedView(QWidget* parent = nullptr);
    ~PaintedView() override;

    void setSharedAnalysis(core::AnalysisPtr analysis) override;
    void render(QPainter& painter, const QRectF& target) const override;
    void prepareToRender() override;

    /// Shares the selected layer with other views. Without one, the view keeps its own.
    void setLayerSelection(LayerSelection* selection);
    LayerSelection* layerSelection() const { return m_selection; }

    /// As a tile of the overview: the view leaves out its on-screen controls and keeps to what a
    /// glance needs; the full view stays the tab of its kind.
    void setCompact(bool compact);
    bool compact() const { return m_compact; }
    /// On screen, the view is drawn into an image of its own by `pool`'s workers as soon as it
    /// changes, and its paint event copies the image to the window (FramePool). Null, the default:
    /// it draws in its paint event, on the GUI thread.
    void setFramePool(FramePool* pool);

    const core::Analysis& analysis() const { return *m_analysis; }
    /// Monotonic count of rebuilds, for caches keyed on the analysis.
    quint64 generation() const { return m_generation; }

protected:
    /// Recomputes what the view derives from analysis() and snapshot(); called once per change,
    /// before painting. Data only, no widget calls: it may run inside a paint event or an export.
    virtual void rebuild() = 0;
    /// Brings the view's child widgets (pickers, check boxes, plots, panels) up to date with what
    /// rebuild() derived. Called on the GUI thread outside paint, once after each rebuild: for a view
    /// on screen when the event loop is back after the change (before the repaint), else when it
    /// is shown or exported (prepareToRender()). The default has none.
    virtual void updateControls() {}
    /// Paints the view for a valid analysis into `target`, background already filled.
    virtual void paintContent(QPainter& painter, const QRectF& target) const = 0;
    /// Called when the selected layer changes; the default rebuilds and repaints.
    virtual void selectedLayerChanged();
    /// A digest of everything the view draws, for views that can tell. A compact view on screen
    /// rebuilds as soon as a new analysis arrives, and skips the repaint when its digest is unchanged
    /// (the masks of a model stay when its width moves). Empty, the default: always repaint.
    virtual QString contentKey() const { return {}; }
    /// What drawing reads of the widget and of the shared selection, copied on the GUI thread
    /// whenever they may have changed (a palette, font, enabled or activation change, a new
    /// analysis, another layer selected) and before each draw there.
    struct Snapshot {
        QPalette palette; ///< QWidget::palette() in its current colour group
        QFont font;
        std::int64_t layer = -1; ///< the selected layer resolved against the plan (LayerSelection::resolve)
    };
    const Snapshot& snapshot() const { return m_snapshot; }
    /// The selected layer resolved against the current plan: snapshot().layer.
    std::int64_t selectedLayer() const { return m_snapshot.layer; }
    /// Marks the derived data stale and schedules a repaint.
    void invalidate();
    /// Schedules a repaint of `region`: what a view calls instead of update(), which would show a
    /// frame's image unchanged.
    void repaintLater(const QRegion& region);
    /// Rebuilds the derived data if stale (rebuild(); not the controls).
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
    /// What the current draw redraws: a paint event's region, or a frame's.
    const QRegion& exposedRegion() const { return m_exposed; }
    /// True when `painter` paints the view on screen (or into its frame's image, for the screen, or
    /// lists what the screen would show: paintedItems()); false for an export.
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
    /// Copies the snapshot from the widget (GUI thread, no frame in flight).
    void takeSnapshot() const;
    /// updateControls() once after a rebuild.
    void syncControls();
    /// Readies the frame to bring the image up to date `within` a region, on the GUI thread: takes
    /// the snapshot, builds, sizes the image and hands the pending region there to the frame.
    /// False when the image is up to date there.
    bool prepareFrame(const QRegion& within);
    /// Starts drawing the pending region into the image on a worker: for a view with a frame,
    /// shown, with something pending and no frame in flight.
    void startFrame();
    /// Ends the frame in flight: runs it on this thread if no worker has started it, else runs the
    /// frames waiting on this thread until it is drawn. The image is then up to date but for what
    /// changed since the frame started.
    void endFrame() const;
    /// Runs the frame in flight on this thread if no worker has started it; true when it ran.
    bool runWaitingFrame() const;
    /// render() without ending the frame in flight: what a frame runs.
    void draw(QPainter& painter, const QRectF& target) const;
    /// Repaints where the view's pixels change for the analysis just built, against what it last
    /// painted: the bounding rect of the items its paint code paints (paintedItems()) that differ
    /// from those (one rect: Qt's raster engine fills inside a rect by rows of memory and inside a
    /// region span by span, slower than filling the bounding rect). What it records is kept for
    /// the frame that paints the change, unless anything else asks for a repaint first.
    void repaintChanged();
    /// Repaints where the items of `next`, recorded at a view size, differ from those last painted,
    /// and keeps them for the frame.
    void repaintRecorded(std::vector<widgets::PaintedItem> next, QSize recordedAt);
    /// With a frame and workers: repaintChanged() with the recording on a worker (the change's
    /// recordings run beside each other and beside the GUI thread, with the workers' shaped text),
    /// ended before the frame that draws the change starts. False when it records nothing.
    bool startRecording();
    /// What draw() paints into `target` for the screen, call by call (widgets::PaintRecorder): the
    /// paint code is the view's one description, for painting and for repaintChanged() alike.
    /// On the GUI thread; recording also fills the caches that drawing then reads on a worker.
    std::vector<widgets::PaintedItem> paintedItems(const QRectF& target) const;
    /// paintedItems() at a resolution, on any thread (a recording frame's).
    std::vector<widgets::PaintedItem> recordItems(const QRectF& target, int dpiX, int dpiY, qreal ratio) const;
    /// paintEvent() with a frame: brings the image up to date and copies the event's region of it.
    void paintFromImage(QPainter& painter, const QRegion& region);

    // First: event() reads them from the constructor on (a child added is an event).
    FramePool* m_framePool = nullptr;
    std::unique_ptr<Frame> m_frame;
    core::AnalysisPtr m_analysis = std::make_shared<const core::Analysis>();
    LayerSelection* m_selection;
    mutable Snapshot m_snapshot; ///< a copy of the widget's state; taken on the GUI thread only
    bool m_compact = false;
    QString m_contentKey;
    std::vector<widgets::PaintedItem> m_drawn; ///< a compact view's items on screen (in its frame's image)
    /// paintedItems() of the whole view recorded by repaintChanged(), at a generation and size.
    struct Recording {
        std::vector<widgets::PaintedItem> items;
        quint64 generation = 0;
        QSize size;
    };
    std::optional<Recording> m_recorded;
    QRegion m_exposed; ///< what the current draw redraws
    QRegion m_pending; ///< with a frame: where the image is out of date
    mutable bool m_dirty = true;
    mutable bool m_controlsStale = true; ///< rebuilt since updateControls() last ran
    bool m_prepareQueued = false;        ///< a queued prepareToRender() is on its way
    mutable quint64 m_generation = 0;
};

} // namespace archplay::ui::views
