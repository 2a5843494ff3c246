// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/ZooCommand.h"

#include "app/cli/ConfigSource.h"
#include "app/cli/ExportGraphics.h"
#include "app/cli/Flags.h"
#include "core/report/Summary.h"
#include "core/report/ZooPlots.h"
#include "core/report/ZooQuery.h"
#include "core/report/ZooSources.h"
#include "core/util/Format.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <ostream>

namespace archplay::cli {
namespace {

/// What the zoo command was asked for.
struct ZooRequest {
    std::vector<std::string> folders;
    std::optional<std::string> hfRoot; ///< set with --hf-cache or --hf-root
    bool presets = true;
    core::ZooFilter filter;
    std::optional<core::ZooColumn> sortColumn;
    bool descending = false;
    core::Scenario scenario;
    Options options;
    std::optional<core::ZooPlot> plot; ///< --plot: draw this plot to `plotPath` instead of a table
    std::string plotPath;              ///< -o FILE
    core::ExportFormat plotFormat = core::ExportFormat::Png;
    std::optional<std::string> mark; ///< --mark CONFIG: the design marked on the plot
    bool dark = false;               ///< --theme dark
};

/// The columns of the text table (every column is in --csv, --md and --json).
constexpr core::ZooColumn kTextColumns[] = {
    core::ZooColumn::Kind,
    core::ZooColumn::Layers,
    core::ZooColumn::HiddenSize,
    core::ZooColumn::Attention,
    core::ZooColumn::Ffn,
    core::ZooColumn::FfnRatio,
    core::ZooColumn::TotalParams,
    core::ZooColumn::ActiveParams,
    core::ZooColumn::MatchesPublished,
    core::ZooColumn::KvBytesPerToken,
    core::ZooColumn::KvTotalBytes,
    core::ZooColumn::WeightBytes,
    core::ZooColumn::WeightFormat,
    core::ZooColumn::WeightsAsShipped,
    core::ZooColumn::FlopsPerToken,
    core::ZooColumn::DecodeTokensPerSecond,
    core::ZooColumn::LayersRule12,
    core::ZooColumn::LayersPerLayer,
    core::ZooColumn::Status,
    core::ZooColumn::GpuFit,
};

std::string_view textHeader(core::ZooColumn column) {
    switch (column) {
    case core::ZooColumn::TotalParams:
        return "total";
    case core::ZooColumn::ActiveParams:
        return "active";
    case core::ZooColumn::MatchesPublished:
        return "match";
    case core::ZooColumn::KvBytesPerToken:
        return "KV/token";
    case core::ZooColumn::KvTotalBytes:
        return "KV";
    case core::ZooColumn::WeightBytes:
        return "weights";
    case core::ZooColumn::WeightFormat:
        return "format";
    case core::ZooColumn::WeightsAsShipped:
        return "shipped";
    case core::ZooColumn::FlopsPerToken:
        return "FLOP/token";
    case core::ZooColumn::DecodeTokensPerSecond:
        return "decode<=";
    case core::ZooColumn::LayersRule12:
        return "L~12Ld2";
    case core::ZooColumn::LayersPerLayer:
        return "L~layer";
    case core::ZooColumn::FfnRatio:
        return "ffn/d";
    case core::ZooColumn::HiddenSize:
        return "hidden";
    case core::ZooColumn::GpuFit:
        return "fit";
    default:
        return core::zooColumnInfo(column).key;
    }
}

std::string cell(const core::ZooRow& row, core::ZooColumn column) {
    if (column == core::ZooColumn::TotalParams || column == core::ZooColumn::ActiveParams) {
        const std::optional<double> value = core::zooNumber(row, column);
        return value ? core::withThousands(static_cast<std::uint64_t>(*value)) : "";
    }
    return core::zooText(row, column);
}

/// "4,096 tokens x 1, KV bf16, weights bf16 (as shipped where a checkpoint says), on 1 x H100 SXM (80 GiB)".
std::string scenarioText(const core::Scenario& s) {
    return fmt::format("{} tokens x {}, KV {}, weights {}{}, on {}", core::withThousands(s.sequenceLength), s.batch,
                       core::toString(s.kvDType), core::formatInfo(s.weightFormat).id,
                       s.weightsAsShipped ? " (as shipped where the checkpoint says)" : "", core::devicesLabel(s));
}

void printTable(const core::ModelZoo& zoo, std::ostream& out) {
    fmt::print(out, "{}\n\n", scenarioText(zoo.scenario));
    std::vector<const core::ZooRow*> counted;
    std::vector<const core::ZooRow*> notCounted;
    for (const core::ZooRow& row : zoo.rows) {
        (row.counted() ? counted : notCounted).push_back(&row);
    }
    std::size_t idWidth = 2;
    std::vector<std::vector<std::string>> cells;
    std::vector<std::size_t> widths;
    for (core::ZooColumn column : kTextColumns) {
        widths.push_back(textHeader(column).size());
    }
    for (const core::ZooRow* row : counted) {
        idWidth = std::max(idWidth, row->id.size());
        std::vector<std::string>& line = cells.emplace_back();
        for (std::size_t c = 0; c < std::size(kTextColumns); ++c) {
            line.push_back(cell(*row, kTextColumns[c]));
            widths[c] = std::max(widths[c], line.back().size());
        }
    }
    auto printLine = [&](const std::string& id, const std::vector<std::string>& line) {
        std::string text = fmt::format("{:<{}}", id, idWidth);
        for (std::size_t c = 0; c < line.size(); ++c) {
            const bool left = !core::zooColumnInfo(kTextColumns[c]).numeric;
            text += left ? fmt::format("  {:<{}}", line[c], widths[c]) : fmt::format("  {:>{}}", line[c], widths[c]);
        }
        text.erase(text.find_last_not_of(' ') + 1);
        out << text << "\n";
    };
    std::vector<std::string> header;
    for (core::ZooColumn column : kTextColumns) {
        header.emplace_back(textHeader(column));
    }
    printLine("id", header);
    for (std::size_t r = 0; r < counted.size(); ++r) {
        printLine(counted[r]->id, cells[r]);
    }
    std::string estimates;
    for (const core::ZooRow* row : counted) {
        if (row->status == core::ZooStatus::Estimate) {
            estimates += fmt::format("{}  {}\n", row->id, row->reason);
        }
    }
    if (!estimates.empty()) {
        fmt::print(out, "\nestimates (every figure of these rows is an estimate):\n{}", estimates);
    }
    if (!notCounted.empty()) {
        fmt::print(out, "\nnot counted:\n");
        for (const core::ZooRow* row : notCounted) {
            fmt::print(out, "{}  {}\n", row->id, row->reason);
        }
    }
}

/// The plot of the rows kept, the --mark design marked, written to -o FILE.
int drawPlot(const ZooRequest& request, const core::ModelZoo& zoo, std::ostream& err) {
    std::optional<core::ZooRow> marked;
    if (request.mark) {
        const AnalyzedConfig analyzed = analyzeConfig(*request.mark, request.options.bestEffort, request.scenario);
        if (!analyzed.ok()) {
            return reportInvalid(*request.mark, analyzed.diagnostics(), err);
        }
        marked = core::designZooRow(*analyzed.analysis, *request.mark);
    }
    std::vector<std::size_t> every(zoo.rows.size());
    std::iota(every.begin(), every.end(), std::size_t{0});
    // A marked design sits at today's date on the time plot: it is not released yet.
    const core::ZooPlotData data = core::zooPlotData(zoo.rows, every, *request.plot, marked, core::todayInYears());
    if (data.left > 0) {
        fmt::print(err, "note: {} of the {} rows are not on the plot: {}\n", data.left, zoo.rows.size(),
                   data.leftReason);
    }
#ifdef ARCHPLAY_CLI_GRAPHICS
    ZooPlotRequest plot;
    plot.path = request.plotPath;
    plot.format = request.plotFormat;
    plot.dark = request.dark;
    plot.caption = fmt::format("{} · {}{}", data.info.title, scenarioText(zoo.scenario),
                               request.mark ? " · marked: " + *request.mark : "");
    plot.replaceReadOnly = request.options.switches.count("--force") > 0;
    return exportZooPlot(data, plot, err);
#else
    throw UsageError{"this archplay-cli was built without the Qt front end (ARCHPLAY_BUILD_GUI=OFF), so it cannot "
                     "draw a plot",
                     false};
#endif
}

int runZoo(const ZooRequest& request, std::ostream& out, std::ostream& err) {
    std::vector<core::ZooInput> inputs = request.presets ? core::presetZooInputs() : std::vector<core::ZooInput>{};
    core::Diagnostics notes;
    auto add = [&](core::ZooScan scan) {
        std::move(scan.inputs.begin(), scan.inputs.end(), std::back_inserter(inputs));
        notes.insert(notes.end(), scan.notes.begin(), scan.notes.end());
    };
    for (const std::string& folder : request.folders) {
        add(core::zooFromFolder(folder));
    }
    if (request.hfRoot) {
        add(core::zooFromHfCache(*request.hfRoot));
    }
    for (const core::Diagnostic& note : notes) {
        // A folder that is not one (missing, a file) is the user's mistake, not an empty zoo.
        if (note.severity == core::Severity::Error) {
            throw UsageError{note.message, false};
        }
        fmt::print(err, "note: {}\n", note.message);
    }
    core::ModelZoo zoo = core::buildZoo(inputs, request.scenario, 0);
    if (!zoo.diagnostics.empty()) {
        const core::Diagnostic& d = zoo.diagnostics.front();
        throw UsageError{d.field.empty() ? d.message : d.field + ": " + d.message, false};
    }
    std::vector<std::size_t> order = core::filterZoo(zoo.rows, request.filter);
    if (request.sortColumn) {
        core::sortZoo(zoo.rows, order, *request.sortColumn, request.descending);
    }
    std::vector<core::ZooRow> rows;
    rows.reserve(order.size());
    for (std::size_t i : order) {
        rows.push_back(std::move(zoo.rows[i]));
    }
    zoo.rows = std::move(rows);

    if (request.plot) {
        return drawPlot(request, zoo, err);
    }
    const Options& options = request.options;
    if (options.json) {
        nlohmann::json json = core::zooJson(zoo);
        json["notes"] = nlohmann::json::array();
        for (const core::Diagnostic& note : notes) {
            json["notes"].push_back(note.message);
        }
        out << json.dump(2) << "\n";
    } else if (options.switches.count("--csv")) {
        out << core::zooCsv(zoo);
    } else if (options.switches.count("--md")) {
        out << core::zooMarkdown(zoo);
    } else {
        printTable(zoo, out);
    }
    return Success;
}

/// --plot NAME -o FILE [--mark CONFIG] [--theme light|dark]: every flag checked before anything is read.
void readPlotFlags(const Options& options, ZooRequest& request, std::size_t textFormats) {
    const std::string* name = options.value("--plot");
    if (!name) {
        for (const char* flag : {"-o", "--mark", "--theme"}) {
            if (options.value(flag)) {
                throw UsageError{fmt::format("{} goes with --plot", flag)};
            }
        }
        return;
    }
    std::string names;
    for (core::ZooPlot plot : core::zooPlots()) {
        names += (names.empty() ? "" : ", ") + std::string(core::toString(plot));
        if (core::toString(plot) == *name) {
            request.plot = plot;
        }
    }
    if (!request.plot) {
        throw UsageError{fmt::format("--plot takes {}, not '{}'", names, *name)};
    }
    if (textFormats > 0) {
        throw UsageError{"--plot draws a picture: leave out --json, --csv and --md"};
    }
    const std::string* path = options.value("-o");
    if (!path || path->empty() || *path == "-") {
        throw UsageError{"--plot needs -o FILE (.png, .svg or .pdf)"};
    }
    request.plotPath = *path;
    const std::optional<core::ExportFormat> format = core::formatFromPath(*path);
    if (!format || !core::isImageFormat(*format)) {
        throw UsageError{fmt::format("--plot writes png, svg or pdf: '{}' has none of those extensions", *path)};
    }
    request.plotFormat = *format;
    if (const std::string* mark = options.value("--mark")) {
        request.mark = *mark;
    }
    if (const std::string* theme = options.value("--theme")) {
        if (*theme != "light" && *theme != "dark") {
            throw UsageError{fmt::format("--theme takes light or dark, not '{}'", *theme)};
        }
        request.dark = *theme == "dark";
    }
}

} // namespace

CommandRunner parseZoo(const std::vector<std::string>& args) {
    ZooRequest request;
    // --dir may be repeated; the shared option reader keeps one value per flag.
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--dir") {
            if (i + 1 >= args.size()) {
                throw UsageError{"--dir needs a value"};
            }
            request.folders.push_back(args[++i]);
        } else {
            rest.push_back(args[i]);
        }
    }
    std::vector<std::string> valueFlags = scenarioFlags();
    valueFlags.insert(valueFlags.end(), {"--filter", "--sort", "--hf-root", "--plot", "-o", "--mark", "--theme"});
    request.options = parseOptions(rest, valueFlags, {"--csv", "--md", "--hf-cache", "--presets", "--force"});
    const Options& options = request.options;
    if (!options.positional.empty()) {
        throw UsageError{"zoo takes no CONFIG; it tables the built-in presets, or the configs of --dir and --hf-cache"};
    }
    const std::size_t formats =
        options.switches.count("--csv") + options.switches.count("--md") + (options.json ? 1 : 0);
    if (formats > 1) {
        throw UsageError{"choose one of --json, --csv and --md"};
    }
    if (const std::string* given = options.value("--hf-root")) {
        request.hfRoot = *given;
    } else if (options.switches.count("--hf-cache")) {
        const std::optional<std::filesystem::path> root = core::defaultHfCacheRoot();
        if (!root) {
            throw UsageError{
                "--hf-cache: none of HF_HUB_CACHE, HF_HOME, XDG_CACHE_HOME and HOME is set; give --hf-root", false};
        }
        request.hfRoot = root->string();
    }
    request.presets = options.switches.count("--presets") || (request.folders.empty() && !request.hfRoot);
    if (const std::string* text = options.value("--filter")) {
        core::ZooFilterParse parsed = core::parseZooFilter(*text);
        if (!parsed.filter) {
            throw UsageError{"--filter: " + parsed.error};
        }
        request.filter = std::move(*parsed.filter);
    }
    if (const std::string* text = options.value("--sort")) {
        std::string_view key = *text;
        request.descending = key.starts_with('-');
        key.remove_prefix(request.descending ? 1 : 0);
        request.sortColumn = core::zooColumnFromKey(key);
        if (!request.sortColumn) {
            throw UsageError{fmt::format("--sort: no column '{}' (see the CSV header for the keys)", key)};
        }
    }
    readPlotFlags(options, request, formats);
    request.scenario = scenarioFromFlags(options.values);
    return [request](std::ostream& out, std::ostream& err) {
        return runZoo(request, out, err);
    };
}

} // namespace archplay::cli
