// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/FramePool.h"

#include "ui/views/PaintedView.h"

#include <QRunnable>
#include <QThread>

#include <algorithm>

namespace archplay::ui::views {

FramePool::FramePool() {
    // The GUI thread paints too: one worker per other core. The workers stay, and so do the
    // shaped texts each keeps (widgets::keepShapedTextOnThisThread()).
    const int workers = std::max(0, QThread::idealThreadCount() - 1);
    for (int i = 0; i < workers; ++i) {
        m_threads.emplace_back(&FramePool::work, this);
    }
}

FramePool::~FramePool() {
    endFrames();
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    for (std::thread& thread : m_threads) {
        thread.join();
    }
}

void FramePool::start(QRunnable* frame) {
    {
        const std::lock_guard lock(m_mutex);
        m_queue.push_back(frame);
    }
    m_wake.notify_one();
}

bool FramePool::takeBack(QRunnable* frame) {
    const std::lock_guard lock(m_mutex);
    const auto queued = std::find(m_queue.begin(), m_queue.end(), frame);
    if (queued == m_queue.end()) {
        return false;
    }
    m_queue.erase(queued);
    return true;
}

void FramePool::work() {
    while (true) {
        QRunnable* frame = nullptr;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
            if (m_queue.empty()) {
                return; // stopping
            }
            frame = m_queue.front();
            m_queue.pop_front();
        }
        frame->run();
    }
}

void FramePool::add(PaintedView* view) {
    m_views.push_back(view);
}

void FramePool::remove(PaintedView* view) {
    m_views.erase(std::remove(m_views.begin(), m_views.end(), view), m_views.end());
}

void FramePool::startSoon() {
    if (m_startQueued || m_threads.empty()) {
        return;
    }
    // A queued call runs before the repaint: Qt posts the window's update request at a lower
    // priority than other posted events.
    m_startQueued = true;
    QMetaObject::invokeMethod(
        &m_context,
        [this] {
            m_startQueued = false;
            startFrames();
        },
        Qt::QueuedConnection);
}

void FramePool::startFrames() {
    for (PaintedView* view : m_views) {
        view->startFrame();
    }
}

bool FramePool::runWaitingFrame() {
    return std::any_of(m_views.begin(), m_views.end(), [](PaintedView* view) { return view->runWaitingFrame(); });
}

void FramePool::endFrames() {
    for (PaintedView* view : m_views) {
        view->endFrame();
    }
}

} // namespace archplay::ui::views
