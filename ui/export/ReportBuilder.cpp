// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/export/ReportBuilder.h"

#include "core/derivation/Derivation.h"
#include "core/report/Costs.h"
#include "core/report/Tables.h"
#include "core/util/Format.h"
#include "ui/Strings.h"
#include "ui/export/OffscreenViews.h"
#include "ui/export/ReportComposer.h"
#include "ui/export/ViewExporter.h"
#include "ui/mathtext/MathTypesetter.h"
#include "ui/views/AnalysisView.h"
#include "ui/views/BreakdownTableView.h"
#include "ui/views/charts/ZooChart.h"
#include "ui/views/layout/DerivationDocument.h"

#include <QApplication>
#include <QBuffer>
#include <QLocale>
#include <QPdfWriter>
#include <qcustomplot.h>

namespace archplay::ui::exports {
namespace {

/// The size a figure is laid out at before it is scaled to the page's width: narrow enough that its
/// text stays legible once scaled (0.77 on A4 at 860 wide), wide enough for the view's layout. The
/// KV cache view puts a chart beside the device list and needs more room, as do the cost views
/// with their rows beside or under their charts.
QSizeF figureSize(core::ViewKind kind) {
    if (kind == core::ViewKind::KvCache || kind == core::ViewKind::Compute || kind == core::ViewKind::Memory ||
        kind == core::ViewKind::Speed) {
        return {1040, 700};
    }
    if (kind == core::ViewKind::ParameterChart || kind == core::ViewKind::AttentionMask) {
        return {860, 560};
    }
    return {860, 600};
}

struct PageGeometry {
    QRectF page;
    QRectF content;
};

/// The page and its content area in pixels at `dpi`: 18 mm side margins, 16 mm at the top, 18 mm at
/// the foot for the page numbers.
PageGeometry pageGeometry(QPageSize::PageSizeId paper, qreal dpi) {
    const QSizeF millimetres = QPageSize(paper).size(QPageSize::Millimeter);
    const qreal perMm = dpi / 25.4;
    const QRectF page(0, 0, millimetres.width() * perMm, millimetres.height() * perMm);
    return {page, page.adjusted(18 * perMm, 16 * perMm, -18 * perMm, -18 * perMm)};
}

QPalette reportPalette(theme::ThemeMode mode) {
    return mode == theme::ThemeMode::System ? QApplication::palette() : theme::themePalette(mode);
}

QStringList titleLines(const core::Analysis& analysis, const core::ReportInfo& info) {
    QStringList lines;
    QString origin = qs(info.origin);
    if (info.modified) {
        origin += QStringLiteral(" (modified)");
    }
    lines << QStringLiteral("%1 · %2").arg(origin, qs(info.date));
    lines << QStringLiteral("Scenario: %1").arg(qs(core::scenarioLine(analysis)));
    return lines;
}

void configTable(ReportComposer& composer, const core::ModelConfig& config) {
    const std::vector<core::ConfigRow> rows = core::configRows(config);
    const std::size_t half = (rows.size() + 1) / 2;
    std::vector<TableRow> table;
    for (std::size_t i = 0; i < half; ++i) {
        TableRow row;
        row.cells << qs(rows[i].label) << qs(rows[i].value);
        if (i + half < rows.size()) {
            row.cells << qs(rows[i + half].label) << qs(rows[i + half].value);
        }
        table.push_back(row);
    }
    composer.table({{QStringLiteral("Field"), 1.1},
                    {QStringLiteral("Value"), 1.4, Qt::AlignLeft},
                    {QStringLiteral("Field"), 1.1},
                    {QStringLiteral("Value"), 1.4, Qt::AlignLeft}},
                   table);
}

void summaryTable(ReportComposer& composer, const std::vector<core::SummaryRow>& rows) {
    std::vector<TableRow> table;
    for (const core::SummaryRow& row : rows) {
        table.push_back({{qs(row.label), qs(row.value), qs(row.exact)}});
    }
    composer.table({{QStringLiteral("Quantity"), 2},
                    {QStringLiteral("Value"), 1.4, Qt::AlignRight},
                    {QStringLiteral("Exact"), 1.6, Qt::AlignRight}},
                   table);
}

void breakdownTable(ReportComposer& composer, const core::ParamReport& params) {
    std::vector<TableRow> table;
    for (const views::BreakdownRow& row : views::breakdownRows(params)) {
        QString share = QStringLiteral("not counted");
        if (row.share >= 0) {
            share = qs(core::percentText(row.share));
        }
        TableRow line{{row.name, qs(core::withThousands(row.params)), row.perLayer, share, row.shape}, row.depth};
        line.strong = row.depth == 0;
        line.muted = row.share < 0;
        table.push_back(line);
    }
    composer.table({{QStringLiteral("Component"), 3.0},
                    {QStringLiteral("Parameters"), 1.5, Qt::AlignRight},
                    {QStringLiteral("Per layer"), 1.9, Qt::AlignRight},
                    {QStringLiteral("Share"), 0.8, Qt::AlignRight},
                    {QStringLiteral("Shape"), 1.6}},
                   table);
}

void kvTables(ReportComposer& composer, const core::Analysis& analysis) {
    summaryTable(composer, core::kvFigures(analysis));
    std::vector<TableRow> table;
    for (const core::KvRow& row : core::kvRows(analysis)) {
        table.push_back({{qs(row.layers), qs(row.kind), qs(core::withThousands(row.elementsPerToken)),
                          qs(core::withThousands(row.cachedTokens)), qs(core::binaryBytes(row.bytesPerLayer)),
                          qs(core::binaryBytes(row.bytes))}});
    }
    composer.subheading(QStringLiteral("By layer"));
    composer.table({{QStringLiteral("Layers"), 0.8},
                    {QStringLiteral("Kind"), 1.8},
                    {QStringLiteral("Elements/token"), 1.3, Qt::AlignRight},
                    {QStringLiteral("Tokens held"), 1.1, Qt::AlignRight},
                    {QStringLiteral("Per layer"), 1, Qt::AlignRight},
                    {QStringLiteral("All layers"), 1, Qt::AlignRight}},
                   table);
}

void diagnostics(ReportComposer& composer, const core::Diagnostics& found) {
    if (found.empty()) {
        composer.paragraph(QStringLiteral("No errors, warnings or hints."));
        return;
    }
    std::vector<TableRow> table;
    for (const core::Diagnostic& d : found) {
        table.push_back({{qs(std::string(core::toString(d.severity))), qs(d.field), qs(d.message)}});
    }
    composer.table({{QStringLiteral("Severity"), 0.8},
                    {QStringLiteral("Field"), 1.5, Qt::AlignLeft},
                    {QStringLiteral("Message"), 4.2, Qt::AlignLeft}},
                   table);
}

/// A PDF writer on `buffer` with one page size for the whole document, at exportDpi() so that text
/// is laid out as it is measured.
void setUpWriter(QPdfWriter& writer, QPageSize::PageSizeId paper, const QString& title) {
    writer.setResolution(static_cast<int>(exportDpi()));
    writer.setPageLayout(QPageLayout(QPageSize(paper), QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
    writer.setTitle(title);
    writer.setCreator(QStringLiteral("archplay %1").arg(QStringLiteral(ARCHPLAY_VERSION)));
}

PdfResult finish(const ReportComposer& composer, QPageSize::PageSizeId paper, const QString& title,
                 const QString& footer) {
    PdfResult result;
    QBuffer buffer(&result.pdf);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&buffer);
        setUpWriter(writer, paper, title);
        if (!composer.paint(writer, footer)) {
            result.pdf.clear();
            result.error = QStringLiteral("the PDF could not be started");
            return result;
        }
    }
    result.pages = composer.pageCount();
    if (result.pdf.isEmpty()) {
        result.error = QStringLiteral("nothing was written");
    }
    return result;
}

} // namespace

QPageSize::PageSizeId defaultPaper() {
    return QLocale::system().measurementSystem() == QLocale::ImperialUSSystem ? QPageSize::Letter : QPageSize::A4;
}

namespace {

/// What both PDFs share: the palette, the page and its composer with the title block, and at the end
/// the document's title and footer ("<model> — <subject>", "archplay · <model>[ · <subject>]"). The
/// composer paints at finish(): what its blocks draw must live until then.
struct PdfPages {
    PdfPages(const core::Analysis& analysis, const core::ReportInfo& info, const ReportOptions& options,
             const QString& heading)
        : palette(reportPalette(options.theme))
        , geometry(pageGeometry(options.paper, exportDpi()))
        , paper(options.paper)
        , title(qs(info.title))
        , composer(geometry.page, geometry.content, palette, QApplication::font()) {
        composer.title(heading, title, titleLines(analysis, info));
    }

    PdfResult finish(const QString& subject, bool subjectInFooter) const {
        const QString footer = QStringLiteral("archplay · ") + title;
        return exports::finish(composer, paper, QStringLiteral("%1 — %2").arg(title, subject),
                               subjectInFooter ? QString(footer + QStringLiteral(" · ") + subject) : footer);
    }

    const QPalette palette;
    const PageGeometry geometry;
    const QPageSize::PageSizeId paper;
    const QString title;
    ReportComposer composer;
};

/// The forward pass of the analysis typeset in the composer's body font.
views::layout::DerivationDocument derivationDocument(const ReportComposer& composer, const core::Analysis& analysis) {
    return views::layout::DerivationDocument(core::deriveForwardPass(analysis.config, analysis.plan),
                                             composer.bodyFont(),
                                             std::make_shared<const mathtext::MathTypesetter>(composer.bodyFont()));
}

/// What the costs' explanation typesets: core::explainCosts() in the composer's body font.
views::layout::DerivationDocument costsDocument(const ReportComposer& composer, const core::Analysis& analysis) {
    return views::layout::DerivationDocument(core::explainCosts(analysis), composer.bodyFont(),
                                             std::make_shared<const mathtext::MathTypesetter>(composer.bodyFont()));
}

/// The zoo's charts of a report, kept until the composer paints.
using ZooCharts = std::vector<std::unique_ptr<QCustomPlot>>;

/// A neighbours-table column's share of the width: room for "2025-04", "151936" and "parameters".
qreal zooColumnWidth(core::ZooColumn column) {
    switch (column) {
    case core::ZooColumn::Name:
        return 1.7;
    case core::ZooColumn::Released:
    case core::ZooColumn::Vocab:
    case core::ZooColumn::Ffn:
        return 1.3;
    case core::ZooColumn::TotalParams:
    case core::ZooColumn::ActiveParams:
        return 1.5;
    default:
        return 0.95;
    }
}

/// The zoo section: who the design is among, its nearest models, and every zoo plot with it marked.
void zooSection(ReportComposer& composer, const core::ReportSection& section, const core::Analysis& analysis,
                const core::ReportInfo& info, const core::ModelZoo& zoo, const QPalette& palette, ZooCharts& charts) {
    composer.paragraph(qs(core::zooReportIntro(zoo)));
    std::vector<TableColumn> columns;
    for (core::ZooColumn column : core::zooNeighbourColumns()) {
        const core::ZooColumnInfo& about = core::zooColumnInfo(column);
        columns.push_back(
            {qs(std::string(about.label)), zooColumnWidth(column), about.numeric ? Qt::AlignRight : Qt::AlignLeft});
    }
    std::vector<TableRow> rows;
    for (const core::ZooRow& row : core::zooReportRows(zoo, analysis)) {
        TableRow line;
        for (core::ZooColumn column : core::zooNeighbourColumns()) {
            line.cells << qs(core::zooText(row, column));
        }
        line.strong = rows.empty(); // the design itself
        rows.push_back(line);
    }
    composer.table(columns, rows);
    const QSizeF logical(860, 560);
    for (core::ZooPlot plot : section.zooPlots) {
        const core::ZooPlotData data = core::zooReportPlot(zoo, analysis, plot);
        charts.push_back(views::plot::zooChart(data, logical.toSize(), palette, composer.bodyFont()));
        composer.subheading(qs(data.info.title));
        composer.chart(*charts.back(), logical,
                       qs(core::figureCaption(analysis, info)) + QStringLiteral(". ") + qs(core::zooPlotCaption(plot)));
    }
}

/// The typeset derivations of a report: they must live until the composer paints.
struct ReportDocuments {
    const views::layout::DerivationDocument& forwardPass;
    const views::layout::DerivationDocument& costs;
};

/// The sections of the report in core's order, each with its table and figure.
void reportSections(ReportComposer& composer, const core::Analysis& analysis, const core::ReportInfo& info,
                    const OffscreenViews& views, const ReportDocuments& documents, const core::ModelZoo* zoo,
                    ZooCharts& charts) {
    for (const core::ReportSection& section : core::reportSections(analysis, views.layer(), zoo != nullptr)) {
        // The forward pass starts a page; the costs' explanation follows it on the same page.
        const bool newPage = section.part == core::ReportPart::Derivation;
        composer.heading(qs(section.title), newPage);
        switch (section.part) {
        case core::ReportPart::Configuration:
            configTable(composer, analysis.config);
            break;
        case core::ReportPart::Summary:
            summaryTable(composer, core::summaryRows(analysis));
            break;
        case core::ReportPart::KvCache:
            kvTables(composer, analysis);
            break;
        case core::ReportPart::DiagnosticList:
            diagnostics(composer, analysis.diagnostics);
            break;
        case core::ReportPart::Derivation:
            composer.derivation(documents.forwardPass);
            break;
        case core::ReportPart::CostExplanation:
            composer.derivation(documents.costs);
            break;
        case core::ReportPart::Compute:
            summaryTable(composer, core::computeRows(analysis));
            break;
        case core::ReportPart::Memory:
            composer.subheading(QStringLiteral("Serving"));
            summaryTable(composer, core::servingMemoryRows(analysis));
            composer.subheading(QStringLiteral("Training"));
            summaryTable(composer, core::trainingMemoryRows(analysis));
            break;
        case core::ReportPart::Speed:
            summaryTable(composer, core::speedRows(analysis));
            composer.paragraph(qs(core::speedBoundLabel()) + QLatin1Char('.'));
            break;
        case core::ReportPart::Zoo:
            zooSection(composer, section, analysis, info, *zoo, views.palette(), charts);
            break;
        case core::ReportPart::Source:
            for (const std::string& line : core::sourceLines(info)) {
                composer.paragraph(qs(line));
            }
            composer.subheading(QStringLiteral("Counting convention"));
            composer.paragraph(qs(core::countingConvention()));
            break;
        case core::ReportPart::Breakdown:
        case core::ReportPart::LayerStack:
        case core::ReportPart::Layer:
        case core::ReportPart::AttentionMask:
        case core::ReportPart::MoeRouting:
            break;
        }
        if (section.figure) {
            const QSizeF logical = figureSize(*section.figure);
            if (const views::AnalysisView* view = views.view(*section.figure, logical.toSize())) {
                // Model and scenario first, as on every exported figure, then what the figure shows.
                composer.figure(*view, logical,
                                qs(core::figureCaption(analysis, info)) + QStringLiteral(". ") + qs(section.caption));
            }
        }
        if (section.part == core::ReportPart::Breakdown) {
            composer.subheading(QStringLiteral("Exact breakdown"));
            breakdownTable(composer, analysis.params);
        }
    }
}

} // namespace

PdfResult reportPdf(const core::Analysis& analysis, const core::ReportInfo& info, const ReportOptions& options) {
    if (!analysis.valid) {
        return {{}, 0, QStringLiteral("the configuration has errors; fix them before making a report")};
    }
    PdfPages pdf(analysis, info, options, QStringLiteral("ARCHPLAY REPORT"));
    const OffscreenViews views(analysis, pdf.palette, options.layer);
    const views::layout::DerivationDocument document = derivationDocument(pdf.composer, analysis);
    const views::layout::DerivationDocument costs = costsDocument(pdf.composer, analysis);
    ZooCharts charts;
    reportSections(pdf.composer, analysis, info, views, {document, costs}, options.zoo, charts);
    return pdf.finish(QStringLiteral("archplay report"), false);
}

PdfResult derivationPdf(const core::Analysis& analysis, const core::ReportInfo& info, const ReportOptions& options) {
    if (!analysis.valid) {
        return {{}, 0, QStringLiteral("the configuration has errors; fix them before exporting the derivation")};
    }
    PdfPages pdf(analysis, info, options, QStringLiteral("ARCHPLAY · FORWARD PASS"));
    const views::layout::DerivationDocument document = derivationDocument(pdf.composer, analysis);
    pdf.composer.derivation(document);
    return pdf.finish(QStringLiteral("forward pass"), true);
}

} // namespace archplay::ui::exports
