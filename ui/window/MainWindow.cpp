// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/MainWindow.h"

#include "core/io/Session.h"
#include "ui/Strings.h"
#include "ui/export/ExportActions.h"
#include "ui/export/ViewExporter.h"
#include "ui/panels/ConfigPanel.h"
#include "ui/panels/DiagnosticsStrip.h"
#include "ui/panels/PresetPicker.h"
#include "ui/panels/SummaryCards.h"
#include "ui/session/FileController.h"
#include "ui/session/ModelBridge.h"
#include "ui/views/AnalysisView.h"
#include "ui/views/LayerStackView.h"
#include "ui/views/OverviewPage.h"
#include "ui/views/Views.h"
#include "ui/widgets/MessageBar.h"

#include <QActionGroup>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoStack>
#include <QUndoView>
#include <QVBoxLayout>

#include <algorithm>

namespace archplay::ui::window {

namespace {

constexpr int kSettingsVersion = 1;
const char* const kDefaultPreset = "llama-3-8b";

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
    , m_files(new session::FileController(m_bridge, this)) {
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
        m_tabs->addTab(view, view->title());
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
    m_timingLabel = new QLabel(this);
    m_timingLabel->setObjectName(QStringLiteral("status.timing"));
    statusBar()->addPermanentWidget(m_timingLabel);
    connectBridge();

    resize(1280, 800);
    applyDefaultLayout();
    if (m_options.persistent) {
        restoreSettings();
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

    m_configPanel = new panels::ConfigPanel(m_bridge, this);
    m_configDock = makeDock(tr("Configuration"), QStringLiteral("dock.config"), m_configPanel, this);
    m_configDock->setMinimumWidth(300);
    addDockWidget(Qt::LeftDockWidgetArea, m_configDock);

    m_presetPicker = new panels::PresetPicker(this);
    m_presetDock = makeDock(tr("Presets"), QStringLiteral("dock.presets"), m_presetPicker, this);
    addDockWidget(Qt::LeftDockWidgetArea, m_presetDock);
    tabifyDockWidget(m_configDock, m_presetDock);
    m_configDock->raise();

    m_summary = new panels::SummaryCards(this);
    m_summaryDock = makeDock(tr("Summary"), QStringLiteral("dock.summary"), m_summary, this);
    m_summaryDock->setTitleBarWidget(new QWidget(m_summaryDock));
    m_summaryDock->setFeatures(QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::TopDockWidgetArea, m_summaryDock);

    m_diagnostics = new panels::DiagnosticsStrip(this);
    m_diagnosticsDock = makeDock(tr("Diagnostics"), QStringLiteral("dock.diagnostics"), m_diagnostics, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_diagnosticsDock);

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
    connect(m_bridge->undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    m_summary->setAnalysis(m_bridge->sharedAnalysis());
    m_summary->setOrigin(m_bridge->originSummary());
    m_diagnostics->setAnalysis(m_bridge->sharedAnalysis());

    connect(m_diagnostics, &panels::DiagnosticsStrip::fieldActivated, this, &MainWindow::focusField);
    connect(m_diagnostics, &panels::DiagnosticsStrip::summaryChanged, this,
            [this](const QString& summary) { m_diagnosticsDock->setWindowTitle(tr("Diagnostics — %1").arg(summary)); });
    m_diagnosticsDock->setWindowTitle(tr("Diagnostics — %1").arg(m_diagnostics->summary()));
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
        if (auto first = m_bridge->presetState(QString::fromStdString(core::builtinPresets().front().info.id))) {
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
    setWindowModified(!m_bridge->undoStack()->isClean());
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
    m_configDock->show();
    m_configDock->raise();
    if (!m_configPanel->focusField(key)) {
        statusBar()->showMessage(tr("%1 has no field shown for this architecture.").arg(key), 5000);
    }
}

void MainWindow::exportWindow() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export window"), QStringLiteral("archplay.png"),
                                                      tr("PNG files (*.png)"));
    if (path.isEmpty()) {
        return;
    }
    const QString error = exports::saveWidgetPng(*this, path);
    if (error.isEmpty()) {
        statusBar()->showMessage(tr("Exported %1.").arg(QFileInfo(path).fileName()), 5000);
    } else {
        m_messageBar->showMessage(widgets::MessageBar::Level::Error, tr("Could not export: %1").arg(error));
    }
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const QMimeData* mime = event->mimeData();
    const bool localFile = mime->hasUrls() && !mime->urls().isEmpty() && mime->urls().front().isLocalFile();
    if (localFile || mime->hasText()) {
        event->acceptProposedAction();
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QMimeData* mime = event->mimeData();
    if (mime->hasUrls() && !mime->urls().isEmpty() && mime->urls().front().isLocalFile()) {
        m_files->openPath(mime->urls().front().toLocalFile());
        event->acceptProposedAction();
    } else if (mime->hasText()) {
        m_files->openText(mime->text());
        event->acceptProposedAction();
    }
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (m_options.persistent) {
        saveSettings();
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
    m_files->setRecentFiles(settings.value(QStringLiteral("files/recent")).toStringList());
    if (const auto kind = core::parseViewKind(settings.value(QStringLiteral("ui/view")).toString().toStdString())) {
        selectView(*kind);
    }

    const QByteArray last = settings.value(QStringLiteral("session/last")).toByteArray();
    core::SessionReadResult read = core::sessionFromJson(last.toStdString());
    if (!last.isEmpty() && read.session) {
        const QString path = settings.value(QStringLiteral("session/originPath")).toString();
        const QString label = settings.value(QStringLiteral("session/originLabel")).toString();
        m_bridge->resetState(m_files->stateFrom(*read.session, label, path));
        if (!path.isEmpty() && m_bridge->origin().kind == session::ConfigOrigin::Kind::File) {
            m_files->setCurrentPath(path);
        }
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
    settings.setValue(QStringLiteral("files/recent"), m_files->recentFiles());
    if (const views::AnalysisView* view = currentView()) {
        settings.setValue(QStringLiteral("ui/view"), qs(core::toString(view->kind())));
    }
    core::Session session{m_bridge->config(), m_bridge->scenario(), m_bridge->origin().presetId.toStdString()};
    settings.setValue(QStringLiteral("session/last"),
                      QByteArray::fromStdString(core::sessionToJson(session, ARCHPLAY_VERSION)));
    const session::ConfigOrigin& origin = m_bridge->origin();
    settings.setValue(QStringLiteral("session/originPath"),
                      origin.kind == session::ConfigOrigin::Kind::File ? origin.path : QString());
    settings.setValue(QStringLiteral("session/originLabel"), origin.label);
}

} // namespace archplay::ui::window
