// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/design/DesignExport.h"

#include "ui/Strings.h"
#include "ui/session/AtomicWrite.h"
#include "ui/views/charts/PlotSupport.h"

#include <QBuffer>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QMenu>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QToolButton>
#include <qcustomplot.h>

namespace archplay::ui::design {
namespace {

constexpr QSize kChartSize{1600, 1000};
constexpr int kCaptionHeight = 48;

void paintChart(const ChartFigure& figure, QPainter& painter, const QRectF& page) {
    const QPalette palette = figure.plot->palette();
    painter.fillRect(page, palette.color(QPalette::Base));
    const QRectF plotRect = page.adjusted(0, 0, 0, figure.caption.isEmpty() ? 0 : -kCaptionHeight);
    views::plot::renderPlot(*figure.plot, painter, plotRect);
    if (!figure.caption.isEmpty()) {
        QFont font = figure.plot->font();
        font.setPointSizeF(font.pointSizeF() * 1.2);
        painter.setFont(font);
        painter.setPen(palette.color(QPalette::Text));
        painter.drawText(QRectF(page.left() + 16, plotRect.bottom(), page.width() - 32, kCaptionHeight),
                         Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, figure.caption);
    }
}

} // namespace

QByteArray chartBytes(const ChartFigure& figure, core::ExportFormat format, QString* error) {
    const QRectF page(QPointF(0, 0), QSizeF(kChartSize));
    QByteArray bytes;
    switch (format) {
    case core::ExportFormat::Png: {
        QImage image(kChartSize, QImage::Format_ARGB32_Premultiplied);
        {
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            paintChart(figure, painter, page);
        }
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        image.save(&buffer, "PNG");
        break;
    }
    case core::ExportFormat::Svg: {
        QBuffer buffer(&bytes);
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setSize(kChartSize);
        generator.setViewBox(page);
        generator.setTitle(QStringLiteral("archplay"));
        QPainter painter(&generator);
        paintChart(figure, painter, page);
        break;
    }
    case core::ExportFormat::Pdf: {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        QPdfWriter writer(&buffer);
        writer.setResolution(96);
        writer.setPageSize(QPageSize(QSizeF(kChartSize), QPageSize::Point));
        writer.setPageMargins(QMarginsF());
        QPainter painter(&writer);
        const qreal scale = qreal(writer.width()) / kChartSize.width();
        painter.scale(scale, scale);
        paintChart(figure, painter, page);
        break;
    }
    default:
        break;
    }
    if (bytes.isEmpty() && error) {
        *error = QObject::tr("the chart could not be drawn in this format");
    }
    return bytes;
}

QString formatFilter(core::ExportFormat format) {
    switch (format) {
    case core::ExportFormat::Png:
        return QObject::tr("PNG image (*.png)");
    case core::ExportFormat::Svg:
        return QObject::tr("SVG image (*.svg)");
    case core::ExportFormat::Pdf:
        return QObject::tr("PDF document (*.pdf)");
    case core::ExportFormat::Csv:
        return QObject::tr("CSV table (*.csv)");
    case core::ExportFormat::Markdown:
        return QObject::tr("Markdown (*.md)");
    case core::ExportFormat::Json:
        return QObject::tr("JSON (*.json)");
    case core::ExportFormat::Latex:
        return QObject::tr("LaTeX (*.tex)");
    }
    return {};
}

QString saveWithDialog(QWidget* parent, const ChooseFile& chooseFile, const QString& what, const QString& fileName,
                       core::ExportFormat format, const std::function<QByteArray(QString* error)>& bytes) {
    const QString caption = QObject::tr("Export %1").arg(what);
    const QString filter = formatFilter(format);
    const QString path = chooseFile ? chooseFile(caption, fileName, filter)
                                    : QFileDialog::getSaveFileName(parent, caption, fileName, filter);
    if (path.isEmpty()) {
        return {};
    }
    QString error;
    const QByteArray data = bytes(&error);
    if (data.isEmpty()) {
        return QObject::tr("Could not export %1: %2.").arg(what, error);
    }
    if (const core::Status written = session::writeAtomically(path, data); !written.ok()) {
        return QObject::tr("Could not export %1: %2.").arg(what, qs(written.error()));
    }
    return QObject::tr("Exported %1 to %2.").arg(what, QFileInfo(path).fileName());
}

QString saveChart(QWidget* parent, const ChooseFile& chooseFile, const QString& what, const QString& baseName,
                  const ChartFigure& figure, core::ExportFormat format) {
    const QString fileName = baseName + QLatin1Char('.') + QString::fromUtf8(core::toString(format));
    return saveWithDialog(parent, chooseFile, what, fileName, format,
                          [figure, format](QString* error) { return chartBytes(figure, format, error); });
}

QToolButton* exportButton(QWidget* parent) {
    auto* button = new QToolButton(parent);
    button->setText(QObject::tr("Export"));
    button->setPopupMode(QToolButton::InstantPopup);
    button->setMenu(new QMenu(button));
    return button;
}

} // namespace archplay::ui::design
