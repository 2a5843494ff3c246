// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/session/SettingsWrite.h"

#include <QDir>
#include <QSettings>

namespace archplay::ui::session {

QString writeSettings(const std::function<void(QSettings&)>& write) {
    QSettings settings;
    write(settings);
    settings.sync();
    switch (settings.status()) {
    case QSettings::NoError:
        return {};
    case QSettings::AccessError:
        return QStringLiteral("the settings file %1 cannot be written")
            .arg(QDir::toNativeSeparators(settings.fileName()));
    case QSettings::FormatError:
        return QStringLiteral("the settings file %1 is malformed").arg(QDir::toNativeSeparators(settings.fileName()));
    }
    return QStringLiteral("the settings could not be written");
}

} // namespace archplay::ui::session
