// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/io/ViewKind.h"
#include "ui/Strings.h"

#include <QWidget>

#include <utility>

class QPainter;
class QRectF;

namespace archplay::ui::views {

/// A live view of the Analysis, shown as a tab of the window's central area. A view only renders
/// what it is given: setSharedAnalysis() keeps the shared state and calls update(); paintEvent and every
/// exporter (PNG, SVG, PDF, `archplay --screenshot --view ID`) draw through render(), so an export
/// looks exactly like the screen.
///
/// The window offers every change to every view with offer(): a hidden tab takes it only when it
/// is shown or exported (ensureCurrent()), so a slider drag pays for the visible view alone.
class AnalysisView : public QWidget {
public:
    using QWidget::QWidget;

    /// Hands over the state to show, now when the view is visible, else when it is next shown or
    /// ensureCurrent() is called.
    void offer(const core::AnalysisPtr& analysis) {
        m_offered = analysis;
        if (isVisible()) {
            ensureCurrent();
        }
    }
    /// Applies a state offered while the view was hidden and brings what render() draws up to
    /// date, child widgets included (prepareToRender()); call it before exporting the view.
    void ensureCurrent() {
        if (core::AnalysisPtr analysis = std::exchange(m_offered, nullptr)) {
            setSharedAnalysis(std::move(analysis));
        }
        prepareToRender();
    }
    /// Shows a copy of `analysis` (exports of a one-off analysis, tests).
    void setAnalysis(const core::Analysis& analysis) {
        setSharedAnalysis(std::make_shared<const core::Analysis>(analysis));
    }

    /// Which view this is (its stable name serves `--view`, settings and figure files).
    virtual core::ViewKind kind() const = 0;
    /// The kind's stable name: "breakdown", "layer-stack", ...
    QString name() const { return qs(core::toString(kind())); }
    /// The view's full title (tool tips, exports, the overview's notes).
    virtual QString title() const = 0;
    /// The tab's label: the title, or a shorter word where nine tabs must fit 1280 px.
    virtual QString tabTitle() const { return title(); }
    /// Keeps the state to show (shared, not copied) and schedules a repaint. Called once per change.
    virtual void setSharedAnalysis(core::AnalysisPtr analysis) = 0;
    /// Draws the whole view into `target` (device-independent pixels), with the widget's palette.
    virtual void render(QPainter& painter, const QRectF& target) const = 0;
    /// Brings what render() draws up to date on the GUI thread, outside any paint: what the view
    /// derives and its child widgets (a plot's series, a picker's entries). A view on screen does it
    /// itself after each change; ensureCurrent() does it before an export.
    virtual void prepareToRender() {}

protected:
    void showEvent(QShowEvent* event) override {
        ensureCurrent();
        QWidget::showEvent(event);
    }

private:
    core::AnalysisPtr m_offered;
};

} // namespace archplay::ui::views
