// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/report/ReportText.h"
#include "core/report/Summary.h"

#include <cstdint>
#include <string>
#include <vector>

namespace archplay::core {

/// Text for LaTeX prose and table cells: the ten special characters escaped, and the non-ASCII
/// characters the report's text uses (×, ·, dashes, non-breaking spaces, arrows) written as commands,
/// so the text compiles with pdflatex without a \DeclareUnicodeCharacter.
[[nodiscard]] std::string latexText(const std::string& text);

/// A column of a LaTeX table: its title and whether its cells are right-aligned (numbers).
struct LatexColumn {
    std::string title;
    bool right = false;
};

/// Whether a LaTeX table floats or breaks across pages.
enum class LatexPlacement {
    Auto,     ///< a `table` float (to paste into a paper) up to kLatexFloatRows rows, else a longtable
    Float,    ///< a `table` float with a tabular
    Breaking, ///< a longtable where the text is, breaking across pages with its header repeated
};
/// More rows than fit a page in a float.
inline constexpr std::size_t kLatexFloatRows = 35;

/// A booktabs table: \caption, \label, then \toprule, the column titles, \midrule, the rows and
/// \bottomrule, as a `table` float around a tabular or as a longtable (see LatexPlacement). Cells are
/// escaped with latexText(); a row's first cell is indented by `indents[i]` em when given. Tables of
/// six columns or more narrow their column gaps to keep to the text width. Needs
/// \usepackage{booktabs} (and longtable for a breaking table).
[[nodiscard]] std::string latexTable(const std::string& caption, const std::string& label,
                                     const std::vector<LatexColumn>& columns,
                                     const std::vector<std::vector<std::string>>& rows,
                                     const std::vector<int>& indents = {},
                                     LatexPlacement placement = LatexPlacement::Auto);

/// The summary rows (quantity, value, exact) as a booktabs table captioned with the model and scenario.
[[nodiscard]] std::string summaryLatex(const std::vector<SummaryRow>& rows, const std::string& caption,
                                       LatexPlacement placement = LatexPlacement::Auto);
/// The parameter breakdown tree (component indented by depth, parameters, share, shape), as a booktabs table.
[[nodiscard]] std::string breakdownLatex(const ParamReport& params, const std::string& caption,
                                         LatexPlacement placement = LatexPlacement::Auto);
/// The KV cache: its headline figures and the table by runs of layers, as two booktabs tables.
[[nodiscard]] std::string kvLatex(const Analysis& analysis, const std::string& caption,
                                  LatexPlacement placement = LatexPlacement::Auto);

/// A complete LaTeX document around `body` (article, utf8, T1, amsmath, amssymb, booktabs, longtable) that
/// compiles alone with pdflatex; `comment` is its first line after "% ".
[[nodiscard]] std::string latexDocument(const std::string& comment, const std::string& body);

/// The report as one LaTeX document: the model as its title, the scenario, configuration, summary,
/// parameter breakdown and KV cache as booktabs longtables where their sections are, diagnostics, the forward-pass
/// derivation, the source and the counting convention. No figures: those are the PDF and Markdown reports'.
[[nodiscard]] std::string reportLatex(const Analysis& analysis, const ReportInfo& info);

} // namespace archplay::core
