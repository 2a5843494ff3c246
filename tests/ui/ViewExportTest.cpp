// SPDX-License-Identifier: GPL-3.0-or-later
// The exporters: every view as PNG, SVG and PDF through render(), atomic writes, the report's
// pagination (a pure layout function), the PDF report and the Markdown report.
#include "core/io/Presets.h"
#include "core/util/Format.h"
#include "tests/support/StatusAssert.h"
#include "tests/support/TestSupport.h"
#include "ui/export/MarkdownReport.h"
#include "ui/export/OffscreenViews.h"
#include "ui/export/ReportBuilder.h"
#include "ui/export/ReportComposer.h"
#include "ui/export/ReportLayout.h"
#include "ui/export/ViewExporter.h"
#include "ui/session/AtomicWrite.h"
#include "ui/theme/Theme.h"
#include "ui/views/AnalysisView.h"
#include "ui/views/Views.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QWidget>
#include <QXmlStreamReader>

#include <gtest/gtest.h>

namespace archplay::ui::exports {
namespace {

core::ReportInfo infoFor(const char* id) {
    core::ReportInfo info;
    info.title = core::findPreset(id)->info.name;
    info.origin = std::string("preset ") + id;
    info.date = "2025-01-31";
    info.preset = core::findPreset(id)->info;
    return info;
}

int exportColourVariety(const QImage& image) {
    QSet<QRgb> seen;
    for (int y = 0; y < image.height(); y += 5) {
        for (int x = 0; x < image.width(); x += 5) {
            seen.insert(image.pixel(x, y));
        }
    }
    return static_cast<int>(seen.size());
}

int svgTextElements(const QByteArray& svg, QString* error) {
    QXmlStreamReader xml(svg);
    int texts = 0;
    while (!xml.atEnd()) {
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text")) {
            ++texts;
        }
    }
    *error = xml.hasError() ? xml.errorString() : QString();
    return texts;
}

/// pdftotext's text of a PDF held in memory; empty when poppler-utils is missing.
QString pdfText(const QByteArray& pdf, int* pages = nullptr) {
    if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty()) {
        return {};
    }
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("file.pdf"));
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write(pdf);
    file.close();
    QProcess text;
    text.start(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), path, QStringLiteral("-")});
    text.waitForFinished();
    if (pages) {
        QProcess info;
        info.start(QStringLiteral("pdfinfo"), {path});
        info.waitForFinished();
        const auto match =
            QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)")).match(QString::fromUtf8(info.readAll()));
        *pages = match.hasMatch() ? match.captured(1).toInt() : -1;
    }
    return QString::fromUtf8(text.readAllStandardOutput());
}

/// pdftotext and pdfinfo belong to the test setup (scripts/dev installs poppler-utils): when they are
/// missing the calling test fails, it does not pass without its checks.
bool havePoppler() {
    const bool found = !QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty() &&
                       !QStandardPaths::findExecutable(QStringLiteral("pdfinfo")).isEmpty();
    if (!found) {
        ADD_FAILURE() << "pdftotext or pdfinfo is missing: scripts/dev test installs poppler-utils";
    }
    return found;
}

TEST(ViewExport, EveryViewIsAValidPngSvgAndPdf) {
    for (const char* id : {"llama-3-8b", "deepseek-v3", "t5-small"}) {
        const core::Analysis analysis = test::analyzePreset(id);
        const archplay::ui::exports::OffscreenViews views(
            analysis, archplay::ui::theme::themePalette(archplay::ui::theme::ThemeMode::Light), std::nullopt);
        QWidget host;
        for (archplay::ui::views::AnalysisView* view : archplay::ui::views::createViews(&host).views) {
            view->setAnalysis(analysis);
            const std::string name = std::string(id) + " " + view->name().toStdString();
            QString error;
            const QByteArray png =
                archplay::ui::exports::figureBytes(*view, core::ExportFormat::Png, {{700, 450}, 2.0}, &error);
            ASSERT_FALSE(png.isEmpty()) << name << ": " << error.toStdString();
            const QImage image = QImage::fromData(png, "PNG");
            EXPECT_EQ(image.size(), QSize(1400, 900)) << name;
            EXPECT_GT(exportColourVariety(image), 4) << name << " is blank";

            const QByteArray svg =
                archplay::ui::exports::figureBytes(*view, core::ExportFormat::Svg, {{900, 600}, 1.0}, &error);
            QString xmlError;
            EXPECT_GT(svgTextElements(svg, &xmlError), 3) << name;
            EXPECT_TRUE(xmlError.isEmpty()) << name << ": " << xmlError.toStdString();
            EXPECT_TRUE(svg.contains("viewBox=\"0 0 900 600\"")) << name;

            const QByteArray pdf =
                archplay::ui::exports::figureBytes(*view, core::ExportFormat::Pdf, {{900, 600}, 1.0}, &error);
            EXPECT_TRUE(pdf.startsWith("%PDF-")) << name;
            if (havePoppler()) {
                int pages = 0;
                EXPECT_FALSE(pdfText(pdf, &pages).trimmed().isEmpty()) << name << " has no text";
                EXPECT_EQ(pages, 1) << name;
            }
        }
    }
}

TEST(ViewExport, TheChartCarriesTheExactTotalInEveryFormat) {
    const core::Analysis analysis = test::analyzePreset("llama-3-8b");
    const archplay::ui::exports::OffscreenViews views(
        analysis, archplay::ui::theme::themePalette(archplay::ui::theme::ThemeMode::Light), std::nullopt);
    archplay::ui::views::AnalysisView* chart = views.view(archplay::core::ViewKind::ParameterChart, QSize(1000, 640));
    ASSERT_NE(chart, nullptr);
    QString error;
    EXPECT_TRUE(archplay::ui::exports::figureBytes(*chart, core::ExportFormat::Svg, {{1000, 640}, 1}, &error)
                    .contains("8,030,261,248"));
    const QByteArray pdf =
        archplay::ui::exports::figureBytes(*chart, core::ExportFormat::Pdf, {{1000, 640}, 1}, &error);
    if (havePoppler()) {
        EXPECT_TRUE(pdfText(pdf).contains(QStringLiteral("8,030,261,248")));
    }
    const QImage image =
        QImage::fromData(archplay::ui::exports::figureBytes(*chart, core::ExportFormat::Png, {{500, 320}, 3}, &error));
    EXPECT_EQ(image.size(), QSize(1500, 960));
    EXPECT_NEAR(image.dotsPerMeterX() * 0.0254, archplay::ui::exports::exportDpi() * 3, 1)
        << "the PNG says how large it is meant to print";
}

TEST(ViewExport, WritesAreAtomicAndSayWhy) {
    QTemporaryDir dir;
    const QString existing = dir.filePath(QStringLiteral("figure.png"));
    QFile file(existing);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("precious");
    file.close();
    const core::Analysis analysis = test::analyzePreset("llama-3-8b");
    const archplay::ui::exports::OffscreenViews views(
        analysis, archplay::ui::theme::themePalette(archplay::ui::theme::ThemeMode::Light), std::nullopt);
    const archplay::ui::views::AnalysisView* view = views.view(archplay::core::ViewKind::LayerStack, QSize(800, 500));

    // A figure that cannot be drawn is never written, and the old file stays.
    EXPECT_FALSE(archplay::ui::exports::exportFigure(*view, core::ExportFormat::Png, {{0, 500}, 1}, existing).ok());
    EXPECT_FALSE(archplay::ui::exports::exportFigure(*view, core::ExportFormat::Csv, {{800, 500}, 1}, existing).ok());
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_EQ(file.readAll(), QByteArray("precious"));
    file.close();

    const QString missing = dir.filePath(QStringLiteral("nowhere/figure.svg"));
    const std::string reason =
        archplay::ui::exports::exportFigure(*view, core::ExportFormat::Svg, {{800, 500}, 1}, missing).error();
    EXPECT_NE(reason.find("does not exist"), std::string::npos) << reason;
    EXPECT_NE(reason.find(dir.filePath(QStringLiteral("nowhere")).toStdString()), std::string::npos) << reason;
    EXPECT_NE(archplay::ui::session::writeAtomically(dir.path(), "x").error().find("directory"), std::string::npos);

    EXPECT_TRUE(archplay::test::succeeded(
        archplay::ui::exports::exportFigure(*view, core::ExportFormat::Png, {{800, 500}, 1}, existing)));
    EXPECT_EQ(QImage(existing).size(), QSize(800, 500));
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("figure.png")})
        << "no temporary file left behind";
}

TEST(ViewExport, AScopedPaletteIsRestored) {
    QWidget widget;
    const QColor before = widget.palette().color(QPalette::Base);
    {
        const archplay::ui::exports::ScopedPalette dark(
            widget, archplay::ui::theme::themePalette(archplay::ui::theme::ThemeMode::Dark));
        EXPECT_EQ(widget.palette().color(QPalette::Base),
                  archplay::ui::theme::themePalette(archplay::ui::theme::ThemeMode::Dark).color(QPalette::Base));
    }
    EXPECT_EQ(widget.palette().color(QPalette::Base), before);
    EXPECT_FALSE(widget.testAttribute(Qt::WA_SetPalette));
}

TEST(ReportLayout, ItemsStayInsideThePageAndNeverOverlap) {
    std::vector<archplay::ui::exports::FlowItem> items;
    for (int i = 0; i < 200; ++i) {
        items.push_back({qreal(10 + (i * 37) % 90), qreal(i % 3 * 4), i % 11 == 0, false, 0});
    }
    const qreal page = 700;
    const std::vector<archplay::ui::exports::FlowPlacement> placed = paginate(items, page);
    ASSERT_EQ(placed.size(), items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
        EXPECT_GE(placed[i].top, 0);
        EXPECT_LE(placed[i].top + items[i].height, page) << i;
        if (i > 0 && placed[i].page == placed[i - 1].page) {
            EXPECT_GE(placed[i].top, placed[i - 1].top + items[i - 1].height) << i;
        }
        if (i > 0) {
            EXPECT_GE(placed[i].page, placed[i - 1].page);
        }
        if (items[i].keepWithNext && i + 1 < items.size()) {
            EXPECT_EQ(placed[i].page, placed[i + 1].page) << "item " << i << " is kept with the next";
        }
    }
    EXPECT_GT(pageCount(placed), 3);
}

TEST(ReportLayout, HeadingsMoveTablesRepeatHeadersTallItemsStandAlone) {
    // A heading near the foot moves to the next page with its paragraph.
    std::vector<archplay::ui::exports::FlowItem> items = {{650, 0}, {30, 10, true}, {40, 5}};
    auto placed = paginate(items, 700);
    EXPECT_EQ(placed[1].page, 1);
    EXPECT_EQ(placed[1].top, 0) << "space before is dropped at the top of a page";
    EXPECT_EQ(placed[2].page, 1);

    // Table rows carry the header's height; a row that starts a page is pushed below it.
    items = {{20, 0, true}};
    for (int i = 0; i < 50; ++i) {
        items.push_back({20, 0, false, false, 20});
    }
    placed = paginate(items, 300);
    int repeated = 0;
    for (std::size_t i = 1; i < items.size(); ++i) {
        if (placed[i].page != placed[i - 1].page) {
            EXPECT_TRUE(placed[i].headerRepeated) << i;
            EXPECT_EQ(placed[i].top, 20);
            ++repeated;
        }
        EXPECT_LE(placed[i].top + 20, 300);
    }
    EXPECT_EQ(repeated, pageCount(placed) - 1);

    // An item taller than a page gets a page to itself; a forced break starts a page.
    items = {{100, 0}, {900, 0}, {50, 0}, {50, 0, false, true}};
    placed = paginate(items, 700);
    EXPECT_EQ(placed[1].page, 1);
    EXPECT_EQ(placed[2].page, 2);
    EXPECT_EQ(placed[3].page, 3);
    EXPECT_EQ(pageCount({}), 1);
}

TEST(ReportBuilder, TheReportIsPagedWithEveryPartAndThePageNumbers) {
    for (const auto& [id, total] : {std::pair{"llama-3-8b", "8,030,261,248"}, std::pair{"qwen3-30b-a3b", ""}}) {
        const core::Analysis analysis = test::analyzePreset(id);
        for (QPageSize::PageSizeId paper : {QPageSize::A4, QPageSize::Letter}) {
            const archplay::ui::exports::PdfResult result = archplay::ui::exports::reportPdf(
                analysis, infoFor(id), {paper, archplay::ui::theme::ThemeMode::Light, std::nullopt});
            ASSERT_TRUE(result.error.isEmpty()) << result.error.toStdString();
            ASSERT_TRUE(result.pdf.startsWith("%PDF-"));
            EXPECT_GE(result.pages, 6) << id;
            if (!havePoppler()) {
                continue;
            }
            int pages = 0;
            const QString text = pdfText(result.pdf, &pages);
            EXPECT_EQ(pages, result.pages) << id;
            for (int page = 1; page <= pages; ++page) {
                EXPECT_TRUE(text.contains(QStringLiteral("Page %1 of %2").arg(page).arg(pages))) << id << " " << page;
            }
            const QString count = QString::fromStdString(core::withThousands(analysis.params.total));
            EXPECT_TRUE(text.contains(count)) << id;
            EXPECT_TRUE(QString::fromLatin1(total).isEmpty() || text.contains(QString::fromLatin1(total)));
            EXPECT_EQ(text.contains(QStringLiteral("MoE routing")), analysis.config.ffnKind == core::FfnKind::Moe);
            for (const char* part :
                 {"Configuration", "Summary", "Exact breakdown", "Layer stack", "Inside", "Attention masks", "KV cache",
                  "Diagnostics", "Forward pass", "Counting convention"}) {
                EXPECT_TRUE(text.contains(QLatin1String(part))) << id << " lacks " << part;
            }
        }
    }
}

TEST(ReportBuilder, EveryBlockFitsItsPage) {
    const core::Analysis analysis = test::analyzePreset("deepseek-v3");
    const archplay::ui::exports::OffscreenViews views(
        analysis, archplay::ui::theme::themePalette(archplay::ui::theme::ThemeMode::Light), std::nullopt);
    archplay::ui::exports::ReportComposer composer(
        QRectF(0, 0, 794, 1123), QRectF(68, 60, 658, 995),
        archplay::ui::theme::themePalette(archplay::ui::theme::ThemeMode::Light), QFont());
    composer.title(QStringLiteral("KICKER"), QStringLiteral("A title"), {QStringLiteral("a line")});
    composer.heading(QStringLiteral("Figures"));
    for (const char* id :
         {"param-chart", "layer-stack", "layer-weights", "attention-mask", "kv-cache", "moe-routing"}) {
        composer.figure(*views.view(*archplay::core::parseViewKind(id), QSize(860, 600)), QSizeF(860, 600),
                        QStringLiteral("A caption"));
    }
    composer.table(
        {{QStringLiteral("A"), 1}, {QStringLiteral("B"), 3, Qt::AlignLeft}},
        std::vector<archplay::ui::exports::TableRow>(
            120, archplay::ui::exports::TableRow{{QStringLiteral("x"), QStringLiteral("word ").repeated(60)}}));
    const std::vector<archplay::ui::exports::FlowItem> items = composer.items();
    const std::vector<archplay::ui::exports::FlowPlacement> placed = composer.layout();
    for (std::size_t i = 0; i < items.size(); ++i) {
        // A figure may be laid out shorter to finish a page, never shorter than its least height.
        EXPECT_LE(placed[i].top + placed[i].height, 995 + 0.01) << i;
        EXPECT_GE(placed[i].height, std::min(items[i].height, items[i].minHeight > 0 ? items[i].minHeight : 1e9) - 0.01)
            << i;
    }
    EXPECT_GT(composer.pageCount(), 4);
}

TEST(ReportBuilder, TheDerivationAloneIsPaged) {
    const archplay::ui::exports::PdfResult result =
        archplay::ui::exports::derivationPdf(test::analyzePreset("deepseek-v3"), infoFor("deepseek-v3"), {});
    ASSERT_TRUE(result.pdf.startsWith("%PDF-")) << result.error.toStdString();
    EXPECT_GE(result.pages, 3);
    if (havePoppler()) {
        const QString text = pdfText(result.pdf);
        EXPECT_TRUE(text.contains(QStringLiteral("Forward pass"))) << text.left(300).toStdString();
        EXPECT_FALSE(text.contains(QChar(0xFB01))) << "no ligatures in extracted text";
    }
    core::Analysis invalid = test::analyzePreset("llama-3-8b");
    invalid.valid = false;
    EXPECT_FALSE(archplay::ui::exports::reportPdf(invalid, infoFor("llama-3-8b"), {}).error.isEmpty());
}

TEST(MarkdownReport, FiguresAreWrittenBesideTheText) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("report.md"));
    QStringList written;
    ASSERT_TRUE(archplay::test::succeeded(
        archplay::ui::exports::exportMarkdownReport(test::analyzePreset("gemma-3-1b"), infoFor("gemma-3-1b"),
                                                    {archplay::ui::theme::ThemeMode::Light, 3, 1.0}, path, &written)));
    // 8 figures (dense: no routing) + the text
    EXPECT_EQ(written.size(), 9) << written.join(QLatin1Char(' ')).toStdString();
    EXPECT_EQ(written.last(), path);
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QString md = QString::fromUtf8(file.readAll());
    EXPECT_TRUE(md.contains(QStringLiteral("](report_figures/layer-stack.png)")));
    EXPECT_TRUE(md.contains(QStringLiteral("Inside Layer 3")));
    for (const QString& figure : written.mid(0, written.size() - 1)) {
        EXPECT_EQ(QImage(figure).size(), QSize(1280, 800)) << figure.toStdString();
    }
    EXPECT_EQ(archplay::ui::exports::markdownFiguresDir(QStringLiteral("/x/my report.md")),
              QStringLiteral("/x/my report_figures"));
}

TEST(MarkdownReport, ARefusedTargetLeavesItsFiguresAsTheyWere) {
    QTemporaryDir dir;
    const QString folder = dir.filePath(QStringLiteral("report_figures"));
    ASSERT_TRUE(QDir().mkpath(folder));
    const QString kept = QDir(folder).filePath(QStringLiteral("layer-stack.png"));
    {
        QFile file(kept);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("an earlier figure");
    }
    const MarkdownReportOptions options{archplay::ui::theme::ThemeMode::Light, 3, 1.0};
    // The report's name is a directory, then a read-only file: refused, and nothing beside it changes.
    ASSERT_TRUE(QDir().mkpath(dir.filePath(QStringLiteral("report.md"))));
    QStringList written;
    EXPECT_FALSE(exportMarkdownReport(test::analyzePreset("gemma-3-1b"), infoFor("gemma-3-1b"), options,
                                      dir.filePath(QStringLiteral("report.md")), &written)
                     .ok());
    const QString readOnly = dir.filePath(QStringLiteral("locked.md"));
    {
        QFile file(readOnly);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    }
    ASSERT_TRUE(QFile::setPermissions(readOnly, QFileDevice::ReadOwner));
    const QString lockedFolder = markdownFiguresDir(readOnly);
    EXPECT_FALSE(
        exportMarkdownReport(test::analyzePreset("gemma-3-1b"), infoFor("gemma-3-1b"), options, readOnly, &written)
            .ok());
    EXPECT_TRUE(written.isEmpty()) << written.join(QLatin1Char(' ')).toStdString();
    EXPECT_FALSE(QFileInfo::exists(lockedFolder)) << "no figures folder for a refused report";
    QFile file(kept);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_EQ(file.readAll(), QByteArray("an earlier figure"));
    // A figures "folder" that is a file refuses the report before its text is written.
    const QString blocked = dir.filePath(QStringLiteral("blocked.md"));
    {
        QFile plain(markdownFiguresDir(blocked));
        ASSERT_TRUE(plain.open(QIODevice::WriteOnly));
    }
    EXPECT_FALSE(
        exportMarkdownReport(test::analyzePreset("gemma-3-1b"), infoFor("gemma-3-1b"), options, blocked, &written)
            .ok());
    EXPECT_FALSE(QFileInfo::exists(blocked));
}

} // namespace
} // namespace archplay::ui::exports
