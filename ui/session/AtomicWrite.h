// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

namespace archplay::ui::exports {

/// Writes `bytes` to `path` through QSaveFile: a temporary file beside the target, renamed over it
/// once complete, so a failure leaves an existing file as it was. Returns an empty string, or the
/// reason ("the directory /x does not exist", "Permission denied", ...).
QString writeAtomically(const QString& path, const QByteArray& bytes);

} // namespace archplay::ui::exports
