// SPDX-License-Identifier: GPL-3.0-or-later
// Exports fit for slides and papers (issue 12, defect 12), the text side: one caption with the model
// and the scenario, text that grows with the figure, booktabs LaTeX tables, Markdown whose heading
// and table structure survives rendering, and one header line per CSV file.
#include "core/report/Exports.h"
#include "core/report/LatexTables.h"
#include "core/report/ReportText.h"
#include "tests/support/TestSupport.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <string>
#include <vector>

namespace archplay::test {
namespace {

const char* const kExportedPresets[] = {"llama-3-8b", "deepseek-v3", "bert-base-uncased", "flan-t5-base", "gemma-3-1b"};

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> result;
    std::istringstream stream(text);
    for (std::string line; std::getline(stream, line);) {
        result.push_back(line);
    }
    return result;
}

/// Unescaped pipes of a Markdown table line.
std::size_t pipes(const std::string& line) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) {
            ++count;
        }
    }
    return count;
}

/// Unescaped & of a LaTeX table row.
std::size_t ampersands(const std::string& line) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '&' && (i == 0 || line[i - 1] != '\\')) {
            ++count;
        }
    }
    return count;
}

TEST(FigureCaption, NamesTheModelAndTheScenario) {
    const core::Analysis analysis = analyzePreset("llama-3-8b", scenarioAt(131072, 2));
    core::ReportInfo info = presetReportInfo("llama-3-8b");
    const std::string caption = core::figureCaption(analysis, info);
    EXPECT_EQ(caption.rfind(info.title, 0), 0u) << caption;
    EXPECT_NE(caption.find(core::scenarioLine(analysis)), std::string::npos) << caption;
    EXPECT_NE(caption.find("131,072 tokens, batch 2"), std::string::npos) << caption;
    info.modified = true;
    EXPECT_NE(core::figureCaption(analysis, info).find("(modified)"), std::string::npos);
    info.title.clear();
    EXPECT_EQ(core::figureCaption(analysis, info).rfind("Untitled", 0), 0u);
}

TEST(FigureTextScale, TextGrowsWithTheFigureAndNeverShrinks) {
    // A 1920x1080 slide: 13-pixel screen text becomes at least 21 pixels.
    EXPECT_GE(core::figureTextScale(1920, 1080) * 13, 21.0);
    EXPECT_DOUBLE_EQ(core::figureTextScale(1024, 640), 1.0);
    EXPECT_DOUBLE_EQ(core::figureTextScale(800, 600), 1.0);
    EXPECT_DOUBLE_EQ(core::figureTextScale(400, 300), 1.0);
    EXPECT_DOUBLE_EQ(core::figureTextScale(3840, 2160), 3.375);
    EXPECT_DOUBLE_EQ(core::figureTextScale(100000, 100000), 4.0);
    EXPECT_DOUBLE_EQ(core::figureTextScale(0, 1080), 1.0);
    double previous = 1;
    for (int width = 1024; width <= 4096; width += 64) {
        const double scale = core::figureTextScale(width, width * 10 / 16);
        EXPECT_GE(scale, previous);
        previous = scale;
    }
}

TEST(LatexTables, BreakdownSummaryAndKvAreBooktabsTables) {
    for (const char* id : kExportedPresets) {
        const core::Analysis analysis = analyzePreset(id);
        const core::ReportInfo info = presetReportInfo(id);
        for (const core::ExportWhat what : {core::ExportWhat::Breakdown, core::ExportWhat::Summary,
                                            core::ExportWhat::KvCache, core::ExportWhat::Report}) {
            if (!core::unsupportedReason(what, core::ExportFormat::Latex, analysis).empty()) {
                EXPECT_EQ(what, core::ExportWhat::KvCache) << id << ": only an encoder-only model lacks one";
                continue;
            }
            const auto tex = core::exportText(analysis, what, core::ExportFormat::Latex, info);
            ASSERT_TRUE(tex) << id << " " << core::toString(what);
            const std::string name = std::string(id) + " " + std::string(core::toString(what));
            EXPECT_NE(tex->find("\\usepackage{booktabs}"), std::string::npos) << name;
            EXPECT_NE(tex->find("\\begin{document}"), std::string::npos) << name;
            EXPECT_NE(tex->find("\\end{document}"), std::string::npos) << name;
            // Every tabular opens with \toprule and \midrule and closes with \bottomrule; no \hline.
            const auto count = [&](const std::string& needle) {
                std::size_t n = 0;
                for (std::size_t at = tex->find(needle); at != std::string::npos; at = tex->find(needle, at + 1)) {
                    ++n;
                }
                return n;
            };
            // A float's tabular has one header; a longtable repeats its header on every page.
            const std::size_t floats = count("\\begin{tabular}");
            const std::size_t longs = count("\\begin{longtable}");
            EXPECT_GE(floats + longs, 1u) << name;
            EXPECT_EQ(count("\\toprule"), floats + 2 * longs) << name;
            EXPECT_EQ(count("\\midrule"), floats + 2 * longs) << name;
            EXPECT_EQ(count("\\bottomrule"), floats + longs) << name;
            EXPECT_EQ(count("\\hline"), 0u) << name;
            for (const std::string& line : lines(*tex)) {
                if (line.rfind("\\caption{", 0) == 0) {
                    EXPECT_NE(line.find(core::latexText(info.title)), std::string::npos)
                        << name << ": the caption names the model: " << line;
                }
            }
            // Every row of a tabular has as many cells as its column specification.
            std::size_t columns = 0;
            bool inTable = false;
            for (const std::string& line : lines(*tex)) {
                if (line.rfind("\\begin{tabular}{", 0) == 0) {
                    columns = line.size() - std::string("\\begin{tabular}{}").size();
                    inTable = true;
                } else if (line.rfind("\\begin{longtable}{", 0) == 0) {
                    columns = line.size() - std::string("\\begin{longtable}{}").size();
                    inTable = true;
                } else if (line == "\\end{tabular}" || line == "\\end{longtable}") {
                    inTable = false;
                } else if (inTable && line.rfind("\\caption", 0) != 0 && line.find("\\\\") != std::string::npos) {
                    EXPECT_EQ(ampersands(line) + 1, columns) << name << ": " << line;
                }
            }
        }
    }
}

TEST(LatexTables, SpecialCharactersAreEscaped) {
    EXPECT_EQ(core::latexText("50% of a_b & {c} #1 $2"), "50\\% of a\\_b \\& \\{c\\} \\#1 \\$2");
    EXPECT_EQ(core::latexText("8 × 128 · 2"), "8 \\texttimes{} 128 \\textperiodcentered{} 2");
    EXPECT_EQ(core::latexText("~^\\"), "\\textasciitilde{}\\textasciicircum{}\\textbackslash{}");
}

TEST(CsvExports, EveryCsvFileHasExactlyOneHeaderLine) {
    for (const char* id : kExportedPresets) {
        const core::Analysis analysis = analyzePreset(id);
        for (const core::ExportWhat what : core::kAllExportWhats) {
            const auto csv = core::exportText(analysis, what, core::ExportFormat::Csv, presetReportInfo(id));
            if (!csv) {
                continue;
            }
            const std::string name = std::string(id) + " " + std::string(core::toString(what));
            const std::vector<std::string> rows = lines(*csv);
            ASSERT_GE(rows.size(), 2u) << name;
            EXPECT_EQ(std::count(rows.begin(), rows.end(), rows.front()), 1) << name << ": the header repeats";
            const std::size_t fields = csvFieldCount(rows.front());
            for (const std::string& row : rows) {
                EXPECT_FALSE(row.empty()) << name << ": a blank line splits the file into two tables";
                EXPECT_EQ(csvFieldCount(row), fields) << name << ": " << row;
            }
            // The header is names, not data: letters, digits and underscores.
            EXPECT_TRUE(
                std::all_of(rows.front().begin(), rows.front().end(),
                            [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ','; }))
                << name << ": " << rows.front();
        }
    }
}

TEST(MarkdownExports, HeadingsNestAndTablesStayWhole) {
    for (const char* id : kExportedPresets) {
        const core::Analysis analysis = analyzePreset(id);
        const std::string md = core::reportMarkdown(
            analysis, presetReportInfo(id), 0,
            {{core::ViewKind::ParameterChart, "f/param-chart.png"}, {core::ViewKind::KvCache, "f/kv-cache.png"}});
        const std::vector<std::string> text = lines(md);
        int titles = 0;
        int level = 0;
        bool inMaths = false;
        for (std::size_t i = 0; i < text.size(); ++i) {
            const std::string& line = text[i];
            if (line == "$$") {
                inMaths = !inMaths;
            }
            if (inMaths) {
                continue;
            }
            if (line.rfind('#', 0) == 0) {
                const auto depth = static_cast<int>(line.find_first_not_of('#'));
                ASSERT_LT(static_cast<std::size_t>(depth), line.size()) << line;
                EXPECT_EQ(line[static_cast<std::size_t>(depth)], ' ') << id << ": " << line;
                titles += depth == 1 ? 1 : 0;
                EXPECT_LE(depth, level + 1) << id << ": heading skips a level: " << line;
                level = depth;
                EXPECT_TRUE(i == 0 || text[i - 1].empty()) << id << ": no blank line before " << line;
                EXPECT_TRUE(i + 1 == text.size() || text[i + 1].empty()) << id << ": no blank line after " << line;
            }
            // A table: blank line before it and after it, every line a row with the header's cell count.
            if (line.rfind('|', 0) == 0 && (i == 0 || text[i - 1].rfind('|', 0) != 0)) {
                EXPECT_TRUE(i > 0 && text[i - 1].empty()) << id << ": no blank line before the table " << line;
                const std::size_t cells = pipes(line);
                std::size_t row = i;
                for (; row < text.size() && text[row].rfind('|', 0) == 0; ++row) {
                    EXPECT_EQ(pipes(text[row]), cells) << id << ": " << text[row];
                    EXPECT_EQ(text[row].back(), '|') << id << ": a row broken by a line break: " << text[row];
                }
                EXPECT_TRUE(row == text.size() || text[row].empty()) << id << ": the table runs into " << text[row];
                EXPECT_NE(text[i + 1].find("---"), std::string::npos) << id << ": the alignment row follows the header";
            }
        }
        EXPECT_EQ(titles, 1) << id << ": one # title";
        EXPECT_EQ(md.rfind("# " + presetReportInfo(id).title + "\n", 0), 0u) << id;
    }
}

} // namespace
} // namespace archplay::test
