// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/export/MarkdownReport.h"

#include "ui/Strings.h"
#include "ui/export/OffscreenViews.h"
#include "ui/export/ViewExporter.h"
#include "ui/session/AtomicWrite.h"
#include "ui/views/AnalysisView.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QUrl>

namespace archplay::ui::exports {

QString markdownFiguresDir(const QString& path) {
    const QFileInfo info(path);
    return info.dir().filePath(info.completeBaseName() + QStringLiteral("_figures"));
}

QString exportMarkdownReport(const core::Analysis& analysis, const core::ReportInfo& info,
                             const MarkdownReportOptions& options, const QString& path, QStringList* written) {
    if (!analysis.valid) {
        return QStringLiteral("the configuration has errors; fix them before making a report");
    }
    if (!QFileInfo(path).absoluteDir().exists()) {
        return QStringLiteral("the directory %1 does not exist")
            .arg(QDir::toNativeSeparators(QFileInfo(path).absolutePath()));
    }
    const QPalette palette =
        options.theme == theme::ThemeMode::System ? QApplication::palette() : theme::themePalette(options.theme);
    const OffscreenViews views(analysis, palette, options.layer);
    const QString directory = markdownFiguresDir(path);
    if (!QDir().mkpath(directory)) {
        return QStringLiteral("cannot create the folder %1").arg(QDir::toNativeSeparators(directory));
    }
    const QString folder = QFileInfo(directory).fileName();
    std::vector<core::ReportFigure> figures;
    for (const core::ReportSection& section : core::reportSections(analysis, views.layer())) {
        if (!section.figure) {
            continue;
        }
        const QString viewId = qs(core::toString(*section.figure));
        const FigureOptions figure{
            {1280, 800}, options.scale, options.readOnly, qs(core::figureCaption(analysis, info))};
        const views::AnalysisView* view = views.view(*section.figure, viewSizeIn(figure, QApplication::font()));
        if (!view) {
            continue;
        }
        const QString file = QDir(directory).filePath(viewId + QStringLiteral(".png"));
        if (const QString error = exportFigure(*view, core::ExportFormat::Png, figure, file); !error.isEmpty()) {
            return QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(file), error);
        }
        if (written) {
            *written << file;
        }
        // Links are URLs: a space in the folder name must not end the link.
        const QString link = QString::fromUtf8(QUrl::toPercentEncoding(
            folder + QLatin1Char('/') + viewId + QStringLiteral(".png"), QByteArrayLiteral("/")));
        figures.push_back({*section.figure, link.toStdString()});
    }
    const std::string markdown = core::reportMarkdown(analysis, info, views.layer(), figures);
    if (const QString error = session::writeAtomically(path, QByteArray::fromStdString(markdown), options.readOnly);
        !error.isEmpty()) {
        return error;
    }
    if (written) {
        *written << path;
    }
    return {};
}

} // namespace archplay::ui::exports
