// SPDX-License-Identifier: GPL-3.0-or-later
// Exports fit for slides and papers (issue 12, defect 12), the drawn side: every figure carries the
// model and scenario, text grows with the figure's size (measured in pixels), and the PDF report is
// titled with the model, has no on-screen instructions, cuts no table cell and leaves no page
// half empty.
#include "core/report/ReportText.h"
#include "core/report/Tables.h"
#include "core/util/Format.h"
#include "tests/support/TestSupport.h"
#include "ui/Strings.h"
#include "ui/export/OffscreenViews.h"
#include "ui/export/ReportBuilder.h"
#include "ui/export/ReportLayout.h"
#include "ui/export/ViewExporter.h"
#include "ui/theme/Theme.h"
#include "ui/views/AnalysisView.h"
#include "ui/views/BreakdownTableView.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFontMetricsF>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <gtest/gtest.h>

namespace archplay::test {
namespace {

using ui::exports::FigureOptions;

const char* const kExportedPresets[] = {"llama-3-8b", "deepseek-v3", "bert-base-uncased", "flan-t5-base"};

/// Writes `bytes` to a temporary file and runs a poppler tool on it; empty when it is missing.
QString poppler(const QString& tool, const QByteArray& pdf, const QStringList& arguments, QTemporaryDir& dir) {
    if (QStandardPaths::findExecutable(tool).isEmpty()) {
        ADD_FAILURE() << tool.toStdString() << " is missing: scripts/dev test installs poppler-utils";
        return {};
    }
    const QString path = dir.filePath(QStringLiteral("file.pdf"));
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write(pdf);
    file.close();
    QProcess process;
    const bool toStdout = tool == QLatin1String("pdftotext");
    process.start(tool,
                  toStdout ? QStringList(arguments) << path << QStringLiteral("-") : QStringList(arguments) << path);
    process.waitForFinished(60000);
    return QString::fromUtf8(process.readAllStandardOutput());
}

/// Text with every kind of white space removed, so that a cell wrapped over two lines still matches.
QString squeezed(QString text) {
    text.remove(QRegularExpression(QStringLiteral("\\s+")));
    return text;
}

/// The rows of `image` inside `area` that hold ink (pixels much darker than the background).
std::pair<int, int> inkRows(const QImage& image, const QRect& area) {
    int first = -1;
    int last = -1;
    for (int y = std::max(0, area.top()); y <= std::min(image.height() - 1, area.bottom()); ++y) {
        for (int x = std::max(0, area.left()); x <= std::min(image.width() - 1, area.right()); ++x) {
            if (qGray(image.pixel(x, y)) < 110) {
                first = first < 0 ? y : first;
                last = y;
                break;
            }
        }
    }
    return {first, last};
}

TEST(FigureExport, TextGrowsWithTheFigureSoASlideReadsWhenProjected) {
    const core::Analysis analysis = analyzePreset("llama-3-8b");
    const ui::exports::OffscreenViews views(analysis, ui::theme::themePalette(ui::theme::ThemeMode::Light), {});
    const QString caption = ui::qs(core::figureCaption(analysis, presetReportInfo("llama-3-8b")));
    const FigureOptions slide{{1920, 1080}, 1.0, core::ReadOnlyTarget::Refuse, caption};
    const FigureOptions reference{{1024, 640}, 1.0, core::ReadOnlyTarget::Refuse, caption};
    const ui::exports::FigureGeometry big = ui::exports::figureGeometry(slide, QApplication::font());
    EXPECT_GE(big.textScale, 1.6);
    EXPECT_NEAR(big.layout.width() * big.textScale, 1920, 0.5);
    // The view's text, drawn at the figure's scale, is at least 20 pixels tall on a 1080-line slide.
    EXPECT_GE(QFontMetricsF(QApplication::font()).height() * big.textScale, 20.0);

    // Measured: the caption's ink on a slide is over 1.5 times as tall as at the reference size.
    for (const core::ViewKind kind : {core::ViewKind::LayerStack, core::ViewKind::KvCache}) {
        const ui::views::AnalysisView* view = views.view(kind, ui::exports::viewSizeIn(slide, QApplication::font()));
        ASSERT_NE(view, nullptr);
        const QImage large = ui::exports::renderImage(*view, slide);
        const QImage small = ui::exports::renderImage(*view, reference);
        ASSERT_EQ(large.size(), QSize(1920, 1080));
        const ui::exports::FigureGeometry smallGeometry = ui::exports::figureGeometry(reference, QApplication::font());
        auto captionArea = [](const ui::exports::FigureGeometry& geometry) {
            const QRectF area = geometry.caption;
            return QRectF(area.topLeft() * geometry.textScale, area.size() * geometry.textScale).toAlignedRect();
        };
        const auto [largeTop, largeBottom] = inkRows(large, captionArea(big));
        const auto [smallTop, smallBottom] = inkRows(small, captionArea(smallGeometry));
        ASSERT_GE(largeTop, 0) << "the caption is drawn on the slide";
        ASSERT_GE(smallTop, 0);
        const int largeInk = largeBottom - largeTop + 1;
        const int smallInk = smallBottom - smallTop + 1;
        EXPECT_GE(largeInk, 16) << "caption text height on a 1920x1080 slide";
        // 1.69 times the size; glyph hinting rounds heights to whole pixels.
        EXPECT_GE(double(largeInk), 1.4 * smallInk);
    }
}

TEST(FigureExport, EveryFigureCarriesTheModelAndTheScenario) {
    for (const char* id : kExportedPresets) {
        const core::Analysis analysis = analyzePreset(id);
        const core::ReportInfo info = presetReportInfo(id);
        const ui::exports::OffscreenViews views(analysis, ui::theme::themePalette(ui::theme::ThemeMode::Light), {});
        const FigureOptions options{
            {1280, 800}, 1.0, core::ReadOnlyTarget::Refuse, ui::qs(core::figureCaption(analysis, info))};
        for (const core::ViewKind kind :
             {core::ViewKind::ParameterChart, core::ViewKind::LayerStack, core::ViewKind::KvCache}) {
            if (!core::inapplicableReason(kind, analysis).empty()) {
                continue;
            }
            const ui::views::AnalysisView* view =
                views.view(kind, ui::exports::viewSizeIn(options, QApplication::font()));
            ASSERT_NE(view, nullptr);
            QString error;
            const QByteArray svg = ui::exports::figureBytes(*view, core::ExportFormat::Svg, options, &error);
            ASSERT_FALSE(svg.isEmpty()) << error.toStdString();
            QXmlStreamReader xml(svg);
            QString text;
            while (!xml.atEnd()) {
                if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text")) {
                    text += xml.readElementText(QXmlStreamReader::IncludeChildElements) + QLatin1Char('\n');
                }
            }
            EXPECT_TRUE(text.contains(ui::qs(info.title))) << id << " " << core::toString(kind);
            EXPECT_TRUE(text.contains(ui::qs(core::withThousands(analysis.scenario.sequenceLength)) +
                                      QStringLiteral(" tokens")))
                << id << " " << core::toString(kind);
            EXPECT_FALSE(text.contains(QStringLiteral("hover"), Qt::CaseInsensitive)) << id;
            EXPECT_FALSE(text.contains(QStringLiteral("Click a layer"))) << id;

            QTemporaryDir dir;
            const QByteArray pdf = ui::exports::figureBytes(*view, core::ExportFormat::Pdf, options, &error);
            const QString pdfText = poppler(QStringLiteral("pdftotext"), pdf, {}, dir);
            EXPECT_TRUE(squeezed(pdfText).contains(squeezed(ui::qs(info.title)))) << id << " " << core::toString(kind);
        }
    }
}

TEST(FigureExport, SvgScaleMultipliesItsSizeNotItsLayout) {
    const core::Analysis analysis = analyzePreset("llama-3-8b");
    const ui::exports::OffscreenViews views(analysis, ui::theme::themePalette(ui::theme::ThemeMode::Light), {});
    const FigureOptions options{{800, 500}, 2.0, core::ReadOnlyTarget::Refuse, QStringLiteral("caption")};
    const ui::views::AnalysisView* view = views.view(core::ViewKind::LayerStack, {800, 460});
    QString error;
    const QByteArray svg = ui::exports::figureBytes(*view, core::ExportFormat::Svg, options, &error);
    // Width and height are the size times the scale (in millimetres at exportDpi()); the drawing keeps
    // its layout, so it scales as a whole.
    const auto width = QRegularExpression(QStringLiteral("width=\"([0-9.]+)mm\"")).match(QString::fromUtf8(svg));
    ASSERT_TRUE(width.hasMatch()) << svg.left(400).toStdString();
    EXPECT_NEAR(width.captured(1).toDouble(), 1600 * 25.4 / ui::exports::exportDpi(), 0.5);
    EXPECT_TRUE(svg.contains("viewBox=\"0 0 800 500\"")) << svg.left(400).toStdString();
}

TEST(ReportPdf, TitledWithTheModelWithoutInstructionsAndWithEveryTableCell) {
    for (const char* id : kExportedPresets) {
        const core::Analysis analysis = analyzePreset(id);
        const core::ReportInfo info = presetReportInfo(id);
        const ui::exports::PdfResult result =
            ui::exports::reportPdf(analysis, info, {QPageSize::A4, ui::theme::ThemeMode::Light, {}});
        ASSERT_FALSE(result.pdf.isEmpty()) << result.error.toStdString();
        QTemporaryDir dir;
        const QString text = poppler(QStringLiteral("pdftotext"), result.pdf, {}, dir);
        ASSERT_FALSE(text.isEmpty());
        // The title: the first line of the first page after the small kicker line is the model's name.
        QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        ASSERT_GE(lines.size(), 3);
        EXPECT_EQ(lines[1].trimmed(), ui::qs(info.title)) << id;
        const QString info2 = poppler(QStringLiteral("pdfinfo"), result.pdf, {}, dir);
        EXPECT_TRUE(info2.contains(QStringLiteral("Title:")) && info2.contains(ui::qs(info.title))) << id;
        for (const char* instruction : {"hover", "click", "double-click", "drag"}) {
            EXPECT_FALSE(text.contains(QLatin1String(instruction), Qt::CaseInsensitive))
                << id << ": the report tells the reader to " << instruction;
        }
        // Every table cell, whole: a cut cell would lose characters.
        const QString all = squeezed(text);
        QStringList cells;
        for (const core::ConfigRow& row : core::configRows(analysis.config)) {
            cells << ui::qs(row.label) << ui::qs(row.value);
        }
        for (const core::SummaryRow& row : core::summaryRows(analysis, core::summaryContext(info))) {
            cells << ui::qs(row.label) << ui::qs(row.value) << ui::qs(row.exact);
        }
        for (const ui::views::BreakdownRow& row : ui::views::breakdownRows(analysis.params)) {
            cells << row.name << ui::qs(core::withThousands(row.params)) << row.shape;
        }
        for (const core::KvRow& row : core::kvRows(analysis)) {
            cells << ui::qs(row.layers) << ui::qs(row.kind) << ui::qs(core::binaryBytes(row.bytes));
        }
        for (const QString& cell : cells) {
            EXPECT_TRUE(all.contains(squeezed(cell))) << id << ": the cell '" << cell.toStdString() << "' is cut";
        }
    }
}

/// How far down its content area each page of a PDF is filled, from 0 to 1, measured on its pixels.
std::vector<double> pageFill(const QByteArray& pdf, QTemporaryDir& dir) {
    std::vector<double> fills;
    if (QStandardPaths::findExecutable(QStringLiteral("pdftoppm")).isEmpty()) {
        ADD_FAILURE() << "pdftoppm is missing";
        return fills;
    }
    const QString path = dir.filePath(QStringLiteral("report.pdf"));
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write(pdf);
    file.close();
    QProcess process;
    process.start(QStringLiteral("pdftoppm"), {QStringLiteral("-r"), QStringLiteral("20"), QStringLiteral("-png"), path,
                                               dir.filePath(QStringLiteral("page"))});
    process.waitForFinished(120000);
    const QStringList pages = QDir(dir.path()).entryList({QStringLiteral("page*.png")}, QDir::Files, QDir::Name);
    for (const QString& name : pages) {
        const QImage page(dir.filePath(name));
        // The content area: 16 mm from the top to 18 mm from the bottom of 297 mm (A4).
        const int top = page.height() * 16 / 297;
        const int bottom = page.height() * (297 - 18) / 297;
        int last = top;
        for (int y = top; y < bottom; ++y) {
            for (int x = 0; x < page.width(); ++x) {
                if (qGray(page.pixel(x, y)) < 235) {
                    last = y;
                    break;
                }
            }
        }
        fills.push_back(double(last - top) / double(bottom - top));
    }
    return fills;
}

TEST(ReportPdf, NoPageIsLeftHalfEmptyBeforeTheLast) {
    for (const char* id : kExportedPresets) {
        const core::Analysis analysis = analyzePreset(id);
        const ui::exports::PdfResult result =
            ui::exports::reportPdf(analysis, presetReportInfo(id), {QPageSize::A4, ui::theme::ThemeMode::Light, {}});
        ASSERT_FALSE(result.pdf.isEmpty());
        QTemporaryDir dir;
        const std::vector<double> fills = pageFill(result.pdf, dir);
        ASSERT_EQ(static_cast<int>(fills.size()), result.pages) << id;
        // The derivation starts on a page of its own: the page before it, and the last page, may end early.
        int halfEmpty = 0;
        std::string which;
        for (std::size_t page = 0; page + 1 < fills.size(); ++page) {
            if (fills[page] < 0.5) {
                ++halfEmpty;
                which += " " + std::to_string(page + 1);
            }
        }
        EXPECT_LE(halfEmpty, 1) << id << ": pages less than half full:" << which;
    }
}

TEST(ReportLayout, AFigureShrinksToFinishAPageRatherThanLeaveItEmpty) {
    using ui::exports::FlowItem;
    std::vector<FlowItem> items(3);
    items[0].height = 500;                 // a table
    items[1] = {40, 20, true, false, 0};   // a heading, kept with the figure
    items[2] = {400, 10, false, false, 0}; // a figure that may shrink to 300
    items[2].minHeight = 300;
    const auto placed = ui::exports::paginate(items, 900);
    EXPECT_EQ(placed[1].page, 0);
    EXPECT_EQ(placed[2].page, 0) << "the figure stays with the text above it";
    EXPECT_LE(placed[2].top + placed[2].height, 900.0);
    EXPECT_GE(placed[2].height, 300.0);
    // Not even at its least height: heading and figure move on together.
    items[0].height = 700;
    const auto moved = ui::exports::paginate(items, 900);
    EXPECT_EQ(moved[1].page, 1);
    EXPECT_EQ(moved[2].page, 1);
    EXPECT_DOUBLE_EQ(moved[2].height, 400.0);
}

} // namespace
} // namespace archplay::test
