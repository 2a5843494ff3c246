// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/Analysis.h"

#include <QWidget>

#include <utility>

class QPainter;
class QRectF;

namespace archplay::ui {

/// A live view of the Analysis, shown as a tab of the window's central area. A view only renders
/// what it is given: setAnalysis() stores the new state and calls update(); paintEvent and every
/// exporter (PNG, SVG, PDF, `archplay --screenshot --view ID`) draw through render(), so an export
/// looks exactly like the screen.
///
/// The window offers every change to every view with offer(): a hidden tab takes it only when it
/// is shown or exported (ensureCurrent()), so a slider drag pays for the visible view alone.
class AnalysisView : public QWidget {
public:
    using QWidget::QWidget;

    /// Hands over the state to show, now when the view is visible, else when it is next shown or
    /// ensureCurrent() is called. `analysis` must outlive the view (it is the bridge's).
    void offer(const core::Analysis& analysis) {
        m_offered = &analysis;
        if (isVisible()) {
            ensureCurrent();
        }
    }
    /// Applies a state offered while the view was hidden; call it before exporting the view.
    void ensureCurrent() {
        if (const core::Analysis* analysis = std::exchange(m_offered, nullptr)) {
            setAnalysis(*analysis);
        }
    }

    /// Stable identifier for `--view`, settings and exports: "breakdown", "layer-stack", ...
    virtual QString viewId() const = 0;
    /// Tab title.
    virtual QString title() const = 0;
    /// Stores the state to show and schedules a repaint. Called once per change, with every view.
    virtual void setAnalysis(const core::Analysis& analysis) = 0;
    /// Draws the whole view into `target` (device-independent pixels), with the widget's palette.
    virtual void render(QPainter& painter, const QRectF& target) const = 0;

protected:
    void showEvent(QShowEvent* event) override {
        ensureCurrent();
        QWidget::showEvent(event);
    }

private:
    const core::Analysis* m_offered = nullptr;
};

} // namespace archplay::ui
