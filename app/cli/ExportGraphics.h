// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/report/Exports.h"
#include "core/report/ReportText.h"
#include "core/report/ZooPlots.h"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

namespace archplay::cli {

/// An export that draws views, in plain types so that the Qt-free part of the tool can fill it.
struct GraphicsRequest {
    core::ExportWhat what = core::ExportWhat::Report;
    core::ExportFormat format = core::ExportFormat::Pdf;
    std::string path;
    std::optional<int> width; ///< --size; absent: the figure's default. Units: device-independent pixels
    std::optional<int> height;
    std::optional<double> scale; ///< PNG pixels per device-independent pixel; absent: 1, and 2 for the Markdown report
    bool dark = false;           ///< --theme dark
    bool letter = false;         ///< --paper letter (else A4), for paged PDFs
    std::optional<std::int64_t> layer; ///< position in the plan of the layer to show; absent: the default one
    core::ReportInfo info;
    bool replaceReadOnly = false; ///< --force: replace read-only files
    bool zoo = false;             ///< --zoo: the report places the design among the built-in presets
};

/// A zoo plot to draw: `archplay-cli zoo --plot NAME -o FILE`.
struct ZooPlotRequest {
    std::string path;
    core::ExportFormat format = core::ExportFormat::Png; ///< png, svg or pdf
    bool dark = false;                                   ///< --theme dark
    std::string caption;                                 ///< under the plot: the scenario
    bool replaceReadOnly = false;                        ///< --force
};

/// Draws `data` as the window's Zoo page exports its plot (1600 x 1000, vector markers, the caption
/// under it) and writes it atomically. Returns 0, or 1 with one line on `err` naming the file and the
/// reason. Only in builds with the Qt front end.
int exportZooPlot(const core::ZooPlotData& data, const ZooPlotRequest& request, std::ostream& err);

/// Draws and writes `request` for `analysis` (only in builds with the Qt front end, ARCHPLAY_BUILD_GUI). Creates the
/// application on Qt's offscreen platform unless QT_QPA_PLATFORM is set (or reuses one that exists). Returns 0, or 1
/// with one line on `err` naming the file and the reason.
int exportGraphics(const core::Analysis& analysis, const GraphicsRequest& request, std::ostream& err);

} // namespace archplay::cli
