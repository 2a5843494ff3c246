// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

class QRunnable;

namespace archplay::ui::views {

class PaintedView;

/// Draws the overview's tiles beside the GUI thread, the way Qt documents for threads: into images.
/// Each tile keeps its pixels in an image of its own (its frame, PaintedView::Frame). When a tile
/// changes (a new analysis, another layer, a palette), it asks for a repaint where it changed, and
/// once the GUI thread is done with the change the pool starts every tile with such a region on a
/// worker, which draws it into the tile's image from what the tile derived and a snapshot of its
/// palette, font and selected layer taken on the GUI thread; no worker calls QWidget. The tile's
/// paint event waits for its frame (drawing the frames still queued meanwhile), or draws it itself
/// when no worker has started it, and copies its region of the image to the window. Exports and
/// grabs draw on the GUI thread. On one core there are no workers and every tile draws itself.
///
/// A frame reads its view while it draws, so nothing may change the view meanwhile: each view ends
/// its own frame before any change (PaintedView::endFrame()).
///
/// The workers are threads of the pool's own, joined when it goes: a worker's thread-local state (its
/// cache of shaped text, which holds fonts of its thread) is gone before the views and the
/// application are, and the hand-overs are through a mutex that ThreadSanitizer sees.
class FramePool {
public:
    FramePool();
    ~FramePool();
    FramePool(const FramePool&) = delete;
    FramePool& operator=(const FramePool&) = delete;

    /// The views whose frames this pool draws. A view leaves (setFramePool(nullptr)) before it goes.
    void add(PaintedView* view);
    void remove(PaintedView* view);

    /// Starts the frames of the views with a repaint pending once the GUI thread is back in its
    /// event loop: after the change that asked, before the repaint it asked for.
    void startSoon();
    /// Runs on this thread one frame that no worker has started; false when there is none.
    bool runWaitingFrame();
    /// Ends every frame (waits for them, or draws them here): before the views change.
    void endFrames();

    /// How many threads draw frames beside the GUI thread (0 on one core).
    int workers() const { return static_cast<int>(m_threads.size()); }
    /// How many frames a worker drew, for tests.
    quint64 drawnOnWorkers() const { return m_drawnOnWorkers; }
    void countDrawnOnWorker() { ++m_drawnOnWorkers; }

    /// Queues `frame` for the next free worker.
    void start(QRunnable* frame);
    /// Takes back a frame no worker has started: true when it will not run.
    bool takeBack(QRunnable* frame);

private:
    /// Starts the frame of every view with a repaint pending.
    void startFrames();
    /// A worker: runs the queued frames until the pool goes.
    void work();

    std::vector<PaintedView*> m_views;
    QObject m_context; ///< runs startFrames(), queued on the GUI thread
    bool m_startQueued = false;
    quint64 m_drawnOnWorkers = 0;

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<QRunnable*> m_queue; ///< frames no worker has started, under m_mutex
    bool m_stopping = false;        ///< under m_mutex
    std::vector<std::thread> m_threads;
};

} // namespace archplay::ui::views
