// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/design/Compare.h"

#include "core/io/ConfigJson.h"
#include "core/report/LatexTables.h"
#include "core/report/ReportText.h"
#include "core/report/Summary.h"
#include "core/report/Tables.h"
#include "core/util/Checked.h"
#include "core/util/Format.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

namespace archplay::core {
namespace {

constexpr const char* kNone = "\u2014";

/// "1.25×", "0.597×", "5816×": three significant digits, whole above 1000 (no exponent).
std::string ratioText(double ratio) {
    if (ratio >= 1000) {
        return fmt::format("{:.0f}\u00d7", ratio);
    }
    return fmt::format("{:.3g}\u00d7", ratio);
}

/// The cells of one row: `formatAs` says how its values read, `value` reads a config's value.
template <typename ValueOf>
std::vector<CompareCell> rowCells(const std::vector<CompareInput>& inputs, DesignFigure formatAs, ValueOf value) {
    std::vector<CompareCell> cells;
    const std::optional<double> baseline = value(*inputs.front().analysis);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        CompareCell cell;
        cell.value = i == 0 ? baseline : value(*inputs[i].analysis);
        cell.text = cell.value ? figureText(formatAs, *cell.value) : absentFigureText(*inputs[i].analysis, formatAs);
        cell.exact = cell.value ? figureExactText(formatAs, *cell.value) : cell.text;
        if (i > 0) {
            if (cell.value && baseline) {
                cell.difference = *cell.value - *baseline;
                cell.differenceText = figureDifferenceText(formatAs, *cell.difference);
                cell.differenceExact = figureDifferenceExactText(formatAs, *cell.difference);
            } else {
                cell.differenceText = kNone;
                cell.differenceExact = kNone;
            }
            if (!cell.value) {
                cell.ratioText = "n/a: no value";
            } else if (!baseline) {
                cell.ratioText = "n/a: no baseline value";
            } else if (*baseline == 0) {
                cell.ratioText = "n/a: baseline is 0";
            } else {
                cell.ratio = *cell.value / *baseline;
                cell.ratioText = ratioText(*cell.ratio);
            }
        }
        cells.push_back(std::move(cell));
    }
    return cells;
}

CompareStack stackOf(const Analysis& analysis) {
    CompareStack stack;
    stack.kindsLabel = layerKindsLabel(analysis.config, analysis.plan);
    stack.layerCount = static_cast<std::int64_t>(analysis.plan.layers.size());
    stack.attention = std::string(toString(attentionFamily(analysis.config)));
    for (const LayerRun& run : analysis.plan.runs()) {
        stack.runs.push_back({run, layerKindName(analysis.config, run.kind)});
    }
    return stack;
}

void flattenInto(const nlohmann::json& object, const std::string& prefix, nlohmann::json& flat) {
    for (const auto& [key, value] : object.items()) {
        const std::string path = prefix.empty() ? key : prefix + "." + key;
        if (value.is_object() && !value.empty()) {
            flattenInto(value, path, flat);
        } else {
            flat[path] = value;
        }
    }
}

std::vector<ConfigFieldRow> configFieldRows(const std::vector<CompareInput>& inputs) {
    std::vector<nlohmann::json> flats;
    std::map<std::string, bool> keys; // sorted, each once
    for (const CompareInput& input : inputs) {
        flats.push_back(flattenedConfigJson(input.analysis->config));
        for (const auto& item : flats.back().items()) {
            keys[item.key()] = true;
        }
    }
    std::vector<ConfigFieldRow> rows;
    for (const auto& [key, unused] : keys) {
        ConfigFieldRow row;
        row.key = key;
        bool anyDiffers = false;
        for (std::size_t i = 0; i < flats.size(); ++i) {
            const auto it = flats[i].find(key);
            const bool present = it != flats[i].end();
            row.values.push_back(present ? std::optional<std::string>(it->dump()) : std::nullopt);
            const auto base = flats.front().find(key);
            const bool basePresent = base != flats.front().end();
            const bool differs = i > 0 && (present != basePresent || (present && *it != *base));
            row.differs.push_back(differs);
            anyDiffers = anyDiffers || differs;
        }
        if (anyDiffers) {
            rows.push_back(std::move(row));
        }
    }
    return rows;
}

std::string firstError(const Diagnostics& diagnostics) {
    for (const Diagnostic& d : diagnostics) {
        if (d.severity == Severity::Error) {
            return d.field.empty() ? d.message : d.field + ": " + d.message;
        }
    }
    return {};
}

} // namespace

nlohmann::json flattenedConfigJson(const ModelConfig& config) {
    nlohmann::json flat = nlohmann::json::object();
    flattenInto(exportConfig(config), "", flat);
    return flat;
}

Comparison compareAnalyses(const std::vector<CompareInput>& inputs) {
    Comparison comparison;
    if (inputs.empty()) {
        comparison.diagnostics.push_back({Severity::Error, "compare", "no configs to compare"});
        return comparison;
    }
    if (inputs.size() > kMaxCompared) {
        comparison.diagnostics.push_back(
            {Severity::Error, "compare",
             fmt::format("{} configs given; at most {} are compared at once", inputs.size(), kMaxCompared)});
        return comparison;
    }
    for (const CompareInput& input : inputs) {
        if (!input.analysis) {
            comparison.diagnostics.push_back({Severity::Error, "compare", "'" + input.name + "' has no analysis"});
            return comparison;
        }
        // Models analysed as shipped keep each its own weight format; the rest of the scenario is shared.
        const auto shared = [](Scenario s) {
            if (s.weightsAsShipped) {
                s.weightFormat = WeightFormat::BF16;
            }
            return s;
        };
        if (!(shared(input.analysis->scenario) == shared(inputs.front().analysis->scenario))) {
            comparison.diagnostics.push_back(
                {Severity::Error, "scenario",
                 "'" + input.name + "' is analyzed in another scenario than '" + inputs.front().name + "'"});
            return comparison;
        }
    }
    comparison.scenario = inputs.front().analysis->scenario;
    comparison.scenarioText = scenarioLine(*inputs.front().analysis);
    for (const CompareInput& input : inputs) {
        const Analysis& analysis = *input.analysis;
        CompareColumn column;
        column.name = input.name;
        column.valid = analysis.valid;
        column.error = firstError(analysis.diagnostics);
        column.estimate = estimateLabel(analysis.config);
        column.modelType = analysis.config.modelType;
        if (analysis.valid) {
            column.stack = stackOf(analysis);
        }
        comparison.modelTypeDiffers =
            comparison.modelTypeDiffers || analysis.config.modelType != inputs.front().analysis->config.modelType;
        comparison.columns.push_back(std::move(column));
    }
    comparison.kvLongest = std::max<std::uint64_t>(comparison.scenario.sequenceLength, 1);
    for (const CompareInput& input : inputs) {
        if (input.analysis->valid) {
            comparison.kvLongest = std::max<std::uint64_t>(
                comparison.kvLongest,
                static_cast<std::uint64_t>(std::max<std::int64_t>(1, input.analysis->config.maxPositions)));
        }
    }
    for (const CompareInput& input : inputs) {
        const Analysis& a = *input.analysis;
        std::optional<KvCurve> curve;
        if (a.valid && a.config.hasDecoder() && !a.kv.overflow) {
            const std::vector<std::uint64_t> lengths =
                kvCurveLengths(a.plan, comparison.kvLongest, a.scenario.sequenceLength);
            std::vector<KvCurve> curves = kvCurves(a.config, a.plan, lengths, a.scenario, {a.scenario.kvDType});
            if (!curves.empty()) {
                curve = std::move(curves.front());
            }
        }
        comparison.kvCurves.push_back(std::move(curve));
    }
    for (const DesignFigureInfo& info : designFigures()) {
        CompareRow row{std::string(info.key), std::string(info.label), info.unit, info.lowerIsBetter, info.isBound, {}};
        row.cells = rowCells(inputs, info.figure,
                             [&info](const Analysis& analysis) { return figureValue(analysis, info.figure); });
        comparison.figures.push_back(std::move(row));
    }
    for (std::size_t c = 0; c < kComponentCount; ++c) {
        const auto component = static_cast<Component>(c);
        const auto valueOf = [component](const Analysis& analysis) -> std::optional<double> {
            // The same condition as the total: no count of an invalid or overflowing config.
            if (!figureValue(analysis, DesignFigure::TotalParams)) {
                return std::nullopt;
            }
            return double(analysis.params.component(component));
        };
        CompareRow row{"params." + std::string(toString(component)),
                       std::string(toString(component)),
                       FigureUnit::Count,
                       true,
                       false,
                       rowCells(inputs, DesignFigure::TotalParams, valueOf)};
        for (char& ch : row.key) {
            ch = ch == ' ' || ch == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        }
        const bool any = std::any_of(row.cells.begin(), row.cells.end(),
                                     [](const CompareCell& cell) { return cell.value && *cell.value > 0; });
        if (any) {
            comparison.components.push_back(std::move(row));
        }
    }
    comparison.configFields = configFieldRows(inputs);
    return comparison;
}

Comparison compareConfigs(const std::vector<std::pair<std::string, ModelConfig>>& configs, const Scenario& scenario) {
    std::vector<CompareInput> inputs;
    for (const auto& [name, config] : configs) {
        inputs.push_back({name, std::make_shared<const Analysis>(analyze(config, scenario))});
    }
    return compareAnalyses(inputs);
}

std::vector<std::vector<std::string>> compareTableRows(const Comparison& comparison) {
    std::vector<std::vector<std::string>> rows;
    if (comparison.columns.empty()) {
        return rows;
    }
    const std::string& baseline = comparison.columns.front().name;
    std::vector<std::string> header = {"Quantity"};
    for (const CompareColumn& column : comparison.columns) {
        header.push_back(column.name);
    }
    for (std::size_t i = 1; i < comparison.columns.size(); ++i) {
        header.push_back(comparison.columns[i].name + " - " + baseline);
        header.push_back(comparison.columns[i].name + " / " + baseline);
    }
    rows.push_back(std::move(header));
    const auto addRow = [&rows](const std::string& label, const std::vector<CompareCell>& cells) {
        std::vector<std::string> row = {label};
        for (const CompareCell& cell : cells) {
            row.push_back(cell.text);
        }
        for (std::size_t i = 1; i < cells.size(); ++i) {
            row.push_back(cells[i].differenceText);
            row.push_back(cells[i].ratio ? cells[i].ratioText : "n/a");
        }
        rows.push_back(std::move(row));
    };
    for (const CompareRow& row : comparison.figures) {
        addRow(row.label, row.cells);
    }
    for (const CompareRow& row : comparison.components) {
        addRow("Parameters: " + row.label, row.cells);
    }
    const auto addTextRow = [&rows, &comparison](const std::string& label, auto textOf) {
        std::vector<std::string> row = {label};
        for (const CompareColumn& column : comparison.columns) {
            row.push_back(column.valid ? textOf(column) : std::string(kNone));
        }
        row.resize(rows.front().size());
        rows.push_back(std::move(row));
    };
    addTextRow("Layers", [](const CompareColumn& c) { return std::to_string(c.stack.layerCount); });
    addTextRow("Layer kinds", [](const CompareColumn& c) { return c.stack.kindsLabel; });
    addTextRow("Attention", [](const CompareColumn& c) { return c.stack.attention; });
    for (const ConfigFieldRow& field : comparison.configFields) {
        std::vector<std::string> row = {"config: " + field.key};
        for (const auto& value : field.values) {
            row.push_back(value.value_or("(absent)"));
        }
        row.resize(rows.front().size());
        rows.push_back(std::move(row));
    }
    return rows;
}

namespace {

/// A plain number for CSV: whole numbers in full, others to 6 significant digits.
std::string plainNumber(const std::optional<double>& value) {
    if (!value) {
        return {};
    }
    if (const auto whole = wholeCount(*value)) {
        return std::to_string(*whole);
    }
    if (const auto whole = wholeCount(-*value)) {
        return "-" + std::to_string(*whole);
    }
    return fmt::format("{:.6g}", *value);
}

} // namespace

std::vector<std::string> compareNotes(const Comparison& comparison) {
    std::vector<std::string> lines;
    for (const Diagnostic& d : comparison.diagnostics) {
        lines.push_back(d.field + ": " + d.message);
    }
    for (const CompareColumn& column : comparison.columns) {
        if (!column.valid) {
            lines.push_back(column.name + " is invalid (" + column.error + "): no figures");
        } else if (!column.estimate.empty()) {
            lines.push_back(column.name + ": every figure is an " + column.estimate);
        }
    }
    if (comparison.modelTypeDiffers) {
        std::string types;
        for (const CompareColumn& column : comparison.columns) {
            types += (types.empty() ? "" : ", ") + column.name + " " + column.modelType;
        }
        lines.push_back("model_type differs (" + types + "): the config fields are written with each type's key names");
    }
    return lines;
}

std::string compareCsv(const Comparison& comparison) {
    std::string out = "section,key,label";
    if (comparison.columns.empty()) {
        return out + "\n";
    }
    const std::string& baseline = comparison.columns.front().name;
    for (const CompareColumn& column : comparison.columns) {
        out += "," + csvField(column.name);
    }
    for (std::size_t i = 1; i < comparison.columns.size(); ++i) {
        out += "," + csvField(comparison.columns[i].name + " - " + baseline);
        out += "," + csvField(comparison.columns[i].name + " / " + baseline);
    }
    out += "\n";
    const auto numbers = [&out](const std::string& section, const CompareRow& row) {
        out += section + "," + csvField(row.key) + "," + csvField(row.label);
        for (const CompareCell& cell : row.cells) {
            out += "," + plainNumber(cell.value);
        }
        for (std::size_t i = 1; i < row.cells.size(); ++i) {
            out += "," + plainNumber(row.cells[i].difference);
            out += "," + (row.cells[i].ratio ? fmt::format("{:.6g}", *row.cells[i].ratio) : std::string());
        }
        out += "\n";
    };
    for (const CompareRow& row : comparison.figures) {
        numbers("figure", row);
    }
    for (const CompareRow& row : comparison.components) {
        numbers("params", row);
    }
    const std::string pairs(2 * (comparison.columns.size() - 1), ',');
    const auto texts = [&](const std::string& key, const std::string& label, auto textOf) {
        out += "stack," + key + "," + label;
        for (const CompareColumn& column : comparison.columns) {
            out += "," + (column.valid ? csvField(textOf(column)) : std::string());
        }
        out += pairs + "\n";
    };
    texts("layers", "Layers", [](const CompareColumn& c) { return std::to_string(c.stack.layerCount); });
    texts("layer_kinds", "Layer kinds", [](const CompareColumn& c) { return c.stack.kindsLabel; });
    texts("attention", "Attention", [](const CompareColumn& c) { return c.stack.attention; });
    for (const ConfigFieldRow& field : comparison.configFields) {
        out += "config," + csvField(field.key) + "," + csvField(field.key);
        for (const auto& value : field.values) {
            out += "," + (value ? csvField(*value) : std::string());
        }
        out += pairs + "\n";
    }
    return out;
}

std::string compareMarkdown(const Comparison& comparison) {
    const auto rows = compareTableRows(comparison);
    std::string out;
    if (!rows.empty()) {
        std::vector<MarkdownColumn> columns;
        for (std::size_t c = 0; c < rows.front().size(); ++c) {
            columns.push_back({rows.front()[c], c > 0});
        }
        out += markdownHeader(columns);
        for (std::size_t r = 1; r < rows.size(); ++r) {
            out += markdownRow(rows[r]);
        }
    }
    std::vector<std::string> lines = compareNotes(comparison);
    if (!comparison.scenarioText.empty()) {
        lines.insert(lines.begin(), "Scenario: " + comparison.scenarioText);
    }
    if (!lines.empty()) {
        out += "\n";
        for (const std::string& line : lines) {
            out += "- " + markdownCell(line) + "\n";
        }
    }
    return out;
}

std::string compareLatex(const Comparison& comparison) {
    auto rows = compareTableRows(comparison);
    std::string out;
    if (!rows.empty()) {
        std::vector<LatexColumn> columns;
        for (std::size_t c = 0; c < rows.front().size(); ++c) {
            columns.push_back({rows.front()[c], c > 0});
        }
        rows.erase(rows.begin());
        std::string names;
        for (const CompareColumn& column : comparison.columns) {
            names += (names.empty() ? "" : ", ") + column.name;
        }
        out += latexTable("Comparison of " + names + " at " + comparison.scenarioText, "tab:compare", columns, rows);
    }
    for (const std::string& line : compareNotes(comparison)) {
        out += "\n" + latexText(line) + "\n";
    }
    return out;
}

namespace {

std::string_view unitKey(FigureUnit unit) {
    switch (unit) {
    case FigureUnit::Count:
        return "count";
    case FigureUnit::Bytes:
        return "bytes";
    case FigureUnit::Flops:
        return "flops";
    case FigureUnit::TokensPerSecond:
        return "tokens_per_second";
    case FigureUnit::Seconds:
        return "seconds";
    }
    return {};
}

} // namespace

nlohmann::json compareJson(const Comparison& comparison) {
    const auto number = [](const std::optional<double>& value) -> nlohmann::json {
        if (!value) {
            return nullptr;
        }
        if (const auto whole = wholeCount(*value)) {
            return *whole;
        }
        return *value;
    };
    const auto rowsJson = [&number](const std::vector<CompareRow>& rows) {
        nlohmann::json array = nlohmann::json::array();
        for (const CompareRow& row : rows) {
            nlohmann::json cells = nlohmann::json::array();
            for (const CompareCell& cell : row.cells) {
                cells.push_back({{"value", number(cell.value)},
                                 {"text", cell.text},
                                 {"exact", cell.exact},
                                 {"difference", cell.difference ? nlohmann::json(*cell.difference) : nullptr},
                                 {"difference_text", cell.differenceText},
                                 {"difference_exact", cell.differenceExact},
                                 {"ratio", cell.ratio ? nlohmann::json(*cell.ratio) : nullptr},
                                 {"ratio_text", cell.ratioText}});
            }
            array.push_back({{"key", row.key},
                             {"label", row.label},
                             {"unit", unitKey(row.unit)},
                             {"lower_is_better", row.lowerIsBetter},
                             {"bound", row.isBound},
                             {"cells", cells}});
        }
        return array;
    };
    nlohmann::json configs = nlohmann::json::array();
    for (const CompareColumn& column : comparison.columns) {
        nlohmann::json runs = nlohmann::json::array();
        for (const CompareLayerRun& run : column.stack.runs) {
            runs.push_back({{"name", run.name},
                            {"stack", run.run.kind.stack == Stack::Encoder ? "encoder" : "decoder"},
                            {"first", run.run.first},
                            {"count", run.run.count}});
        }
        configs.push_back({{"name", column.name},
                           {"valid", column.valid},
                           {"error", column.error},
                           {"estimate", column.estimate},
                           {"model_type", column.modelType},
                           {"layers", column.stack.layerCount},
                           {"layer_kinds", column.stack.kindsLabel},
                           {"attention", column.stack.attention},
                           {"runs", runs}});
    }
    nlohmann::json fields = nlohmann::json::array();
    for (const ConfigFieldRow& field : comparison.configFields) {
        nlohmann::json values = nlohmann::json::array();
        for (const auto& value : field.values) {
            values.push_back(value ? nlohmann::json::parse(*value) : nlohmann::json());
        }
        fields.push_back({{"key", field.key}, {"values", values}, {"differs", field.differs}});
    }
    nlohmann::json diagnostics = nlohmann::json::array();
    for (const Diagnostic& d : comparison.diagnostics) {
        diagnostics.push_back({{"severity", toString(d.severity)}, {"field", d.field}, {"message", d.message}});
    }
    return {{"scenario", comparison.scenarioText},
            {"configs", configs},
            {"figures", rowsJson(comparison.figures)},
            {"components", rowsJson(comparison.components)},
            {"config_fields", fields},
            {"model_type_differs", comparison.modelTypeDiffers},
            {"diagnostics", diagnostics}};
}

} // namespace archplay::core
