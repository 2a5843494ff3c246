// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "ui/theme/Theme.h"
#include "ui/views/Views.h"

#include <QMainWindow>
#include <QMap>

#include <vector>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QTabWidget;
class QToolButton;

namespace archplay::core {
struct Session;
}
namespace archplay::ui::design {
class DesignWindow;
}
namespace archplay::ui::exports {
class ExportActions;
}
namespace archplay::ui::panels {
class ConfigPanel;
class DevicesDialog;
class DiagnosticsStrip;
class PresetPicker;
class SummaryCards;
} // namespace archplay::ui::panels
namespace archplay::ui::session {
class Autosave;
class FileController;
class GpuCatalogue;
class ModelBridge;
struct FileResult;
struct OriginSummary;
} // namespace archplay::ui::session
namespace archplay::ui::views {
class AnalysisView;
}
namespace archplay::ui::widgets {
class MessageBar;
}

namespace archplay::ui::window {

struct MainWindowOptions {
    /// Restore and save geometry, docks, theme, recent files and the last config (QSettings).
    /// Off for screenshots and tests.
    bool persistent = true;
};

/// The playground window. It composes the panels, views, menus and actions; everything it shows
/// comes from the bridge's Analysis.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(const MainWindowOptions& options = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    session::ModelBridge* bridge() const { return m_bridge; }
    session::FileController* files() const { return m_files; }
    /// The devices the scenario picks from: built-in and the user's (kept in QSettings when persistent).
    session::GpuCatalogue* gpuCatalogue() const { return m_gpus; }
    /// Tools > Devices: shows the device catalogue's dialog (created on first use) and returns it.
    panels::DevicesDialog* showDevices();
    /// Tools > Design: compare, sweep, search and head configurations (created on first use).
    design::DesignWindow* showDesign();
    panels::ConfigPanel* configPanel() const { return m_configPanel; }
    /// The scenario's fields (sequence length, batch, precisions, GPUs) in their own dock tab.
    panels::ConfigPanel* scenarioPanel() const { return m_scenarioPanel; }
    /// The status-bar button that counts the diagnostics and shows or hides their dock.
    QToolButton* diagnosticsBadge() const { return m_diagnosticsBadge; }
    QDockWidget* diagnosticsDock() const { return m_diagnosticsDock; }
    QDockWidget* scenarioDock() const { return m_scenarioDock; }
    panels::SummaryCards* summaryCards() const { return m_summary; }
    panels::DiagnosticsStrip* diagnostics() const { return m_diagnostics; }
    panels::PresetPicker* presetPicker() const { return m_presetPicker; }
    widgets::MessageBar* messageBar() const { return m_messageBar; }
    const std::vector<views::AnalysisView*>& views() const { return m_views.views; }
    views::AnalysisView* currentView() const;
    /// Shows the view of this kind.
    void selectView(core::ViewKind kind);
    /// File > Export.
    QMenu* exportMenu() const { return m_exportMenu; }
    /// Export of views, reports and tables (File > Export and the views' context menus).
    exports::ExportActions* exportActions() const { return m_exportActions; }
    void setThemeMode(theme::ThemeMode mode);
    /// The window's own state when nothing is restored: the default preset.
    void loadStartupState();
    /// Dock sizes for a fresh layout, scaled to the window (no saved layout, screenshots).
    void applyDefaultLayout();
    /// The copy of the session kept on disk while the window runs; null when not persistent.
    session::Autosave* autosave() const { return m_autosave; }
    /// Offers to restore the session a run that ended without a clean exit left behind: Restore or
    /// Discard (a QMessageBox named "dialog.restore"). Called once the event loop runs.
    void offerRecovery();

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createDocks();
    void createActions();
    void createMenus();
    void createToolBar();
    void connectBridge();
    void restoreSettings();
    void saveSettings() const;
    /// Shows a session: its config, scenario and origin as one reset, then its view and layer.
    void restoreSession(const core::Session& session, bool unsaved);
    void updateTitle();
    void updateDiagnosticsBadge();
    /// Asks what to do with unsaved work; false when the user cancels (or a save fails).
    bool confirmDiscard();
    /// The view and selected layer a session carries.
    void applySessionView(const core::Session& session);
    void updateRecentMenu(const QStringList& files);
    void updatePresetChecks();
    void showFileResult(const session::FileResult& result);
    void focusField(const QString& key);
    void exportWindow();
    void showShortcuts();
    void showAbout();
    /// A device of the user's was edited: the scenario that uses it follows, as one undo step.
    void followReplacedDevice(const core::Gpu& before, const core::Gpu& after);
    /// `what` (the automatic copy, the settings) could not be kept: says so once in the status bar
    /// and the message bar, and lists it in the diagnostics until it can again (an empty `problem`).
    void reportSavingProblem(const QString& what, const QString& problem);

    MainWindowOptions m_options;
    session::ModelBridge* m_bridge;
    session::FileController* m_files;
    session::GpuCatalogue* m_gpus;
    session::Autosave* m_autosave = nullptr;
    QMap<QString, QString> m_savingProblems; ///< what could not be kept, and why
    panels::DevicesDialog* m_devicesDialog = nullptr;
    design::DesignWindow* m_designWindow = nullptr;
    panels::ConfigPanel* m_configPanel = nullptr;
    panels::ConfigPanel* m_scenarioPanel = nullptr;
    panels::SummaryCards* m_summary = nullptr;
    panels::DiagnosticsStrip* m_diagnostics = nullptr;
    panels::PresetPicker* m_presetPicker = nullptr;
    panels::PresetPicker* m_presetPopupPicker = nullptr;
    widgets::MessageBar* m_messageBar = nullptr;
    QTabWidget* m_tabs = nullptr;
    exports::ExportActions* m_exportActions = nullptr;
    views::ViewSet m_views;
    QLabel* m_timingLabel = nullptr;
    QToolButton* m_diagnosticsBadge = nullptr;
    bool m_diagnosticsHadErrors = false;

    QDockWidget* m_configDock = nullptr;
    QDockWidget* m_scenarioDock = nullptr;
    QDockWidget* m_presetDock = nullptr;
    QDockWidget* m_summaryDock = nullptr;
    QDockWidget* m_diagnosticsDock = nullptr;
    QDockWidget* m_historyDock = nullptr;

    QAction* m_openAction = nullptr;
    QAction* m_openEstimateAction = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_saveAsAction = nullptr;
    QAction* m_saveSessionAction = nullptr;
    QAction* m_quitAction = nullptr;
    QAction* m_undoAction = nullptr;
    QAction* m_redoAction = nullptr;
    QAction* m_copyAction = nullptr;
    QAction* m_pasteAction = nullptr;
    QAction* m_revertAction = nullptr;
    QAction* m_findPresetAction = nullptr;
    QAction* m_toggleThemeAction = nullptr;
    QAction* m_fullScreenAction = nullptr;
    QAction* m_devicesAction = nullptr;
    QAction* m_designAction = nullptr;
    QAction* m_shortcutsAction = nullptr;
    QAction* m_aboutAction = nullptr;
    QActionGroup* m_themeGroup = nullptr;
    QActionGroup* m_presetGroup = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_exportMenu = nullptr;
    QMenu* m_presetPopup = nullptr;
    QToolButton* m_presetButton = nullptr;
    QList<QPair<QString, QList<QAction*>>> m_menuActions;
};

} // namespace archplay::ui::window
