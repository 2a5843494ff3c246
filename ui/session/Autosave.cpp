// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/session/Autosave.h"

#include "ui/session/AtomicWrite.h"

#include <QDir>
#include <QFile>

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
    connect(&m_timer, &QTimer::timeout, this, [this] { (void)saveNow(); });
}

Autosave::~Autosave() = default;

bool Autosave::acquire() {
    // A lock left by a process that died is stale: QLockFile takes it over.
    m_lock->setStaleLockTime(0);
    m_active = m_lock->tryLock(0);
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

QString Autosave::saveNow() {
    m_timer.stop();
    if (!m_active) {
        return tr("another archplay window keeps the autosave");
    }
    return writeAtomically(m_path, m_snapshot(), core::ReadOnlyTarget::Replace);
}

void Autosave::finish() {
    m_timer.stop();
    if (m_active) {
        QFile::remove(m_path);
        m_lock->unlock();
        m_active = false;
    }
}

} // namespace archplay::ui::session
