// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/io/Files.h"
#include "core/report/Exports.h"

#include <QByteArray>
#include <QFont>
#include <QImage>
#include <QPalette>
#include <QRectF>
#include <QSize>
#include <QString>

#include <optional>

class QMimeData;
class QWidget;

namespace archplay::ui::views {
class AnalysisView;
}

namespace archplay::ui::exports {

/// How a figure is drawn.
struct FigureOptions {
    QSize size{1280, 800}; ///< the figure's size: PNG pixels at scale 1, the SVG's and PDF page's size.
                           ///< Units: device-independent pixels
    qreal scale = 1.0;     ///< PNG pixels per device-independent pixel: 2 or 3 for print
    core::ReadOnlyTarget readOnly = core::ReadOnlyTarget::Refuse; ///< whether a read-only file is replaced
    QString caption; ///< under the view: core::figureCaption() (model and scenario); empty: none
};

/// Where the parts of a figure go. The figure is laid out at `layout` (its size divided by
/// core::figureTextScale()) and drawn scaled up by `textScale`, so text grows with the figure.
struct FigureGeometry {
    qreal textScale = 1;
    QSizeF layout;  ///< the whole figure in layout units
    QRectF view;    ///< the view, in layout units
    QRectF caption; ///< the caption line(s) under the view; empty without a caption
};
FigureGeometry figureGeometry(const FigureOptions& options, const QFont& font);

/// The size a view is laid out at in a figure of `options` (FigureGeometry::view).
QSize viewSizeIn(const FigureOptions& options, const QFont& font);

/// The resolution vector exports are laid out at: the one text is measured with on screen, so a
/// figure's text takes exactly the room the view's layout gave it. Units: dots per inch.
qreal exportDpi();

/// The view drawn through render() into an image of size x scale pixels (device pixel ratio `scale`).
QImage renderImage(const views::AnalysisView& view, const FigureOptions& options);

/// The figure's bytes in `format` (PNG, SVG or PDF); empty with `error` set when drawing failed.
/// SVG and PDF are vector, with real text: the view's render() paints onto a QSvgGenerator or a
/// QPdfWriter whose page is the figure. The parameter chart is drawn by QCustomPlot itself
/// (toPixmap for PNG, toPainter for SVG and PDF, as savePng and savePdf do).
QByteArray figureBytes(const views::AnalysisView& view, core::ExportFormat format, const FigureOptions& options,
                       QString* error);

/// figureBytes() written atomically to `path`.
[[nodiscard]] core::Status exportFigure(const views::AnalysisView& view, core::ExportFormat format,
                                        const FigureOptions& options, const QString& path);

/// A widget (the whole window, a dialog) grabbed as it is on screen and written as a PNG,
/// atomically.
[[nodiscard]] core::Status saveWidgetPng(QWidget& widget, const QString& path);

/// The figure for the clipboard: the PNG image (application/x-qt-image and image/png) and the SVG
/// (image/svg+xml) for programs that paste vectors.
QMimeData* figureMimeData(const views::AnalysisView& view, const FigureOptions& options);

/// Gives a widget (and its children) another palette until destroyed, then restores what it had.
class ScopedPalette {
public:
    ScopedPalette(QWidget& widget, const std::optional<QPalette>& palette);
    ~ScopedPalette();
    ScopedPalette(const ScopedPalette&) = delete;
    ScopedPalette& operator=(const ScopedPalette&) = delete;

private:
    QWidget& m_widget;
    bool m_changed = false;
    bool m_hadOwnPalette = false;
    QPalette m_previous;
};

} // namespace archplay::ui::exports
