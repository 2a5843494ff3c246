// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/io/Files.h"

#include <QByteArray>
#include <QString>

namespace archplay::ui::session {

/// core::writeFileAtomically() for the window: the one rule for every save and export (atomic,
/// through symbolic links, no devices, read-only files only when `readOnly` is Replace). A failure
/// carries the reason ("the directory /x does not exist", "it is read-only", ...).
[[nodiscard]] core::Status writeAtomically(const QString& path, const QByteArray& bytes,
                                           core::ReadOnlyTarget readOnly = core::ReadOnlyTarget::Refuse);

/// core::checkWritableTarget(): whether writeAtomically() could write `path`, without writing.
[[nodiscard]] core::Status checkWritable(const QString& path,
                                         core::ReadOnlyTarget readOnly = core::ReadOnlyTarget::Refuse);

} // namespace archplay::ui::session
