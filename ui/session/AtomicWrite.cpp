// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/session/AtomicWrite.h"

#include <QFile>

namespace archplay::ui::session {

QString writeAtomically(const QString& path, const QByteArray& bytes, core::ReadOnlyTarget readOnly) {
    const core::Status written = core::writeFileAtomically(
        QFile::encodeName(path).toStdString(),
        std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())), readOnly);
    return written.ok() ? QString() : QString::fromStdString(written.error());
}

QString checkWritable(const QString& path, core::ReadOnlyTarget readOnly) {
    const core::Status writable = core::checkWritableTarget(QFile::encodeName(path).toStdString(), readOnly);
    return writable.ok() ? QString() : QString::fromStdString(writable.error());
}

} // namespace archplay::ui::session
