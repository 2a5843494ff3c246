// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/Analysis.h"
#include "ui/Theme.h"

#include <QMainWindow>

#include <vector>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QTabWidget;
class QToolButton;

namespace archplay::ui {

class AnalysisView;
class ConfigPanel;
class DiagnosticsStrip;
class FileController;
class MessageBar;
class ModelBridge;
class PresetPicker;
class SummaryCards;
struct FileResult;
namespace exports {
class ExportActions;
}
struct OriginSummary;

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

    ModelBridge* bridge() const { return m_bridge; }
    FileController* files() const { return m_files; }
    ConfigPanel* configPanel() const { return m_configPanel; }
    SummaryCards* summaryCards() const { return m_summary; }
    DiagnosticsStrip* diagnostics() const { return m_diagnostics; }
    PresetPicker* presetPicker() const { return m_presetPicker; }
    MessageBar* messageBar() const { return m_messageBar; }
    const std::vector<AnalysisView*>& views() const { return m_views; }
    AnalysisView* currentView() const;
    /// Shows the view with this id; false when there is none.
    bool selectView(const QString& viewId);
    /// File > Export.
    QMenu* exportMenu() const { return m_exportMenu; }
    /// Export of views, reports and tables (File > Export and the views' context menus).
    exports::ExportActions* exportActions() const { return m_exportActions; }
    void setThemeMode(ThemeMode mode);
    /// The window's own state when nothing is restored: the default preset.
    void loadStartupState();
    /// Dock sizes for a fresh layout, scaled to the window (no saved layout, screenshots).
    void applyDefaultLayout();

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
    void updateTitle();
    void updateRecentMenu(const QStringList& files);
    void updatePresetChecks();
    void showFileResult(const FileResult& result);
    void focusField(const QString& key);
    void exportWindow();
    void showShortcuts();
    void showAbout();

    MainWindowOptions m_options;
    ModelBridge* m_bridge;
    FileController* m_files;
    ConfigPanel* m_configPanel = nullptr;
    SummaryCards* m_summary = nullptr;
    DiagnosticsStrip* m_diagnostics = nullptr;
    PresetPicker* m_presetPicker = nullptr;
    PresetPicker* m_presetPopupPicker = nullptr;
    MessageBar* m_messageBar = nullptr;
    QTabWidget* m_tabs = nullptr;
    exports::ExportActions* m_exportActions = nullptr;
    std::vector<AnalysisView*> m_views;
    QLabel* m_timingLabel = nullptr;

    QDockWidget* m_configDock = nullptr;
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

} // namespace archplay::ui
