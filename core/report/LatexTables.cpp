// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/LatexTables.h"

#include "core/derivation/Derivation.h"
#include "core/report/Costs.h"
#include "core/report/Tables.h"
#include "core/util/Format.h"

#include <fmt/format.h>

#include <utility>

namespace archplay::core {
namespace {

void breakdownRows(const ParamNode& node, int depth, std::uint64_t total, std::vector<std::vector<std::string>>& rows,
                   std::vector<int>& indents) {
    rows.push_back({node.name, withThousands(node.params), percentText(fractionOf(node.params, total)),
                    node.shape.empty() ? "" : toString(node.shape)});
    indents.push_back(depth);
    for (const ParamNode& child : node.children) {
        breakdownRows(child, depth + 1, total, rows, indents);
    }
}

} // namespace

std::string latexText(const std::string& text) {
    static const std::pair<std::string_view, std::string_view> kUnicode[] = {
        {"\u00d7", "\\texttimes{}"},
        {"\u00b7", "\\textperiodcentered{}"},
        {"\u2014", "---"},
        {"\u2013", "--"},
        {"\u00a0", "~"},
        {"\u2019", "'"},
        {"\u2026", "\\ldots{}"},
        {"\u2192", "$\\rightarrow$"},
        {"\u2248", "$\\approx$"},
        {"\u2264", "$\\le$"},
        {"\u2265", "$\\ge$"},
        {"\u2212", "$-$"},
    };
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        bool replaced = false;
        for (const auto& [from, to] : kUnicode) {
            if (text.compare(i, from.size(), from) == 0) {
                out += to;
                i += from.size();
                replaced = true;
                break;
            }
        }
        if (replaced) {
            continue;
        }
        const char c = text[i++];
        switch (c) {
        case '\\':
            out += "\\textbackslash{}";
            break;
        case '{':
        case '}':
        case '$':
        case '&':
        case '#':
        case '_':
        case '%':
            out += '\\';
            out += c;
            break;
        case '^':
            out += "\\textasciicircum{}";
            break;
        case '~':
            out += "\\textasciitilde{}";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string latexTable(const std::string& caption, const std::string& label, const std::vector<LatexColumn>& columns,
                       const std::vector<std::vector<std::string>>& rows, const std::vector<int>& indents,
                       LatexPlacement placement) {
    std::string spec;
    std::string header;
    for (std::size_t c = 0; c < columns.size(); ++c) {
        spec += columns[c].right ? 'r' : 'l';
        header += (c > 0 ? " & " : "") + latexText(columns[c].title);
    }
    header += " \\\\\n";
    std::string body;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        for (std::size_t c = 0; c < columns.size(); ++c) {
            const std::string cell = c < rows[r].size() ? latexText(rows[r][c]) : std::string();
            if (c > 0) {
                body += " & ";
            } else if (r < indents.size() && indents[r] > 0) {
                body += fmt::format("\\hspace{{{}em}}", indents[r]);
            }
            body += cell;
        }
        body += " \\\\\n";
    }
    // Wide tables (the KV cache by layer) keep to the text width with narrower column gaps.
    const std::string gaps = columns.size() >= 6 ? "\\setlength{\\tabcolsep}{3pt}\n" : "";
    const bool breaks =
        placement == LatexPlacement::Breaking || (placement == LatexPlacement::Auto && rows.size() > kLatexFloatRows);
    if (breaks) {
        return "\\begingroup\n\\small\n" + gaps + "\\begin{longtable}{" + spec + "}\n\\caption{" + latexText(caption) +
               "}\\label{" + label + "}\\\\\n\\toprule\n" + header + "\\midrule\n\\endfirsthead\n\\toprule\n" + header +
               "\\midrule\n\\endhead\n\\bottomrule\n\\endlastfoot\n" + body + "\\end{longtable}\n\\endgroup\n";
    }
    return "\\begin{table}[htbp]\n\\centering\n\\small\n" + gaps + "\\caption{" + latexText(caption) + "}\n\\label{" +
           label + "}\n\\begin{tabular}{" + spec + "}\n\\toprule\n" + header + "\\midrule\n" + body +
           "\\bottomrule\n\\end{tabular}\n\\end{table}\n";
}

std::string summaryLatex(const std::vector<SummaryRow>& rows, const std::string& caption, LatexPlacement placement) {
    std::vector<std::vector<std::string>> cells;
    for (const SummaryRow& row : rows) {
        cells.push_back({row.label, row.value, row.exact});
    }
    return latexTable(caption, "tab:summary", {{"Quantity"}, {"Value", true}, {"Exact", true}}, cells, {}, placement);
}

namespace {

/// Cost rows (quantity, value, detail) as a breaking booktabs table under their own label.
std::string costLatex(const std::vector<SummaryRow>& rows, const std::string& caption, const std::string& label) {
    std::vector<std::vector<std::string>> cells;
    for (const SummaryRow& row : rows) {
        cells.push_back({row.label, row.value, row.detail});
    }
    return latexTable(caption, label, {{"Quantity"}, {"Value", true}, {"Detail"}}, cells, {}, LatexPlacement::Breaking);
}

} // namespace

std::string breakdownLatex(const ParamReport& params, const std::string& caption, LatexPlacement placement) {
    std::vector<std::vector<std::string>> rows;
    std::vector<int> indents;
    breakdownRows(params.breakdown, 0, params.total, rows, indents);
    if (params.extras.params > 0) {
        breakdownRows(params.extras, 0, params.total, rows, indents);
    }
    return latexTable(caption, "tab:breakdown", {{"Component"}, {"Parameters", true}, {"Share", true}, {"Shape"}}, rows,
                      indents, placement);
}

std::string kvLatex(const Analysis& analysis, const std::string& caption, LatexPlacement placement) {
    std::vector<std::vector<std::string>> figures;
    for (const SummaryRow& row : kvFigures(analysis)) {
        figures.push_back({row.label, row.value, row.exact});
    }
    std::vector<std::vector<std::string>> layers;
    for (const KvRow& row : kvRows(analysis)) {
        layers.push_back({row.layers, row.kind, withThousands(row.elementsPerToken), withThousands(row.cachedTokens),
                          binaryBytes(row.bytesPerLayer), binaryBytes(row.bytes), withThousands(row.bytes)});
    }
    return latexTable(caption, "tab:kv", {{"Quantity"}, {"Value", true}, {"Exact", true}}, figures, {}, placement) +
           "\n" +
           latexTable(caption + " By runs of identical decoder layers.", "tab:kv-layers",
                      {{"Layers"},
                       {"Kind"},
                       {"Elements/token", true},
                       {"Tokens held", true},
                       {"Per layer", true},
                       {"All layers", true},
                       {"Bytes", true}},
                      layers, {}, placement);
}

std::string latexDocument(const std::string& comment, const std::string& body) {
    return "% " + comment +
           "\n"
           "\\documentclass[11pt]{article}\n"
           "\\usepackage[utf8]{inputenc}\n"
           "\\usepackage[T1]{fontenc}\n"
           "\\usepackage{textcomp}\n"
           "\\usepackage{amsmath,amssymb}\n"
           "\\usepackage{booktabs}\n"
           "\\usepackage{longtable}\n"
           "\\usepackage[margin=2.2cm]{geometry}\n"
           "\\DeclareUnicodeCharacter{00B7}{\\ensuremath{\\cdot}}\n"
           "\\DeclareUnicodeCharacter{00D7}{\\ensuremath{\\times}}\n"
           "\\DeclareUnicodeCharacter{2013}{--}\n"
           "\\DeclareUnicodeCharacter{2014}{---}\n"
           "\\DeclareUnicodeCharacter{2019}{'}\n"
           "\\DeclareUnicodeCharacter{2026}{\\ldots}\n"
           "\\DeclareUnicodeCharacter{2192}{\\ensuremath{\\rightarrow}}\n"
           "\\DeclareUnicodeCharacter{2248}{\\ensuremath{\\approx}}\n"
           "\\DeclareUnicodeCharacter{2264}{\\ensuremath{\\le}}\n"
           "\\DeclareUnicodeCharacter{2265}{\\ensuremath{\\ge}}\n"
           "\\begin{document}\n" +
           body + "\\end{document}\n";
}

std::string reportLatex(const Analysis& analysis, const ReportInfo& info) {
    const std::string caption = figureCaption(analysis, info);
    std::string body = "\\section*{" + latexText(info.title) + "}\n";
    body += latexText(fmt::format("archplay report, {}{}.", info.date,
                                  info.origin.empty() ? std::string()
                                                      : ", " + info.origin + (info.modified ? " (modified)" : ""))) +
            "\\\\\nScenario: " + latexText(scenarioLine(analysis)) + ".\n";
    for (const ReportSection& section : reportSections(analysis, -1)) {
        switch (section.part) {
        case ReportPart::Configuration: {
            body += "\n\\subsection*{" + latexText(section.title) + "}\n";
            std::vector<std::vector<std::string>> rows;
            for (const ConfigRow& row : configRows(analysis.config)) {
                rows.push_back({row.label, row.value});
            }
            body += latexTable("Configuration of " + info.title + ".", "tab:config", {{"Field"}, {"Value"}}, rows, {},
                               LatexPlacement::Breaking);
            break;
        }
        case ReportPart::Summary:
            body += "\n\\subsection*{" + latexText(section.title) + "}\n";
            body += summaryLatex(summaryRows(analysis, summaryContext(info)), "Summary of " + caption + ".",
                                 LatexPlacement::Breaking);
            break;
        case ReportPart::Breakdown:
            body += "\n\\subsection*{" + latexText(section.title) + "}\n";
            body +=
                breakdownLatex(analysis.params, "Parameter breakdown of " + info.title + ".", LatexPlacement::Breaking);
            break;
        case ReportPart::KvCache:
            body += "\n\\subsection*{" + latexText(section.title) + "}\n";
            body += kvLatex(analysis, "KV cache of " + caption + ".", LatexPlacement::Breaking);
            break;
        case ReportPart::DiagnosticList:
            body += "\n\\subsection*{" + latexText(section.title) + "}\n";
            if (analysis.diagnostics.empty()) {
                body += "No errors, warnings or hints.\n";
            } else {
                body += "\\begin{itemize}\n";
                for (const Diagnostic& d : analysis.diagnostics) {
                    body += "\\item \\textbf{" + latexText(std::string(toString(d.severity))) + "}" +
                            (d.field.empty() ? "" : " \\texttt{" + latexText(d.field) + "}") + ": " +
                            latexText(d.message) + "\n";
                }
                body += "\\end{itemize}\n";
            }
            break;
        case ReportPart::Derivation:
            body += "\n\\clearpage\n" + toLatex(deriveForwardPass(analysis.config, analysis.plan));
            break;
        case ReportPart::CostExplanation:
            body += "\n" + toLatex(explainCosts(analysis));
            break;
        case ReportPart::Compute:
            body += "\n\\subsection*{" + latexText(section.title) + "}\n";
            body += costLatex(computeRows(analysis), "Compute of " + caption + ".", "tab:compute");
            break;
        case ReportPart::Memory:
            body += "\n\\subsection*{" + latexText(section.title) + "}\n";
            body += costLatex(servingMemoryRows(analysis), "Serving memory of " + caption + ".", "tab:serving");
            body += costLatex(trainingMemoryRows(analysis), "Training memory of " + caption + ".", "tab:training");
            break;
        case ReportPart::Speed:
            body += "\n\\subsection*{" + latexText(section.title) + "}\n";
            body += costLatex(speedRows(analysis), "Speed of " + caption + "; " + std::string(speedBoundLabel()) + ".",
                              "tab:speed");
            break;
        case ReportPart::Source:
            body += "\n\\subsection*{" + latexText(section.title) + "}\n";
            for (const std::string& line : sourceLines(info)) {
                body += latexText(line) + "\n\n";
            }
            body += latexText(countingConvention()) + "\n";
            break;
        case ReportPart::LayerStack:
        case ReportPart::Layer:
        case ReportPart::AttentionMask:
        case ReportPart::MoeRouting:
        case ReportPart::Zoo: // the LaTeX report is made without a zoo
            break;
        }
    }
    return latexDocument(info.title + ", an archplay report. Compile with pdflatex, lualatex or xelatex.", body);
}

} // namespace archplay::core
