// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/design/Sweep.h"

#include <QFont>
#include <QPalette>

#include <vector>

class QCustomPlot;

namespace archplay::ui::design {

/// Draws a one-field sweep on `plot`: the `figures` against the field's value, one chart per unit,
/// stacked and sharing the field's axis (logarithmic with `logX`), the current value marked. An
/// empty result leaves the plot empty; no figure, a line asking for one.
void drawSweepLines(QCustomPlot& plot, const core::SweepResult& result, const std::vector<core::DesignFigure>& figures,
                    bool logX, const QPalette& pal, const QFont& font);

/// Draws a two-field sweep on `plot`: the heat map of its figure (viridis, on a logarithmic scale
/// past a range of 50), its iso-lines with their levels, the published models of the same kind
/// and the current config.
void drawSweepGrid(QCustomPlot& plot, const core::SweepGrid& grid, bool logX, bool logY, const QPalette& pal,
                   const QFont& font);

} // namespace archplay::ui::design
