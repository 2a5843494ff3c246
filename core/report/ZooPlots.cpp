// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/ZooPlots.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <tuple>

namespace archplay::core {
namespace {

/// Families with a colour of their own; the colour-blind-safe palette has eight, the eighth is kept
/// for "other families" being distinct from the current config's marker.
constexpr std::size_t kNamedFamilies = 7;

std::string label(ZooColumn column) {
    return std::string(zooColumnInfo(column).label);
}

void sortByX(std::vector<ZooPlotPoint>& points) {
    std::stable_sort(points.begin(), points.end(),
                     [](const ZooPlotPoint& a, const ZooPlotPoint& b) { return a.x < b.x; });
}

} // namespace

const std::vector<ZooPlot>& zooPlots() {
    static const std::vector<ZooPlot> plots = {ZooPlot::DepthWidth, ZooPlot::FfnRatio,   ZooPlot::HeadDim,
                                               ZooPlot::GqaGroup,   ZooPlot::Vocabulary, ZooPlot::LayerEstimate};
    return plots;
}

std::string_view toString(ZooPlot plot) {
    switch (plot) {
    case ZooPlot::DepthWidth:
        return "depth-width";
    case ZooPlot::FfnRatio:
        return "ffn-ratio";
    case ZooPlot::HeadDim:
        return "head-dim";
    case ZooPlot::GqaGroup:
        return "gqa-group";
    case ZooPlot::Vocabulary:
        return "vocabulary";
    case ZooPlot::LayerEstimate:
        return "layer-estimate";
    }
    return {};
}

ZooPlotInfo zooPlotInfo(ZooPlot plot) {
    ZooPlotInfo info;
    switch (plot) {
    case ZooPlot::DepthWidth:
        info = {"Depth against width (area: parameters)", label(ZooColumn::HiddenSize), label(ZooColumn::Layers)};
        info.logX = true;
        info.sizedByParams = true;
        break;
    case ZooPlot::FfnRatio:
        info = {"FFN ratio against hidden size", label(ZooColumn::HiddenSize),
                "FFN ratio (FFN or expert width / hidden)"};
        info.logX = true;
        break;
    case ZooPlot::HeadDim:
        info = {"head_dim across sizes", label(ZooColumn::TotalParams), label(ZooColumn::HeadDim)};
        info.logX = true;
        info.xIsCount = true;
        break;
    case ZooPlot::GqaGroup:
        info = {"GQA group (query heads per KV head) across sizes", label(ZooColumn::TotalParams),
                "Query heads per KV head"};
        info.logX = true;
        info.xIsCount = true;
        break;
    case ZooPlot::Vocabulary:
        info = {"Vocabulary across time", "Release date", label(ZooColumn::Vocab)};
        info.logY = true;
        info.xIsYear = true;
        break;
    case ZooPlot::LayerEstimate:
        info = {"Layers estimated from the parameters against the real layers", "Real layers", "Estimated layers"};
        info.diagonal = true;
        break;
    }
    return info;
}

std::optional<ZooPlotPoint> zooPlotPoint(const ZooRow& row, ZooPlot plot, std::optional<double> now) {
    if (!row.counted()) {
        return std::nullopt;
    }
    ZooPlotPoint point;
    point.params = static_cast<double>(row.totalParams);
    const auto number = [&](ZooColumn column) {
        return zooNumber(row, column);
    };
    std::optional<double> x;
    std::optional<double> y;
    switch (plot) {
    case ZooPlot::DepthWidth:
        x = number(ZooColumn::HiddenSize);
        y = number(ZooColumn::Layers);
        break;
    case ZooPlot::FfnRatio:
        x = number(ZooColumn::HiddenSize);
        y = number(ZooColumn::FfnRatio);
        break;
    case ZooPlot::HeadDim:
        x = number(ZooColumn::TotalParams);
        y = number(ZooColumn::HeadDim);
        break;
    case ZooPlot::GqaGroup:
        x = number(ZooColumn::TotalParams);
        if (row.kvHeads > 0) {
            y = static_cast<double>(row.heads) / static_cast<double>(row.kvHeads);
        }
        break;
    case ZooPlot::Vocabulary:
        x = row.released ? std::optional<double>(row.released->years()) : now;
        y = number(ZooColumn::Vocab);
        break;
    case ZooPlot::LayerEstimate:
        x = number(ZooColumn::Layers);
        y = number(ZooColumn::LayersPerLayer);
        break;
    }
    const ZooPlotInfo info = zooPlotInfo(plot);
    if (!x || !y || (info.logX && *x <= 0) || (info.logY && *y <= 0)) {
        return std::nullopt;
    }
    point.x = *x;
    point.y = *y;
    return point;
}

ZooPlotData zooPlotData(const std::vector<ZooRow>& rows, const std::vector<std::size_t>& shown, ZooPlot plot,
                        const std::optional<ZooRow>& current, double now) {
    ZooPlotData data;
    data.plot = plot;
    data.info = zooPlotInfo(plot);
    std::size_t withoutDate = 0;
    if (plot == ZooPlot::LayerEstimate) {
        ZooPlotSeries rule12{"12·L·d² rule", 1, ZooMarker::Circle, {}};
        ZooPlotSeries perLayer{"archplay's per-layer count", 0, ZooMarker::Diamond, {}};
        for (std::size_t index : shown) {
            const ZooRow& row = rows[index];
            const std::optional<ZooPlotPoint> point = zooPlotPoint(row, plot);
            if (!point) {
                data.left += row.counted() ? 1 : 0;
                continue;
            }
            perLayer.points.push_back({point->x, point->y, index, point->params});
            rule12.points.push_back({point->x, row.layerEstimate.rule12, index, point->params});
        }
        sortByX(rule12.points);
        sortByX(perLayer.points);
        data.series = {std::move(rule12), std::move(perLayer)};
    } else {
        // Families by size (most rows first), ties by name: the colours do not follow the table's sort.
        std::map<std::string, std::vector<ZooPlotPoint>> byFamily;
        for (std::size_t index : shown) {
            const ZooRow& row = rows[index];
            const std::optional<ZooPlotPoint> point = zooPlotPoint(row, plot);
            if (!point) {
                if (row.counted()) {
                    ++data.left;
                    withoutDate += plot == ZooPlot::Vocabulary && !row.released ? 1 : 0;
                }
                continue;
            }
            byFamily[row.family].push_back({point->x, point->y, index, point->params});
        }
        std::vector<std::string> order;
        for (const auto& family : byFamily) {
            order.push_back(family.first);
        }
        std::stable_sort(order.begin(), order.end(), [&](const std::string& a, const std::string& b) {
            return byFamily[a].size() > byFamily[b].size();
        });
        ZooPlotSeries others{"other families", -1, ZooMarker::Disc, {}};
        for (std::size_t i = 0; i < order.size(); ++i) {
            std::vector<ZooPlotPoint>& points = byFamily[order[i]];
            if (i < kNamedFamilies) {
                data.series.push_back({order[i], static_cast<int>(i), ZooMarker::Disc, std::move(points)});
            } else {
                others.points.insert(others.points.end(), points.begin(), points.end());
            }
        }
        if (!others.points.empty()) {
            data.series.push_back(std::move(others));
        }
        for (ZooPlotSeries& series : data.series) {
            sortByX(series.points);
        }
    }
    if (data.left > 0) {
        data.leftReason = withoutDate == data.left ? "no release date (only the presets record one)"
                                                   : "no value for this plot's axes";
    }
    if (current) {
        data.current = zooPlotPoint(*current, plot, now);
    }
    return data;
}

double todayInYears() {
    using namespace std::chrono;
    const sys_days today = floor<days>(system_clock::now());
    const year_month_day date(today);
    const double day = static_cast<double>((today - sys_days(date.year() / January / 1)).count());
    return static_cast<int>(date.year()) + (day + 0.5) / (date.year().is_leap() ? 366.0 : 365.0);
}

std::string zooPlotCaption(ZooPlot plot) {
    const std::string marked = "the current design is the circled cross";
    switch (plot) {
    case ZooPlot::DepthWidth:
        return "Layers against hidden size for every model of the zoo, a marker's area in proportion to its "
               "parameters; " +
               marked + ".";
    case ZooPlot::FfnRatio:
        return "FFN width over hidden size (a MoE expert's width for MoE models) against hidden size; " + marked + ".";
    case ZooPlot::HeadDim:
        return "head_dim against total parameters; " + marked + ".";
    case ZooPlot::GqaGroup:
        return "Query heads per KV head against total parameters (1 is multi-head attention); " + marked + ".";
    case ZooPlot::Vocabulary:
        return "Vocabulary against release date (presets only: other configs record no date); the current design "
               "is placed today, as a circled cross.";
    case ZooPlot::LayerEstimate:
        return "The layers implied by each model's parameters, by the 12·L·d² rule and by archplay's exact per-layer "
               "count, against the real layers; on the dashed diagonal an estimate is exact; " +
               marked + ".";
    }
    return {};
}

const std::vector<ZooColumn>& zooNeighbourColumns() {
    using C = ZooColumn;
    static const std::vector<ZooColumn> columns = {C::Name,  C::Released,    C::Layers,      C::HiddenSize,
                                                   C::Heads, C::KvHeads,     C::HeadDim,     C::Ffn,
                                                   C::Vocab, C::TotalParams, C::ActiveParams};
    return columns;
}

std::vector<std::size_t> zooNeighbours(const std::vector<ZooRow>& rows, const ZooRow& current, std::size_t count) {
    std::vector<std::pair<double, std::size_t>> distances;
    const double own = std::log(std::max(1.0, static_cast<double>(current.totalParams)));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].counted() && rows[i].totalParams > 0) {
            distances.emplace_back(std::fabs(std::log(static_cast<double>(rows[i].totalParams)) - own), i);
        }
    }
    std::stable_sort(distances.begin(), distances.end(), [&](const auto& a, const auto& b) {
        return std::tie(a.first, rows[a.second].id) < std::tie(b.first, rows[b.second].id);
    });
    std::vector<std::size_t> nearest;
    for (std::size_t i = 0; i < std::min(count, distances.size()); ++i) {
        nearest.push_back(distances[i].second);
    }
    return nearest;
}

} // namespace archplay::core
