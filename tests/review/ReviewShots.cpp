// SPDX-License-Identifier: GPL-3.0-or-later
// Renders parts of the window that `archplay --screenshot` cannot reach (the preset picker, the
// shortcuts dialog, an invalid config, the export dialog and menus) for a human to review. A tool,
// not a test: it is not run by ctest and never compares pixels. Run it with
//   ARCHPLAY_REVIEW_DIR=DIR build/tests/review/archplay_review_shots
#include "core/io/GpuJson.h"
#include "core/io/Presets.h"
#include "tests/support/StatusAssert.h"
#include "ui/export/ExportActions.h"
#include "ui/export/ExportDialog.h"
#include "ui/export/ViewExporter.h"
#include "ui/panels/ConfigPanel.h"
#include "ui/panels/DevicesDialog.h"
#include "ui/panels/PresetPicker.h"
#include "ui/session/GpuCatalogue.h"
#include "ui/session/ModelBridge.h"
#include "ui/views/AnalysisView.h"
#include "ui/window/MainWindow.h"
#include "ui/window/ShortcutsDialog.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTest>

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>

namespace archplay::ui {
namespace {

/// ARCHPLAY_REVIEW_DIR, else archplay-review in the temporary directory; created if missing.
QString reviewDir() {
    static const QString dir = [] {
        QString path = qEnvironmentVariable("ARCHPLAY_REVIEW_DIR");
        if (path.isEmpty()) {
            path = QDir::temp().filePath(QStringLiteral("archplay-review"));
        }
        QDir().mkpath(path);
        std::printf("review shots in %s\n", qPrintable(path));
        return path;
    }();
    return dir;
}

TEST(ReviewShots, PickerDialogAndErrors) {
    const QDir dir(reviewDir());
    archplay::ui::window::MainWindow window{archplay::ui::window::MainWindowOptions{false}};
    window.resize(1280, 800);
    window.show();
    window.applyDefaultLayout();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));

    archplay::ui::panels::PresetPicker picker;
    picker.resize(560, 480);
    picker.setFilterText(QStringLiteral("mix"));
    picker.show();
    QApplication::processEvents();
    EXPECT_TRUE(test::succeeded(exports::saveWidgetPng(picker, dir.filePath(QStringLiteral("picker-mix.png")))));
    picker.setFilterText({});
    QApplication::processEvents();
    EXPECT_TRUE(test::succeeded(exports::saveWidgetPng(picker, dir.filePath(QStringLiteral("picker-all.png")))));

    QList<QPair<QString, QList<QAction*>>> menus;
    for (QAction* menu : window.menuBar()->actions()) {
        menus.append({menu->text(), menu->menu()->actions()});
    }
    archplay::ui::window::ShortcutsDialog dialog(menus, &window);
    dialog.show();
    QApplication::processEvents();
    EXPECT_TRUE(test::succeeded(exports::saveWidgetPng(dialog, dir.filePath(QStringLiteral("shortcuts.png")))));
    dialog.close();

    window.bridge()->edit(QStringLiteral("bad"), [](core::ModelConfig& c, core::Scenario&) {
        c.numKvHeads = 5;
        c.moe.topK = 3;
        c.vocabSize = 50257;
    });
    QApplication::processEvents();
    EXPECT_TRUE(test::succeeded(exports::saveWidgetPng(window, dir.filePath(QStringLiteral("window-invalid.png")))));
}

TEST(ReviewShots, ExportDialogAndMenus) {
    const QDir dir(reviewDir());
    window::MainWindow window{window::MainWindowOptions{false}};
    window.resize(1280, 800);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.bridge()->loadPreset(QStringLiteral("mixtral-8x7b-v0.1")));

    exports::FigureExportSettings settings;
    settings.path = dir.filePath(QStringLiteral("mixtral-8x7b-v0.1-layer-stack.png"));
    settings.scale = 2;
    exports::ExportDialog dialog(QStringLiteral("Layer stack"), QSize(903, 561), settings, &window);
    dialog.show();
    QApplication::processEvents();
    EXPECT_TRUE(test::succeeded(exports::saveWidgetPng(dialog, dir.filePath(QStringLiteral("export-dialog.png")))));
    dialog.close();

    QMenu* menu = window.exportMenu();
    menu->popup(window.mapToGlobal(QPoint(20, 20)));
    QApplication::processEvents();
    EXPECT_TRUE(test::succeeded(exports::saveWidgetPng(*menu, dir.filePath(QStringLiteral("export-menu.png")))));
    menu->close();

    views::AnalysisView* derivation = nullptr;
    for (views::AnalysisView* view : window.views()) {
        derivation = view->kind() == core::ViewKind::Derivation ? view : derivation;
    }
    ASSERT_NE(derivation, nullptr);
    window.selectView(core::ViewKind::Derivation);
    QApplication::processEvents();
    std::unique_ptr<QMenu> context(window.exportActions()->contextMenu(*derivation, derivation, &window));
    context->popup(window.mapToGlobal(QPoint(300, 300)));
    QApplication::processEvents();
    EXPECT_TRUE(
        test::succeeded(exports::saveWidgetPng(*context, dir.filePath(QStringLiteral("export-context-menu.png")))));
    context->close();
}

/// The Scenario tab (serving and training fields, a device of the user's picked) at the sizes and
/// themes people use, the devices dialog and its form.
TEST(ReviewShots, ScenarioPanelAndDevices) {
    const QDir dir(reviewDir());
    window::MainWindow window{window::MainWindowOptions{false}};
    core::Gpu card;
    core::Diagnostics diagnostics;
    ASSERT_TRUE(core::gpuFromFigures({.id = "rtx-pro-6000",
                                      .name = "RTX PRO 6000 Blackwell",
                                      .memoryGiB = 96,
                                      .bandwidthGBs = 1792,
                                      .bf16Tflops = 503.8,
                                      .fp8Tflops = 1007.6,
                                      .source = "NVIDIA RTX PRO 6000 Blackwell datasheet (dense)"},
                                     card, diagnostics));
    ASSERT_TRUE(window.gpuCatalogue()->add(card).ok);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.bridge()->loadPreset(QStringLiteral("llama-3-8b")));
    window.scenarioDock()->raise();
    for (const auto& [width, height] : {std::pair{1280, 720}, std::pair{2560, 1440}}) {
        for (const theme::ThemeMode mode : {theme::ThemeMode::Light, theme::ThemeMode::Dark}) {
            window.setThemeMode(mode);
            window.resize(width, height);
            window.applyDefaultLayout();
            QApplication::processEvents();
            const QString name =
                QStringLiteral("scenario-%1x%2-%3.png")
                    .arg(width)
                    .arg(height)
                    .arg(mode == theme::ThemeMode::Dark ? QStringLiteral("dark") : QStringLiteral("light"));
            EXPECT_TRUE(test::succeeded(exports::saveWidgetPng(window, dir.filePath(name))));
            if (height == 720) {
                // The training section, below the fold at 720 lines.
                auto* scroll = window.scenarioPanel()->findChild<QScrollArea*>();
                scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
                QApplication::processEvents();
                EXPECT_TRUE(test::succeeded(
                    exports::saveWidgetPng(*window.scenarioPanel(), dir.filePath(QStringLiteral("scrolled-") + name))));
                scroll->verticalScrollBar()->setValue(0);
            }
        }
    }
    window.setThemeMode(theme::ThemeMode::Light);
    window.resize(1280, 800);
    panels::DevicesDialog* devices = window.showDevices();
    QApplication::processEvents();
    EXPECT_TRUE(test::succeeded(exports::saveWidgetPng(*devices, dir.filePath(QStringLiteral("devices.png")))));
    devices->findChild<QPushButton*>(QStringLiteral("devices.add"))->click();
    auto* form = devices->findChild<panels::DeviceForm*>();
    ASSERT_NE(form, nullptr);
    form->findChild<QLineEdit*>(QStringLiteral("device.id"))->setText(QStringLiteral("h100-sxm"));
    form->accept();
    QApplication::processEvents();
    EXPECT_TRUE(
        test::succeeded(exports::saveWidgetPng(*form, dir.filePath(QStringLiteral("device-form-refused.png")))));
    form->close();
    devices->importFrom(dir.filePath(QStringLiteral("no-such-devices.json")));
    QApplication::processEvents();
    EXPECT_TRUE(
        test::succeeded(exports::saveWidgetPng(*devices, dir.filePath(QStringLiteral("devices-import-error.png")))));
    window.setThemeMode(theme::ThemeMode::Dark);
    QApplication::processEvents();
    EXPECT_TRUE(test::succeeded(exports::saveWidgetPng(*devices, dir.filePath(QStringLiteral("devices-dark.png")))));
    window.setThemeMode(theme::ThemeMode::Light);
    devices->close();
}

} // namespace
} // namespace archplay::ui
