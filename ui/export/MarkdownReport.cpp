// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/export/MarkdownReport.h"

#include "ui/Strings.h"
#include "ui/export/OffscreenViews.h"
#include "ui/export/ViewExporter.h"
#include "ui/session/AtomicWrite.h"
#include "ui/views/AnalysisView.h"
#include "ui/views/charts/PlotSupport.h"
#include "ui/views/charts/ZooChart.h"

#include <QApplication>
#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QUrl>
#include <qcustomplot.h>

#include <functional>
#include <vector>

namespace archplay::ui::exports {

QString markdownFiguresDir(const QString& path) {
    const QFileInfo info(path);
    return info.dir().filePath(info.completeBaseName() + QStringLiteral("_figures"));
}

namespace {

/// One file of the export, rendered in memory before anything is written.
struct PendingFile {
    QString path;
    QByteArray bytes;
};

/// The zoo section's plots as "zoo-NAME.png" in `directory`, the design marked, linked in `figures`.
void renderZooFigures(const core::ReportSection& section, const core::Analysis& analysis, const core::ModelZoo& zoo,
                      const QPalette& palette, const MarkdownReportOptions& options, const QString& directory,
                      std::vector<core::ReportFigure>& figures,
                      const std::function<std::string(const QString&)>& linkTo, std::vector<PendingFile>& files) {
    const QSize size(1280, 800);
    for (core::ZooPlot plot : section.zooPlots) {
        const core::ZooPlotData data = core::zooReportPlot(zoo, analysis, plot);
        const std::unique_ptr<QCustomPlot> chart = views::plot::zooChart(data, size, palette, QApplication::font());
        QImage image(size * options.scale, QImage::Format_ARGB32_Premultiplied);
        image.fill(palette.color(QPalette::Base));
        {
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            painter.scale(options.scale, options.scale);
            views::plot::renderPlot(*chart, painter, QRectF(QPointF(0, 0), QSizeF(size)));
        }
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        image.save(&buffer, "PNG");
        const QString name = QStringLiteral("zoo-%1.png").arg(qs(std::string(core::toString(plot))));
        files.push_back({QDir(directory).filePath(name), bytes});
        figures.push_back({plot, linkTo(name)});
    }
}

/// A failure naming `path`: "/x/report_figures/kv.png: it is read-only".
core::Status failureAt(const QString& path, const std::string& reason) {
    return core::Status::failure(QDir::toNativeSeparators(path).toStdString() + ": " + reason);
}

/// Whether the figures' folder can hold the figures: it must be a folder (or not exist yet) and
/// every figure in it a file archplay may replace.
core::Status checkFiguresFolder(const QString& directory, const std::vector<PendingFile>& files,
                                core::ReadOnlyTarget readOnly) {
    const QFileInfo folder(directory);
    if (folder.exists() && !folder.isDir()) {
        return failureAt(directory, "it exists and is not a folder");
    }
    if (!folder.exists()) {
        return session::checkWritable(directory, readOnly); // the folder is created beside the report
    }
    for (const PendingFile& file : files) {
        if (const core::Status writable = session::checkWritable(file.path, readOnly); !writable.ok()) {
            return failureAt(file.path, writable.error());
        }
    }
    return {};
}

} // namespace

core::Status exportMarkdownReport(const core::Analysis& analysis, const core::ReportInfo& info,
                                  const MarkdownReportOptions& options, const QString& path, QStringList* written) {
    if (!analysis.valid) {
        return core::Status::failure("the configuration has errors; fix them before making a report");
    }
    // The report's own target is checked before anything is rendered or written: a refused report
    // leaves its figures' folder as it was.
    if (core::Status writable = session::checkWritable(path, options.readOnly); !writable.ok()) {
        return writable;
    }
    const QPalette palette =
        options.theme == theme::ThemeMode::System ? QApplication::palette() : theme::themePalette(options.theme);
    const OffscreenViews views(analysis, palette, options.layer);
    const QString directory = markdownFiguresDir(path);
    const QString folder = QFileInfo(directory).fileName();
    std::vector<core::ReportFigure> figures;
    std::vector<PendingFile> files;
    // Links are URLs: a space in the folder name must not end the link.
    auto linkTo = [&folder](const QString& file) {
        return QString::fromUtf8(QUrl::toPercentEncoding(folder + QLatin1Char('/') + file, QByteArrayLiteral("/")))
            .toStdString();
    };
    for (const core::ReportSection& section : core::reportSections(analysis, views.layer(), options.zoo != nullptr)) {
        if (section.part == core::ReportPart::Zoo) {
            renderZooFigures(section, analysis, *options.zoo, palette, options, directory, figures, linkTo, files);
        }
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
        QString error;
        const QByteArray bytes = figureBytes(*view, core::ExportFormat::Png, figure, &error);
        if (bytes.isEmpty()) {
            return failureAt(file, error.toStdString());
        }
        files.push_back({file, bytes});
        figures.push_back({*section.figure, linkTo(viewId + QStringLiteral(".png"))});
    }
    // Every file is rendered and every target checked before the first is written.
    if (core::Status folderReady = checkFiguresFolder(directory, files, options.readOnly); !folderReady.ok()) {
        return folderReady;
    }
    if (!QDir().mkpath(directory)) {
        return failureAt(directory, "the folder cannot be created");
    }
    files.push_back(
        {path, QByteArray::fromStdString(core::reportMarkdown(analysis, info, views.layer(), figures, options.zoo))});
    for (const PendingFile& file : files) {
        if (const core::Status saved = session::writeAtomically(file.path, file.bytes, options.readOnly); !saved.ok()) {
            return failureAt(file.path, saved.error());
        }
        if (written) {
            *written << file.path;
        }
    }
    return {};
}

} // namespace archplay::ui::exports
