// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/session/Autosave.h"

#include "ui/Strings.h"
#include "ui/session/AtomicWrite.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace archplay::ui::session {
namespace {

/// The copy is a session file like any other; a few MB is far more than any session needs.
constexpr qint64 kMaxCopyBytes = 16 * 1024 * 1024;

} // namespace

Autosave::Autosave(const QString& directory, std::function<QByteArray()> snapshot, QObject* parent)
    : QObject(parent)
    , m_path(QDir(directory).filePath(QStringLiteral("autosave.archplay.json")))
    , m_snapshot(std::move(snapshot))
    , m_lock(std::make_unique<QLockFile>(QDir(directory).filePath(QStringLiteral("autosave.lock")))) {
    QDir().mkpath(directory);
    m_timer.setSingleShot(true);
    m_timer.setInterval(kDelayMs);
    connect(&m_timer, &QTimer::timeout, this, &Autosave::saveInBackground);
    connect(&m_write, &QFutureWatcher<core::Status>::finished, this, [this] {
        setProblem(reasonFor(m_write.result()));
        if (std::exchange(m_writeAgain, false)) {
            saveInBackground();
        }
    });
}

Autosave::~Autosave() {
    waitForWrite();
}

void Autosave::waitForWrite() {
    if (m_write.isRunning()) {
        m_write.waitForFinished();
    }
}

void Autosave::saveInBackground() {
    if (!m_active) {
        return;
    }
    if (m_write.isRunning()) {
        m_writeAgain = true;
        return;
    }
    m_write.setFuture(QtConcurrent::run(
        [path = m_path, bytes = m_snapshot()] { return writeAtomically(path, bytes, core::ReadOnlyTarget::Replace); }));
}

QString Autosave::reasonFor(const core::Status& written) const {
    return written.ok() ? QString()
                        : tr("the automatic copy %1 could not be written (%2); a crash would lose the edits "
                             "since the last save")
                              .arg(QDir::toNativeSeparators(m_path), qs(written.error()));
}

bool Autosave::acquire() {
    // A lock left by a process that died is stale: QLockFile takes it over.
    m_lock->setStaleLockTime(0);
    m_active = m_lock->tryLock(0);
    if (m_active) {
        // A write killed before its rename leaves its temporary (".autosave.archplay.json.XXXXXX",
        // core::writeFileAtomically); with the lock held, none is in use.
        const QFileInfo copy(m_path);
        QDir folder = copy.absoluteDir();
        const QStringList leftovers = folder.entryList({QStringLiteral(".%1.??????").arg(copy.fileName())},
                                                       QDir::Files | QDir::Hidden | QDir::System);
        for (const QString& name : leftovers) {
            folder.remove(name);
        }
    }
    if (!m_active && m_lock->error() != QLockFile::LockFailedError) {
        // Not another window: the folder is read-only, missing or full.
        const QString folder = QDir::toNativeSeparators(QFileInfo(m_path).absolutePath());
        setProblem(m_lock->error() == QLockFile::PermissionError
                       ? tr("crash protection is off: %1 cannot be written").arg(folder)
                       : tr("crash protection is off: the lock in %1 could not be taken").arg(folder));
    }
    return m_active;
}

QByteArray Autosave::leftover() const {
    QFile file(m_path);
    if (!m_active || !file.open(QIODevice::ReadOnly) || file.size() > kMaxCopyBytes) {
        return {};
    }
    return file.read(kMaxCopyBytes);
}

void Autosave::schedule() {
    if (m_active) {
        m_timer.start();
    }
}

core::Status Autosave::saveNow() {
    m_timer.stop();
    if (!m_active) {
        return core::Status::failure("another archplay window keeps the autosave");
    }
    waitForWrite();
    m_writeAgain = false;
    core::Status written = writeAtomically(m_path, m_snapshot(), core::ReadOnlyTarget::Replace);
    setProblem(reasonFor(written));
    return written;
}

void Autosave::setProblem(const QString& problem) {
    if (problem != m_problem) {
        m_problem = problem;
        emit problemChanged(problem);
    }
}

void Autosave::finish() {
    m_timer.stop();
    m_writeAgain = false;
    waitForWrite();
    if (m_active) {
        QFile::remove(m_path);
        m_lock->unlock();
        m_active = false;
    }
}

} // namespace archplay::ui::session
