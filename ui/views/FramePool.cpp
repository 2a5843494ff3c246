// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/FramePool.h"

#include "ui/views/PaintedView.h"

#include <QThread>

#include <algorithm>

namespace archplay::ui::views {

FramePool::FramePool() {
    // The GUI thread paints too: one worker per other core. The workers stay, and so do the
    // shaped texts each keeps (widgets::keepShapedTextOnThisThread()).
    m_pool.setMaxThreadCount(std::max(0, QThread::idealThreadCount() - 1));
    m_pool.setExpiryTimeout(-1);
}

FramePool::~FramePool() {
    endFrames();
    m_pool.waitForDone();
}

void FramePool::add(PaintedView* view) {
    m_views.push_back(view);
}

void FramePool::remove(PaintedView* view) {
    m_views.erase(std::remove(m_views.begin(), m_views.end(), view), m_views.end());
}

void FramePool::startSoon() {
    if (m_startQueued || m_pool.maxThreadCount() == 0) {
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
