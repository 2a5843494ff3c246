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

namespace archplay::ui::exports {

QString markdownFiguresDir(const QString& path) {
    const QFileInfo info(path);
    return info.dir().filePath(info.completeBaseName() + QStringLiteral("_figures"));
}

namespace {

/// The zoo section's plots as "zoo-NAME.png" in `directory`, the design marked, linked in `figures`.
QString writeZooFigures(const core::ReportSection& section, const core::Analysis& analysis, const core::ModelZoo& zoo,
                        const QPalette& palette, const MarkdownReportOptions& options, const QString& directory,
                        std::vector<core::ReportFigure>& figures,
                        const std::function<std::string(const QString&)>& linkTo, QStringList* written) {
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
        const QString file = QDir(directory).filePath(name);
        if (const QString error = session::writeAtomically(file, bytes, options.readOnly); !error.isEmpty()) {
            return QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(file), error);
        }
        if (written) {
            *written << file;
        }
        figures.push_back({plot, linkTo(name)});
    }
    return {};
}

} // namespace

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
    // Links are URLs: a space in the folder name must not end the link.
    auto linkTo = [&folder](const QString& file) {
        return QString::fromUtf8(QUrl::toPercentEncoding(folder + QLatin1Char('/') + file, QByteArrayLiteral("/")))
            .toStdString();
    };
    for (const core::ReportSection& section : core::reportSections(analysis, views.layer(), options.zoo != nullptr)) {
        if (section.part == core::ReportPart::Zoo) {
            if (const QString error = writeZooFigures(section, analysis, *options.zoo, palette, options, directory,
                                                      figures, linkTo, written);
                !error.isEmpty()) {
                return error;
            }
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
        if (const QString error = exportFigure(*view, core::ExportFormat::Png, figure, file); !error.isEmpty()) {
            return QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(file), error);
        }
        if (written) {
            *written << file;
        }
        figures.push_back({*section.figure, linkTo(viewId + QStringLiteral(".png"))});
    }
    const std::string markdown = core::reportMarkdown(analysis, info, views.layer(), figures, options.zoo);
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
