// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/io/ViewKind.h"
#include "core/report/ReportText.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace archplay::core {

/// What an export shows: the whole report, one figure, or one table. The same names serve
/// `archplay-cli export --what` and the window's export actions.
enum class ExportWhat {
    Report,
    Breakdown,
    LayerStack,
    Layer,
    AttentionMask,
    KvCache,
    MoeRouting,
    Derivation,
    Summary,
    Compute,
    Memory,
    Speed
};

/// The file formats. Png, Svg and Pdf are drawn (through Qt); the others are text.
enum class ExportFormat { Pdf, Png, Svg, Csv, Markdown, Json, Latex };

inline constexpr ExportWhat kAllExportWhats[] = {
    ExportWhat::Report,        ExportWhat::Breakdown, ExportWhat::LayerStack, ExportWhat::Layer,
    ExportWhat::AttentionMask, ExportWhat::KvCache,   ExportWhat::MoeRouting, ExportWhat::Derivation,
    ExportWhat::Summary,       ExportWhat::Compute,   ExportWhat::Memory,     ExportWhat::Speed};
inline constexpr ExportFormat kAllExportFormats[] = {ExportFormat::Pdf,  ExportFormat::Png,      ExportFormat::Svg,
                                                     ExportFormat::Csv,  ExportFormat::Markdown, ExportFormat::Json,
                                                     ExportFormat::Latex};

/// "report", "breakdown", "layer-stack", "layer", "attention-mask", "kv-cache", "moe-routing",
/// "derivation", "summary", "compute", "memory", "speed".
std::string_view toString(ExportWhat what);
/// "pdf", "png", "svg", "csv", "md", "json", "tex" (also the file extension).
std::string_view toString(ExportFormat format);
/// Parses the names above; also the view ids "param-chart" (breakdown) and "layer-weights" (layer).
[[nodiscard]] std::optional<ExportWhat> parseExportWhat(std::string_view name);
/// Parses the names above, case-insensitive; also "markdown" and "latex".
[[nodiscard]] std::optional<ExportFormat> parseExportFormat(std::string_view name);
/// Every name parseExportWhat() reads as its own, for messages: "report, breakdown, ... or summary".
[[nodiscard]] std::string exportWhatNames();
/// Every format name, for messages: "pdf, png, svg, csv, md, json or tex".
[[nodiscard]] std::string exportFormatNames();
/// The format a file name's extension names (".md", ".markdown", ".tex", ...), or nullopt.
[[nodiscard]] std::optional<ExportFormat> formatFromPath(std::string_view path);

/// True for PNG, SVG and PDF.
bool isImageFormat(ExportFormat format);
/// True when writing the export draws views, which needs Qt: every image format, and the Markdown
/// report (its figures are PNG files written beside it).
bool needsRendering(ExportWhat what, ExportFormat format);
/// The formats `what` can be written in, whatever the model.
[[nodiscard]] std::vector<ExportFormat> formatsFor(ExportWhat what);
/// The view drawn for an image of `what`; nullopt for the report and the summary.
std::optional<ViewKind> viewFor(ExportWhat what);

/// Why view `kind` has nothing to show for this model, in one short sentence; empty when it applies.
/// The rule behind unsupportedReason() and the overview's tiles: MoE routing needs a mixture-of-experts
/// model, the KV cache a decoder.
[[nodiscard]] std::string inapplicableReason(ViewKind kind, const Analysis& analysis);

/// Why `what` cannot be written as `format` for this model, as one sentence naming what would work;
/// empty when it can. Senseless combinations: a format `what` has no form in (a layer stack as CSV),
/// MoE routing of a dense model, the KV cache of an encoder-only model.
[[nodiscard]] std::string unsupportedReason(ExportWhat what, ExportFormat format, const Analysis& analysis);

/// The text of a text export (CSV, Markdown, JSON, LaTeX), or nullopt when (what, format) is not
/// one: an image, the Markdown report (it has figures), or a senseless combination.
/// Report: JSON (reportJson), LaTeX (reportLatex). Breakdown: CSV, Markdown, JSON (paramsJson), LaTeX.
/// Summary: CSV, Markdown, JSON, LaTeX. KV cache: CSV (one header, long format: kvCsv), Markdown,
/// JSON (kvJson), LaTeX. Derivation: LaTeX, Markdown. Every LaTeX export is a whole document that
/// compiles with pdflatex; its tables are booktabs tables captioned with the model (and scenario).
[[nodiscard]] std::optional<std::string> exportText(const Analysis& analysis, ExportWhat what, ExportFormat format,
                                                    const ReportInfo& info);

/// The size at which an exported figure's text and lines have their on-screen size; a larger figure
/// is laid out at its size divided by figureTextScale() and drawn scaled up, so its text grows with
/// it. Units: pixels.
inline constexpr int kFigureReferenceWidth = 1024;
inline constexpr int kFigureReferenceHeight = 640;

/// How many times larger than on screen a figure of `width` x `height` pixels draws its text and
/// lines: min(width / 1024, height / 640), at least 1 (small figures keep the screen's size, never
/// smaller) and at most 4. A 1920x1080 slide gets 1.6875, so 13-pixel text becomes 22 pixels tall
/// and reads when projected; 800x600 gets 1. The window's exports, the command line's and the
/// Markdown report's figures all use it.
double figureTextScale(int width, int height);

} // namespace archplay::core
