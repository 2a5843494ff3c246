// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/session/Settings.h"

#include <QDir>
#include <QSettings>

namespace archplay::ui::session {

core::Status writeSettings(const std::function<void(QSettings&)>& write) {
    QSettings settings;
    write(settings);
    settings.sync();
    const std::string file = QDir::toNativeSeparators(settings.fileName()).toStdString();
    switch (settings.status()) {
    case QSettings::NoError:
        return {};
    case QSettings::AccessError:
        return core::Status::failure("the settings file " + file + " cannot be written");
    case QSettings::FormatError:
        return core::Status::failure("the settings file " + file + " is malformed");
    }
    return core::Status::failure("the settings could not be written");
}

} // namespace archplay::ui::session
