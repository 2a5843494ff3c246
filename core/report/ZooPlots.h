// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The plots of the model zoo as data: which rows go on a plot, at which coordinates, in which series,
// and where the current config sits. The window, the exported charts and the report draw these.

#include "core/report/ModelZoo.h"
#include "core/report/ZooQuery.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace archplay::core {

/// A plot of the zoo.
enum class ZooPlot {
    DepthWidth,    ///< layers against hidden size, area by total parameters, colour by family
    FfnRatio,      ///< FFN (or expert) width / hidden against hidden size
    HeadDim,       ///< head_dim against total parameters
    GqaGroup,      ///< query heads per KV head against total parameters
    Vocabulary,    ///< vocabulary against release date
    LayerEstimate, ///< layers estimated from the parameters (two rules) against the real layers
};

/// Every plot, in the order the window lists them.
[[nodiscard]] const std::vector<ZooPlot>& zooPlots();
/// "depth-width", "ffn-ratio", "head-dim", "gqa-group", "vocabulary", "layer-estimate": file names.
std::string_view toString(ZooPlot plot);

/// What a plot shows and how its axes read.
struct ZooPlotInfo {
    std::string title;  ///< "Depth against width (area: parameters)"
    std::string xLabel; ///< "Hidden size"
    std::string yLabel; ///< "Layers"
    bool logX = false;
    bool logY = false;
    bool xIsCount = false;      ///< the x axis is a parameter count (ticks "1B", "10B")
    bool xIsYear = false;       ///< the x axis is a date in years
    bool sizedByParams = false; ///< a marker's area is proportional to its row's total parameters
    bool diagonal = false;      ///< y = x is drawn: an estimate on it is exact
};
[[nodiscard]] ZooPlotInfo zooPlotInfo(ZooPlot plot);

/// A row's place on a plot.
struct ZooPlotPoint {
    double x = 0;
    double y = 0;
    std::size_t row = 0; ///< index into the rows given to zooPlotData()
    double params = 0;   ///< the row's total parameters. Units: parameters.
};

/// A marker's shape: families are discs; the layer estimate draws its two rules apart.
enum class ZooMarker { Disc, Circle, Diamond };

/// One legend entry: a family, "other families", or one of the layer-estimate rules.
struct ZooPlotSeries {
    std::string name;
    int colour = 0; ///< index into the colour-blind-safe series palette; -1: the muted colour ("other families")
    ZooMarker marker = ZooMarker::Disc;
    std::vector<ZooPlotPoint> points; ///< sorted by x
};

/// A plot ready to draw.
struct ZooPlotData {
    ZooPlot plot = ZooPlot::DepthWidth;
    ZooPlotInfo info;
    std::vector<ZooPlotSeries> series;
    std::optional<ZooPlotPoint> current; ///< the current config; its `row` is meaningless
    std::size_t left = 0;                ///< counted rows shown in the table that this plot cannot place
    std::string leftReason;              ///< why: "no release date" (the configs you added); empty when none left
};

/// The coordinates of a row on a plot, or nullopt when it has none there (not counted; no release
/// date; no KV heads for the GQA group; a count of 0 on a log axis). For the layer estimate, y is
/// archplay's per-layer estimate; `now` (in years, ReleaseDate::years()) is where the vocabulary
/// plot places a row without a release date, which only the current config asks for.
[[nodiscard]] std::optional<ZooPlotPoint> zooPlotPoint(const ZooRow& row, ZooPlot plot,
                                                       std::optional<double> now = std::nullopt);

/// The series of a plot over `rows[shown]`: one per family, the seven with the most rows in colours of
/// their own and the rest together as "other families" (the layer estimate: one series per rule over
/// every row). `current`, when given, is placed with zooPlotPoint(current, plot, now): a design not
/// yet released sits at `now` on the vocabulary plot.
[[nodiscard]] ZooPlotData zooPlotData(const std::vector<ZooRow>& rows, const std::vector<std::size_t>& shown,
                                      ZooPlot plot, const std::optional<ZooRow>& current, double now);

/// Today (UTC) as a position in time, in years, as ReleaseDate::years() places a date: where a design
/// not yet released sits on the vocabulary plot.
[[nodiscard]] double todayInYears();

/// What a plot shows, for a figure's caption: "Every model of the zoo by hidden size and layers, ...".
[[nodiscard]] std::string zooPlotCaption(ZooPlot plot);

/// The columns of a report's table of neighbours: model, release, shape, vocabulary, parameters.
[[nodiscard]] const std::vector<ZooColumn>& zooNeighbourColumns();

/// The rows nearest to `current` in total parameters (up to `count`, counted rows only, nearest
/// first by |log(P / P_current)|, ties by id): the report's table of neighbours.
[[nodiscard]] std::vector<std::size_t> zooNeighbours(const std::vector<ZooRow>& rows, const ZooRow& current,
                                                     std::size_t count);

} // namespace archplay::core
