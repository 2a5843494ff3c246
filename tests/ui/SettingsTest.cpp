// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/Presets.h"
#include "ui/panels/ConfigPanel.h"
#include "ui/session/ModelBridge.h"
#include "ui/window/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QSettings>
#include <QUndoStack>

#include <gtest/gtest.h>

namespace archplay::ui {
namespace {

TEST(Settings, TheNextStartRestoresConfigThemeAndToggles) {
    QSettings().clear();
    const QString preset = QString::fromStdString(core::builtinPresets().front().info.id);
    {
        archplay::ui::window::MainWindow window;
        ASSERT_TRUE(window.bridge()->loadPreset(preset));
        window.bridge()->edit(QStringLiteral("edit"), [](core::ModelConfig& c, core::Scenario& s) {
            c.numLayers = 7;
            s.batch = 4;
        });
        window.configPanel()->snapAction()->setChecked(false);
        window.setThemeMode(archplay::ui::theme::ThemeMode::Dark);
        window.close();
    }
    {
        archplay::ui::window::MainWindow window;
        EXPECT_EQ(window.bridge()->config().numLayers, 7);
        EXPECT_EQ(window.bridge()->scenario().batch, 4u);
        EXPECT_EQ(window.bridge()->origin().presetId, preset);
        EXPECT_TRUE(window.bridge()->originSummary().modified);
        EXPECT_EQ(window.bridge()->undoStack()->count(), 0) << "a restored session starts a fresh history";
        EXPECT_FALSE(window.configPanel()->snapAction()->isChecked());
        EXPECT_EQ(archplay::ui::theme::currentThemeMode(), archplay::ui::theme::ThemeMode::Dark);
        window.setThemeMode(archplay::ui::theme::ThemeMode::Light);
        window.configPanel()->snapAction()->setChecked(true);
    }
    QSettings().clear();
}

TEST(Settings, AFreshStartLoadsTheDefaultPreset) {
    QSettings().clear();
    archplay::ui::window::MainWindow window;
    EXPECT_FALSE(window.bridge()->origin().presetId.isEmpty());
    EXPECT_TRUE(window.bridge()->analysis().valid);
    EXPECT_EQ(window.bridge()->undoStack()->count(), 0);
}

} // namespace
} // namespace archplay::ui
