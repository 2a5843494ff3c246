// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/Analysis.h"

#include <QWidget>

class QPainter;
class QRectF;

namespace archplay::ui {

/// A live view of the Analysis, shown as a tab of the window's central area. A view only renders
/// what it is given: setAnalysis() stores the new state and calls update(); paintEvent and every
/// exporter (PNG, SVG, PDF, `archplay --screenshot --view ID`) draw through render(), so an export
/// looks exactly like the screen.
class AnalysisView : public QWidget {
public:
    using QWidget::QWidget;

    /// Stable identifier for `--view`, settings and exports: "breakdown", "layer-stack", ...
    virtual QString viewId() const = 0;
    /// Tab title.
    virtual QString title() const = 0;
    /// Stores the state to show and schedules a repaint. Called once per change, with every view.
    virtual void setAnalysis(const core::Analysis& analysis) = 0;
    /// Draws the whole view into `target` (device-independent pixels), with the widget's palette.
    virtual void render(QPainter& painter, const QRectF& target) const = 0;
};

} // namespace archplay::ui
