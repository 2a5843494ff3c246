// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/MainWindow.h"

#include "core/io/Session.h"
#include "ui/Strings.h"
#include "ui/design/DesignWindow.h"
#include "ui/export/ExportActions.h"
#include "ui/export/ViewExporter.h"
#include "ui/panels/ConfigPanel.h"
#include "ui/panels/DevicesDialog.h"
#include "ui/panels/DiagnosticsStrip.h"
#include "ui/panels/PresetPicker.h"
#include "ui/panels/SummaryCards.h"
#include "ui/session/Autosave.h"
#include "ui/session/FileController.h"
#include "ui/session/GpuCatalogue.h"
#include "ui/session/ModelBridge.h"
#include "ui/session/SettingsWrite.h"
#include "ui/views/AnalysisView.h"
#include "ui/views/LayerSelection.h"
#include "ui/views/LayerStackView.h"
#include "ui/views/OverviewPage.h"
#include "ui/views/Views.h"
#include "ui/widgets/MessageBar.h"

#include <QActionGroup>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QUndoStack>
#include <QUndoView>
#include <QVBoxLayout>

#include <algorithm>

namespace archplay::ui::window {

namespace {

// 2: the scenario has its own dock, diagnostics start hidden behind their badge, and the last
// session is stored whole (origin, view, selected layer) under session/last.
constexpr int kSettingsVersion = 2;
const char* const kDefaultPreset = "llama-3-8b";

/// Whether the settings can be kept: writes the settings version and reads back QSettings' status.
/// Empty, or what a read-only or full settings folder costs the user.
QString settingsProblem() {
    const core::Status written = session::writeSettings(
        [](QSettings& settings) { settings.setValue(QStringLiteral("settingsVersion"), kSettingsVersion); });
    return written.ok()
               ? QString()
               : QCoreApplication::translate("MainWindow", "%1: recent files, your devices, zoo folders and the last "
                                                           "session are kept for this run only")
                     .arg(qs(written.error()));
}

QDockWidget* makeDock(const QString& title, const QString& objectName, QWidget* content, QWidget* parent) {
    auto* dock = new QDockWidget(title, parent);
    dock->setObjectName(objectName);
    dock->setWidget(content);
    return dock;
}

} // namespace

MainWindow::MainWindow(const MainWindowOptions& options, QWidget* parent)
    : QMainWindow(parent)
    , m_options(options)
    , m_bridge(new session::ModelBridge(this))
    , m_files(new session::FileController(m_bridge, this))
    , m_gpus(new session::GpuCatalogue(this)) {
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(theme::colorIcon(QStringLiteral("archplay")));
    setAcceptDrops(true);
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);

    auto* central = new QWidget(this);
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(4, 4, 4, 0);
    centralLayout->setSpacing(4);
    m_messageBar = new widgets::MessageBar(central);
    m_tabs = new QTabWidget(central);
    m_tabs->setObjectName(QStringLiteral("views"));
    m_tabs->setDocumentMode(true);
    m_views = views::createViews(m_tabs);
    for (views::AnalysisView* view : m_views.views) {
        const int index = m_tabs->addTab(view, view->tabTitle());
        m_tabs->setTabToolTip(index, view->title());
        if (auto* overview = qobject_cast<views::OverviewPage*>(view)) {
            connect(overview, &views::OverviewPage::expandRequested, this, &MainWindow::selectView);
        }
    }
    centralLayout->addWidget(m_messageBar);
    centralLayout->addWidget(m_tabs, 1);
    setCentralWidget(central);
    m_exportActions = new exports::ExportActions(m_bridge, m_tabs, m_views, this);
    connect(static_cast<views::LayerStackView*>(m_views.find(core::ViewKind::LayerStack)),
            &views::LayerStackView::layerOpened, this, [this] { selectView(core::ViewKind::LayerWeights); });

    createDocks();
    createActions();
    createMenus();
    createToolBar();
    m_diagnosticsBadge = new QToolButton(this);
    m_diagnosticsBadge->setObjectName(QStringLiteral("status.diagnostics"));
    m_diagnosticsBadge->setAutoRaise(true);
    m_diagnosticsBadge->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_diagnosticsBadge->setCheckable(true);
    m_diagnosticsBadge->setToolTip(
        tr("Show or hide the diagnostics: errors, warnings and hints, each naming its field"));
    statusBar()->addPermanentWidget(m_diagnosticsBadge);
    m_timingLabel = new QLabel(this);
    m_timingLabel->setObjectName(QStringLiteral("status.timing"));
    // A fixed size: the figure changes with every edit, and a label that resizes asks the status
    // bar to lay itself out again each time.
    m_timingLabel->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_timingLabel->setText(tr("analysis %1 µs").arg(999999.9, 0, 'f', 1));
    m_timingLabel->setFixedSize(m_timingLabel->sizeHint());
    m_timingLabel->clear();
    statusBar()->addPermanentWidget(m_timingLabel);
    connectBridge();

    resize(1280, 800);
    applyDefaultLayout();
    if (m_options.persistent) {
        const session::CatalogueResult devices = m_gpus->persistIn(QStringLiteral("devices/user"));
        if (!devices.ok) {
            m_messageBar->showMessage(widgets::MessageBar::Level::Warning, devices.message, devices.details);
        }
        restoreSettings();
        reportSavingProblem(QStringLiteral("settings"), settingsProblem());
        m_autosave = new session::Autosave(
            QStandardPaths::writableLocation(QStandardPaths::AppDataLocation),
            [this] {
                return QByteArray::fromStdString(core::sessionToJson(m_files->currentSession(), ARCHPLAY_VERSION));
            },
            this);
        connect(m_autosave, &session::Autosave::problemChanged, this,
                [this](const QString& problem) { reportSavingProblem(QStringLiteral("autosave"), problem); });
        if (m_autosave->acquire()) {
            connect(m_bridge, &session::ModelBridge::analysisChanged, m_autosave, &session::Autosave::schedule);
            QTimer::singleShot(0, this, &MainWindow::offerRecovery);
        }
    } else {
        loadStartupState();
    }
    updateTitle();
}

void MainWindow::reportSavingProblem(const QString& what, const QString& problem) {
    const QString before = m_savingProblems.value(what);
    if (problem.isEmpty()) {
        m_savingProblems.remove(what);
    } else {
        m_savingProblems.insert(what, problem);
    }
    core::Diagnostics problems;
    for (const QString& text : std::as_const(m_savingProblems)) {
        problems.push_back({core::Severity::Warning, "", text.toStdString()});
    }
    m_diagnostics->setSavingProblems(problems);
    if (!problem.isEmpty() && problem != before) {
        const QString text = tr("Not saved: %1.").arg(problem);
        statusBar()->showMessage(text, 10000);
        m_messageBar->showMessage(widgets::MessageBar::Level::Warning, text);
    }
}

void MainWindow::offerRecovery() {
    const QByteArray copy = m_autosave ? m_autosave->leftover() : QByteArray();
    const core::SessionReadResult read = core::sessionFromJson(copy.toStdString());
    if (copy.isEmpty() || !read.session) {
        return;
    }
    // Nothing to offer when the copy holds what the window already shows.
    if (copy.toStdString() == core::sessionToJson(m_files->currentSession(), ARCHPLAY_VERSION)) {
        return;
    }
    const QString label = qs(read.session->origin.label);
    QMessageBox box(QMessageBox::Question, tr("Restore unsaved work?"),
                    tr("archplay did not close normally last time. Restore the session it was showing%1?")
                        .arg(label.isEmpty() ? QString() : tr(" (%1)").arg(label)),
                    QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("dialog.restore"));
    box.setInformativeText(tr("It was saved automatically a moment after its last edit. Discard shows the last "
                              "session archplay closed with instead."));
    QPushButton* restore = box.addButton(tr("Restore"), QMessageBox::AcceptRole);
    box.addButton(QMessageBox::Discard);
    box.setDefaultButton(restore);
    box.exec();
    if (box.clickedButton() == restore) {
        restoreSession(*read.session, true);
        statusBar()->showMessage(tr("Restored the session saved before archplay stopped."), 8000);
    }
    (void)m_autosave->saveNow();
}

void MainWindow::restoreSession(const core::Session& session, bool unsaved) {
    m_bridge->resetState(m_files->stateFrom(session));
    const session::ConfigOrigin& origin = m_bridge->origin();
    // A restored session's origin is proposed by Save As, never written to without asking.
    m_files->setProvenance(origin.kind == session::ConfigOrigin::Kind::File ? origin.path : QString());
    m_bridge->setRestoredUnsaved(unsaved);
    applySessionView(session);
}

MainWindow::~MainWindow() {
    // Children die after this body; the bridge must not call back into a window being torn down.
    m_bridge->disconnect(this);
    m_bridge->undoStack()->disconnect(this);
    m_files->disconnect(this);
}

void MainWindow::createDocks() {
    // The summary spans the full width above the side docks; the config panel runs full height.
    setCorner(Qt::TopLeftCorner, Qt::TopDockWidgetArea);
    setCorner(Qt::TopRightCorner, Qt::TopDockWidgetArea);
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);

    m_configPanel = new panels::ConfigPanel(m_bridge, panels::ConfigPanel::Content::Model, this);
    m_configDock = makeDock(tr("Configuration"), QStringLiteral("dock.config"), m_configPanel, this);
    m_configDock->setMinimumWidth(300);
    addDockWidget(Qt::LeftDockWidgetArea, m_configDock);

    // The scenario is one tab away from the model's forty fields, never below them.
    m_scenarioPanel =
        new panels::ConfigPanel(m_bridge, panels::ConfigPanel::Content::Scenario, this, m_configPanel->snapAction());
    m_scenarioPanel->setGpuCatalogue(m_gpus);
    m_scenarioDock = makeDock(tr("Scenario"), QStringLiteral("dock.scenario"), m_scenarioPanel, this);
    addDockWidget(Qt::LeftDockWidgetArea, m_scenarioDock);
    tabifyDockWidget(m_configDock, m_scenarioDock);

    m_presetPicker = new panels::PresetPicker(this);
    m_presetDock = makeDock(tr("Presets"), QStringLiteral("dock.presets"), m_presetPicker, this);
    addDockWidget(Qt::LeftDockWidgetArea, m_presetDock);
    tabifyDockWidget(m_scenarioDock, m_presetDock);
    m_configDock->raise();

    m_summary = new panels::SummaryCards(this);
    m_summaryDock = makeDock(tr("Summary"), QStringLiteral("dock.summary"), m_summary, this);
    m_summaryDock->setTitleBarWidget(new QWidget(m_summaryDock));
    m_summaryDock->setFeatures(QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::TopDockWidgetArea, m_summaryDock);

    m_diagnostics = new panels::DiagnosticsStrip(this);
    m_diagnosticsDock = makeDock(tr("Diagnostics"), QStringLiteral("dock.diagnostics"), m_diagnostics, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_diagnosticsDock);
    // Diagnostics take no room until asked for (the status-bar badge counts them) or until there
    // is an error.
    m_diagnosticsDock->hide();

    auto* history = new QUndoView(m_bridge->undoStack(), this);
    history->setEmptyLabel(tr("<start>"));
    m_historyDock = makeDock(tr("Undo History"), QStringLiteral("dock.history"), history, this);
    addDockWidget(Qt::RightDockWidgetArea, m_historyDock);
    m_historyDock->hide();
}

void MainWindow::applyDefaultLayout() {
    resizeDocks({m_configDock}, {std::clamp(width() * 3 / 10, 400, 520)}, Qt::Horizontal);
    resizeDocks({m_diagnosticsDock}, {std::clamp(height() / 8, 90, 160)}, Qt::Vertical);
}

void MainWindow::connectBridge() {
    connect(m_bridge, &session::ModelBridge::analysisChanged, m_summary, &panels::SummaryCards::setAnalysis);
    connect(m_bridge, &session::ModelBridge::analysisChanged, m_diagnostics, &panels::DiagnosticsStrip::setAnalysis);
    for (views::AnalysisView* view : m_views.views) {
        connect(m_bridge, &session::ModelBridge::analysisChanged, view, &views::AnalysisView::offer);
        view->setSharedAnalysis(m_bridge->sharedAnalysis());
    }
    connect(m_bridge, &session::ModelBridge::analysisChanged, this, [this] {
        m_timingLabel->setText(
            tr("analysis %1 µs").arg(double(m_bridge->lastAnalysisNanoseconds()) / 1000.0, 0, 'f', 1));
    });
    connect(m_bridge, &session::ModelBridge::originChanged, m_summary, &panels::SummaryCards::setOrigin);
    connect(m_bridge, &session::ModelBridge::originChanged, this, [this] {
        updateTitle();
        updatePresetChecks();
        m_revertAction->setEnabled(m_bridge->originSummary().modified);
    });
    connect(m_bridge, &session::ModelBridge::unsavedChanged, this, &MainWindow::updateTitle);
    connect(m_gpus, &session::GpuCatalogue::deviceReplaced, this, &MainWindow::followReplacedDevice);
    connect(m_bridge, &session::ModelBridge::notice, this,
            [this](const QString& message) { m_messageBar->showMessage(widgets::MessageBar::Level::Info, message); });
    connect(m_bridge, &session::ModelBridge::analysisChanged, this, &MainWindow::updateTitle);
    m_files->setSessionDecorator([this](core::Session& session) {
        if (const views::AnalysisView* view = currentView()) {
            session.view = view->kind();
        }
        if (m_views.layerSelection->layer() >= 0) {
            session.selectedLayer = m_views.layerSelection->layer();
        }
    });
    connect(m_files, &session::FileController::sessionOpened, this, &MainWindow::applySessionView);
    m_summary->setAnalysis(m_bridge->sharedAnalysis());
    m_summary->setOrigin(m_bridge->originSummary());
    m_diagnostics->setAnalysis(m_bridge->sharedAnalysis());

    connect(m_diagnostics, &panels::DiagnosticsStrip::fieldActivated, this, &MainWindow::focusField);
    connect(m_diagnostics, &panels::DiagnosticsStrip::summaryChanged, this, &MainWindow::updateDiagnosticsBadge);
    connect(m_diagnosticsBadge, &QToolButton::toggled, m_diagnosticsDock, &QDockWidget::setVisible);
    connect(m_diagnosticsDock->toggleViewAction(), &QAction::toggled, m_diagnosticsBadge, &QToolButton::setChecked);
    updateDiagnosticsBadge();
    connect(m_presetPicker, &panels::PresetPicker::presetChosen, m_bridge, &session::ModelBridge::loadPreset);
    connect(m_files, &session::FileController::finished, this, &MainWindow::showFileResult);
    connect(m_exportActions, &exports::ExportActions::finished, this, [this](bool ok, const QString& message) {
        if (ok) {
            statusBar()->showMessage(message, 5000);
        } else {
            m_messageBar->showMessage(widgets::MessageBar::Level::Error, message);
        }
    });
    connect(m_files, &session::FileController::recentFilesChanged, this, &MainWindow::updateRecentMenu);
    connect(m_files, &session::FileController::currentPathChanged, this, &MainWindow::updateTitle);
}

void MainWindow::loadStartupState() {
    if (auto state = m_bridge->presetState(QString::fromLatin1(kDefaultPreset))) {
        m_bridge->resetState(*state);
    } else if (!core::builtinPresets().empty()) {
        if (auto first = m_bridge->presetState(qs(core::builtinPresets().front().info.id))) {
            m_bridge->resetState(*first);
        }
    }
}

views::AnalysisView* MainWindow::currentView() const {
    const int index = m_tabs->currentIndex();
    return index >= 0 ? m_views.views[std::size_t(index)] : nullptr;
}

void MainWindow::selectView(core::ViewKind kind) {
    m_tabs->setCurrentWidget(m_views.find(kind));
}

void MainWindow::setThemeMode(theme::ThemeMode mode) {
    theme::applyTheme(mode);
    for (QAction* action : m_themeGroup->actions()) {
        action->setChecked(action->data().toInt() == int(mode));
    }
}

void MainWindow::updateTitle() {
    const session::OriginSummary origin = m_bridge->originSummary();
    QString label = origin.label.isEmpty() ? tr("Untitled") : origin.label;
    if (origin.modified) {
        label = tr("%1 (modified)").arg(label);
    }
    setWindowTitle(QStringLiteral("%1[*] — archplay").arg(label));
    setWindowModified(m_bridge->hasUnsavedChanges());
}

void MainWindow::updateDiagnosticsBadge() {
    const std::optional<core::Severity> worst = m_diagnostics->worstSeverity();
    const QString summary = m_diagnostics->summary();
    m_diagnosticsBadge->setText(summary);
    m_diagnosticsBadge->setIcon(worst ? theme::severityIcon(*worst) : theme::okIcon());
    m_diagnosticsDock->setWindowTitle(tr("Diagnostics — %1").arg(summary));
    // An error appears: the list opens once, since every figure is then withheld; closing it again
    // is the user's choice.
    const bool errors = worst == core::Severity::Error;
    if (errors && !m_diagnosticsHadErrors) {
        m_diagnosticsDock->show();
    }
    m_diagnosticsHadErrors = errors;
}

void MainWindow::applySessionView(const core::Session& session) {
    if (session.selectedLayer) {
        m_views.layerSelection->setLayer(*session.selectedLayer);
    }
    if (session.view) {
        selectView(*session.view);
    }
}

bool MainWindow::confirmDiscard() {
    if (!m_bridge->hasUnsavedChanges()) {
        return true;
    }
    const session::OriginSummary origin = m_bridge->originSummary();
    QMessageBox box(
        QMessageBox::Warning, tr("Unsaved changes"),
        tr("%1 has changes that are in no file.").arg(origin.label.isEmpty() ? tr("The config") : origin.label),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("dialog.unsaved"));
    box.setInformativeText(tr("Save them as a session (config, scenario and view)? Quitting without saving still "
                              "reopens them next time, but they are in no file you can share."));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
    case QMessageBox::Save:
        return m_files->saveSessionInteractive();
    case QMessageBox::Discard:
        return true;
    default:
        return false;
    }
}

void MainWindow::showFileResult(const session::FileResult& result) {
    if (!result.ok) {
        m_messageBar->showMessage(widgets::MessageBar::Level::Error, result.message, result.details);
        statusBar()->showMessage(result.message, 8000);
        return;
    }
    statusBar()->showMessage(result.message, 5000);
    if (!result.details.isEmpty()) {
        m_messageBar->showMessage(widgets::MessageBar::Level::Info, result.message, result.details);
    } else if (m_messageBar->isVisible() && m_messageBar->level() == widgets::MessageBar::Level::Error) {
        m_messageBar->hide();
    }
    if (result.loaded) {
        m_diagnostics->setImportNotes(result.notes, tr("import"));
    }
}

void MainWindow::focusField(const QString& key) {
    for (auto [panel, dock] : {std::pair{m_configPanel, m_configDock}, std::pair{m_scenarioPanel, m_scenarioDock}}) {
        if (panel->editorFor(key)) {
            dock->show();
            dock->raise();
            if (panel->focusField(key)) {
                return;
            }
        }
    }
    statusBar()->showMessage(tr("%1 has no field shown for this architecture.").arg(key), 5000);
}

panels::DevicesDialog* MainWindow::showDevices() {
    if (!m_devicesDialog) {
        m_devicesDialog = new panels::DevicesDialog(m_gpus, this);
    }
    m_devicesDialog->show();
    m_devicesDialog->raise();
    m_devicesDialog->activateWindow();
    return m_devicesDialog;
}

design::DesignWindow* MainWindow::showDesign() {
    if (!m_designWindow) {
        m_designWindow = new design::DesignWindow(m_bridge, this);
        connect(m_designWindow, &design::DesignWindow::message, this,
                [this](const QString& text) { statusBar()->showMessage(text, 8000); });
    }
    m_designWindow->show();
    m_designWindow->raise();
    m_designWindow->activateWindow();
    return m_designWindow;
}

void MainWindow::followReplacedDevice(const core::Gpu& before, const core::Gpu& after) {
    if (m_bridge->scenario().gpu == before) {
        m_bridge->edit(tr("GPU → %1 (edited)").arg(qs(after.name)),
                       [after](core::ModelConfig&, core::Scenario& scenario) { scenario.gpu = after; });
    }
}

void MainWindow::exportWindow() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export window"), QStringLiteral("archplay.png"),
                                                      tr("PNG files (*.png)"));
    if (path.isEmpty()) {
        return;
    }
    const core::Status written = exports::saveWidgetPng(*this, path);
    if (written.ok()) {
        statusBar()->showMessage(tr("Exported %1.").arg(QFileInfo(path).fileName()), 5000);
    } else {
        m_messageBar->showMessage(widgets::MessageBar::Level::Error,
                                  tr("Could not export: %1").arg(qs(written.error())));
    }
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const QMimeData* mime = event->mimeData();
    const QList<QUrl> urls = mime->urls();
    const bool localFile = !urls.isEmpty() && urls.constFirst().isLocalFile();
    if (localFile || mime->hasText()) {
        event->acceptProposedAction();
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QMimeData* mime = event->mimeData();
    const QList<QUrl> urls = mime->urls();
    if (!urls.isEmpty() && urls.constFirst().isLocalFile()) {
        m_files->openPath(urls.constFirst().toLocalFile());
        event->acceptProposedAction();
    } else if (mime->hasText()) {
        m_files->openText(mime->text());
        event->acceptProposedAction();
    }
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!confirmDiscard()) {
        event->ignore();
        return;
    }
    if (m_options.persistent) {
        saveSettings();
    }
    if (m_autosave) {
        m_autosave->finish(); // a clean exit: nothing to offer next time
    }
    event->accept();
}

void MainWindow::restoreSettings() {
    QSettings settings;
    const bool compatible = settings.value(QStringLiteral("settingsVersion")).toInt() == kSettingsVersion;
    if (const auto mode = theme::parseThemeMode(settings.value(QStringLiteral("ui/theme")).toString())) {
        setThemeMode(*mode);
    }
    if (compatible) {
        restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
        restoreState(settings.value(QStringLiteral("window/state")).toByteArray(), kSettingsVersion);
    }
    m_configPanel->snapAction()->setChecked(settings.value(QStringLiteral("ui/snap"), true).toBool());
    m_configPanel->setKeepFfnRatio(settings.value(QStringLiteral("ui/keepFfnRatio"), false).toBool());
    m_configPanel->setCollapsedSections(settings.value(QStringLiteral("ui/collapsedSections")).toStringList());
    m_scenarioPanel->setCollapsedSections(
        settings.value(QStringLiteral("ui/collapsedScenarioSections")).toStringList());
    m_files->setRecentFiles(settings.value(QStringLiteral("files/recent")).toStringList());

    const QByteArray last = settings.value(QStringLiteral("session/last")).toByteArray();
    core::SessionReadResult read = core::sessionFromJson(last.toStdString());
    if (!last.isEmpty() && read.session) {
        restoreSession(*read.session, settings.value(QStringLiteral("session/unsaved"), false).toBool());
    } else {
        loadStartupState();
    }
}

void MainWindow::saveSettings() const {
    QSettings settings;
    settings.setValue(QStringLiteral("settingsVersion"), kSettingsVersion);
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState(kSettingsVersion));
    settings.setValue(QStringLiteral("ui/theme"), toString(theme::currentThemeMode()));
    settings.setValue(QStringLiteral("ui/snap"), m_configPanel->snapAction()->isChecked());
    settings.setValue(QStringLiteral("ui/keepFfnRatio"), m_configPanel->keepsFfnRatio());
    settings.setValue(QStringLiteral("ui/collapsedSections"), m_configPanel->collapsedSections());
    settings.setValue(QStringLiteral("ui/collapsedScenarioSections"), m_scenarioPanel->collapsedSections());
    settings.setValue(QStringLiteral("files/recent"), m_files->recentFiles());
    settings.remove(QStringLiteral("ui/view")); // the session carries the view since settings version 2
    settings.setValue(QStringLiteral("session/last"),
                      QByteArray::fromStdString(core::sessionToJson(m_files->currentSession(), ARCHPLAY_VERSION)));
    settings.setValue(QStringLiteral("session/unsaved"), m_bridge->hasUnsavedChanges());
    settings.remove(QStringLiteral("session/originPath"));
    settings.remove(QStringLiteral("session/originLabel"));
}

} // namespace archplay::ui::window
