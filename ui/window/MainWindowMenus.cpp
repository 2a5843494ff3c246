// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's actions, menus and tool bar.
#include "core/util/Format.h"
#include "ui/Strings.h"
#include "ui/export/ExportActions.h"
#include "ui/panels/ConfigPanel.h"
#include "ui/panels/PresetPicker.h"
#include "ui/session/FileController.h"
#include "ui/session/ModelBridge.h"
#include "ui/views/AnalysisView.h"
#include "ui/window/MainWindow.h"
#include "ui/window/ShortcutsDialog.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QHelpEvent>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QTabWidget>
#include <QToolBar>
#include <QToolButton>
#include <QToolTip>
#include <QUndoStack>
#include <QWidgetAction>

#include <map>

namespace archplay::ui::window {

namespace {

QAction* makeAction(QObject* parent, const QString& text, const QKeySequence& key, const QString& icon = {}) {
    auto* action = new QAction(text, parent);
    if (!key.isEmpty()) {
        action->setShortcut(key);
    }
    if (!icon.isEmpty()) {
        action->setIcon(theme::icon(icon));
    }
    return action;
}

/// A tool bar button for `source` (undo or redo) that keeps one text. QUndoStack renames its
/// actions at every step of a drag ("Undo Hidden size"), and a tool button whose action changes
/// repaints and has its bar laid out again each time. The button follows the source's enabled
/// state, triggers it, and its tooltip names what it would undo, read when the tooltip shows.
class StackButtonAction : public QAction {
public:
    StackButtonAction(QAction* source, QObject* parent)
        : QAction(source->icon(), source->iconText(), parent)
        , m_source(source) {
        setEnabled(source->isEnabled());
        connect(source, &QAction::enabledChanged, this, &QAction::setEnabled);
        connect(this, &QAction::triggered, source, &QAction::trigger);
    }

    /// Shows the source's current tooltip over `button`.
    void watch(QWidget* button) {
        if (button != nullptr) {
            button->installEventFilter(this);
        }
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::ToolTip) {
            auto* help = static_cast<QHelpEvent*>(event);
            QToolTip::showText(help->globalPos(), m_source->toolTip(), qobject_cast<QWidget*>(watched));
            return true;
        }
        return QAction::eventFilter(watched, event);
    }

private:
    QAction* m_source;
};

} // namespace

void MainWindow::createActions() {
    m_openAction = makeAction(this, tr("&Open config.json…"), QKeySequence::Open, QStringLiteral("document-open"));
    m_openAction->setToolTip(tr("Open a config.json or a saved session (you can also drop a file on the window)"));
    connect(m_openAction, &QAction::triggered, m_files, &session::FileController::openInteractive);

    m_openEstimateAction = makeAction(this, tr("Open as an &Estimate…"), QKeySequence());
    m_openEstimateAction->setToolTip(tr("Open a config.json archplay cannot count exactly, ignoring the fields it "
                                        "does not understand; every figure is then labelled an estimate"));
    connect(m_openEstimateAction, &QAction::triggered, m_files, &session::FileController::openEstimateInteractive);

    m_saveAction = makeAction(this, tr("&Save config.json"), QKeySequence::Save, QStringLiteral("document-save"));
    m_saveAction->setToolTip(tr("Save the config as a Hugging Face config.json"));
    connect(m_saveAction, &QAction::triggered, m_files, &session::FileController::saveInteractive);
    m_saveAsAction = makeAction(this, tr("Save config.json &As…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    connect(m_saveAsAction, &QAction::triggered, m_files, &session::FileController::saveAsInteractive);
    m_saveSessionAction = makeAction(this, tr("Save Sess&ion…"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S));
    m_saveSessionAction->setToolTip(tr("Save the config with the scenario (sequence length, batch, precisions)"));
    connect(m_saveSessionAction, &QAction::triggered, m_files, &session::FileController::saveSessionInteractive);
    m_quitAction = makeAction(this, tr("&Quit"), QKeySequence(Qt::CTRL | Qt::Key_Q));
    m_quitAction->setMenuRole(QAction::QuitRole);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

    QUndoStack* stack = m_bridge->undoStack();
    m_undoAction = stack->createUndoAction(this, tr("&Undo"));
    m_undoAction->setShortcuts(QKeySequence::Undo);
    m_undoAction->setIcon(theme::icon(QStringLiteral("edit-undo")));
    m_redoAction = stack->createRedoAction(this, tr("&Redo"));
    // Ctrl+Y as well as the platform's redo (Ctrl+Shift+Z here), as most editors accept both.
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    if (!redoKeys.contains(QKeySequence(Qt::CTRL | Qt::Key_Y))) {
        redoKeys.append(QKeySequence(Qt::CTRL | Qt::Key_Y));
    }
    m_redoAction->setShortcuts(redoKeys);
    m_redoAction->setIcon(theme::icon(QStringLiteral("edit-redo")));
    m_copyAction = makeAction(this, tr("&Copy Config as JSON"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
                              QStringLiteral("edit-copy"));
    connect(m_copyAction, &QAction::triggered, m_files, &session::FileController::copyConfig);
    m_pasteAction = makeAction(this, tr("&Paste Config"), {}, QStringLiteral("edit-paste"));
    // Plain Ctrl+V pastes a config whenever the focused widget does not take the paste itself.
    m_pasteAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V), QKeySequence::Paste});
    m_pasteAction->setToolTip(tr("Read config.json (or session) text from the clipboard"));
    connect(m_pasteAction, &QAction::triggered, m_files, &session::FileController::pasteConfig);
    m_revertAction = makeAction(this, tr("Re&vert to Loaded Config"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    m_revertAction->setToolTip(tr("Back to the preset or file as it was loaded (one undo step)"));
    connect(m_revertAction, &QAction::triggered, m_bridge, &session::ModelBridge::revertToOrigin);

    m_findPresetAction =
        makeAction(this, tr("&Find Preset…"), QKeySequence(Qt::CTRL | Qt::Key_P), QStringLiteral("presets"));
    m_findPresetAction->setToolTip(tr("Search the presets by name, family or size"));

    m_themeGroup = new QActionGroup(this);
    const std::pair<theme::ThemeMode, QString> themes[] = {{theme::ThemeMode::System, tr("&System")},
                                                           {theme::ThemeMode::Light, tr("&Light")},
                                                           {theme::ThemeMode::Dark, tr("&Dark")}};
    for (const auto& [mode, label] : themes) {
        QAction* action = m_themeGroup->addAction(label);
        action->setCheckable(true);
        action->setData(int(mode));
        action->setChecked(mode == theme::currentThemeMode());
        connect(action, &QAction::triggered, this, [this, mode = mode] { setThemeMode(mode); });
    }
    m_toggleThemeAction = makeAction(this, tr("Toggle &Light/Dark"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T),
                                     QStringLiteral("theme"));
    connect(m_toggleThemeAction, &QAction::triggered, this, [this] {
        setThemeMode(theme::isDark(QApplication::palette()) ? theme::ThemeMode::Light : theme::ThemeMode::Dark);
    });
    m_fullScreenAction = makeAction(this, tr("&Full Screen"), QKeySequence::FullScreen);
    m_fullScreenAction->setCheckable(true);
    connect(m_fullScreenAction, &QAction::toggled, this, [this](bool on) { on ? showFullScreen() : showNormal(); });

    m_devicesAction = makeAction(this, tr("&Devices…"), QKeySequence());
    m_devicesAction->setToolTip(tr("The GPU catalogue: the built-in devices with their sources, and your own, which "
                                   "you can add, edit, import and export"));
    m_devicesAction->setStatusTip(m_devicesAction->toolTip());
    connect(m_devicesAction, &QAction::triggered, this, [this] { showDevices(); });

    m_designAction = makeAction(this, tr("De&sign…"), QKeySequence(Qt::CTRL | Qt::Key_D));
    m_designAction->setToolTip(tr("Compare configs, sweep a field, search for a target and list the head "
                                  "configurations, in a window that follows the config"));
    m_designAction->setStatusTip(m_designAction->toolTip());
    connect(m_designAction, &QAction::triggered, this, [this] { showDesign(); });

    m_shortcutsAction = makeAction(this, tr("&Keyboard Shortcuts"), QKeySequence::HelpContents);
    connect(m_shortcutsAction, &QAction::triggered, this, &MainWindow::showShortcuts);
    m_aboutAction = makeAction(this, tr("&About archplay"), {});
    m_aboutAction->setMenuRole(QAction::AboutRole);
    connect(m_aboutAction, &QAction::triggered, this, &MainWindow::showAbout);
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_openAction);
    file->addAction(m_openEstimateAction);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    updateRecentMenu({});
    file->addSeparator();
    file->addAction(m_saveAction);
    file->addAction(m_saveAsAction);
    file->addAction(m_saveSessionAction);
    file->addSeparator();
    m_exportMenu = file->addMenu(theme::icon(QStringLiteral("export")), tr("&Export"));
    m_exportActions->populate(m_exportMenu);
    m_exportMenu->addSeparator();
    QAction* exportWindowAction = m_exportMenu->addAction(tr("&Window as PNG…"));
    connect(exportWindowAction, &QAction::triggered, this, &MainWindow::exportWindow);
    file->addSeparator();
    file->addAction(m_quitAction);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_undoAction);
    edit->addAction(m_redoAction);
    edit->addSeparator();
    edit->addAction(m_copyAction);
    edit->addAction(m_pasteAction);
    edit->addSeparator();
    edit->addAction(m_revertAction);
    edit->addAction(m_configPanel->snapAction());

    QMenu* presets = menuBar()->addMenu(tr("&Presets"));
    presets->addAction(m_findPresetAction);
    presets->addSeparator();
    m_presetGroup = new QActionGroup(this);
    m_presetGroup->setExclusionPolicy(QActionGroup::ExclusionPolicy::ExclusiveOptional);
    std::map<std::string, QMenu*> families;
    for (const core::Preset& preset : core::builtinPresets()) {
        QMenu*& family = families[preset.info.family];
        if (!family) {
            family = presets->addMenu(qs(preset.info.family));
        }
        QString label = qs(preset.info.name);
        if (preset.info.publishedParams) {
            label += QStringLiteral("  (%1)").arg(qs(core::presetSizeLabel(preset.info)));
        }
        QAction* action = family->addAction(label);
        action->setCheckable(true);
        action->setData(qs(preset.info.id));
        action->setStatusTip(qs(preset.info.source));
        m_presetGroup->addAction(action);
        const QString id = qs(preset.info.id);
        connect(action, &QAction::triggered, this, [this, id] { m_bridge->loadPreset(id); });
    }

    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* dock :
         {m_configDock, m_scenarioDock, m_presetDock, m_summaryDock, m_diagnosticsDock, m_historyDock}) {
        view->addAction(dock->toggleViewAction());
    }
    view->addSeparator();
    for (std::size_t i = 0; i < m_views.views.size(); ++i) {
        views::AnalysisView* analysisView = m_views.views[i];
        QAction* show = view->addAction(tr("Show %1").arg(analysisView->title()));
        // Alt and the number row: 1 to 9, then 0, minus and equals for the tenth to the twelfth.
        static constexpr Qt::Key kAfterNine[] = {Qt::Key_0, Qt::Key_Minus, Qt::Key_Equal};
        if (i < 9) {
            show->setShortcut(QKeySequence(Qt::ALT | Qt::Key(Qt::Key_1 + int(i))));
        } else if (i - 9 < std::size(kAfterNine)) {
            show->setShortcut(QKeySequence(Qt::ALT | kAfterNine[i - 9]));
        }
        connect(show, &QAction::triggered, this, [this, analysisView] { m_tabs->setCurrentWidget(analysisView); });
    }
    view->addSeparator();
    QMenu* themeMenu = view->addMenu(theme::icon(QStringLiteral("theme")), tr("&Theme"));
    themeMenu->addActions(m_themeGroup->actions());
    themeMenu->addSeparator();
    themeMenu->addAction(m_toggleThemeAction);
    view->addAction(m_fullScreenAction);

    QMenu* tools = menuBar()->addMenu(tr("&Tools"));
    tools->addAction(m_designAction);
    tools->addAction(m_devicesAction);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(m_shortcutsAction);
    help->addSeparator();
    help->addAction(m_aboutAction);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);

    for (QMenu* menu : {file, edit, presets, view, tools, help}) {
        QList<QAction*> actions;
        for (QAction* action : menu->actions()) {
            if (action->menu()) {
                actions += action->menu()->actions();
            } else {
                actions << action;
            }
        }
        m_menuActions.append({menu->title(), actions});
    }
}

void MainWindow::createToolBar() {
    QToolBar* bar = addToolBar(tr("Main Tool Bar"));
    bar->setObjectName(QStringLiteral("toolbar.main"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonIconOnly);
    bar->addAction(m_openAction);
    bar->addAction(m_saveAction);
    bar->addSeparator();
    for (QAction* source : {m_undoAction, m_redoAction}) {
        auto* action = new StackButtonAction(source, bar);
        bar->addAction(action);
        action->watch(bar->widgetForAction(action));
    }
    bar->addSeparator();

    // The preset picker pops up under its button: type to filter, click or Enter to load.
    m_presetPopup = new QMenu(this);
    m_presetPopupPicker = new panels::PresetPicker(m_presetPopup);
    m_presetPopupPicker->setMinimumSize(520, 440);
    auto* pickerAction = new QWidgetAction(m_presetPopup);
    pickerAction->setDefaultWidget(m_presetPopupPicker);
    m_presetPopup->addAction(pickerAction);
    connect(m_presetPopup, &QMenu::aboutToShow, this, [this] {
        m_presetPopupPicker->setFilterText({});
        m_presetPopupPicker->setCurrentPreset(m_bridge->origin().presetId);
        m_presetPopupPicker->focusSearch();
    });
    connect(m_presetPopupPicker, &panels::PresetPicker::presetChosen, this, [this](const QString& id) {
        m_presetPopup->close();
        m_bridge->loadPreset(id);
    });
    m_presetButton = new QToolButton(bar);
    m_presetButton->setObjectName(QStringLiteral("toolbar.presets"));
    m_presetButton->setIcon(theme::icon(QStringLiteral("presets")));
    m_presetButton->setText(tr("Presets"));
    m_presetButton->setToolTip(
        tr("Load a preset (%1)").arg(m_findPresetAction->shortcut().toString(QKeySequence::NativeText)));
    m_presetButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_presetButton->setPopupMode(QToolButton::InstantPopup);
    m_presetButton->setMenu(m_presetPopup);
    bar->addWidget(m_presetButton);
    connect(m_findPresetAction, &QAction::triggered, m_presetButton, &QToolButton::showMenu);

    bar->addSeparator();
    QAction* snap = m_configPanel->snapAction();
    bar->addAction(snap);
    if (auto* snapButton = qobject_cast<QToolButton*>(bar->widgetForAction(snap))) {
        snapButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        snap->setIconText(tr("Snap"));
    }
    bar->addAction(m_designAction);
    if (auto* designButton = qobject_cast<QToolButton*>(bar->widgetForAction(m_designAction))) {
        designButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
        m_designAction->setIconText(tr("Design"));
    }
    bar->addAction(m_toggleThemeAction);
    bar->addSeparator();
    auto* exportButton = new QToolButton(bar);
    exportButton->setIcon(theme::icon(QStringLiteral("export")));
    exportButton->setToolTip(tr("Export"));
    exportButton->setPopupMode(QToolButton::InstantPopup);
    exportButton->setMenu(m_exportMenu);
    bar->addWidget(exportButton);
}

void MainWindow::updateRecentMenu(const QStringList& files) {
    m_recentMenu->clear();
    for (int i = 0; i < files.size(); ++i) {
        const QString& path = files[i];
        QAction* action = m_recentMenu->addAction(QStringLiteral("&%1  %2").arg(
            i + 1 < 10 ? QString::number(i + 1) : QStringLiteral("0"), QFileInfo(path).fileName()));
        action->setToolTip(path);
        action->setStatusTip(path);
        connect(action, &QAction::triggered, this, [this, path] { m_files->openPath(path); });
    }
    if (!files.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("&Clear List"), m_files, &session::FileController::clearRecentFiles);
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::updatePresetChecks() {
    const QString id = m_bridge->originSummary().modified ? QString() : m_bridge->origin().presetId;
    for (QAction* action : m_presetGroup->actions()) {
        action->setChecked(!id.isEmpty() && action->data().toString() == id);
    }
    m_presetPicker->setCurrentPreset(m_bridge->origin().presetId);
}

void MainWindow::showShortcuts() {
    ShortcutsDialog dialog(m_menuActions, this);
    dialog.exec();
}

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About archplay"),
        tr("<h3>archplay %1</h3>"
           "<p>A playground for transformer architectures: drag a slider and every count recomputes.</p>"
           "<p>Parameter counts are unique trainable parameters (tied weights once, buffers excluded), as "
           "<code>model.num_parameters()</code> reports them.</p>"
           "<p>Licensed under the GNU GPL, version 3 or later.</p>")
            .arg(QStringLiteral(ARCHPLAY_VERSION)));
}

} // namespace archplay::ui::window
