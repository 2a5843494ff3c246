// SPDX-License-Identifier: GPL-3.0-or-later
// archplay-cli export: every format checked for validity (PNG decodes at the requested size and is not
// blank, SVG parses with text elements, PDF text extracts with pdftotext and holds the total), exit
// codes and messages for senseless combinations and failed writes, and files left intact on failure.
#include "tests/support/CliRunner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <unistd.h>

#ifdef ARCHPLAY_CLI_GRAPHICS
#include <QCoreApplication>
#include <QFile>
#include <QImage>
#include <QXmlStreamReader>
#endif

namespace archplay::test {
namespace {

namespace fs = std::filesystem;

/// Standard output of a shell command; nullopt when it could not run or failed.
std::optional<std::string> capture(const std::string& command) {
    FILE* pipe = ::popen((command + " 2>/dev/null").c_str(), "r");
    if (!pipe) {
        return std::nullopt;
    }
    std::string output;
    std::array<char, 4096> buffer{};
    while (const std::size_t read = std::fread(buffer.data(), 1, buffer.size(), pipe)) {
        output.append(buffer.data(), read);
    }
    return ::pclose(pipe) == 0 ? std::optional(output) : std::nullopt;
}

TEST(CliExportText, SummaryBreakdownKvAndDerivationCarryTheExactNumbers) {
#ifdef ARCHPLAY_CLI_GRAPHICS
    const bool hadApplication = QCoreApplication::instance() != nullptr;
#endif
    const fs::path dir = scratchDirectory("text");
    struct Case {
        std::string what, format, needle;
    };
    const Case cases[] = {{"summary", "csv", "\"8,030,261,248\""},
                          {"summary", "md", "| Total parameters | 8.03B | 8,030,261,248 |"},
                          {"summary", "json", "8030261248"},
                          {"breakdown", "csv", "Model,8030261248,100.0000,"},
                          {"breakdown", "md", "| Model | 8,030,261,248 |  | 100.0% |"},
                          {"breakdown", "json", "\"total\": 8030261248"},
                          {"kv-cache", "csv", "2147483648"},
                          {"kv-cache", "md", "2,147,483,648"},
                          {"kv-cache", "json", "\"total_bytes\": 2147483648"},
                          {"derivation", "tex", "\\begin{document}"},
                          {"derivation", "md", "$$"},
                          {"report", "json", "\"total_params\": 8030261248"}};
    for (const Case& c : cases) {
        const fs::path file = dir / (c.what + "." + c.format);
        const CliResult r = runCli({"export", "llama-3-8b", "--what", c.what, "--format", c.format, "-o", file.string(),
                                    "--seq", "8192", "--batch", "4", "--kv-dtype", "fp8"});
        ASSERT_EQ(r.exitCode, 0) << c.what << " " << c.format << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
        const std::string text = readFile(file);
        EXPECT_NE(text.find(c.needle), std::string::npos) << c.what << " " << c.format << "\n" << text.substr(0, 400);
        if (c.format == "json") {
            EXPECT_TRUE(nlohmann::json::accept(text)) << c.what;
        }
    }
    EXPECT_NE(readFile(dir / "derivation.tex").find("14{,}336"), std::string::npos);
#ifdef ARCHPLAY_CLI_GRAPHICS
    if (!hadApplication) {
        EXPECT_EQ(QCoreApplication::instance(), nullptr) << "text formats must not create a QApplication";
    }
#endif
}

TEST(CliExportText, FormatFollowsTheExtensionAndDashIsStandardOutput) {
    const fs::path dir = scratchDirectory("extension");
    const CliResult r = runCli({"export", "mixtral-8x7b-v0.1", "--what", "summary", "-o", (dir / "s.md").string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(readFile(dir / "s.md").find("46,702,792,704"), std::string::npos);
    const CliResult stdoutResult =
        runCli({"export", "mixtral-8x7b-v0.1", "--what", "breakdown", "--format", "csv", "-o", "-"});
    ASSERT_EQ(stdoutResult.exitCode, 0) << stdoutResult.err;
    EXPECT_EQ(stdoutResult.out.rfind("component,parameters,share_percent,shape,per_layer,layers\n", 0), 0u);
}

TEST(CliExportText, LatexTablesAndTheLatexReportCompileWithBooktabs) {
    ASSERT_TRUE(capture("command -v pdflatex")) << "pdflatex is missing: scripts/dev test installs texlive-latex-base";
    ASSERT_TRUE(capture("kpsewhich booktabs.sty"))
        << "booktabs.sty is missing: scripts/dev test installs texlive-latex-recommended";
    const fs::path dir = scratchDirectory("latex-tables");
    for (const char* id : {"deepseek-v3", "flan-t5-base", "bert-base-uncased"}) {
        for (const char* what : {"report", "breakdown", "summary", "kv-cache"}) {
            if (std::string(id) == "bert-base-uncased" && std::string(what) == "kv-cache") {
                continue;
            }
            const std::string stem = std::string(id) + "-" + what;
            const fs::path tex = dir / (stem + ".tex");
            const CliResult r = runCli({"export", id, "--what", what, "-o", tex.string()});
            ASSERT_EQ(r.exitCode, 0) << stem << ": " << r.err;
            const std::string text = readFile(tex);
            EXPECT_NE(text.find("\\toprule"), std::string::npos) << stem;
            EXPECT_NE(text.find("\\bottomrule"), std::string::npos) << stem;
            EXPECT_TRUE(capture("cd '" + dir.string() + "' && pdflatex -interaction=nonstopmode -halt-on-error '" +
                                tex.filename().string() + "'"))
                << stem << ": see " << (dir / (stem + ".log"));
            EXPECT_TRUE(fs::exists(dir / (stem + ".pdf"))) << stem;
        }
    }
}

TEST(CliExportText, TheLatexDocumentCompiles) {
    ASSERT_TRUE(capture("command -v pdflatex")) << "pdflatex is missing: scripts/dev test installs texlive-latex-base";
    const fs::path dir = scratchDirectory("latex");
    for (const char* id : {"deepseek-v3", "gemma-3-1b", "t5-small"}) {
        const fs::path tex = dir / (std::string(id) + ".tex");
        ASSERT_EQ(runCli({"export", id, "--what", "derivation", "-o", tex.string()}).exitCode, 0);
        EXPECT_TRUE(capture("cd '" + dir.string() + "' && pdflatex -interaction=nonstopmode -halt-on-error '" +
                            tex.filename().string() + "'"))
            << id << ": see " << (dir / (std::string(id) + ".log"));
        EXPECT_TRUE(fs::exists(dir / (std::string(id) + ".pdf"))) << id;
    }
}

TEST(CliExportErrors, SenselessCombinationsExitTwoWithAReason) {
    const fs::path dir = scratchDirectory("senseless");
    struct Case {
        std::vector<std::string> args;
        std::string message;
    };
    const std::string out = (dir / "out.png").string();
    const Case cases[] = {
        {{"export", "llama-3-8b", "--what", "moe-routing", "--format", "png", "-o", out}, "mixture-of-experts"},
        {{"export", "bert-base-uncased", "--what", "kv-cache", "--format", "json", "-o", out}, "encoder-only"},
        {{"export", "llama-3-8b", "--what", "layer-stack", "--format", "csv", "-o", out}, "png, svg or pdf"},
        {{"export", "llama-3-8b", "--what", "summary", "--format", "png", "-o", out}, "csv, md, json or tex"},
        {{"export", "llama-3-8b", "--what", "report", "--format", "png", "-o", out}, "pdf, md, json or tex"},
        {{"export", "llama-3-8b", "--what", "everything", "-o", out}, "--what takes"},
        {{"export", "llama-3-8b", "--what", "summary"}, "-o FILE is required"},
        {{"export", "llama-3-8b", "--what", "summary", "-o", (dir / "noext").string()}, "--format"},
        {{"export", "llama-3-8b", "--what", "summary", "--format", "csv", "--size", "10x10", "-o", out}, "--size"},
        {{"export", "llama-3-8b", "--what", "layer", "--format", "pdf", "--scale", "2", "-o", out}, "--scale"},
        {{"export", "llama-3-8b", "--what", "layer", "--format", "png", "--layer", "32", "-o", out}, "out of range"},
        {{"export", "llama-3-8b", "--what", "report", "--format", "pdf", "-o", "-"}, "-o - is for text"},
        {{"export", "llama-3-8b", "--what", "summary", "--format", "csv", "--bogus", "-o", out}, "unknown option"},
    };
    for (const Case& c : cases) {
        const CliResult r = runCli(c.args);
        EXPECT_EQ(r.exitCode, 2) << c.message << "\n" << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(out)) << c.message;
    }
}

TEST(CliExportErrors, InvalidConfigAndUnwritablePathsExitOneNamingTheFile) {
    const fs::path dir = scratchDirectory("unwritable");
    const fs::path bad = dir / "bad.json";
    std::ofstream(bad) << R"({"model_type": "llama", "num_key_value_heads": 5})";
    CliResult r = runCli({"export", bad.string(), "--what", "summary", "-o", (dir / "s.csv").string()});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find(bad.string()), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("num_key_value_heads"), std::string::npos) << r.err;

    const fs::path missing = dir / "no-such-dir" / "s.csv";
    r = runCli({"export", "llama-3-8b", "--what", "summary", "-o", missing.string()});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find(missing.string()), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("does not exist"), std::string::npos) << r.err;

    r = runCli({"export", "llama-3-8b", "--what", "summary", "-o", dir.string() + "/"});
    EXPECT_NE(r.exitCode, 0);
    r = runCli({"export", "llama-3-8b", "--what", "summary", "--format", "csv", "-o", dir.string()});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.err.find("directory"), std::string::npos) << r.err;
}

TEST(CliExportErrors, AFailedExportLeavesTheExistingFileIntact) {
    const fs::path dir = scratchDirectory("intact");
    const fs::path file = dir / "figure.png";
    std::ofstream(file) << "precious";
    EXPECT_EQ(runCli({"export", "llama-3-8b", "--what", "moe-routing", "-o", file.string()}).exitCode, 2);
    EXPECT_EQ(runCli({"export", "no-such-preset", "--what", "layer-stack", "-o", file.string()}).exitCode, 1);
    EXPECT_EQ(readFile(file), "precious");

    // A directory that refuses new files: the temporary file cannot be made, the target is untouched
    // (root ignores permissions, so only an ordinary user can see this).
    const fs::path locked = dir / "locked";
    fs::create_directories(locked);
    std::ofstream(locked / "s.csv") << "old";
    fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
    const CliResult r = runCli({"export", "llama-3-8b", "--what", "summary", "-o", (locked / "s.csv").string()});
    fs::permissions(locked, fs::perms::owner_all);
    if (::geteuid() != 0) {
        EXPECT_EQ(r.exitCode, 1);
        EXPECT_NE(r.err.find("s.csv"), std::string::npos) << r.err;
        EXPECT_EQ(readFile(locked / "s.csv"), "old");
    } else {
        EXPECT_EQ(r.exitCode, 0) << r.err;
    }
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(locked)) {
        names.insert(entry.path().filename().string());
    }
    EXPECT_EQ(names, std::set<std::string>{"s.csv"}) << "no temporary file left behind";
}

#ifdef ARCHPLAY_CLI_GRAPHICS

bool havePoppler() {
    return capture("command -v pdftotext && command -v pdfinfo").has_value();
}

int pdfPages(const fs::path& pdf) {
    const auto info = capture("pdfinfo '" + pdf.string() + "'");
    std::smatch match;
    if (info && std::regex_search(*info, match, std::regex(R"(Pages:\s+(\d+))"))) {
        return std::stoi(match[1]);
    }
    return -1;
}

std::string pdfText(const fs::path& pdf) {
    return capture("pdftotext -layout '" + pdf.string() + "' -").value_or("");
}

/// Distinct colours on a sparse grid: a blank render has one or two.
int colourVariety(const QImage& image) {
    std::set<QRgb> seen;
    for (int y = 0; y < image.height(); y += 5) {
        for (int x = 0; x < image.width(); x += 5) {
            seen.insert(image.pixel(x, y));
        }
    }
    return static_cast<int>(seen.size());
}

/// The text of every <text> element (and its <tspan>s) of an SVG; fails the test on malformed XML.
std::string svgText(const fs::path& path, int* elements) {
    QFile file(QString::fromStdString(path.string()));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << path;
    QXmlStreamReader xml(&file);
    std::string text;
    *elements = 0;
    while (!xml.atEnd()) {
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text")) {
            ++*elements;
            text += xml.readElementText(QXmlStreamReader::IncludeChildElements).toStdString() + "\n";
        }
    }
    EXPECT_FALSE(xml.hasError()) << path << ": " << xml.errorString().toStdString();
    return text;
}

TEST(CliExportImages, PngDecodesAtTheRequestedSizeAndScale) {
    const fs::path dir = scratchDirectory("png");
    for (const char* what : {"breakdown", "layer-stack", "layer", "attention-mask", "kv-cache", "derivation"}) {
        const fs::path file = dir / (std::string(what) + ".png");
        const CliResult r = runCli({"export", "llama-3-8b", "--what", what, "-o", file.string(), "--size", "640x400"});
        ASSERT_EQ(r.exitCode, 0) << what << ": " << r.err;
        const QImage image(QString::fromStdString(file.string()));
        ASSERT_FALSE(image.isNull()) << what;
        EXPECT_EQ(image.size(), QSize(640, 400)) << what;
        EXPECT_GT(colourVariety(image), 4) << what << " looks blank";
    }
    const fs::path slide = dir / "routing@3x.png";
    const CliResult r = runCli({"export", "qwen3-30b-a3b", "--what", "moe-routing", "--format", "png", "--size",
                                "800x500", "--scale", "3", "--theme", "dark", "-o", slide.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const QImage image(QString::fromStdString(slide.string()));
    EXPECT_EQ(image.size(), QSize(2400, 1500));
    EXPECT_LT(qGray(image.pixel(4, 4)), 80) << "dark theme background";
    EXPECT_GT(colourVariety(image), 4);
}

TEST(CliExportImages, SvgIsXmlWithRealText) {
    const fs::path dir = scratchDirectory("svg");
    for (const char* what : {"breakdown", "layer-stack", "layer", "attention-mask", "kv-cache", "derivation"}) {
        const fs::path file = dir / (std::string(what) + ".svg");
        const CliResult r = runCli({"export", "llama-3-8b", "--what", what, "-o", file.string()});
        ASSERT_EQ(r.exitCode, 0) << what << ": " << r.err;
        int elements = 0;
        const std::string text = svgText(file, &elements);
        EXPECT_GT(elements, 5) << what;
        if (std::string(what) == "breakdown") {
            EXPECT_NE(text.find("8,030,261,248"), std::string::npos) << text;
        }
    }
}

TEST(CliExportImages, PdfFiguresAreOnePageWithExtractableText) {
    ASSERT_TRUE(havePoppler()) << "pdftotext and pdfinfo are missing: scripts/dev test installs poppler-utils";
    const fs::path dir = scratchDirectory("pdf");
    for (const char* what : {"breakdown", "layer-stack", "layer", "attention-mask", "kv-cache", "moe-routing"}) {
        const fs::path file = dir / (std::string(what) + ".pdf");
        const CliResult r = runCli({"export", "mixtral-8x7b-v0.1", "--what", what, "-o", file.string()});
        ASSERT_EQ(r.exitCode, 0) << what << ": " << r.err;
        EXPECT_EQ(readFile(file).rfind("%PDF-", 0), 0u) << what;
        EXPECT_EQ(pdfPages(file), 1) << what;
        EXPECT_FALSE(pdfText(file).empty()) << what;
    }
    EXPECT_NE(pdfText(dir / "breakdown.pdf").find("46.7B"), std::string::npos);
    const fs::path dense = dir / "deepseek-layer-0.pdf";
    ASSERT_EQ(runCli({"export", "deepseek-v3", "--what", "layer", "--layer", "0", "-o", dense.string()}).exitCode, 0);
    EXPECT_NE(pdfText(dense).find("layer 0 of 0–60"), std::string::npos) << pdfText(dense).substr(0, 300);
    EXPECT_NE(pdfText(dir / "kv-cache.pdf").find("512 MiB"), std::string::npos);
}

TEST(CliExportReport, PdfReportsHaveNumberedPagesAndTheTotal) {
    ASSERT_TRUE(havePoppler()) << "pdftotext and pdfinfo are missing: scripts/dev test installs poppler-utils";
    const fs::path dir = scratchDirectory("report");
    struct Case {
        std::string preset, total, paper;
    };
    for (const Case& c : {Case{"llama-3-8b", "8,030,261,248", "a4"}, Case{"deepseek-v3", "671,026,404,352", "letter"},
                          Case{"t5-small", "60,506,624", "a4"}}) {
        const fs::path file = dir / (c.preset + ".pdf");
        const CliResult r = runCli({"export", c.preset, "--what", "report", "-o", file.string(), "--paper", c.paper});
        ASSERT_EQ(r.exitCode, 0) << c.preset << ": " << r.err;
        EXPECT_EQ(readFile(file).rfind("%PDF-", 0), 0u);
        const int pages = pdfPages(file);
        EXPECT_GE(pages, 5) << c.preset;
        const std::string text = pdfText(file);
        EXPECT_NE(text.find(c.total), std::string::npos) << c.preset;
        EXPECT_NE(text.find("Page 1 of " + std::to_string(pages)), std::string::npos) << c.preset;
        EXPECT_NE(text.find("Page " + std::to_string(pages) + " of " + std::to_string(pages)), std::string::npos);
        for (const char* section : {"Configuration", "Summary", "Parameter breakdown", "Layer stack", "Diagnostics",
                                    "Forward pass", "Counting convention"}) {
            EXPECT_NE(text.find(section), std::string::npos) << c.preset << " lacks " << section;
        }
        const auto info = capture("pdfinfo '" + file.string() + "'").value_or("");
        EXPECT_NE(info.find(c.paper == "a4" ? "595 x 842" : "612 x 792"), std::string::npos) << info;
    }
    EXPECT_NE(pdfText(dir / "deepseek-v3.pdf").find("MoE routing"), std::string::npos);
    EXPECT_EQ(pdfText(dir / "llama-3-8b.pdf").find("MoE routing"), std::string::npos);

    const fs::path derivation = dir / "derivation.pdf";
    ASSERT_EQ(runCli({"export", "gemma-3-1b", "--what", "derivation", "-o", derivation.string()}).exitCode, 0);
    EXPECT_GE(pdfPages(derivation), 2);
    EXPECT_NE(pdfText(derivation).find("sliding"), std::string::npos);
}

TEST(CliExportReport, MarkdownReportWritesItsFiguresBesideIt) {
    const fs::path dir = scratchDirectory("markdown");
    const fs::path file = dir / "mixtral report.md";
    const CliResult r = runCli({"export", "mixtral-8x7b-v0.1", "--what", "report", "-o", file.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string md = readFile(file);
    EXPECT_NE(md.find("46,702,792,704"), std::string::npos);
    const std::regex link(R"(!\[[^\]]*\]\(([^)]+)\))");
    int links = 0;
    for (auto it = std::sregex_iterator(md.begin(), md.end(), link); it != std::sregex_iterator(); ++it) {
        std::string target = (*it)[1];
        for (std::size_t at = target.find("%20"); at != std::string::npos; at = target.find("%20")) {
            target.replace(at, 3, " ");
        }
        const QImage image(QString::fromStdString((dir / target).string()));
        EXPECT_FALSE(image.isNull()) << target;
        EXPECT_EQ(image.width(), 2560) << target << " is drawn at 2x";
        ++links;
    }
    EXPECT_EQ(links, 9) << "breakdown, stack, layer, masks, KV cache, compute, memory, speed, routing";
    EXPECT_TRUE(fs::is_directory(dir / "mixtral report_figures"));
}

TEST(CliExportReport, WithTheZooTheReportPlacesTheDesignAmongThePresets) {
    ASSERT_TRUE(havePoppler()) << "pdftotext and pdfinfo are missing: scripts/dev test installs poppler-utils";
    const fs::path dir = scratchDirectory("zoo-report");
    const fs::path pdf = dir / "report.pdf";
    ASSERT_EQ(runCli({"export", "qwen3-8b", "--what", "report", "--zoo", "-o", pdf.string()}).exitCode, 0);
    const std::string text = pdfText(pdf);
    const std::size_t section = text.find("Among published models");
    ASSERT_NE(section, std::string::npos);
    for (const char* title : {"Depth against width", "FFN ratio against hidden size", "head_dim across sizes",
                              "GQA group", "Vocabulary across time", "Layers estimated from the parameters"}) {
        EXPECT_NE(text.find(title, section), std::string::npos) << title;
    }
    EXPECT_NE(text.find("Granite 3.1", section), std::string::npos); // a neighbour by parameters
    const fs::path plain = dir / "plain.pdf";
    ASSERT_EQ(runCli({"export", "qwen3-8b", "--what", "report", "-o", plain.string()}).exitCode, 0);
    EXPECT_EQ(pdfText(plain).find("Among published models"), std::string::npos);
    EXPECT_GT(pdfPages(pdf), pdfPages(plain));

    const fs::path md = dir / "report.md";
    ASSERT_EQ(runCli({"export", "qwen3-8b", "--what", "report", "--zoo", "-o", md.string()}).exitCode, 0);
    const std::string markdown = readFile(md);
    for (const char* plot : {"depth-width", "ffn-ratio", "head-dim", "gqa-group", "vocabulary", "layer-estimate"}) {
        const std::string name = std::string("zoo-") + plot + ".png";
        EXPECT_NE(markdown.find("(report_figures/" + name + ")"), std::string::npos) << name;
        const QImage image(QString::fromStdString((dir / "report_figures" / name).string()));
        EXPECT_EQ(image.width(), 2560) << name;
    }
    // --zoo is the report's: any other export refuses it.
    const CliResult refused =
        runCli({"export", "qwen3-8b", "--what", "breakdown", "--zoo", "-o", (dir / "b.csv").string()});
    EXPECT_EQ(refused.exitCode, 2);
    EXPECT_NE(refused.err.find("--zoo applies to the report"), std::string::npos) << refused.err;
}

#endif // ARCHPLAY_CLI_GRAPHICS

} // namespace
} // namespace archplay::test
