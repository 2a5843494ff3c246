// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/ExportCommand.h"

#include "app/cli/CliCommands.h"
#include "app/cli/ConfigSource.h"
#include "app/cli/ExportGraphics.h"
#include "app/cli/Flags.h"
#include "core/analysis/Analysis.h"
#include "core/io/ConfigJson.h"
#include "core/io/Files.h"
#include "core/io/Presets.h"
#include "core/report/Exports.h"
#include "core/report/ReportText.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>

namespace archplay::cli {

const char* const kExportUsage = R"(  export CONFIG --what WHAT [--format FORMAT] -o FILE [options]
                                         figures, tables and reports, drawn headless

export:
  --what     report | breakdown | layer-stack | layer | attention-mask | kv-cache |
             moe-routing | derivation | summary | compute | memory | speed
  --format   pdf | png | svg | csv | md | json | tex (default: FILE's extension)
               report: pdf, md (figures as PNG files beside it), json, tex
               breakdown, kv-cache: png, svg, pdf, csv, md, json, tex
               derivation: tex (a whole document), md, pdf (paged), png, svg
               summary: csv, md, json, tex; layer-stack, layer, attention-mask, moe-routing,
               compute, memory, speed: png, svg, pdf
             Figures carry a caption with the model and the scenario; tex files are whole
             documents with booktabs tables; a CSV file holds one table with one header line
  -o FILE    the file to write, atomically; '-' writes a text format to standard output.
             A symbolic link is written through; a device, pipe or directory is refused,
             and so is a read-only file unless --force
  --force    replace a read-only FILE
  --seq N --batch B --encoder-seq N --kv-dtype D --weight-dtype FORMAT --gpu ID --gpus N
             the scenario (default 4096 tokens, batch 1, bf16, one H100 SXM; --gpu takes a
             device id of 'archplay-cli gpus'; the training flags of 'memory' apply too)
  --size WxH   figure size in device-independent pixels (default 1280x800); text grows with
               it beyond 1024x640 (1920x1080: text 1.69 times the screen's, for slides)
  --scale S    PNG pixels (SVG width and height) per device-independent pixel, e.g. 2 for
               print (default 1; 2 for the figures of the Markdown report)
  --theme light|dark   colours of figures and reports (default light)
  --paper a4|letter    page size of the PDF report and the paged derivation (default a4)
  --layer N    the layer shown by layer, attention-mask, moe-routing and the report
               (position in the stack, encoder layers first, from 0)
  --zoo        the report (pdf, md) gets a section among published models: the design
               with its nearest presets by parameters, and every zoo plot with it marked
)";

namespace {

Options parseExportOptions(const std::vector<std::string>& args) {
    static const std::vector<std::string> valueFlags = [] {
        std::vector<std::string> flags = {"--what",  "--format", "-o",      "--output", "--size",
                                          "--scale", "--theme",  "--paper", "--layer"};
        flags.insert(flags.end(), scenarioFlags().begin(), scenarioFlags().end());
        return flags;
    }();
    Options options = parseOptions(args, valueFlags, {"--force", "--zoo"});
    if (options.json) {
        throw UsageError{"export writes JSON with --format json"};
    }
    if (auto output = options.values.find("--output"); output != options.values.end()) {
        options.values["-o"] = output->second;
        options.values.erase(output);
    }
    return options;
}

std::optional<std::string> value(const Options& options, const std::string& flag) {
    const std::string* text = options.value(flag);
    return text ? std::optional<std::string>(*text) : std::nullopt;
}

/// "1280x800" as two numbers from 16 to 16384.
std::pair<int, int> parseSize(const std::string& text) {
    const std::size_t cross = text.find_first_of("xX");
    if (cross != std::string::npos) {
        const std::string width = text.substr(0, cross);
        const std::string height = text.substr(cross + 1);
        int w = 0;
        int h = 0;
        const auto [endW, errorW] = std::from_chars(width.data(), width.data() + width.size(), w);
        const auto [endH, errorH] = std::from_chars(height.data(), height.data() + height.size(), h);
        if (errorW == std::errc() && errorH == std::errc() && endW == width.data() + width.size() &&
            endH == height.data() + height.size() && w >= 16 && h >= 16 && w <= 16384 && h <= 16384) {
            return {w, h};
        }
    }
    throw UsageError{fmt::format("--size takes WIDTHxHEIGHT between 16 and 16384, e.g. 1600x1000, not '{}'", text)};
}

double parseScale(const std::string& text) {
    char* end = nullptr;
    const double scale = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !(scale >= 0.25 && scale <= 8)) {
        throw UsageError{fmt::format("--scale takes a number from 0.25 to 8, e.g. 2, not '{}'", text)};
    }
    return scale;
}

/// Today as YYYY-MM-DD (UTC), or the day of SOURCE_DATE_EPOCH for reproducible builds of a report.
std::string today() {
    std::time_t now = std::time(nullptr);
    if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH"); epoch && *epoch) {
        long long seconds = 0;
        const std::string_view text(epoch);
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seconds);
        if (error == std::errc() && end == text.data() + text.size()) {
            now = static_cast<std::time_t>(seconds);
        }
    }
    std::tm utc{};
    gmtime_r(&now, &utc);
    return fmt::format("{:04}-{:02}-{:02}", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday);
}

/// What the report's title block says about where CONFIG came from.
core::ReportInfo reportInfo(const std::string& spec, const LoadedConfig& loaded) {
    core::ReportInfo info;
    info.date = today();
    if (loaded.preset) {
        info.origin = loaded.origin;
        info.title = loaded.preset->info.name;
        info.preset = loaded.preset->info;
        return info;
    }
    info.origin = "file " + spec;
    info.title = std::filesystem::path(spec).filename().string();
    if (loaded.config) {
        info.title = core::recordedModelName(*loaded.config).value_or(info.title);
    }
    return info;
}

/// What an export is and how it is written, which decides the options it takes.
struct ExportKind {
    core::ExportWhat what = core::ExportWhat::Report;
    core::ExportFormat format = core::ExportFormat::Pdf;

    /// Drawn by the views (through Qt), not written as text.
    bool rendering() const { return core::needsRendering(what, format); }
    bool image() const { return core::isImageFormat(format); }
    /// The PDF report and the PDF derivation are laid out on pages.
    bool pagedPdf() const {
        return format == core::ExportFormat::Pdf &&
               (what == core::ExportWhat::Report || what == core::ExportWhat::Derivation);
    }
    bool markdownReport() const { return what == core::ExportWhat::Report && format == core::ExportFormat::Markdown; }
};

/// A figure option and the exports it applies to; given to any other, it is a usage error.
struct FigureFlagRule {
    const char* flag;
    bool (*applies)(const ExportKind& kind);
    const char* message;
};

constexpr FigureFlagRule kFigureFlagRules[] = {
    {"--size", [](const ExportKind& kind) { return kind.image() && !kind.pagedPdf(); },
     "--size applies to png, svg and pdf figures (a paged PDF takes --paper)"},
    {"--scale",
     [](const ExportKind& kind) {
         return kind.format == core::ExportFormat::Png || kind.format == core::ExportFormat::Svg ||
                kind.markdownReport();
     },
     "--scale applies to png, svg and to the figures of the Markdown report"},
    {"--paper", [](const ExportKind& kind) { return kind.pagedPdf(); },
     "--paper applies to the PDF report and the PDF derivation"},
    {"--theme", [](const ExportKind& kind) { return kind.rendering(); },
     "--theme applies to figures and reports (png, svg, pdf, and the Markdown report)"},
    {"--layer", [](const ExportKind& kind) { return kind.rendering(); }, "--layer applies to figures and reports"},
};

core::ExportWhat requiredWhat(const Options& options) {
    const auto text = value(options, "--what");
    if (!text) {
        throw UsageError{"--what is required"};
    }
    const auto what = core::parseExportWhat(*text);
    if (!what) {
        throw UsageError{fmt::format("--what takes {}, not '{}'", core::exportWhatNames(), *text)};
    }
    return *what;
}

std::string requiredPath(const Options& options) {
    const auto path = value(options, "-o");
    if (!path || path->empty()) {
        throw UsageError{"-o FILE is required"};
    }
    return *path;
}

/// --format, or the format the file's extension names.
core::ExportFormat exportFormat(const Options& options, const std::string& path) {
    std::optional<core::ExportFormat> format;
    if (auto text = value(options, "--format")) {
        format = core::parseExportFormat(*text);
        if (!format) {
            throw UsageError{fmt::format("--format takes {}, not '{}'", core::exportFormatNames(), *text)};
        }
    } else if (path != "-") {
        format = core::formatFromPath(path);
    }
    if (!format) {
        throw UsageError{fmt::format("say --format; '{}' has no extension that names one", path)};
    }
    return *format;
}

/// Refuses what no model could be exported as, and drawings sent to standard output.
void checkExportKind(const ExportKind& kind, const std::string& path) {
    if (path == "-" && kind.rendering()) {
        throw UsageError{fmt::format("{} as {} is written to a file; -o - is for text formats",
                                     core::toString(kind.what), core::toString(kind.format)),
                         false};
    }
    const std::vector<core::ExportFormat> formats = core::formatsFor(kind.what);
    if (std::find(formats.begin(), formats.end(), kind.format) == formats.end()) {
        throw UsageError{core::unsupportedReason(kind.what, kind.format, core::Analysis{}), false};
    }
}

void checkFigureFlags(const Options& options, const ExportKind& kind) {
    for (const FigureFlagRule& rule : kFigureFlagRules) {
        if (options.value(rule.flag) != nullptr && !rule.applies(kind)) {
            throw UsageError{rule.message};
        }
    }
}

/// The figure options: --size, --scale, --theme and --paper.
void readFigureFlags(const Options& options, GraphicsRequest& request) {
    if (auto text = value(options, "--size")) {
        const auto [width, height] = parseSize(*text);
        request.width = width;
        request.height = height;
    }
    if (auto text = value(options, "--scale")) {
        request.scale = parseScale(*text);
    }
    if (auto text = value(options, "--theme")) {
        if (*text != "light" && *text != "dark") {
            throw UsageError{fmt::format("--theme takes light or dark, not '{}'", *text)};
        }
        request.dark = *text == "dark";
    }
    if (auto text = value(options, "--paper")) {
        if (*text != "a4" && *text != "letter") {
            throw UsageError{fmt::format("--paper takes a4 or letter, not '{}'", *text)};
        }
        request.letter = *text == "letter";
    }
}

/// An export as the command line asks for it, checked before the config is read.
struct ExportJob {
    std::string spec; ///< CONFIG
    bool bestEffort = false;
    core::Scenario scenario;
    ExportKind kind;
    GraphicsRequest request; ///< what, format, path and the figure options; the layer and info come later
    std::optional<std::uint64_t> layer;
};

ExportJob exportJob(const std::vector<std::string>& args) {
    const Options options = parseExportOptions(args);
    if (options.positional.size() != 1) {
        throw UsageError{"expected exactly one CONFIG (a config.json path or a preset id)"};
    }
    ExportJob job;
    job.spec = options.positional.front();
    job.bestEffort = options.bestEffort;
    job.kind.what = requiredWhat(options);
    job.request.path = requiredPath(options);
    job.request.replaceReadOnly = options.switches.count("--force") > 0;
    job.request.zoo = options.switches.count("--zoo") > 0;
    job.kind.format = exportFormat(options, job.request.path);
    checkExportKind(job.kind, job.request.path);
    checkFigureFlags(options, job.kind);
    if (job.request.zoo &&
        !(job.kind.what == core::ExportWhat::Report &&
          (job.kind.format == core::ExportFormat::Pdf || job.kind.format == core::ExportFormat::Markdown))) {
        throw UsageError{"--zoo applies to the report as pdf or md"};
    }
    job.request.what = job.kind.what;
    job.request.format = job.kind.format;
    readFigureFlags(options, job.request);
    if (auto text = value(options, "--layer")) {
        job.layer = wholeNumber("--layer", *text, true);
    }
    job.scenario = scenarioFromFlags(options.values);
    return job;
}

/// The layer to show as a position in the plan; a usage error when the model has no such layer.
std::int64_t layerPosition(std::uint64_t layer, const core::Analysis& analysis, const std::string& spec) {
    if (layer >= analysis.plan.layers.size()) {
        throw UsageError{fmt::format("--layer {} is out of range: {} has layers 0 to {}", layer, spec,
                                     analysis.plan.layers.size() - 1),
                         false};
    }
    return static_cast<std::int64_t>(layer);
}

/// Writes a text export to the file, or to `out` for "-".
int writeText(const core::Analysis& analysis, const GraphicsRequest& request, std::ostream& out, std::ostream& err) {
    const std::optional<std::string> text = core::exportText(analysis, request.what, request.format, request.info);
    if (!text) {
        throw UsageError{core::unsupportedReason(request.what, request.format, analysis)};
    }
    if (request.path == "-") {
        out << *text;
        return out ? Success : InvalidConfig;
    }
    const core::ReadOnlyTarget readOnly =
        request.replaceReadOnly ? core::ReadOnlyTarget::Replace : core::ReadOnlyTarget::Refuse;
    if (const core::Status written = core::writeFileAtomically(request.path, *text, readOnly); !written.ok()) {
        fmt::print(err, "archplay-cli: cannot write {}: {}\n", request.path, written.error());
        return InvalidConfig;
    }
    return Success;
}

/// Draws the export through the views, in builds with the Qt front end.
int writeGraphics([[maybe_unused]] const core::Analysis& analysis, const GraphicsRequest& request,
                  [[maybe_unused]] std::ostream& err) {
#ifdef ARCHPLAY_CLI_GRAPHICS
    const std::filesystem::path directory = std::filesystem::path(request.path).parent_path();
    std::error_code error;
    if (!directory.empty() && !std::filesystem::is_directory(directory, error)) {
        fmt::print(err, "archplay-cli: cannot write {}: the directory {} does not exist\n", request.path,
                   directory.string());
        return InvalidConfig;
    }
    return exportGraphics(analysis, request, err);
#else
    throw UsageError{fmt::format("this archplay-cli was built without the Qt front end (ARCHPLAY_BUILD_GUI=OFF), so "
                                 "it writes csv, md, json and tex but cannot draw {}",
                                 core::toString(request.format)),
                     false};
#endif
}

int runExport(ExportJob job, std::ostream& out, std::ostream& err) {
    const AnalyzedConfig analyzed = analyzeConfig(job.spec, job.bestEffort, job.scenario);
    if (!analyzed.ok()) {
        return reportInvalid(job.spec, analyzed.diagnostics(), err);
    }
    const core::Analysis& analysis = *analyzed.analysis;
    if (const std::string reason = core::unsupportedReason(job.kind.what, job.kind.format, analysis); !reason.empty()) {
        throw UsageError{fmt::format("{}: {}", job.spec, reason), false};
    }
    if (job.layer) {
        job.request.layer = layerPosition(*job.layer, analysis, job.spec);
    }
    job.request.info = reportInfo(job.spec, analyzed.loaded);
    return job.kind.rendering() ? writeGraphics(analysis, job.request, err)
                                : writeText(analysis, job.request, out, err);
}

} // namespace

CommandRunner parseExport(const std::vector<std::string>& args) {
    return [job = exportJob(args)](std::ostream& out, std::ostream& err) {
        try {
            return runExport(job, out, err);
        } catch (const UsageError& error) {
            return printUsageError(error, kExportUsage, err);
        }
    };
}

} // namespace archplay::cli
