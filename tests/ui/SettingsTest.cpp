// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/session/Settings.h"

#include "core/cost/Gpus.h"
#include "core/io/Presets.h"
#include "core/io/Session.h"
#include "tests/support/StatusAssert.h"
#include "ui/panels/ConfigPanel.h"
#include "ui/panels/DiagnosticsStrip.h"
#include "ui/session/Autosave.h"
#include "ui/session/FileController.h"
#include "ui/session/GpuCatalogue.h"
#include "ui/session/ModelBridge.h"
#include "ui/views/AnalysisView.h"
#include "ui/views/LayerSelection.h"
#include "ui/window/MainWindow.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QListWidget>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include <gtest/gtest.h>

#include <memory>

namespace archplay::ui {
namespace {

/// Answers the "Unsaved changes" question the next time it is asked; `asked` (when given) counts
/// the questions.
void answerUnsavedDialog(QMessageBox::StandardButton answer, int* asked = nullptr) {
    QTimer::singleShot(0, [answer, asked] {
        for (QWidget* widget : QApplication::topLevelWidgets()) {
            auto* box = qobject_cast<QMessageBox*>(widget);
            if (box && box->objectName() == QLatin1String("dialog.unsaved") && box->isVisible()) {
                if (asked) {
                    ++*asked;
                }
                box->button(answer)->click();
                return;
            }
        }
    });
}

/// Answers the "Restore unsaved work?" question with `restore` (else Discard) once it is shown:
/// the window asks when the event loop first runs, so this looks again, for 400 ms, until it finds
/// it. The returned count says how many times it was asked.
std::shared_ptr<int> answerRestoreDialog(bool restore) {
    auto asked = std::make_shared<int>(0);
    auto attempts = std::make_shared<int>(0);
    auto* timer = new QTimer(qApp);
    timer->setInterval(10);
    QObject::connect(timer, &QTimer::timeout, timer, [restore, asked, attempts, timer] {
        for (QWidget* widget : QApplication::topLevelWidgets()) {
            auto* box = qobject_cast<QMessageBox*>(widget);
            if (box && box->objectName() == QLatin1String("dialog.restore") && box->isVisible()) {
                ++*asked;
                timer->stop();
                timer->deleteLater();
                for (QAbstractButton* button : box->buttons()) {
                    if ((box->buttonRole(button) == QMessageBox::AcceptRole) == restore) {
                        button->click();
                        return;
                    }
                }
                return;
            }
        }
        if (++*attempts >= 40) {
            timer->stop();
            timer->deleteLater();
        }
    });
    timer->start();
    return asked;
}

void editLayers(window::MainWindow& window, int layers) {
    window.bridge()->edit(QStringLiteral("edit"),
                          [layers](core::ModelConfig& c, core::Scenario&) { c.numLayers = layers; });
}

TEST(Settings, ATypedSettingReadsItsValueWhenAbsentAndKeepsOnlyWhatDiffers) {
    QSettings().clear();
    QSettings store;
    EXPECT_TRUE(session::settings::snap.read(store)) << "snapping is on until turned off";
    EXPECT_TRUE(session::settings::zooFolders.read(store).isEmpty());
    const QStringList folders{QStringLiteral("/models/a"), QStringLiteral("/models/b")};
    ASSERT_TRUE(test::succeeded(
        session::writeSettings([&](QSettings& s) { session::settings::zooFolders.writeOrRemove(s, folders); })));
    EXPECT_EQ(session::settings::zooFolders.read(QSettings()), folders);
    EXPECT_TRUE(QSettings().contains(session::settings::zooFolders.key));
    ASSERT_TRUE(test::succeeded(
        session::writeSettings([](QSettings& s) { session::settings::zooFolders.writeOrRemove(s, {}); })));
    EXPECT_FALSE(QSettings().contains(session::settings::zooFolders.key)) << "an absent key, not an empty list";
    // A version of the window's settings saved whole, and the keys older versions wrote gone.
    QSettings().setValue(QStringLiteral("ui/view"), QStringLiteral("kv-cache"));
    {
        window::MainWindow window;
        EXPECT_TRUE(window.close());
    }
    EXPECT_EQ(session::settings::version.read(QSettings()), session::settings::kVersion);
    for (const QLatin1StringView key : session::settings::retired) {
        EXPECT_FALSE(QSettings().contains(key)) << key.data();
    }
}

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
        // The edit is in no file: quitting asks, and "Discard" quits (the next start still has it).
        answerUnsavedDialog(QMessageBox::Discard);
        EXPECT_TRUE(window.close());
    }
    {
        archplay::ui::window::MainWindow window;
        EXPECT_EQ(window.bridge()->config().numLayers, 7);
        EXPECT_EQ(window.bridge()->scenario().batch, 4u);
        EXPECT_EQ(window.bridge()->origin().presetId, preset);
        EXPECT_TRUE(window.bridge()->originSummary().modified);
        EXPECT_TRUE(window.bridge()->hasUnsavedChanges()) << "restored work is still in no file";
        EXPECT_EQ(window.bridge()->undoStack()->count(), 0) << "a restored session starts a fresh history";
        EXPECT_FALSE(window.configPanel()->snapAction()->isChecked());
        EXPECT_EQ(archplay::ui::theme::currentThemeMode(), archplay::ui::theme::ThemeMode::Dark);
        window.setThemeMode(archplay::ui::theme::ThemeMode::Light);
        window.configPanel()->snapAction()->setChecked(true);
    }
    QSettings().clear();
}

TEST(Settings, EditsAreAutosavedAndARunThatDidNotCloseOffersThemBack) {
    QSettings().clear();
    QString copy;
    {
        window::MainWindow window;
        ASSERT_NE(window.autosave(), nullptr);
        ASSERT_TRUE(window.autosave()->active());
        copy = window.autosave()->path();
        ASSERT_TRUE(window.bridge()->loadPreset(QStringLiteral("llama-3-8b")));
        editLayers(window, 21);
        // Debounced: nothing right after the edit, the copy a moment later.
        QApplication::processEvents();
        EXPECT_FALSE(QFile::exists(copy));
        EXPECT_TRUE(QTest::qWaitFor([&] { return QFile::exists(copy); }, 5000));
        // A second window while this one runs neither saves nor offers anything.
        window::MainWindow second;
        EXPECT_FALSE(second.autosave()->active());
        // The process "dies": the window goes without closing, so no clean exit removes the copy.
    }
    ASSERT_TRUE(QFile::exists(copy));
    {
        const auto asked = answerRestoreDialog(true);
        window::MainWindow window;
        EXPECT_TRUE(QTest::qWaitFor([&] { return *asked == 1; }, 2000));
        EXPECT_EQ(window.bridge()->config().numLayers, 21) << "restored from the copy";
        EXPECT_TRUE(window.bridge()->hasUnsavedChanges()) << "recovered work is in no file";
        // A clean exit removes the copy: the next start asks nothing.
        answerUnsavedDialog(QMessageBox::Discard);
        EXPECT_TRUE(window.close());
        EXPECT_FALSE(QFile::exists(copy));
    }
    {
        const auto asked = answerRestoreDialog(true);
        window::MainWindow window;
        QTest::qWait(600); // longer than the answerer looks
        EXPECT_EQ(*asked, 0);
        editLayers(window, 9);
        ASSERT_TRUE(test::succeeded(window.autosave()->saveNow()));
    }
    {
        // Discard keeps what the last clean exit left (21 layers), not the copy (9).
        const auto asked = answerRestoreDialog(false);
        window::MainWindow window;
        EXPECT_TRUE(QTest::qWaitFor([&] { return *asked == 1; }, 2000));
        EXPECT_EQ(window.bridge()->config().numLayers, 21);
        window.autosave()->finish();
    }
    QSettings().clear();
}

/// Every row of the window's diagnostics list, as shown.
QStringList diagnosticsRows(const window::MainWindow& window) {
    QStringList rows;
    const QListWidget* list = window.findChild<panels::DiagnosticsStrip*>()->list();
    for (int i = 0; i < list->count(); ++i) {
        rows << list->item(i)->text();
    }
    return rows;
}

TEST(Settings, AnAutosaveThatCannotBeWrittenIsSaidOnceAndTheWindowKeepsWorking) {
    QSettings().clear();
    QString copy;
    {
        window::MainWindow window;
        copy = window.autosave()->path();
        window.autosave()->finish();
    }
    // The copy's name taken by a folder: every write fails (as on a full disk; root writes read-only folders).
    ASSERT_TRUE(QDir().mkpath(copy));
    {
        window::MainWindow window;
        ASSERT_TRUE(window.autosave()->active());
        ASSERT_TRUE(window.bridge()->loadPreset(QStringLiteral("llama-3-8b")));
        editLayers(window, 21);
        EXPECT_FALSE(window.autosave()->saveNow().ok());
        EXPECT_FALSE(window.autosave()->problem().isEmpty());
        EXPECT_TRUE(window.statusBar()->currentMessage().startsWith(QStringLiteral("Not saved: the automatic copy")))
            << window.statusBar()->currentMessage().toStdString();
        EXPECT_TRUE(diagnosticsRows(window).filter(QStringLiteral("not saved: the automatic copy")).size() == 1)
            << diagnosticsRows(window).join(QLatin1Char('\n')).toStdString();
        // Said once: a second failure does not say it again.
        window.statusBar()->clearMessage();
        EXPECT_FALSE(window.autosave()->saveNow().ok());
        EXPECT_TRUE(window.statusBar()->currentMessage().isEmpty());
        EXPECT_EQ(window.bridge()->config().numLayers, 21) << "the edit is kept";
        // Once it can write again, the diagnostics say nothing more.
        ASSERT_TRUE(QDir().rmdir(copy));
        EXPECT_TRUE(test::succeeded(window.autosave()->saveNow()));
        EXPECT_TRUE(window.autosave()->problem().isEmpty());
        EXPECT_TRUE(diagnosticsRows(window).filter(QStringLiteral("not saved:")).isEmpty());
        window.autosave()->finish();
    }
    // A copy killed before its rename left its temporary: the next window that takes the lock removes it.
    {
        window::MainWindow window;
        const QString temporary =
            QFileInfo(window.autosave()->path()).dir().filePath(QStringLiteral(".autosave.archplay.json.Ab12Cd"));
        window.autosave()->finish();
        QFile file(temporary);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.close();
        session::Autosave next(QFileInfo(temporary).absolutePath(), [] { return QByteArray("{}"); });
        ASSERT_TRUE(next.acquire());
        EXPECT_FALSE(QFile::exists(temporary));
        next.finish();
    }
    // A folder that cannot hold the lock (here: its path runs through a file) is a problem too, where
    // a lock held by another window is not.
    {
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("file")));
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        session::Autosave blocked(dir.filePath(QStringLiteral("file/data")), [] { return QByteArray("{}"); });
        EXPECT_FALSE(blocked.acquire());
        EXPECT_TRUE(blocked.problem().startsWith(QStringLiteral("crash protection is off")))
            << blocked.problem().toStdString();
    }
    QSettings().clear();
}

TEST(Settings, SettingsThatCannotBeWrittenAreSaidAndDevicesSayForThisRunOnly) {
    QSettings().clear();
    const QString file = QSettings().fileName();
    QFile::remove(file);
    ASSERT_TRUE(QDir().mkpath(file)); // the settings file's name taken by a folder: QSettings cannot write it
    {
        window::MainWindow window;
        EXPECT_TRUE(diagnosticsRows(window).filter(QStringLiteral("not saved: the settings file")).size() == 1)
            << diagnosticsRows(window).join(QLatin1Char('\n')).toStdString();
        core::Gpu device = *core::findGpu(core::builtinGpus(), "h100-sxm");
        device.id = "my-h100";
        device.name = "My H100";
        device.builtin = false;
        const session::CatalogueResult added = window.gpuCatalogue()->add(device);
        EXPECT_TRUE(added.ok);
        EXPECT_TRUE(added.message.contains(QStringLiteral("For this run only"))) << added.message.toStdString();
        window.autosave()->finish();
    }
    ASSERT_TRUE(QDir().rmdir(file));
    QSettings().clear();
}

TEST(Settings, QuittingWithWorkInNoFileAsksAndCancelKeepsTheWindow) {
    QSettings().clear();
    window::MainWindow window{window::MainWindowOptions{false}};
    window.show();
    int asked = 0;
    ASSERT_TRUE(window.bridge()->loadPreset(QStringLiteral("llama-3-8b")));
    answerUnsavedDialog(QMessageBox::Cancel, &asked);
    EXPECT_TRUE(window.close()) << "a preset as loaded is in no danger: no question";
    EXPECT_EQ(asked, 0);
    window.show();
    editLayers(window, 30);
    EXPECT_TRUE(window.isWindowModified());
    answerUnsavedDialog(QMessageBox::Cancel, &asked);
    EXPECT_FALSE(window.close());
    EXPECT_EQ(asked, 1);
    EXPECT_TRUE(window.isVisible());
    EXPECT_EQ(window.bridge()->config().numLayers, 30);
    // Back to what was loaded: nothing to lose, nothing asked.
    editLayers(window, 32);
    EXPECT_FALSE(window.bridge()->hasUnsavedChanges());
    EXPECT_TRUE(window.close());
    EXPECT_EQ(asked, 1);
}

TEST(Settings, ASessionKeepsItsSourceViewAndLayerAndOpensUnmodified) {
    QSettings().clear();
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("config.json"));
    const QString sessionPath = dir.filePath(QStringLiteral("work.archplay.json"));
    {
        window::MainWindow window{window::MainWindowOptions{false}};
        ASSERT_TRUE(window.bridge()->loadPreset(QStringLiteral("qwen3-8b")));
        ASSERT_TRUE(window.files()->saveConfigTo(config).ok);
        ASSERT_TRUE(window.files()->openPath(config).ok);
        EXPECT_FALSE(window.bridge()->hasUnsavedChanges()) << "a file just opened holds no unsaved work";
        editLayers(window, 30);
        window.selectView(core::ViewKind::KvCache);
        window.findChild<views::LayerSelection*>()->setLayer(5);
        ASSERT_TRUE(window.files()->saveSessionTo(sessionPath).ok);
        EXPECT_FALSE(window.bridge()->hasUnsavedChanges());
    }
    window::MainWindow window{window::MainWindowOptions{false}};
    ASSERT_TRUE(window.files()->openPath(sessionPath).ok);
    const session::OriginSummary origin = window.bridge()->originSummary();
    EXPECT_EQ(origin.label, QStringLiteral("config.json")) << "the source, not the session file";
    EXPECT_TRUE(origin.modified) << "edited since config.json was loaded";
    EXPECT_FALSE(window.isWindowModified()) << "opening a session is not an unsaved change";
    EXPECT_EQ(window.bridge()->config().numLayers, 30);
    EXPECT_EQ(window.currentView()->kind(), core::ViewKind::KvCache);
    EXPECT_EQ(window.findChild<views::LayerSelection*>()->layer(), 5);
    // The origin came from the session file: Save asks where, proposing the config it came from.
    EXPECT_TRUE(window.files()->currentPath().isEmpty()) << "a path read from a session is not a save target";
    EXPECT_EQ(window.files()->suggestedSavePath(), config);
    QSettings().clear();
}

TEST(Settings, AnEditedFileIsStillModifiedAfterARestart) {
    QSettings().clear();
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("config.json"));
    {
        window::MainWindow window;
        ASSERT_TRUE(window.bridge()->loadPreset(QStringLiteral("qwen3-8b")));
        ASSERT_TRUE(window.files()->saveConfigTo(config).ok);
        ASSERT_TRUE(window.files()->openPath(config).ok);
        editLayers(window, 30);
        window.selectView(core::ViewKind::AttentionMask);
        answerUnsavedDialog(QMessageBox::Discard);
        EXPECT_TRUE(window.close());
    }
    window::MainWindow window;
    const session::OriginSummary origin = window.bridge()->originSummary();
    EXPECT_EQ(origin.label, QStringLiteral("config.json"));
    EXPECT_TRUE(origin.modified);
    EXPECT_TRUE(window.windowTitle().contains(QStringLiteral("(modified)")));
    EXPECT_TRUE(window.isWindowModified());
    EXPECT_EQ(window.currentView()->kind(), core::ViewKind::AttentionMask);
    answerUnsavedDialog(QMessageBox::Discard);
    window.close();
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
