// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/Screenshot.h"

#include "ui/FileController.h"
#include "ui/MainWindow.h"
#include "ui/ModelBridge.h"
#include "ui/views/AnalysisView.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QPainter>
#include <QSvgGenerator>

namespace archplay::ui {

namespace {

void settle() {
    // Layouts and dock geometry settle over a few event-loop passes.
    for (int i = 0; i < 5; ++i) {
        QApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QApplication::processEvents();
    }
}

QString saveImage(const QImage& image, const QString& path) {
    if (image.isNull()) {
        return QStringLiteral("nothing to render");
    }
    const QFileInfo info(path);
    if (!info.absoluteDir().exists()) {
        return QStringLiteral("directory %1 does not exist").arg(info.absolutePath());
    }
    if (!image.save(path, "PNG")) {
        return QStringLiteral("could not write %1").arg(path);
    }
    return {};
}

} // namespace

QImage renderView(const AnalysisView& view, const QSize& size, qreal devicePixelRatio) {
    QImage image(size * devicePixelRatio, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(devicePixelRatio);
    image.fill(view.palette().color(QPalette::Base));
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    view.render(painter, QRectF(QPointF(0, 0), QSizeF(size)));
    painter.end();
    return image;
}

QString saveViewPng(const AnalysisView& view, const QSize& size, qreal devicePixelRatio, const QString& path) {
    return saveImage(renderView(view, size, devicePixelRatio), path);
}

QString saveViewSvg(const AnalysisView& view, const QSize& size, const QString& path) {
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(view.title());
    generator.setDescription(QStringLiteral("archplay %1").arg(view.viewId()));
    QPainter painter;
    if (!painter.begin(&generator)) {
        return QStringLiteral("could not write %1").arg(path);
    }
    view.render(painter, QRectF(QPointF(0, 0), QSizeF(size)));
    painter.end();
    return {};
}

QString saveWidgetPng(QWidget& widget, const QString& path) {
    return saveImage(widget.grab().toImage(), path);
}

int applyOptions(MainWindow& window, const GuiOptions& options, QString* error) {
    if (!options.presetId.isEmpty() && !window.bridge()->loadPreset(options.presetId)) {
        *error = QStringLiteral("unknown preset '%1'").arg(options.presetId);
        return 2;
    }
    if (!options.configPath.isEmpty()) {
        const FileResult result = window.files()->openPath(options.configPath);
        if (!result.ok) {
            *error = result.message;
            for (const QString& detail : result.details) {
                *error += QStringLiteral("\n  ") + detail;
            }
            return 2;
        }
        // A config given on the command line is where the session starts, not an undoable step.
        window.bridge()->resetState(window.bridge()->state());
    }
    if (!options.viewId.isEmpty() && !window.selectView(options.viewId)) {
        QStringList ids;
        for (const AnalysisView* view : window.views()) {
            ids << view->viewId();
        }
        *error = QStringLiteral("unknown view '%1'; views: %2").arg(options.viewId, ids.join(QStringLiteral(", ")));
        return 2;
    }
    return 0;
}

int runScreenshot(const GuiOptions& options, QString* error) {
    applyTheme(options.theme.value_or(ThemeMode::Light));
    MainWindowOptions windowOptions;
    windowOptions.persistent = false;
    MainWindow window(windowOptions);
    window.setThemeMode(options.theme.value_or(ThemeMode::Light));
    if (const int status = applyOptions(window, options, error); status != 0) {
        return status;
    }
    window.resize(options.size);
    window.show();
    settle();
    window.resize(options.size);
    window.applyDefaultLayout();
    settle();
    QString failure;
    if (!options.viewId.isEmpty()) {
        failure = saveViewPng(*window.currentView(), options.size, 1.0, options.screenshotPath);
    } else {
        failure = saveWidgetPng(window, options.screenshotPath);
    }
    if (!failure.isEmpty()) {
        *error = failure;
        return 1;
    }
    return 0;
}

} // namespace archplay::ui
