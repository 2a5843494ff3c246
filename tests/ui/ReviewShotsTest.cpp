// SPDX-License-Identifier: GPL-3.0-or-later
// Renders parts of the window that `archplay --screenshot` cannot reach (the preset picker, the
// shortcuts dialog, an invalid config) for a human to review. Runs only when ARCHPLAY_REVIEW_DIR
// names a directory; never compares pixels.
#include "core/io/Presets.h"
#include "ui/export/ViewExporter.h"
#include "ui/panels/PresetPicker.h"
#include "ui/session/ModelBridge.h"
#include "ui/window/MainWindow.h"
#include "ui/window/ShortcutsDialog.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QMenu>
#include <QMenuBar>
#include <QSlider>
#include <QTest>

#include <gtest/gtest.h>

namespace archplay::ui {
namespace {

QString reviewDir() {
    return qEnvironmentVariable("ARCHPLAY_REVIEW_DIR");
}

TEST(ReviewShots, PickerDialogAndErrors) {
    if (reviewDir().isEmpty()) {
        GTEST_SKIP() << "set ARCHPLAY_REVIEW_DIR to render review screenshots";
    }
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
    EXPECT_EQ(exports::saveWidgetPng(picker, dir.filePath(QStringLiteral("picker-mix.png"))), QString());
    picker.setFilterText({});
    QApplication::processEvents();
    EXPECT_EQ(exports::saveWidgetPng(picker, dir.filePath(QStringLiteral("picker-all.png"))), QString());

    QList<QPair<QString, QList<QAction*>>> menus;
    for (QAction* menu : window.menuBar()->actions()) {
        menus.append({menu->text(), menu->menu()->actions()});
    }
    archplay::ui::window::ShortcutsDialog dialog(menus, &window);
    dialog.show();
    QApplication::processEvents();
    EXPECT_EQ(exports::saveWidgetPng(dialog, dir.filePath(QStringLiteral("shortcuts.png"))), QString());
    dialog.close();

    window.bridge()->edit(QStringLiteral("bad"), [](core::ModelConfig& c, core::Scenario&) {
        c.numKvHeads = 5;
        c.moe.topK = 3;
        c.vocabSize = 50257;
    });
    QApplication::processEvents();
    EXPECT_EQ(exports::saveWidgetPng(window, dir.filePath(QStringLiteral("window-invalid.png"))), QString());
}

TEST(ReviewShots, SliderDragCostOnBigModels) {
    if (reviewDir().isEmpty()) {
        GTEST_SKIP() << "set ARCHPLAY_REVIEW_DIR to measure";
    }
    archplay::ui::window::MainWindow window{archplay::ui::window::MainWindowOptions{false}};
    window.resize(1920, 1080);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    for (const char* id : {"deepseek-v3", "llama-3.1-405b", "qwen3-235b-a22b"}) {
        if (!window.bridge()->loadPreset(QString::fromLatin1(id))) {
            continue;
        }
        auto* slider = window.findChild<QSlider*>(QStringLiteral("field.num_hidden_layers.slider"));
        ASSERT_NE(slider, nullptr);
        QElapsedTimer timer;
        qint64 updateNs = 0;
        qint64 paintNs = 0;
        const int steps = 200;
        window.bridge()->beginGesture();
        for (int i = 0; i < steps; ++i) {
            timer.start();
            slider->setValue(slider->minimum() + (i % (slider->maximum() - slider->minimum())));
            updateNs += timer.nsecsElapsed();
            timer.start();
            QApplication::processEvents();
            paintNs += timer.nsecsElapsed();
        }
        window.bridge()->endGesture();
        std::printf("%s per slider step: %.2f ms edit + analysis + widget updates, %.2f ms repaint (1920x1080, "
                    "software raster)\n",
                    id, double(updateNs) / 1e6 / steps, double(paintNs) / 1e6 / steps);
    }
}

} // namespace
} // namespace archplay::ui
