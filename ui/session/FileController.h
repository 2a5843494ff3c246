// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/io/Files.h"
#include "core/validate/Diagnostic.h"

#include <QObject>
#include <QStringList>

#include <functional>
#include <optional>

class QWidget;

namespace archplay::core {
struct Session;
} // namespace archplay::core

namespace archplay::ui::session {

class ModelBridge;
struct BridgeState;

/// The outcome of an open, a paste or a save, for the window to report.
struct FileResult {
    bool ok = false;
    QString message;         ///< one sentence: what happened, or why it failed
    QStringList details;     ///< each diagnostic as "field: message"
    core::Diagnostics notes; ///< import notes to list beside the config's own diagnostics
    bool loaded = false;     ///< a config was read and replaced the current one
};

/// Opening, pasting and saving configs and sessions, and the recent-files list. The *Path and
/// *Text functions never show dialogs (tests and drag-and-drop use them); the *Interactive ones ask
/// for a path first. A failure never touches the current config.
class FileController : public QObject {
    Q_OBJECT

public:
    FileController(ModelBridge* bridge, QWidget* dialogParent);

    /// Opens a config.json or a session file (told apart by content) as one undo step.
    /// Opens a config.json or session. With `estimate`, a config archplay would refuse is read
    /// ignoring the fields it does not understand, and every figure is labelled an estimate.
    FileResult openPath(const QString& path, bool estimate = false);
    /// Reads a config (or session) from text, e.g. the clipboard, as one undo step.
    FileResult openText(const QString& text);
    /// Saves through core::writeFileAtomically(): a read-only file is refused unless `readOnly` is
    /// Replace (the *Interactive saves ask first).
    FileResult saveConfigTo(const QString& path, core::ReadOnlyTarget readOnly = core::ReadOnlyTarget::Refuse);
    FileResult saveSessionTo(const QString& path, core::ReadOnlyTarget readOnly = core::ReadOnlyTarget::Refuse);

    /// The state a session restores: its config, scenario and origin. A session written before
    /// sessions kept their origin falls back to its preset, else to `label` and `path` (the
    /// session file's).
    BridgeState stateFrom(const core::Session& session, const QString& label = {}, const QString& path = {}) const;
    /// The current config, scenario and origin as a session, with what the window adds (the view
    /// and the selected layer).
    core::Session currentSession() const;
    /// Lets the window add its part (view, selected layer) to every session written.
    void setSessionDecorator(std::function<void(core::Session&)> decorate) { m_decorate = std::move(decorate); }

    /// The file Save writes to without asking: a config the user opened or saved in this run, or empty.
    QString currentPath() const { return m_currentPath; }
    void setCurrentPath(const QString& path);
    /// Where Save As proposes to write: the current path, else the file an opened or restored session
    /// came from. A path read from a file is provenance, never a target: Save asks first.
    QString suggestedSavePath() const;
    /// Clears the save target and proposes `path` (a session's origin) for the next Save As.
    void setProvenance(const QString& path);
    QStringList recentFiles() const { return m_recent; }
    void setRecentFiles(const QStringList& files);
    void clearRecentFiles();

    void openInteractive();
    /// File > Open as an Estimate: openPath(path, true) on a chosen file.
    void openEstimateInteractive();
    /// Each save returns whether it wrote the file (false when it failed or the user cancelled).
    bool saveInteractive();
    bool saveAsInteractive();
    bool saveSessionInteractive();
    void copyConfig();
    void pasteConfig();

signals:
    /// Every operation reports here; the window shows it in its message bar and status bar.
    void finished(const archplay::ui::session::FileResult& result);
    void recentFilesChanged(const QStringList& files);
    void currentPathChanged(const QString& path);
    /// A session was opened or pasted: the window restores its view and selected layer.
    void sessionOpened(const archplay::core::Session& session);

private:
    FileResult report(FileResult result);
    /// For a save to `path`: Refuse when it is not read-only, Replace when the user agrees to replace
    /// it, nullopt (reported) when they decline.
    std::optional<core::ReadOnlyTarget> confirmReadOnly(const QString& path);
    void addRecent(const QString& path);
    QString dialogDirectory() const;

    ModelBridge* m_bridge;
    QWidget* m_dialogParent;
    QString m_currentPath;
    QString m_provenance; ///< the origin of an opened session, proposed by Save As
    QStringList m_recent;
    std::function<void(core::Session&)> m_decorate;
};

/// "field: message" lines for the message bar.
QStringList describe(const core::Diagnostics& diagnostics);

} // namespace archplay::ui::session
