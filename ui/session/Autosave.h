// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/util/Status.h"

#include <QByteArray>
#include <QFutureWatcher>
#include <QLockFile>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <memory>

namespace archplay::ui::session {

/// A copy of the current session on disk while the window runs, so that a crash, a killed process
/// or a power cut loses at most the last seconds of work. Edits schedule a save, debounced, written
/// atomically. One window at a time owns the copy (a lock file, released by the system if the
/// process dies); a clean exit removes the copy, so a copy found at start means the last run ended
/// without one.
class Autosave : public QObject {
    Q_OBJECT

public:
    /// How long after the last edit the copy is written.
    static constexpr int kDelayMs = 1500;

    /// Keeps the copy in `directory` (created when missing); `snapshot` gives the session's JSON.
    Autosave(const QString& directory, std::function<QByteArray()> snapshot, QObject* parent = nullptr);
    ~Autosave() override;

    /// Takes the lock. False while another running window holds it, or when the folder cannot be
    /// written (problem() then says so): this one then neither saves nor offers anything.
    bool acquire();
    /// Why crash protection is not working: the lock or the last copy could not be written; empty
    /// while it works, and when another window keeps the copy.
    QString problem() const { return m_problem; }
    bool active() const { return m_active; }
    /// The copy a run that did not exit cleanly left behind; empty when there is none.
    QByteArray leftover() const;
    /// Writes the copy kDelayMs after the last call. The snapshot is taken on this thread; the write
    /// and its fsync run on another, so the window never waits for the disk.
    void schedule();
    /// Writes the copy now, on this thread (after a write in flight); a failure says why it could not.
    [[nodiscard]] core::Status saveNow();
    /// A clean exit: removes the copy and releases the lock.
    void finish();
    QString path() const { return m_path; }

signals:
    /// problem() changed: crash protection stopped working, or works again (an empty problem).
    void problemChanged(const QString& problem);

private:
    void setProblem(const QString& problem);
    /// The timer's save: the snapshot now, the write in the background (one at a time).
    void saveInBackground();
    void waitForWrite();
    QString reasonFor(const core::Status& written) const;

    QString m_path;
    std::function<QByteArray()> m_snapshot;
    std::unique_ptr<QLockFile> m_lock;
    QTimer m_timer;
    QFutureWatcher<core::Status> m_write; ///< the background write in flight
    bool m_writeAgain = false;            ///< an edit came while a write was in flight
    bool m_active = false;
    QString m_problem;
};

} // namespace archplay::ui::session
