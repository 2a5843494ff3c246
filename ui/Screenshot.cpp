// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/Screenshot.h"

#include "ui/FileController.h"
#include "ui/MainWindow.h"
#include "ui/ModelBridge.h"
#include "ui/export/AtomicWrite.h"
#include "ui/export/ViewExporter.h"
#include "ui/views/AnalysisView.h"

#include <QApplication>
#include <QBuffer>

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
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) {
        return QStringLiteral("could not encode the PNG");
    }
    return exports::writeAtomically(path, bytes);
}

} // namespace

QImage renderView(const AnalysisView& view, const QSize& size, qreal devicePixelRatio) {
    return exports::renderImage(view, {size, devicePixelRatio});
}

QString saveViewPng(const AnalysisView& view, const QSize& size, qreal devicePixelRatio, const QString& path) {
    return exports::exportFigure(view, core::ExportFormat::Png, {size, devicePixelRatio}, path);
}

QString saveViewSvg(const AnalysisView& view, const QSize& size, const QString& path) {
    return exports::exportFigure(view, core::ExportFormat::Svg, {size, 1.0}, path);
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
