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

void FramePool::startFrames(const PaintedView* painting) {
    if (m_pool.maxThreadCount() == 0) {
        return;
    }
    for (PaintedView* view : m_views) {
        if (view != painting) {
            view->startFrame();
        }
    }
    // A view that had a repaint pending on screen is painted in this repaint, and its paint event
    // ends its frame. Should one not be, its frame ends as soon as the repaint is over.
    if (!m_endQueued) {
        m_endQueued = true;
        QMetaObject::invokeMethod(
            &m_context,
            [this] {
                m_endQueued = false;
                endFrames();
            },
            Qt::QueuedConnection);
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
