// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/session/AtomicWrite.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

namespace archplay::ui::exports {

QString writeAtomically(const QString& path, const QByteArray& bytes) {
    if (path.isEmpty()) {
        return QStringLiteral("no file name given");
    }
    const QFileInfo info(path);
    if (!info.absoluteDir().exists()) {
        return QStringLiteral("the directory %1 does not exist").arg(QDir::toNativeSeparators(info.absolutePath()));
    }
    if (info.isDir()) {
        return QStringLiteral("it is a directory");
    }
    QSaveFile file(path);
    // A direct write would lose the old file on failure; only the rename is atomic.
    file.setDirectWriteFallback(false);
    if (!file.open(QIODevice::WriteOnly)) {
        return file.errorString();
    }
    if (file.write(bytes) != bytes.size()) {
        const QString reason = file.errorString();
        file.cancelWriting();
        return reason;
    }
    if (!file.commit()) {
        return file.errorString();
    }
    return {};
}

} // namespace archplay::ui::exports
