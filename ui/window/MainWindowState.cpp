// SPDX-License-Identifier: GPL-3.0-or-later
// The window's state across runs and its files: settings kept and restored, the automatic copy
// offered back after a crash, sessions restored, unsaved changes confirmed, file results shown,
// drops opened, the window exported.
#include "core/io/Presets.h"
#include "core/io/Session.h"
#include "ui/Strings.h"
#include "ui/export/ViewExporter.h"
#include "ui/panels/ConfigPanel.h"
#include "ui/panels/DiagnosticsStrip.h"
#include "ui/session/Autosave.h"
#include "ui/session/FileController.h"
#include "ui/session/ModelBridge.h"
#include "ui/session/Settings.h"
#include "ui/views/LayerSelection.h"
#include "ui/widgets/MessageBar.h"
#include "ui/window/MainWindow.h"
#include "ui/window/WindowSettings.h"

#include <QCloseEvent>
#include <QCoreApplication>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>

namespace archplay::ui::window {

namespace {

const char* const kDefaultPreset = "llama-3-8b";

} // namespace

QString settingsProblem() {
    const core::Status written = session::writeSettings(
        [](QSettings& store) { session::settings::version.write(store, session::settings::kVersion); });
    return written.ok()
               ? QString()
               : QCoreApplication::translate("MainWindow", "%1: recent files, your devices, zoo folders and the last "
                                                           "session are kept for this run only")
                     .arg(qs(written.error()));
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

void MainWindow::loadStartupState() {
    if (auto state = m_bridge->presetState(QString::fromLatin1(kDefaultPreset))) {
        m_bridge->resetState(*state);
    } else if (!core::builtinPresets().empty()) {
        if (auto first = m_bridge->presetState(qs(core::builtinPresets().front().info.id))) {
            m_bridge->resetState(*first);
        }
    }
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
    namespace settings = session::settings;
    const QSettings store;
    const bool compatible = settings::version.read(store) == settings::kVersion;
    if (const auto mode = theme::parseThemeMode(settings::theme.read(store))) {
        setThemeMode(*mode);
    }
    if (compatible) {
        restoreGeometry(settings::windowGeometry.read(store));
        restoreState(settings::windowState.read(store), settings::kVersion);
    }
    m_configPanel->snapAction()->setChecked(settings::snap.read(store));
    m_configPanel->setKeepFfnRatio(settings::keepFfnRatio.read(store));
    m_configPanel->setCollapsedSections(settings::collapsedSections.read(store));
    m_scenarioPanel->setCollapsedSections(settings::collapsedScenarioSections.read(store));
    m_files->setRecentFiles(settings::recentFiles.read(store));

    const QByteArray last = settings::lastSession.read(store);
    core::SessionReadResult read = core::sessionFromJson(last.toStdString());
    if (!last.isEmpty() && read.session) {
        restoreSession(*read.session, settings::lastSessionUnsaved.read(store));
    } else {
        loadStartupState();
    }
}

void MainWindow::saveSettings() const {
    namespace settings = session::settings;
    QSettings store;
    settings::version.write(store, settings::kVersion);
    settings::windowGeometry.write(store, saveGeometry());
    settings::windowState.write(store, saveState(settings::kVersion));
    settings::theme.write(store, toString(theme::currentThemeMode()));
    settings::snap.write(store, m_configPanel->snapAction()->isChecked());
    settings::keepFfnRatio.write(store, m_configPanel->keepsFfnRatio());
    settings::collapsedSections.write(store, m_configPanel->collapsedSections());
    settings::collapsedScenarioSections.write(store, m_scenarioPanel->collapsedSections());
    settings::recentFiles.write(store, m_files->recentFiles());
    settings::lastSession.write(
        store, QByteArray::fromStdString(core::sessionToJson(m_files->currentSession(), ARCHPLAY_VERSION)));
    settings::lastSessionUnsaved.write(store, m_bridge->hasUnsavedChanges());
    for (const QLatin1StringView key : settings::retired) {
        store.remove(key);
    }
}

} // namespace archplay::ui::window
