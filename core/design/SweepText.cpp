// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/design/SweepText.h"

#include "core/report/Tables.h"
#include "core/util/Checked.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>

namespace archplay::core {
namespace {

/// A whole value a uint64 holds exactly (every count and byte size), else nullopt.
std::string csvNumber(const std::optional<double>& value) {
    if (!value) {
        return {};
    }
    if (const auto whole = wholeCount(*value)) {
        return std::to_string(*whole);
    }
    return fmt::format("{}", *value);
}

std::string_view spacingName(SweepSpacing spacing) {
    return spacing == SweepSpacing::Log ? "log" : "linear";
}

nlohmann::json figuresJson(const FigureValues& values) {
    nlohmann::json json = nlohmann::json::object();
    for (const DesignFigureInfo& info : designFigures()) {
        const auto index = static_cast<std::size_t>(info.figure);
        json[std::string(info.key)] = figureJson(index < values.size() ? values[index] : std::nullopt);
    }
    return json;
}

nlohmann::json errorJson(const std::optional<Diagnostic>& error) {
    if (!error) {
        return nullptr;
    }
    return {{"field", error->field}, {"message", error->message}};
}

nlohmann::json axisJson(const SweepAxis& axis, const SweepField* field, const std::vector<std::int64_t>& values) {
    return {{"field", axis.field}, {"label", field != nullptr ? std::string(field->label) : std::string()},
            {"from", axis.from},   {"to", axis.to},
            {"steps", axis.steps}, {"spacing", spacingName(axis.spacing)},
            {"values", values}};
}

} // namespace

nlohmann::json figureJson(const std::optional<double>& value) {
    if (!value || !std::isfinite(*value)) {
        return nullptr;
    }
    if (const auto whole = wholeCount(*value)) {
        return *whole;
    }
    return *value;
}

std::string sweepCsv(const SweepResult& result) {
    std::string text = result.field != nullptr ? std::string(result.field->key) : std::string("value");
    for (const DesignFigureInfo& info : designFigures()) {
        text += fmt::format(",{}", info.key);
    }
    text += ",error\n";
    for (const SweepPoint& point : result.points) {
        text += std::to_string(point.value);
        for (const std::optional<double>& value : point.figures) {
            text += "," + csvNumber(value);
        }
        text += "," + (point.error ? csvField(point.error->field + ": " + point.error->message) : std::string()) + "\n";
    }
    return text;
}

nlohmann::json sweepJson(const SweepResult& result, const SweepAxis& axis, const std::vector<PlacedPreset>& presets) {
    nlohmann::json points = nlohmann::json::array();
    std::vector<std::int64_t> values;
    for (const SweepPoint& point : result.points) {
        nlohmann::json json = {{"value", point.value}, {"valid", point.valid}};
        json.update(figuresJson(point.figures));
        json["error"] = errorJson(point.error);
        points.push_back(std::move(json));
        values.push_back(point.value);
    }
    nlohmann::json placed = nlohmann::json::array();
    for (const PlacedPreset& preset : presets) {
        nlohmann::json json = {
            {"id", preset.id}, {"name", preset.name}, {"value", preset.x}, {"in_range", preset.inRange}};
        json.update(figuresJson(preset.figures));
        placed.push_back(std::move(json));
    }
    nlohmann::json json = axisJson(axis, result.field, values);
    json.erase("values");
    json["estimate"] = result.estimate;
    json["current_value"] = result.currentValue;
    json["current_index"] = result.currentIndex ? nlohmann::json(*result.currentIndex) : nlohmann::json(nullptr);
    json["current_position"] =
        result.currentPosition ? nlohmann::json(*result.currentPosition) : nlohmann::json(nullptr);
    json["current"] = figuresJson(result.currentFigures);
    json["points"] = std::move(points);
    json["presets"] = std::move(placed);
    return json;
}

std::string sweepGridCsv(const SweepGrid& grid) {
    std::string text = fmt::format("{},{},{}\n", grid.xField != nullptr ? grid.xField->key : "x",
                                   grid.yField != nullptr ? grid.yField->key : "y", figureInfo(grid.figure).key);
    for (std::size_t j = 0; j < grid.yValues.size(); ++j) {
        for (std::size_t i = 0; i < grid.xValues.size(); ++i) {
            text += fmt::format("{},{},{}\n", grid.xValues[i], grid.yValues[j], csvNumber(grid.at(i, j).value));
        }
    }
    return text;
}

nlohmann::json sweepGridJson(const SweepGrid& grid, const SweepGridRequest& request) {
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t j = 0; j < grid.yValues.size(); ++j) {
        nlohmann::json row = nlohmann::json::array();
        for (std::size_t i = 0; i < grid.xValues.size(); ++i) {
            row.push_back(figureJson(grid.at(i, j).value));
        }
        rows.push_back(std::move(row));
    }
    nlohmann::json isoLines = nlohmann::json::array();
    for (const IsoLine& line : grid.isoLines) {
        nlohmann::json polylines = nlohmann::json::array();
        for (const IsoPolyline& polyline : line.polylines) {
            nlohmann::json points = nlohmann::json::array();
            for (const IsoPoint& p : polyline) {
                points.push_back({p.x, p.y});
            }
            polylines.push_back(std::move(points));
        }
        isoLines.push_back({{"level", figureJson(line.level)},
                            {"label", figureText(grid.figure, line.level)},
                            {"polylines", std::move(polylines)}});
    }
    nlohmann::json presets = nlohmann::json::array();
    for (const PlacedPreset& preset : grid.presets) {
        presets.push_back({{"id", preset.id},
                           {"name", preset.name},
                           {"x", preset.x},
                           {"y", preset.y},
                           {"value", figureJson(preset.value(grid.figure))},
                           {"in_range", preset.inRange}});
    }
    return {{"x", axisJson(request.x, grid.xField, grid.xValues)},
            {"y", axisJson(request.y, grid.yField, grid.yValues)},
            {"figure", figureInfo(grid.figure).key},
            {"estimate", grid.estimate},
            {"current", {{"x", grid.currentX}, {"y", grid.currentY}, {"value", figureJson(grid.currentValue)}}},
            {"values", std::move(rows)},
            {"iso_lines", std::move(isoLines)},
            {"presets", std::move(presets)}};
}

} // namespace archplay::core
