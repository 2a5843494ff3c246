// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/Screenshot.h"

#include "ui/Strings.h"
#include "ui/export/ViewExporter.h"
#include "ui/session/FileController.h"
#include "ui/session/ModelBridge.h"
#include "ui/theme/Theme.h"
#include "ui/views/AnalysisView.h"
#include "ui/window/MainWindow.h"

#include <QApplication>

namespace archplay::app {

namespace {

void settle() {
    // Layouts and dock geometry settle over a few event-loop passes.
    for (int i = 0; i < 5; ++i) {
        QApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QApplication::processEvents();
    }
}

} // namespace

int applyOptions(ui::window::MainWindow& window, const GuiOptions& options, QString* error) {
    if (!options.presetId.isEmpty() && !window.bridge()->loadPreset(options.presetId)) {
        *error = QStringLiteral("unknown preset '%1'").arg(options.presetId);
        return 2;
    }
    if (!options.configPath.isEmpty()) {
        const ui::session::FileResult result = window.files()->openPath(options.configPath);
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
    if (options.view) {
        window.selectView(*options.view);
    }
    return 0;
}

int runScreenshot(const GuiOptions& options, QString* error) {
    ui::theme::applyTheme(options.theme.value_or(ui::theme::ThemeMode::Light));
    ui::window::MainWindowOptions windowOptions;
    windowOptions.persistent = false;
    ui::window::MainWindow window(windowOptions);
    window.setThemeMode(options.theme.value_or(ui::theme::ThemeMode::Light));
    if (const int status = applyOptions(window, options, error); status != 0) {
        return status;
    }
    window.resize(options.size);
    window.show();
    settle();
    window.resize(options.size);
    window.applyDefaultLayout();
    settle();
    const core::Status written = options.view
                                     ? ui::exports::exportFigure(*window.currentView(), core::ExportFormat::Png,
                                                                 {options.size, 1.0}, options.screenshotPath)
                                     : ui::exports::saveWidgetPng(window, options.screenshotPath);
    if (!written.ok()) {
        *error = ui::qs(written.error());
        return 1;
    }
    return 0;
}

} // namespace archplay::app
