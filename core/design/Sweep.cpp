// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/design/Sweep.h"

#include "core/io/Presets.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace archplay::core {
namespace {

std::optional<Diagnostic> firstError(const Analysis& analysis) {
    for (const Diagnostic& d : analysis.diagnostics) {
        if (d.severity == Severity::Error) {
            return d;
        }
    }
    return std::nullopt;
}

/// The analysis of `config` and `scenario` with `field` set to `value` through its rule.
Analysis analyzeAt(const ModelConfig& config, const Scenario& scenario, const SweepField& field, std::int64_t value,
                   const edits::EditContext& context) {
    ModelConfig edited = config;
    Scenario editedScenario = scenario;
    field.set(edited, editedScenario, value, context);
    return analyze(edited, editedScenario);
}

/// The fractional index of `value` among increasing `values`; nullopt outside them.
std::optional<double> positionOf(const std::vector<std::int64_t>& values, std::int64_t value) {
    if (values.empty() || value < values.front() || value > values.back()) {
        return std::nullopt;
    }
    const auto it = std::lower_bound(values.begin(), values.end(), value);
    const auto index = static_cast<std::size_t>(it - values.begin());
    if (*it == value || index == 0) {
        return double(index);
    }
    const double low = double(values[index - 1]);
    return double(index - 1) + (double(value) - low) / (double(*it) - low);
}

const std::vector<std::optional<ModelConfig>>& presetConfigs() {
    static const std::vector<std::optional<ModelConfig>> configs = [] {
        std::vector<std::optional<ModelConfig>> loaded;
        for (const Preset& preset : builtinPresets()) {
            loaded.push_back(presetConfig(preset));
        }
        return loaded;
    }();
    return configs;
}

bool within(const std::vector<std::int64_t>& values, std::int64_t value) {
    return !values.empty() && value >= values.front() && value <= values.back();
}

/// Up to `most` of `levels`, evenly chosen.
std::vector<double> thinned(const std::vector<double>& levels, std::size_t most) {
    if (levels.size() <= most) {
        return levels;
    }
    std::vector<double> kept;
    for (std::size_t i = 0; i < most; ++i) {
        kept.push_back(levels[i * (levels.size() - 1) / (most - 1)]);
    }
    return kept;
}

/// The values start x factor^k x multiplier strictly inside (minimum, maximum), increasing.
std::vector<double> ladder(double minimum, double maximum, double start, double factor,
                           const std::vector<double>& multipliers) {
    std::vector<double> levels;
    for (double power = start; power < maximum && power < 1e300; power *= factor) {
        for (const double m : multipliers) {
            const double level = power * m;
            if (level > minimum && level < maximum) {
                levels.push_back(level);
            }
        }
    }
    return levels;
}

} // namespace

std::vector<std::int64_t> sweepValues(const SweepAxis& axis) {
    const bool log = axis.spacing == SweepSpacing::Log;
    if (axis.steps < 2 || axis.steps > kMaxSweepSteps || axis.from > axis.to || (log && axis.from < 1)) {
        return {};
    }
    const auto from = static_cast<long double>(axis.from);
    const auto to = static_cast<long double>(axis.to);
    const auto last = static_cast<long double>(axis.steps - 1);
    std::vector<std::int64_t> values;
    values.reserve(axis.steps);
    for (std::size_t i = 0; i < axis.steps; ++i) {
        const long double t = static_cast<long double>(i) / last;
        const long double exact = log ? from * std::pow(to / from, t) : from + (to - from) * t;
        auto value = static_cast<std::int64_t>(std::llround(exact));
        value = i + 1 == axis.steps ? axis.to : std::clamp(value, axis.from, axis.to);
        if (values.empty() || value > values.back()) {
            values.push_back(value);
        }
    }
    return values;
}

Diagnostics validateSweepAxis(const SweepAxis& axis, const ModelConfig& config, std::size_t maxSteps,
                              const std::string& suffix) {
    Diagnostics errors;
    const auto error = [&](const char* part, std::string message) {
        errors.push_back({Severity::Error, part + suffix, std::move(message)});
    };
    const SweepField* field = findSweepField(axis.field);
    if (field == nullptr) {
        std::string keys;
        for (const SweepField& f : sweepFields()) {
            keys += fmt::format("{}{}", keys.empty() ? "" : ", ", f.key);
        }
        error("field", fmt::format("'{}' is not a field a sweep can vary; one of: {}", axis.field, keys));
        return errors;
    }
    const std::string_view key = field->key;
    if (!field->applies(config)) {
        error("field", fmt::format("{} applies only to {}", key, field->requirement));
    }
    if (axis.steps < 2 || axis.steps > maxSteps) {
        error("steps", fmt::format("{}: steps must be 2 to {}, not {}", key, maxSteps, axis.steps));
    }
    const std::int64_t maximum = field->maximumOf(config);
    for (const auto& [part, value] : {std::pair{"from", axis.from}, std::pair{"to", axis.to}}) {
        if (value < field->minimum) {
            error(part, fmt::format("{}: {} {} is below the field's minimum {}", key, part, value, field->minimum));
        } else if (value > maximum) {
            error(part, fmt::format("{}: {} {} is above the field's maximum {}", key, part, value, maximum));
        }
    }
    if (axis.from > axis.to) {
        error("from", fmt::format("{}: from {} is above to {}", key, axis.from, axis.to));
    }
    if (axis.spacing == SweepSpacing::Log && axis.from < 1) {
        error("spacing", fmt::format("{}: log spacing needs from >= 1, not {}", key, axis.from));
    }
    return errors;
}

FigureValues figureValues(const Analysis& analysis) {
    FigureValues values;
    values.reserve(designFigures().size());
    for (const DesignFigureInfo& info : designFigures()) {
        values.push_back(figureValue(analysis, info.figure));
    }
    return values;
}

SweepResult sweep(const ModelConfig& config, const Scenario& scenario, const SweepAxis& axis,
                  const edits::EditContext& context) {
    SweepResult result;
    result.field = findSweepField(axis.field);
    result.diagnostics = validateSweepAxis(axis, config, kMaxSweepSteps);
    if (hasErrors(result.diagnostics) || result.field == nullptr) {
        return result;
    }
    const SweepField& field = *result.field;
    result.estimate = !config.exact();
    result.currentValue = field.get(config, scenario);
    result.currentFigures = figureValues(analyze(config, scenario));
    const std::vector<std::int64_t> values = sweepValues(axis);
    result.points.reserve(values.size());
    for (const std::int64_t value : values) {
        const Analysis analysis = analyzeAt(config, scenario, field, value, context);
        SweepPoint point{value, analysis.valid, figureValues(analysis), firstError(analysis)};
        result.points.push_back(std::move(point));
    }
    result.currentPosition = positionOf(values, result.currentValue);
    if (result.currentPosition && std::floor(*result.currentPosition) == *result.currentPosition &&
        values[static_cast<std::size_t>(*result.currentPosition)] == result.currentValue) {
        result.currentIndex = static_cast<std::size_t>(*result.currentPosition);
    }
    return result;
}

std::vector<PlacedPreset> placedPresets(const ModelConfig& config, const Scenario& scenario, const SweepField& x,
                                        const SweepField* y, const std::vector<std::int64_t>& xValues,
                                        const std::vector<std::int64_t>& yValues) {
    std::vector<PlacedPreset> placed;
    const auto& presets = builtinPresets();
    const auto& configs = presetConfigs();
    for (std::size_t i = 0; i < presets.size(); ++i) {
        if (!configs[i]) {
            continue;
        }
        const ModelConfig& preset = *configs[i];
        if (preset.architecture != config.architecture || preset.ffnKind != config.ffnKind || !x.applies(preset) ||
            (y != nullptr && !y->applies(preset))) {
            continue;
        }
        PlacedPreset p;
        p.id = presets[i].info.id;
        p.name = presets[i].info.name;
        p.x = x.get(preset, scenario);
        p.y = y != nullptr ? y->get(preset, scenario) : 0;
        p.figures = figureValues(analyze(preset, scenario));
        p.inRange = within(xValues, p.x) && (y == nullptr || within(yValues, p.y));
        placed.push_back(std::move(p));
    }
    return placed;
}

SweepGrid sweepGrid(const ModelConfig& config, const Scenario& scenario, const SweepGridRequest& request,
                    const edits::EditContext& context) {
    SweepGrid grid;
    grid.figure = request.figure;
    grid.xField = findSweepField(request.x.field);
    grid.yField = findSweepField(request.y.field);
    grid.diagnostics = validateSweepAxis(request.x, config, kMaxGridSteps);
    for (Diagnostic& d : validateSweepAxis(request.y, config, kMaxGridSteps, "2")) {
        grid.diagnostics.push_back(std::move(d));
    }
    if (grid.xField != nullptr && grid.xField == grid.yField) {
        grid.diagnostics.push_back({Severity::Error, "field2",
                                    fmt::format("{} is swept on both axes; choose another field", grid.xField->key)});
    }
    for (const double level : request.levels) {
        if (!std::isfinite(level)) {
            grid.diagnostics.push_back({Severity::Error, "levels", "an iso-line level is not a finite number"});
            break;
        }
    }
    if (hasErrors(grid.diagnostics) || grid.xField == nullptr || grid.yField == nullptr) {
        return grid;
    }
    const SweepField& xField = *grid.xField;
    const SweepField& yField = *grid.yField;
    grid.estimate = !config.exact();
    grid.currentX = xField.get(config, scenario);
    grid.currentY = yField.get(config, scenario);
    grid.currentValue = figureValue(analyze(config, scenario), request.figure);
    grid.xValues = sweepValues(request.x);
    grid.yValues = sweepValues(request.y);
    grid.cells.reserve(grid.xValues.size() * grid.yValues.size());
    std::optional<double> low;
    std::optional<double> high;
    for (const std::int64_t yValue : grid.yValues) {
        for (const std::int64_t xValue : grid.xValues) {
            ModelConfig edited = config;
            Scenario editedScenario = scenario;
            xField.set(edited, editedScenario, xValue, context);
            yField.set(edited, editedScenario, yValue, context);
            const Analysis analysis = analyze(edited, editedScenario);
            SweepCell cell{figureValue(analysis, request.figure), firstError(analysis)};
            if (cell.value) {
                low = std::min(low.value_or(*cell.value), *cell.value);
                high = std::max(high.value_or(*cell.value), *cell.value);
            }
            grid.cells.push_back(std::move(cell));
        }
    }
    std::vector<double> levels = request.levels;
    if (levels.empty() && low) {
        levels = defaultIsoLevels(request.figure, *low, *high);
    }
    const std::vector<double> xs(grid.xValues.begin(), grid.xValues.end());
    const std::vector<double> ys(grid.yValues.begin(), grid.yValues.end());
    std::vector<std::optional<double>> values;
    values.reserve(grid.cells.size());
    for (const SweepCell& cell : grid.cells) {
        values.push_back(cell.value);
    }
    for (const double level : levels) {
        grid.isoLines.push_back({level, isoPolylines(xs, ys, values, level)});
    }
    grid.presets = placedPresets(config, scenario, xField, &yField, grid.xValues, grid.yValues);
    return grid;
}

std::vector<double> defaultIsoLevels(DesignFigure figure, double minimum, double maximum) {
    const FigureUnit unit = figureInfo(figure).unit;
    if (unit == FigureUnit::Count) {
        return {1e9, 3e9, 7e9, 13e9, 70e9};
    }
    const bool bytes = unit == FigureUnit::Bytes;
    // Durations can be below one second: the ladder then starts at the power of ten below the minimum.
    const double start = minimum > 0 && minimum < 1 ? std::pow(10.0, std::floor(std::log10(minimum))) : 1.0;
    std::vector<double> levels = ladder(minimum, maximum, start, bytes ? 1024.0 : 10.0, {1.0});
    if (levels.size() < 2) {
        levels = bytes ? ladder(minimum, maximum, start, 2.0, {1.0}) : ladder(minimum, maximum, start, 10.0, {1, 2, 5});
    }
    return thinned(levels, 8);
}

} // namespace archplay::core
