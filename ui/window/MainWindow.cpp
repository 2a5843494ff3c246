// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/MainWindow.h"

#include "core/io/Session.h"
#include "ui/Strings.h"
#include "ui/design/DesignWindow.h"
#include "ui/export/ExportActions.h"
#include "ui/panels/ConfigPanel.h"
#include "ui/panels/DevicesDialog.h"
#include "ui/panels/DiagnosticsStrip.h"
#include "ui/panels/PresetPicker.h"
#include "ui/panels/SummaryCards.h"
#include "ui/session/Autosave.h"
#include "ui/session/FileController.h"
#include "ui/session/GpuCatalogue.h"
#include "ui/session/ModelBridge.h"
#include "ui/views/AnalysisView.h"
#include "ui/views/LayerSelection.h"
#include "ui/views/LayerStackView.h"
#include "ui/views/OverviewPage.h"
#include "ui/views/Views.h"
#include "ui/widgets/MessageBar.h"
#include "ui/window/WindowSettings.h"

#include <QActionGroup>
#include <QDockWidget>
#include <QLabel>
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
        const session::CatalogueResult devices = m_gpus->persist();
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

} // namespace archplay::ui::window
