// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/util/Status.h"

#include <QByteArray>
#include <QLatin1StringView>
#include <QSettings>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <array>
#include <functional>

namespace archplay::ui::session {

/// One value archplay keeps in QSettings: its key, its type and its value when absent.
template <typename T> struct Setting {
    QLatin1StringView key;
    T absent{};

    T read(const QSettings& settings) const {
        return settings.value(key, QVariant::fromValue(absent)).template value<T>();
    }
    void write(QSettings& settings, const T& value) const { settings.setValue(key, QVariant::fromValue(value)); }
    /// Writes `value`, or removes the key when `value` is what an absent key reads as.
    void writeOrRemove(QSettings& settings, const T& value) const {
        if (value == absent) {
            settings.remove(key);
        } else {
            write(settings, value);
        }
    }
};

/// Every setting archplay keeps, each named once. The window's keep its layout and last session,
/// the devices catalogue the user's devices, the zoo the folders it scans.
namespace settings {

/// The version of the window's settings. 2: the scenario has its own dock, diagnostics start hidden
/// behind their badge, and the last session is stored whole (origin, view, selected layer) under
/// session/last. Settings of another version keep only what does not depend on the layout.
inline constexpr int kVersion = 2;

inline constexpr Setting<int> version{QLatin1StringView("settingsVersion"), 0};
inline const Setting<QByteArray> windowGeometry{QLatin1StringView("window/geometry")};
inline const Setting<QByteArray> windowState{QLatin1StringView("window/state")};
inline const Setting<QString> theme{QLatin1StringView("ui/theme")};
inline constexpr Setting<bool> snap{QLatin1StringView("ui/snap"), true};
inline constexpr Setting<bool> keepFfnRatio{QLatin1StringView("ui/keepFfnRatio"), false};
inline const Setting<QStringList> collapsedSections{QLatin1StringView("ui/collapsedSections")};
inline const Setting<QStringList> collapsedScenarioSections{QLatin1StringView("ui/collapsedScenarioSections")};
inline const Setting<QStringList> recentFiles{QLatin1StringView("files/recent")};
/// The last session, whole (core::sessionToJson()).
inline const Setting<QByteArray> lastSession{QLatin1StringView("session/last")};
inline constexpr Setting<bool> lastSessionUnsaved{QLatin1StringView("session/unsaved"), false};
/// The user's devices (core::gpuCatalogueToJson()).
inline const Setting<QString> userDevices{QLatin1StringView("devices/user")};
inline const Setting<QStringList> zooFolders{QLatin1StringView("design/zoo/folders")};
inline constexpr Setting<bool> zooHfCache{QLatin1StringView("design/zoo/hf-cache"), false};

/// Keys older versions wrote, removed whenever the window saves: the view (in the session since
/// version 2) and the session's origin (in session/last since version 2).
inline constexpr std::array retired{QLatin1StringView("ui/view"), QLatin1StringView("session/originPath"),
                                    QLatin1StringView("session/originLabel")};

} // namespace settings

/// Writes the application's settings through `write`, then makes QSettings write them to disk and
/// reads back its status: a failure says why they were not kept ("the settings file
/// /x/archplay.conf cannot be written"). Every write of settings goes through here, so that none
/// fails without a word.
[[nodiscard]] core::Status writeSettings(const std::function<void(QSettings&)>& write);

} // namespace archplay::ui::session
