// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/export/ViewExporter.h"

#include "ui/session/AtomicWrite.h"
#include "ui/views/AnalysisView.h"
#include "ui/views/charts/ParameterChartView.h"

#include <QBuffer>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QHash>
#include <QMimeData>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QScreen>
#include <QSvgGenerator>
#include <QWidget>
#include <qcustomplot.h>

#include <cmath>

namespace archplay::ui::exports {
namespace {

QString creator() {
    return QStringLiteral("archplay %1").arg(QStringLiteral(ARCHPLAY_VERSION));
}

/// A PDF writer whose one page is exactly `size` device-independent pixels at exportDpi().
void setUpFigurePage(QPdfWriter& writer, const QSize& size, const QString& title) {
    const qreal dpi = exportDpi();
    writer.setResolution(static_cast<int>(dpi));
    writer.setCreator(creator());
    writer.setTitle(title);
    const QSizeF points(size.width() * 72.0 / dpi, size.height() * 72.0 / dpi);
    writer.setPageLayout(QPageLayout(QPageSize(points, QPageSize::Point, QString(), QPageSize::ExactMatch),
                                     QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
}

/// An SVG of `size` whose drawing is in layout units: the view box is the figure's layout, so a
/// figure larger than the reference scales its text with it.
void setUpSvg(QSvgGenerator& generator, const FigureOptions& options, const QSizeF& layout,
              const views::AnalysisView& view) {
    // The SVG's width and height are the figure's size times the scale, as a PNG's pixels are.
    const QSize size(static_cast<int>(std::lround(options.size.width() * options.scale)),
                     static_cast<int>(std::lround(options.size.height() * options.scale)));
    generator.setSize(size);
    generator.setViewBox(QRectF(QPointF(0, 0), layout));
    generator.setResolution(static_cast<int>(exportDpi()));
    generator.setTitle(view.title());
    generator.setDescription(QStringLiteral("%1 — %2").arg(view.title(), creator()));
}

/// The SVG with every font-family naming the font Qt actually drew with, then a CSS generic family:
/// Qt writes the requested family, which may be a fontconfig alias ("Sans Serif") that browsers and
/// Inkscape do not know, and they would fall back to a serif face with other widths.
QByteArray portableFonts(const QByteArray& svg) {
    static const QRegularExpression attribute(QStringLiteral("font-family=\"([^\"]*)\""));
    QString text = QString::fromUtf8(svg);
    QHash<QString, QString> replacements;
    for (const QRegularExpressionMatch& match : attribute.globalMatch(text)) {
        const QString family = match.captured(1);
        if (replacements.contains(family) || family.contains(QLatin1Char(','))) {
            continue;
        }
        const QFontInfo resolved{QFont(family)};
        const QString lower = family.toLower();
        const QString generic = resolved.fixedPitch() ? QStringLiteral("monospace")
                                : lower.contains(QLatin1String("serif")) && !lower.contains(QLatin1String("sans"))
                                    ? QStringLiteral("serif")
                                    : QStringLiteral("sans-serif");
        const QString list = resolved.family().compare(generic, Qt::CaseInsensitive) == 0
                                 ? generic
                                 : QStringLiteral("%1, %2").arg(resolved.family(), generic);
        replacements.insert(family, QStringLiteral("font-family=\"%1\"").arg(list.toHtmlEscaped()));
    }
    for (auto it = replacements.cbegin(); it != replacements.cend(); ++it) {
        text.replace(QStringLiteral("font-family=\"%1\"").arg(it.key()), it.value());
    }
    return text.toUtf8();
}

constexpr qreal kCaptionPad = 8;
constexpr int kCaptionFlags = Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop;

QFont captionFont(const QFont& base) {
    QFont font = base;
    font.setPointSizeF(base.pointSizeF() > 0 ? base.pointSizeF() : 9);
    return font;
}

/// The caption under the view: a rule, then the text in the muted colour. Painted in layout units.
void paintCaption(QPainter& painter, const FigureGeometry& geometry, const QString& caption, const QPalette& palette,
                  const QFont& font) {
    if (caption.isEmpty() || geometry.caption.isEmpty()) {
        return;
    }
    painter.save();
    painter.setPen(QPen(palette.color(QPalette::Mid), 1));
    painter.drawLine(QPointF(geometry.caption.left(), geometry.caption.top() - kCaptionPad / 2),
                     QPointF(geometry.caption.right(), geometry.caption.top() - kCaptionPad / 2));
    painter.setFont(captionFont(font));
    painter.setPen(palette.color(QPalette::Text));
    painter.drawText(geometry.caption, kCaptionFlags, caption);
    painter.restore();
}

/// The view and its caption painted in layout units onto a painter already scaled to them.
void paintFigure(QPainter& painter, const views::AnalysisView& view, const FigureGeometry& geometry,
                 const QString& caption) {
    view.render(painter, geometry.view);
    paintCaption(painter, geometry, caption, view.palette(), view.font());
}

QByteArray pngBytes(const QImage& image, qreal scale) {
    QImage stamped = image;
    // The PNG's physical resolution says how large the figure is meant to appear, whatever its pixels.
    const int dotsPerMeter = static_cast<int>(std::lround(exportDpi() * scale / 0.0254));
    stamped.setDotsPerMeterX(dotsPerMeter);
    stamped.setDotsPerMeterY(dotsPerMeter);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!stamped.save(&buffer, "PNG")) {
        return {};
    }
    return bytes;
}

/// The chart as PNG or SVG, drawn by QCustomPlot itself the way savePng and its QSvgGenerator recipe do.
QByteArray chartBytes(const views::ParameterChartView& chart, core::ExportFormat format, const FigureOptions& options) {
    // Reading the bars builds the chart when the analysis changed since it was last drawn.
    chart.componentBars();
    QCustomPlot& plot = *chart.plot();
    const FigureGeometry geometry = figureGeometry(options, chart.font());
    const int width = static_cast<int>(std::lround(geometry.view.width()));
    const int height = static_cast<int>(std::lround(geometry.view.height()));
    QByteArray bytes;
    if (format == core::ExportFormat::Png) {
        const qreal pixelsPerUnit = options.scale * geometry.textScale;
        const QImage plotImage = plot.toPixmap(width, height, pixelsPerUnit).toImage();
        QImage image(QSize(static_cast<int>(std::lround(options.size.width() * options.scale)),
                           static_cast<int>(std::lround(options.size.height() * options.scale))),
                     QImage::Format_ARGB32_Premultiplied);
        image.fill(chart.palette().color(QPalette::Base));
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        painter.drawImage(QPointF(0, 0), plotImage);
        painter.scale(pixelsPerUnit, pixelsPerUnit);
        paintCaption(painter, geometry, options.caption, chart.palette(), chart.font());
        painter.end();
        bytes = pngBytes(image, options.scale);
    } else {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        setUpSvg(generator, options, geometry.layout, chart);
        QCPPainter painter;
        if (painter.begin(&generator)) {
            painter.setMode(QCPPainter::pmVectorized);
            painter.setMode(QCPPainter::pmNoCaching);
            plot.toPainter(&painter, width, height);
            paintCaption(painter, geometry, options.caption, chart.palette(), chart.font());
            painter.end();
        }
        buffer.close();
        bytes = portableFonts(bytes);
    }
    // toPixmap and toPainter leave the layout at the export's size; lay the widget out again.
    plot.replot(QCustomPlot::rpQueuedReplot);
    return bytes;
}

} // namespace

FigureGeometry figureGeometry(const FigureOptions& options, const QFont& font) {
    FigureGeometry geometry;
    geometry.textScale = core::figureTextScale(options.size.width(), options.size.height());
    geometry.layout = QSizeF(options.size) / geometry.textScale;
    geometry.view = QRectF(QPointF(0, 0), geometry.layout);
    if (!options.caption.isEmpty()) {
        const qreal width = geometry.layout.width() - 2 * 14;
        const qreal height = QFontMetricsF(captionFont(font))
                                 .boundingRect(QRectF(0, 0, width, 1e6), kCaptionFlags, options.caption)
                                 .height();
        const qreal strip = height + 2 * kCaptionPad;
        // A caption never takes more than a third of the figure.
        if (strip < geometry.layout.height() / 3) {
            geometry.view.setHeight(geometry.layout.height() - strip);
            geometry.caption = QRectF(14, geometry.view.bottom() + kCaptionPad, width, height);
        }
    }
    return geometry;
}

QSize viewSizeIn(const FigureOptions& options, const QFont& font) {
    return figureGeometry(options, font).view.size().toSize();
}

qreal exportDpi() {
    const QScreen* screen = QGuiApplication::primaryScreen();
    return screen ? std::round(screen->logicalDotsPerInchY()) : 96.0;
}

QImage renderImage(const views::AnalysisView& view, const FigureOptions& options) {
    const QSize pixels(static_cast<int>(std::lround(options.size.width() * options.scale)),
                       static_cast<int>(std::lround(options.size.height() * options.scale)));
    QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull()) {
        return image;
    }
    image.setDevicePixelRatio(options.scale);
    image.fill(view.palette().color(QPalette::Base));
    const FigureGeometry geometry = figureGeometry(options, view.font());
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    painter.scale(geometry.textScale, geometry.textScale);
    paintFigure(painter, view, geometry, options.caption);
    painter.end();
    return image;
}

QByteArray figureBytes(const views::AnalysisView& view, core::ExportFormat format, const FigureOptions& options,
                       QString* error) {
    auto fail = [&](const QString& reason) {
        if (error) {
            *error = reason;
        }
        return QByteArray();
    };
    if (!core::isImageFormat(format)) {
        return fail(QStringLiteral("%1 is not an image format").arg(QString::fromUtf8(core::toString(format))));
    }
    if (options.size.width() < 1 || options.size.height() < 1 || options.scale <= 0 ||
        options.size.width() * options.scale > 32768 || options.size.height() * options.scale > 32768) {
        return fail(QStringLiteral("the size %1x%2 at scale %3 is out of range")
                        .arg(options.size.width())
                        .arg(options.size.height())
                        .arg(options.scale));
    }
    // The PDF of a chart goes through render() as well: QCustomPlot's toPainter straight onto a
    // QPdfWriter strokes its zero-length ticks into empty paths that PDF readers report as errors,
    // while render() records toPainter's drawing into a QPicture first and replays it cleanly.
    const auto* chart = dynamic_cast<const views::ParameterChartView*>(&view);
    if (chart && format != core::ExportFormat::Pdf) {
        const QByteArray bytes = chartBytes(*chart, format, options);
        return bytes.isEmpty() ? fail(QStringLiteral("the chart could not be drawn")) : bytes;
    }
    if (format == core::ExportFormat::Png) {
        const QImage image = renderImage(view, options);
        if (image.isNull()) {
            return fail(QStringLiteral("not enough memory for a %1x%2 image")
                            .arg(options.size.width() * options.scale)
                            .arg(options.size.height() * options.scale));
        }
        const QByteArray bytes = pngBytes(image, options.scale);
        return bytes.isEmpty() ? fail(QStringLiteral("the PNG could not be encoded")) : bytes;
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    const FigureGeometry geometry = figureGeometry(options, view.font());
    if (format == core::ExportFormat::Svg) {
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        setUpSvg(generator, options, geometry.layout, view);
        QPainter painter;
        if (!painter.begin(&generator)) {
            return fail(QStringLiteral("the SVG could not be started"));
        }
        paintFigure(painter, view, geometry, options.caption);
        painter.end();
        buffer.close();
        bytes = portableFonts(bytes);
    } else {
        QPdfWriter writer(&buffer);
        setUpFigurePage(writer, options.size, view.title());
        QPainter painter;
        if (!painter.begin(&writer)) {
            return fail(QStringLiteral("the PDF could not be started"));
        }
        painter.scale(geometry.textScale, geometry.textScale);
        paintFigure(painter, view, geometry, options.caption);
        painter.end();
    }
    return bytes.isEmpty() ? fail(QStringLiteral("nothing was drawn")) : bytes;
}

core::Status exportFigure(const views::AnalysisView& view, core::ExportFormat format, const FigureOptions& options,
                          const QString& path) {
    QString error;
    const QByteArray bytes = figureBytes(view, format, options, &error);
    if (bytes.isEmpty()) {
        return core::Status::failure(error.toStdString());
    }
    return session::writeAtomically(path, bytes, options.readOnly);
}

QMimeData* figureMimeData(const views::AnalysisView& view, const FigureOptions& options) {
    auto* mime = new QMimeData;
    const QImage image = renderImage(view, options);
    mime->setImageData(image);
    mime->setData(QStringLiteral("image/png"), pngBytes(image, options.scale));
    QString error;
    FigureOptions vector = options;
    vector.scale = 1.0;
    const QByteArray svg = figureBytes(view, core::ExportFormat::Svg, vector, &error);
    if (!svg.isEmpty()) {
        mime->setData(QStringLiteral("image/svg+xml"), svg);
    }
    return mime;
}

ScopedPalette::ScopedPalette(QWidget& widget, const std::optional<QPalette>& palette)
    : m_widget(widget) {
    if (!palette) {
        return;
    }
    m_hadOwnPalette = widget.testAttribute(Qt::WA_SetPalette);
    m_previous = widget.palette();
    widget.setPalette(*palette);
    m_changed = true;
}

ScopedPalette::~ScopedPalette() {
    if (m_changed) {
        m_widget.setPalette(m_hadOwnPalette ? m_previous : QPalette());
    }
}

core::Status saveWidgetPng(QWidget& widget, const QString& path) {
    const QImage image = widget.grab().toImage();
    if (image.isNull()) {
        return core::Status::failure("nothing to render");
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) {
        return core::Status::failure("could not encode the PNG");
    }
    return session::writeAtomically(path, bytes);
}

} // namespace archplay::ui::exports
