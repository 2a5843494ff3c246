// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/session/AtomicWrite.h"

#include <QFile>

namespace archplay::ui::session {

core::Status writeAtomically(const QString& path, const QByteArray& bytes, core::ReadOnlyTarget readOnly) {
    return core::writeFileAtomically(QFile::encodeName(path).toStdString(),
                                     std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
                                     readOnly);
}

core::Status checkWritable(const QString& path, core::ReadOnlyTarget readOnly) {
    return core::checkWritableTarget(QFile::encodeName(path).toStdString(), readOnly);
}

} // namespace archplay::ui::session
