// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QThreadPool>

#include <vector>

namespace archplay::ui::views {

class PaintedView;

/// Draws the overview's tiles beside the GUI thread. Qt paints the widgets of a window one after
/// another on the GUI thread; when the first tile of a repaint is painted, every other tile with a
/// repaint pending starts drawing it on a worker, straight into the window's backing store (its
/// frame); its paint event then only waits for the frame, or draws itself when no worker has
/// started it yet. A tile's pixels in the backing store are its own until its paint event: Qt paints
/// a parent before its children and a sibling below before those above, and a tile is opaque. Only
/// the screen uses frames: exports and grabs draw on the GUI thread. On one core there are no
/// workers and every tile draws itself.
///
/// A frame reads its view while it draws, so nothing may change the view meanwhile: frames start
/// inside a repaint, and each view ends its own before any change (PaintedView::endFrame()).
class FramePool {
public:
    FramePool();
    ~FramePool();
    FramePool(const FramePool&) = delete;
    FramePool& operator=(const FramePool&) = delete;

    /// The views whose frames this pool draws. A view leaves (setFramePool(nullptr)) before it goes.
    void add(PaintedView* view);
    void remove(PaintedView* view);

    /// From the paint event of `painting`: starts the frame of every other view with a repaint
    /// pending, and ends them all once the repaint is over (a frame no paint event ended by then).
    void startFrames(const PaintedView* painting);
    /// Runs on this thread one frame that no worker has started; false when there is none.
    bool runWaitingFrame();
    /// Ends every frame (waits for them, or takes them back): before the views change.
    void endFrames();

    /// How many threads draw frames beside the GUI thread (0 on one core).
    int workers() const { return m_pool.maxThreadCount(); }
    /// How many paint events found their view drawn by a frame, for tests.
    quint64 shownFrames() const { return m_shown; }
    void countShown() { ++m_shown; }

    void start(QRunnable* frame) { m_pool.start(frame); }
    /// Takes back a frame no worker has started: true when it will not run.
    bool takeBack(QRunnable* frame) { return m_pool.tryTake(frame); }

private:
    QThreadPool m_pool;
    std::vector<PaintedView*> m_views;
    QObject m_context; ///< runs the end of a repaint, queued on the GUI thread
    bool m_endQueued = false;
    quint64 m_shown = 0;
};

} // namespace archplay::ui::views
