// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/gui/CommandLine.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QHash>
#include <QString>

#include <cstdint>
#include <vector>

namespace archplay::app {

/// Nearest-rank percentiles of a sample of durations. Units: milliseconds.
struct LatencyStats {
    double p50 = 0;
    double p95 = 0;
    double p99 = 0;
    double max = 0;
    std::size_t n = 0;
};

/// Percentiles of `samples` (nanoseconds); all zero for an empty sample.
LatencyStats latencyStats(std::vector<std::int64_t> samples);

/// A QApplication that, once timing is on, measures how long each tracked widget and its children
/// spend handling paint events. `archplay --bench` uses it to report every view's own paint time.
class PaintTimingApplication : public QApplication {
public:
    PaintTimingApplication(int& argc, char** argv);

    /// Paint events of `root` and its descendants are charged to `name`.
    void track(QWidget* root, const QString& name);
    void setTiming(bool on) { m_timing = on; }
    /// The paint time charged to each name since the last call, and resets it. Units: nanoseconds.
    QHash<QString, std::int64_t> takePaintTimes();

    bool notify(QObject* receiver, QEvent* event) override;

private:
    QString trackedName(QObject* receiver) const;

    bool m_timing = false;
    int m_depth = 0; ///< paint events nest (a parent's paint can flush a child's); only the outermost is timed
    /// Keyed by QObject: the parents of a paint event's receiver need not be widgets.
    QHash<const QObject*, QString> m_roots;
    QHash<QString, std::int64_t> m_paintNs;
};

/// `archplay --bench`: builds the real main window offscreen (default layout, options.size), drags
/// the main sliders of each preset with synthetic mouse events through every view, and reports
/// update latency (value change to every visible widget painted), per-view paint time, cold start
/// and peak memory. `mainStartNs` is when main() began, on std::chrono::steady_clock. Returns the
/// exit status: 0, 1 when --out cannot be written; `error` says why.
int runBenchmark(PaintTimingApplication& app, const GuiOptions& options, std::int64_t mainStartNs, QString* error);

} // namespace archplay::app
