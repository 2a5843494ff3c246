// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/session/FileController.h"

#include "core/io/ConfigJson.h"
#include "core/io/Files.h"
#include "core/io/Session.h"
#include "ui/Strings.h"
#include "ui/session/AtomicWrite.h"
#include "ui/session/ModelBridge.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QUndoStack>

namespace archplay::ui::session {

namespace {

constexpr int kMaxRecentFiles = 10;

QString jsonFilter() {
    return FileController::tr("JSON files (*.json);;All files (*)");
}

} // namespace

QStringList describe(const core::Diagnostics& diagnostics) {
    QStringList lines;
    for (const core::Diagnostic& diagnostic : diagnostics) {
        const QString message = qs(diagnostic.message);
        lines << (diagnostic.field.empty() ? message : qs(diagnostic.field) + QStringLiteral(": ") + message);
    }
    return lines;
}

FileController::FileController(ModelBridge* bridge, QWidget* dialogParent)
    : QObject(dialogParent)
    , m_bridge(bridge)
    , m_dialogParent(dialogParent) {}

FileResult FileController::report(FileResult result) {
    emit finished(result);
    return result;
}

FileResult FileController::openPath(const QString& path, bool estimate) {
    const QString name = QFileInfo(path).fileName();
    // The CLI's rule: regular files only (a device or a pipe never ends), read up to a hard limit.
    const core::FileRead file = core::readRegularFile(QFile::encodeName(path).toStdString());
    if (!file.bytes) {
        return report({false, tr("Could not open %1: %2.").arg(name, qs(file.error)), {}, {}});
    }
    const QByteArray data = QByteArray::fromStdString(*file.bytes);
    FileResult result;
    if (core::looksLikeSession(data.toStdString())) {
        core::SessionReadResult read = core::sessionFromJson(data.toStdString());
        if (!read.session) {
            return report({false,
                           tr("Could not read session %1; the current config is unchanged.").arg(name),
                           describe(read.diagnostics),
                           {}});
        }
        const BridgeState state = stateFrom(*read.session, name, path);
        m_bridge->loadState(state, tr("Open session %1").arg(name));
        m_bridge->markSaved();
        // The session's origin path came from the file, not from the user: Save asks where.
        setProvenance(state.origin.kind == ConfigOrigin::Kind::File ? state.origin.path : QString());
        emit sessionOpened(*read.session);
        result = {true, tr("Opened session %1.").arg(name), describe(read.diagnostics), read.diagnostics, true};
    } else {
        core::ImportResult imported =
            core::importConfigText(std::string_view(data.constData(), std::size_t(data.size())),
                                   {.bestEffort = estimate, .refuseInvalid = true});
        if (!imported.config) {
            const bool estimable =
                !estimate && core::importConfigText(std::string_view(data.constData(), std::size_t(data.size())),
                                                    {.bestEffort = true, .refuseInvalid = true})
                                 .config.has_value();
            return report({false,
                           estimable ? tr("archplay cannot count %1 exactly; the current config is unchanged. "
                                          "File > Open as an Estimate reads it anyway, labelled as an estimate.")
                                           .arg(name)
                                     : tr("Could not open %1 (see below); the current config is unchanged.").arg(name),
                           describe(imported.diagnostics),
                           {}});
        }
        ConfigOrigin origin;
        origin.kind = ConfigOrigin::Kind::File;
        origin.label = name;
        origin.path = path;
        origin.base = *imported.config;
        m_bridge->loadConfig(*imported.config, origin, tr("Open %1").arg(name));
        m_bridge->markSaved();
        setCurrentPath(path);
        result = {true,
                  imported.diagnostics.empty()
                      ? tr("Opened %1.").arg(name)
                      : tr("Opened %1 with %n note(s).", nullptr, int(imported.diagnostics.size())).arg(name),
                  describe(imported.diagnostics), imported.diagnostics, true};
    }
    addRecent(path);
    return report(result);
}

core::Session FileController::currentSession() const {
    const ConfigOrigin& origin = m_bridge->origin();
    core::Session session;
    session.config = m_bridge->config();
    session.scenario = m_bridge->scenario();
    session.presetId = origin.presetId.toStdString();
    session.origin.kind = origin.kind;
    session.origin.label = origin.label.toStdString();
    session.origin.path = origin.path.toStdString();
    if (!(origin.base == session.config)) {
        session.origin.loadedConfig = origin.base;
    }
    if (m_decorate) {
        m_decorate(session);
    }
    return session;
}

BridgeState FileController::stateFrom(const core::Session& session, const QString& label, const QString& path) const {
    BridgeState state;
    if (session.origin.kind != core::SessionOrigin::Kind::None) {
        state.origin.kind = session.origin.kind;
        state.origin.presetId = qs(session.presetId);
        state.origin.label = qs(session.origin.label);
        state.origin.path = qs(session.origin.path);
        state.origin.base = session.origin.loadedConfig.value_or(session.config);
    } else if (auto preset = m_bridge->presetState(qs(session.presetId))) {
        // A session that started from a preset stays "modified from" that preset after reopening.
        state.origin = preset->origin;
    } else {
        state.origin.kind = path.isEmpty() ? ConfigOrigin::Kind::Clipboard : ConfigOrigin::Kind::File;
        state.origin.label = label;
        state.origin.path = path;
        state.origin.base = session.config;
    }
    state.config = session.config;
    state.scenario = session.scenario;
    return state;
}

FileResult FileController::openText(const QString& text) {
    const QByteArray data = text.toUtf8();
    if (text.trimmed().isEmpty()) {
        return report({false, tr("The clipboard holds no text to read as a config."), {}, {}});
    }
    if (core::looksLikeSession(data.toStdString())) {
        core::SessionReadResult read = core::sessionFromJson(data.toStdString());
        if (!read.session) {
            return report({false,
                           tr("Could not read the pasted session; the current config is unchanged."),
                           describe(read.diagnostics),
                           {}});
        }
        const BridgeState state = stateFrom(*read.session);
        m_bridge->loadState(state, tr("Paste session"));
        emit sessionOpened(*read.session);
        return report({true, tr("Pasted a session."), describe(read.diagnostics), read.diagnostics, true});
    }
    core::ImportResult imported =
        core::importConfigText(std::string_view(data.constData(), std::size_t(data.size())), {.refuseInvalid = true});
    if (!imported.config) {
        return report({false,
                       tr("Could not read the pasted text as a config; the current config is unchanged."),
                       describe(imported.diagnostics),
                       {}});
    }
    ConfigOrigin origin;
    origin.kind = ConfigOrigin::Kind::Clipboard;
    origin.base = *imported.config;
    m_bridge->loadConfig(*imported.config, origin, tr("Paste config"));
    return report({true, tr("Pasted config."), describe(imported.diagnostics), imported.diagnostics, true});
}

FileResult FileController::saveConfigTo(const QString& path, core::ReadOnlyTarget readOnly) {
    core::Diagnostics notes;
    const std::string text = core::exportConfigText(m_bridge->config(), &notes);
    const core::Status written = writeAtomically(path, QByteArray::fromStdString(text), readOnly);
    const QString name = QFileInfo(path).fileName();
    if (!written.ok()) {
        return report(
            {false,
             tr("Could not save %1: %2. Nothing was lost; the config is still open.").arg(name, qs(written.error())),
             {},
             {}});
    }
    setCurrentPath(path);
    addRecent(path);
    m_bridge->markSaved();
    return report({true, tr("Saved %1.").arg(name), describe(notes), {}});
}

FileResult FileController::saveSessionTo(const QString& path, core::ReadOnlyTarget readOnly) {
    const core::Status written = writeAtomically(
        path, QByteArray::fromStdString(core::sessionToJson(currentSession(), ARCHPLAY_VERSION)), readOnly);
    const QString name = QFileInfo(path).fileName();
    if (!written.ok()) {
        return report(
            {false, tr("Could not save session %1: %2. Nothing was lost.").arg(name, qs(written.error())), {}, {}});
    }
    addRecent(path);
    m_bridge->markSaved();
    return report({true, tr("Saved session %1.").arg(name), {}, {}});
}

void FileController::setRecentFiles(const QStringList& files) {
    m_recent = files.mid(0, kMaxRecentFiles);
    emit recentFilesChanged(m_recent);
}

void FileController::clearRecentFiles() {
    setRecentFiles({});
}

void FileController::addRecent(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    m_recent.removeAll(absolute);
    m_recent.prepend(absolute);
    setRecentFiles(m_recent);
}

void FileController::setProvenance(const QString& path) {
    setCurrentPath({});
    m_provenance = path;
}

QString FileController::suggestedSavePath() const {
    if (!m_currentPath.isEmpty()) {
        return m_currentPath;
    }
    return m_provenance.isEmpty() ? QDir(dialogDirectory()).filePath(QStringLiteral("config.json")) : m_provenance;
}

void FileController::setCurrentPath(const QString& path) {
    m_provenance.clear();
    if (m_currentPath != path) {
        m_currentPath = path;
        emit currentPathChanged(path);
    }
}

QString FileController::dialogDirectory() const {
    if (!m_currentPath.isEmpty()) {
        return QFileInfo(m_currentPath).absolutePath();
    }
    if (!m_recent.isEmpty()) {
        return QFileInfo(m_recent.front()).absolutePath();
    }
    return QDir::homePath();
}

void FileController::openInteractive() {
    const QString path = QFileDialog::getOpenFileName(m_dialogParent, tr("Open config.json or session"),
                                                      dialogDirectory(), jsonFilter());
    if (!path.isEmpty()) {
        openPath(path);
    }
}

void FileController::openEstimateInteractive() {
    const QString path = QFileDialog::getOpenFileName(m_dialogParent, tr("Open config.json as an estimate"),
                                                      dialogDirectory(), jsonFilter());
    if (!path.isEmpty()) {
        openPath(path, true);
    }
}

std::optional<core::ReadOnlyTarget> FileController::confirmReadOnly(const QString& path) {
    if (!core::isReadOnlyFile(QFile::encodeName(path).toStdString())) {
        return core::ReadOnlyTarget::Refuse;
    }
    const auto answer = QMessageBox::question(
        m_dialogParent, tr("Replace a read-only file?"),
        tr("%1 is read-only. Replace it anyway? It stays read-only.").arg(QDir::toNativeSeparators(path)),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Yes) {
        report({false, tr("Did not save %1: it is read-only.").arg(QFileInfo(path).fileName()), {}, {}});
        return std::nullopt;
    }
    return core::ReadOnlyTarget::Replace;
}

bool FileController::saveInteractive() {
    if (m_currentPath.isEmpty()) {
        return saveAsInteractive();
    }
    const auto readOnly = confirmReadOnly(m_currentPath);
    return readOnly && saveConfigTo(m_currentPath, *readOnly).ok;
}

bool FileController::saveAsInteractive() {
    const QString path =
        QFileDialog::getSaveFileName(m_dialogParent, tr("Save config.json"), suggestedSavePath(), jsonFilter());
    if (path.isEmpty()) {
        return false;
    }
    const auto readOnly = confirmReadOnly(path);
    return readOnly && saveConfigTo(path, *readOnly).ok;
}

bool FileController::saveSessionInteractive() {
    const QString suggested = QDir(dialogDirectory()).filePath(QStringLiteral("session.archplay.json"));
    const QString path = QFileDialog::getSaveFileName(m_dialogParent, tr("Save session"), suggested, jsonFilter());
    if (path.isEmpty()) {
        return false;
    }
    const auto readOnly = confirmReadOnly(path);
    return readOnly && saveSessionTo(path, *readOnly).ok;
}

void FileController::copyConfig() {
    const std::string text = core::exportConfigText(m_bridge->config());
    QApplication::clipboard()->setText(qs(text));
    report({true, tr("Copied the config as config.json text."), {}, {}});
}

void FileController::pasteConfig() {
    openText(QApplication::clipboard()->text());
}

} // namespace archplay::ui::session
