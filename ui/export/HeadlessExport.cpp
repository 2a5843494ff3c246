// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/export/HeadlessExport.h"

#include "ui/Strings.h"
#include "ui/export/MarkdownReport.h"
#include "ui/export/OffscreenViews.h"
#include "ui/export/ReportBuilder.h"
#include "ui/export/ViewExporter.h"
#include "ui/session/AtomicWrite.h"
#include "ui/views/AnalysisView.h"

#include <QApplication>

namespace archplay::ui::exports {

QSize defaultFigureSize(core::ExportWhat what) {
    return what == core::ExportWhat::Derivation ? QSize(1280, 1600) : QSize(1280, 800);
}

core::Status exportAnalysis(const core::Analysis& analysis, const ExportRequest& request) {
    using core::ExportFormat;
    using core::ExportWhat;
    if (std::string reason = core::unsupportedReason(request.what, request.format, analysis); !reason.empty()) {
        return core::Status::failure(std::move(reason));
    }
    if (!analysis.valid) {
        return core::Status::failure("the configuration has errors");
    }
    if (auto text = core::exportText(analysis, request.what, request.format, request.info)) {
        return session::writeAtomically(request.path, QByteArray::fromStdString(*text), request.readOnly);
    }
    const std::optional<core::ModelZoo> zoo = request.zoo && request.what == ExportWhat::Report
                                                  ? std::optional(core::modelZoo(analysis.scenario))
                                                  : std::nullopt;
    if (request.what == ExportWhat::Report && request.format == ExportFormat::Markdown) {
        return exportMarkdownReport(
            analysis, request.info,
            {request.theme, request.layer, request.scale.value_or(2.0), request.readOnly, zoo ? &*zoo : nullptr},
            request.path);
    }
    const bool paged = request.format == ExportFormat::Pdf &&
                       (request.what == ExportWhat::Report || request.what == ExportWhat::Derivation);
    if (paged) {
        const ReportOptions options{request.paper, request.theme, request.layer, zoo ? &*zoo : nullptr};
        const PdfResult result = request.what == ExportWhat::Report ? reportPdf(analysis, request.info, options)
                                                                    : derivationPdf(analysis, request.info, options);
        return result.pdf.isEmpty() ? core::Status::failure(result.error.toStdString())
                                    : session::writeAtomically(request.path, result.pdf, request.readOnly);
    }
    const QPalette palette =
        request.theme == theme::ThemeMode::System ? QApplication::palette() : theme::themePalette(request.theme);
    const OffscreenViews views(analysis, palette, request.layer);
    const FigureOptions figure{request.size.isEmpty() ? defaultFigureSize(request.what) : request.size,
                               request.scale.value_or(1.0), request.readOnly,
                               qs(core::figureCaption(analysis, request.info))};
    const std::optional<core::ViewKind> kind = core::viewFor(request.what);
    const views::AnalysisView* view = kind ? views.view(*kind, viewSizeIn(figure, QApplication::font())) : nullptr;
    if (!view) {
        return core::Status::failure("no view draws " + std::string(core::toString(request.what)));
    }
    return exportFigure(*view, request.format, figure, request.path);
}

} // namespace archplay::ui::exports
