// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/report/ZooPlots.h"

#include <QPointF>
#include <QSize>

#include <cstddef>
#include <memory>
#include <optional>

class QCustomPlot;
class QFont;
class QPalette;

namespace archplay::ui::views::plot {

/// Draws a zoo plot as core placed it (core::zooPlotData()): one graph per series and marker size
/// (QCustomPlot sizes a whole graph's markers alike; a marker's area follows the parameters where
/// the plot says so), each point's row in its graph for zooRowAt(); the current config as a circled
/// cross on a layer of its own, so that moveZooCurrent() repaints that layer alone.
/// How markers are drawn: shapes (vector, for exports) or pixmaps of those shapes (on screen: ten
/// thousand markers blit in a fraction of the time their antialiased outlines take).
enum class ZooMarkers { Vector, Raster };
void drawZooChart(QCustomPlot& plot, const core::ZooPlotData& data, const QPalette& palette, const QFont& font,
                  ZooMarkers markers = ZooMarkers::Vector);

/// Moves the current config's marker. Only the marker's layer is painted again while it stays inside
/// the axes; returns false when it does not (or the chart has no marker yet): then draw the chart again.
bool moveZooCurrent(QCustomPlot& plot, const std::optional<core::ZooPlotPoint>& current);

/// A chart of `data` that is never shown, laid out at `size`, for exports and reports.
[[nodiscard]] std::unique_ptr<QCustomPlot> zooChart(const core::ZooPlotData& data, const QSize& size,
                                                    const QPalette& palette, const QFont& font);

/// The zoo row (ZooPlotPoint::row) of the marker under `position`, if any.
std::optional<std::size_t> zooRowAt(QCustomPlot& plot, const QPointF& position);

} // namespace archplay::ui::views::plot
