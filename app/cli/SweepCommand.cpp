// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/SweepCommand.h"

#include "app/cli/ConfigSource.h"
#include "app/cli/Flags.h"
#include "core/design/Sweep.h"
#include "core/design/SweepText.h"
#include "core/report/Summary.h"
#include "core/util/Format.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>

namespace archplay::cli {

const char* const kSweepUsage =
    R"(  sweep CONFIG --field F --from X --to Y [--steps K] [--log] [--json|--csv] [scenario flags]
                                         every design figure as one field varies
  sweep CONFIG --field F --from X --to Y [--steps K] [--log]
               --field2 G --from2 X --to2 Y [--steps2 K] [--log2] [--figure KEY] [--levels L,...]
               [--json|--csv] [scenario flags]
                                         one figure on a grid of two fields, its iso-lines
                                         and the presets of the same kind

sweep:
  --field F, --field2 G  the fields varied: num_hidden_layers, hidden_size, num_attention_heads,
                         num_key_value_heads, head_dim, intermediate_size, vocab_size, num_experts, ...
                         and the scenario's sequence_length and batch_size (an unknown field lists them)
  --from X --to Y        the values' range, both included: 4096, 8K (8192), 1M (1048576)
  --steps K              values asked for, rounded to whole numbers and deduplicated: 2 to 1000
                         (default 50); 2 to 200 per axis of a grid (default 32)
  --log, --log2          geometric spacing (from >= 1) instead of linear
  --figure KEY           the grid's figure (default total_params): total_params, active_params,
                         kv_bytes_per_token, kv_bytes, weight_bytes, flops_per_token, prefill_flops,
                         training_flops, serving_bytes, training_bytes_per_gpu,
                         decode_tokens_per_second, time_to_first_token
  --levels L,...         iso-line levels in the figure's unit: 1B,3B,7B or 0.05 (default for
                         parameters 1B,3B,7B,13B,70B; else powers of ten, bytes powers of 1024)
  Each value is set as the config panel sets it (heads keep the KV heads dividing, experts keep
  top-k within them); x is set before y. Scenario flags as for 'kv' and 'compute'.
)";

namespace {

struct SweepRequest {
    core::SweepAxis x;
    std::optional<core::SweepAxis> y;
    core::DesignFigure figure = core::DesignFigure::TotalParams;
    std::vector<double> levels;
    core::Scenario scenario;
};

/// The flag that sets a part of the request a core diagnostic names ("from2" -> "--from2").
std::string sweepFlagOf(const std::string& part) {
    if (part == "spacing" || part == "spacing2") {
        return part == "spacing" ? "--log" : "--log2";
    }
    return "--" + part;
}

std::int64_t fieldValue(const std::string& flag, const std::string& text) {
    const std::optional<std::uint64_t> value = core::parseSizeCount(text);
    if (!value || *value > static_cast<std::uint64_t>(INT64_MAX)) {
        throw UsageError{fmt::format("{} takes a whole number (4096, 8K, 1M), not '{}'", flag, text)};
    }
    return static_cast<std::int64_t>(*value);
}

/// "1B,3B,0.05" -> levels: counts as parseCount() reads them, else plain decimal numbers.
std::vector<double> levelList(const std::string& text) {
    std::vector<double> levels;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, end - start);
        if (const auto count = core::parseCount(item)) {
            levels.push_back(static_cast<double>(*count));
        } else {
            double value = 0;
            const auto [at, error] = std::from_chars(item.data(), item.data() + item.size(), value);
            if (item.empty() || error != std::errc() || at != item.data() + item.size() || !std::isfinite(value)) {
                throw UsageError{
                    fmt::format("--levels takes numbers separated by commas (1B,3B,7B or 0.05), not '{}'", item)};
            }
            levels.push_back(value);
        }
        start = end + 1;
    }
    return levels;
}

core::SweepAxis axisFrom(const Options& options, const std::string& suffix, std::size_t defaultSteps) {
    core::SweepAxis axis;
    const std::string fieldFlag = "--field" + suffix;
    for (const std::string& flag : {fieldFlag, "--from" + suffix, "--to" + suffix}) {
        if (options.value(flag) == nullptr) {
            throw UsageError{fmt::format("{} is required", flag)};
        }
    }
    axis.field = *options.value(fieldFlag);
    axis.from = fieldValue("--from" + suffix, *options.value("--from" + suffix));
    axis.to = fieldValue("--to" + suffix, *options.value("--to" + suffix));
    axis.steps = defaultSteps;
    if (const std::string* steps = options.value("--steps" + suffix)) {
        axis.steps = wholeNumber("--steps" + suffix, *steps, false);
    }
    axis.spacing = options.switches.count("--log" + suffix) ? core::SweepSpacing::Log : core::SweepSpacing::Linear;
    return axis;
}

SweepRequest sweepRequest(const Options& options) {
    SweepRequest request;
    const bool grid = options.value("--field2") != nullptr;
    for (const char* flag : {"--from2", "--to2", "--steps2", "--figure", "--levels"}) {
        if (!grid && options.value(flag) != nullptr) {
            throw UsageError{fmt::format("{} needs --field2 (a grid of two fields)", flag)};
        }
    }
    if (!grid && options.switches.count("--log2")) {
        throw UsageError{"--log2 needs --field2 (a grid of two fields)"};
    }
    request.x = axisFrom(options, "", grid ? 32 : 50);
    if (grid) {
        request.y = axisFrom(options, "2", 32);
    }
    if (const std::string* key = options.value("--figure")) {
        const auto figure = core::figureFromKey(*key);
        if (!figure) {
            std::string keys;
            for (const core::DesignFigureInfo& info : core::designFigures()) {
                keys += fmt::format("{}{}", keys.empty() ? "" : ", ", info.key);
            }
            throw UsageError{fmt::format("--figure takes one of {}, not '{}'", keys, *key)};
        }
        request.figure = *figure;
    }
    if (const std::string* levels = options.value("--levels")) {
        request.levels = levelList(*levels);
    }
    request.scenario = scenarioFromFlags(options.values);
    return request;
}

/// Column headers of the table, by figure (designFigures() order).
constexpr const char* kColumns[] = {"params",  "active",   "KV/token", "KV",        "weights", "FLOP/token",
                                    "prefill", "training", "serving",  "train/GPU", "tok/s",   "TTFT"};
static_assert(std::size(kColumns) == 12);

std::string cellText(core::DesignFigure figure, const std::optional<double>& value) {
    return value ? core::figureText(figure, *value) : std::string("-");
}

void printSweepTable(const core::SweepResult& result, const core::SweepAxis& axis, const std::string& origin,
                     const core::ModelConfig& config, std::ostream& out) {
    fmt::print(out, "{} ({}) of {}: {} to {}, {} values, {}; current value {}\n", result.field->key,
               result.field->label, origin, axis.from, axis.to, result.points.size(),
               axis.spacing == core::SweepSpacing::Log ? "log" : "linear", result.currentValue);
    if (result.estimate) {
        fmt::print(out, "{}\n", core::estimateLabel(config));
    }
    const auto& figures = core::designFigures();
    const std::size_t width = std::max<std::size_t>(12, result.field->key.size());
    fmt::print(out, "\n{:>{}}", result.field->key, width);
    for (std::size_t f = 0; f < figures.size(); ++f) {
        fmt::print(out, " {:>12}", kColumns[f]);
    }
    fmt::print(out, "\n");
    for (std::size_t p = 0; p < result.points.size(); ++p) {
        const core::SweepPoint& point = result.points[p];
        fmt::print(out, "{:>{}}", point.value, width);
        if (!point.valid) {
            fmt::print(out, "  invalid: {}: {}", point.error ? point.error->field : std::string(),
                       point.error ? point.error->message : std::string());
        } else {
            for (std::size_t f = 0; f < figures.size(); ++f) {
                fmt::print(out, " {:>12}", cellText(figures[f].figure, point.figures[f]));
            }
        }
        fmt::print(out, "{}\n", result.currentIndex == p ? "  <- current" : "");
    }
}

void printGridTable(const core::SweepGrid& grid, const std::string& origin, const core::ModelConfig& config,
                    std::ostream& out) {
    const core::DesignFigureInfo& figure = core::figureInfo(grid.figure);
    fmt::print(out, "{} of {}: {} (x, {} values) by {} (y, {} values); current ({}, {}): {}\n", figure.label, origin,
               grid.xField->key, grid.xValues.size(), grid.yField->key, grid.yValues.size(), grid.currentX,
               grid.currentY, grid.currentValue ? core::figureText(grid.figure, *grid.currentValue) : "-");
    if (grid.estimate) {
        fmt::print(out, "{}\n", core::estimateLabel(config));
    }
    fmt::print(out, "\n{:>10} |", "y \\ x");
    for (const std::int64_t x : grid.xValues) {
        fmt::print(out, " {:>9}", x);
    }
    fmt::print(out, "\n");
    for (std::size_t j = grid.yValues.size(); j-- > 0;) {
        fmt::print(out, "{:>10} |", grid.yValues[j]);
        for (std::size_t i = 0; i < grid.xValues.size(); ++i) {
            fmt::print(out, " {:>9}", cellText(grid.figure, grid.at(i, j).value));
        }
        fmt::print(out, "\n");
    }
    fmt::print(out, "\niso-lines ({}):\n", figure.key);
    for (const core::IsoLine& line : grid.isoLines) {
        std::size_t points = 0;
        for (const core::IsoPolyline& polyline : line.polylines) {
            points += polyline.size();
        }
        fmt::print(out, "  {:>10}  {} polylines, {} points\n", core::figureText(grid.figure, line.level),
                   line.polylines.size(), points);
    }
    fmt::print(out, "\npresets of the same kind ({}, {}):\n", grid.xField->key, grid.yField->key);
    for (const core::PlacedPreset& preset : grid.presets) {
        fmt::print(out, "  {:<28} ({}, {})  {}{}\n", preset.id, preset.x, preset.y,
                   cellText(grid.figure, preset.value(grid.figure)), preset.inRange ? "" : "  (outside the grid)");
    }
}

int runSweep(const Options& options, const SweepRequest& request, std::ostream& out, std::ostream& err) {
    const std::string& spec = options.positional.front();
    const AnalyzedConfig analyzed = analyzeConfig(spec, options.bestEffort, request.scenario);
    if (!analyzed.ok()) {
        return reportInvalid(analyzed.loaded.origin, analyzed.diagnostics(), err);
    }
    const core::ModelConfig& config = analyzed.analysis->config;
    const bool csv = options.switches.count("--csv") > 0;
    if (csv && !config.exact()) {
        // The CSV keeps its one header; the label goes where a reader of the run sees it.
        fmt::print(err, "archplay-cli: {}: {}\n", analyzed.loaded.origin, core::estimateLabel(config));
    }
    if (!request.y) {
        const core::SweepResult result = core::sweep(config, request.scenario, request.x);
        if (core::hasErrors(result.diagnostics)) {
            return printUsageError(refusedRequest(result.diagnostics, sweepFlagOf), kSweepUsage, err);
        }
        if (options.json) {
            std::vector<std::int64_t> values;
            for (const core::SweepPoint& point : result.points) {
                values.push_back(point.value);
            }
            const auto presets = core::placedPresets(config, request.scenario, *result.field, nullptr, values, {});
            out << core::sweepJson(result, request.x, presets).dump(2) << "\n";
        } else if (csv) {
            out << core::sweepCsv(result);
        } else {
            printSweepTable(result, request.x, analyzed.loaded.origin, config, out);
        }
        return Success;
    }
    const core::SweepGridRequest gridRequest{request.x, *request.y, request.figure, request.levels};
    const core::SweepGrid grid = core::sweepGrid(config, request.scenario, gridRequest);
    if (core::hasErrors(grid.diagnostics)) {
        return printUsageError(refusedRequest(grid.diagnostics, sweepFlagOf), kSweepUsage, err);
    }
    if (options.json) {
        out << core::sweepGridJson(grid, gridRequest).dump(2) << "\n";
    } else if (csv) {
        out << core::sweepGridCsv(grid);
    } else {
        printGridTable(grid, analyzed.loaded.origin, config, out);
    }
    return Success;
}

} // namespace

CommandRunner parseSweep(const std::vector<std::string>& args) {
    std::vector<std::string> valueFlags = {"--field", "--from", "--to",     "--steps",  "--field2",
                                           "--from2", "--to2",  "--steps2", "--figure", "--levels"};
    for (const std::string& flag : scenarioFlags()) {
        valueFlags.push_back(flag);
    }
    Options options = parseOptions(args, valueFlags, {"--log", "--log2", "--csv"});
    if (options.json && options.switches.count("--csv")) {
        throw UsageError{"choose one of --json and --csv"};
    }
    if (options.positional.size() != 1) {
        throw UsageError{"expected exactly one CONFIG (a config.json path or a preset id)"};
    }
    const SweepRequest request = sweepRequest(options);
    return [options, request](std::ostream& out, std::ostream& err) {
        return runSweep(options, request, out, err);
    };
}

} // namespace archplay::cli
