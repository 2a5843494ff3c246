// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/Exports.h"

#include "core/derivation/Derivation.h"
#include "core/report/LatexTables.h"
#include "core/report/ReportJson.h"
#include "core/report/Tables.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <span>

namespace archplay::core {
namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
    return out;
}

/// The value whose toString() is `name`, or whose alias it is; case-insensitive.
template <typename Value, std::size_t N, std::size_t M>
std::optional<Value> parseName(std::string_view name, const Value (&values)[N],
                               const std::pair<std::string_view, Value> (&aliases)[M]) {
    const std::string key = lower(name);
    for (Value value : values) {
        if (key == toString(value)) {
            return value;
        }
    }
    for (const auto& [alias, value] : aliases) {
        if (key == alias) {
            return value;
        }
    }
    return std::nullopt;
}

/// "a, b or c": the names of `values` for a sentence.
template <typename Value> std::string nameList(std::span<const Value> values) {
    std::string list;
    for (std::size_t i = 0; i < values.size(); ++i) {
        list += i == 0 ? "" : (i + 1 == values.size() ? " or " : ", ");
        list += toString(values[i]);
    }
    return list;
}

} // namespace

std::string_view toString(ExportWhat what) {
    switch (what) {
    case ExportWhat::Report:
        return "report";
    case ExportWhat::Breakdown:
        return "breakdown";
    case ExportWhat::LayerStack:
        return "layer-stack";
    case ExportWhat::Layer:
        return "layer";
    case ExportWhat::AttentionMask:
        return "attention-mask";
    case ExportWhat::KvCache:
        return "kv-cache";
    case ExportWhat::MoeRouting:
        return "moe-routing";
    case ExportWhat::Derivation:
        return "derivation";
    case ExportWhat::Summary:
        return "summary";
    case ExportWhat::Compute:
        return "compute";
    case ExportWhat::Memory:
        return "memory";
    case ExportWhat::Speed:
        return "speed";
    }
    return {};
}

std::string_view toString(ExportFormat format) {
    switch (format) {
    case ExportFormat::Pdf:
        return "pdf";
    case ExportFormat::Png:
        return "png";
    case ExportFormat::Svg:
        return "svg";
    case ExportFormat::Csv:
        return "csv";
    case ExportFormat::Markdown:
        return "md";
    case ExportFormat::Json:
        return "json";
    case ExportFormat::Latex:
        return "tex";
    }
    return {};
}

std::optional<ExportWhat> parseExportWhat(std::string_view name) {
    static constexpr std::pair<std::string_view, ExportWhat> kViewIds[] = {{"param-chart", ExportWhat::Breakdown},
                                                                           {"layer-weights", ExportWhat::Layer}};
    return parseName(name, kAllExportWhats, kViewIds);
}

std::optional<ExportFormat> parseExportFormat(std::string_view name) {
    static constexpr std::pair<std::string_view, ExportFormat> kLongNames[] = {{"markdown", ExportFormat::Markdown},
                                                                               {"latex", ExportFormat::Latex}};
    return parseName(name, kAllExportFormats, kLongNames);
}

std::optional<ExportFormat> formatFromPath(std::string_view path) {
    const std::size_t slash = path.find_last_of("/\\");
    const std::size_t dot = path.rfind('.');
    if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) {
        return std::nullopt;
    }
    return parseExportFormat(path.substr(dot + 1));
}

std::string exportWhatNames() {
    return nameList<ExportWhat>(kAllExportWhats);
}

std::string exportFormatNames() {
    return nameList<ExportFormat>(kAllExportFormats);
}

bool isImageFormat(ExportFormat format) {
    return format == ExportFormat::Png || format == ExportFormat::Svg || format == ExportFormat::Pdf;
}

bool needsRendering(ExportWhat what, ExportFormat format) {
    return isImageFormat(format) || (what == ExportWhat::Report && format == ExportFormat::Markdown);
}

std::vector<ExportFormat> formatsFor(ExportWhat what) {
    using F = ExportFormat;
    switch (what) {
    case ExportWhat::Report:
        return {F::Pdf, F::Markdown, F::Json, F::Latex};
    case ExportWhat::Breakdown:
        return {F::Png, F::Svg, F::Pdf, F::Csv, F::Markdown, F::Json, F::Latex};
    case ExportWhat::KvCache:
        return {F::Png, F::Svg, F::Pdf, F::Csv, F::Markdown, F::Json, F::Latex};
    case ExportWhat::Derivation:
        return {F::Png, F::Svg, F::Pdf, F::Latex, F::Markdown};
    case ExportWhat::Summary:
        return {F::Csv, F::Markdown, F::Json, F::Latex};
    case ExportWhat::LayerStack:
    case ExportWhat::Layer:
    case ExportWhat::AttentionMask:
    case ExportWhat::MoeRouting:
    case ExportWhat::Compute:
    case ExportWhat::Memory:
    case ExportWhat::Speed:
        return {F::Png, F::Svg, F::Pdf};
    }
    return {};
}

std::optional<ViewKind> viewFor(ExportWhat what) {
    switch (what) {
    case ExportWhat::Breakdown:
        return ViewKind::ParameterChart;
    case ExportWhat::LayerStack:
        return ViewKind::LayerStack;
    case ExportWhat::Layer:
        return ViewKind::LayerWeights;
    case ExportWhat::AttentionMask:
        return ViewKind::AttentionMask;
    case ExportWhat::KvCache:
        return ViewKind::KvCache;
    case ExportWhat::MoeRouting:
        return ViewKind::MoeRouting;
    case ExportWhat::Derivation:
        return ViewKind::Derivation;
    case ExportWhat::Compute:
        return ViewKind::Compute;
    case ExportWhat::Memory:
        return ViewKind::Memory;
    case ExportWhat::Speed:
        return ViewKind::Speed;
    case ExportWhat::Report:
    case ExportWhat::Summary:
        return std::nullopt;
    }
    return std::nullopt;
}

std::string unsupportedReason(ExportWhat what, ExportFormat format, const Analysis& analysis) {
    const std::vector<ExportFormat> formats = formatsFor(what);
    if (std::find(formats.begin(), formats.end(), format) == formats.end()) {
        return fmt::format("{} cannot be written as {}; it can be written as {}", toString(what), toString(format),
                           nameList<ExportFormat>(formats));
    }
    if (what == ExportWhat::MoeRouting && !inapplicableReason(ViewKind::MoeRouting, analysis).empty()) {
        return "moe-routing needs a mixture-of-experts model, and this one has a dense feed-forward network in "
               "every layer";
    }
    if (what == ExportWhat::KvCache && !inapplicableReason(ViewKind::KvCache, analysis).empty()) {
        return "kv-cache needs a model with a decoder; an encoder-only model keeps no KV cache";
    }
    return {};
}

std::string inapplicableReason(ViewKind kind, const Analysis& analysis) {
    if (kind == ViewKind::MoeRouting && analysis.config.ffnKind == FfnKind::None) {
        return "No layer has a feed-forward network, so nothing is routed: each token uses the same weights.";
    }
    if (kind == ViewKind::MoeRouting && analysis.config.ffnKind != FfnKind::Moe) {
        return "Every layer has a dense feed-forward network, so nothing is routed: each token uses the same weights.";
    }
    if (kind == ViewKind::KvCache && !analysis.config.hasDecoder()) {
        return "An encoder-only model reads its whole input at once and keeps no KV cache.";
    }
    return {};
}

std::optional<std::string> exportText(const Analysis& analysis, ExportWhat what, ExportFormat format,
                                      const ReportInfo& info) {
    if (needsRendering(what, format) || !unsupportedReason(what, format, analysis).empty()) {
        return std::nullopt;
    }
    switch (what) {
    case ExportWhat::Report:
        return format == ExportFormat::Latex ? reportLatex(analysis, info) : reportJson(analysis, info).dump(2) + "\n";
    case ExportWhat::Breakdown:
        if (format == ExportFormat::Latex) {
            return latexDocument(info.title + ", parameter breakdown, written by archplay. Needs booktabs.",
                                 breakdownLatex(analysis.params, "Parameter breakdown of " + info.title + "."));
        }
        if (format == ExportFormat::Csv) {
            return breakdownCsv(analysis.params);
        }
        if (format == ExportFormat::Markdown) {
            return breakdownMarkdown(analysis.params);
        }
        return paramsJson(analysis.params).dump(2) + "\n";
    case ExportWhat::Summary:
        if (format == ExportFormat::Latex) {
            return latexDocument(info.title + ", summary, written by archplay. Needs booktabs.",
                                 summaryLatex(summaryRows(analysis, summaryContext(info)),
                                              "Summary of " + figureCaption(analysis, info) + "."));
        }
        if (format == ExportFormat::Csv) {
            return summaryCsv(summaryRows(analysis, summaryContext(info)));
        }
        if (format == ExportFormat::Markdown) {
            return summaryMarkdown(summaryRows(analysis, summaryContext(info)));
        }
        return summaryJson(analysis, summaryContext(info)).dump(2) + "\n";
    case ExportWhat::KvCache:
        if (format == ExportFormat::Latex) {
            return latexDocument(info.title + ", KV cache, written by archplay. Needs booktabs.",
                                 kvLatex(analysis, "KV cache of " + figureCaption(analysis, info) + "."));
        }
        if (format == ExportFormat::Csv) {
            return kvCsv(analysis);
        }
        if (format == ExportFormat::Markdown) {
            return kvMarkdown(analysis);
        }
        return kvJson(analysis).dump(2) + "\n";
    case ExportWhat::Derivation: {
        const Derivation derivation = deriveForwardPass(analysis.config, analysis.plan);
        return format == ExportFormat::Latex ? derivationLatexDocument(derivation) : toMarkdown(derivation) + "\n";
    }
    case ExportWhat::LayerStack:
    case ExportWhat::Layer:
    case ExportWhat::AttentionMask:
    case ExportWhat::MoeRouting:
    case ExportWhat::Compute:
    case ExportWhat::Memory:
    case ExportWhat::Speed:
        break;
    }
    return std::nullopt;
}

double figureTextScale(int width, int height) {
    if (width <= 0 || height <= 0) {
        return 1.0;
    }
    const double scale = std::min(double(width) / kFigureReferenceWidth, double(height) / kFigureReferenceHeight);
    return std::clamp(scale, 1.0, 4.0);
}

} // namespace archplay::core
