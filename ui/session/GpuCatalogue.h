// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/Gpus.h"
#include "core/util/Status.h"
#include "core/validate/Diagnostic.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace archplay::ui::session {

/// The outcome of a change to the catalogue, an import or an export.
struct CatalogueResult {
    bool ok = false;
    QString message;     ///< one sentence: what happened, or why nothing did
    QStringList details; ///< each problem as "field: message", the field as a device file names it
};

/// The devices a scenario can pick: core's built-in ones, then the user's own, which the user adds,
/// edits, removes, imports and exports (core::gpuCatalogueToJson documents). Every change is checked
/// by core (core::checkUserGpus: ids unique and none a built-in one, figures in range); a refused
/// change leaves the catalogue as it was. Optionally kept in QSettings.
class GpuCatalogue : public QObject {
    Q_OBJECT

public:
    explicit GpuCatalogue(QObject* parent = nullptr);

    /// Built-in devices, then the user's.
    std::vector<core::Gpu> devices() const;
    const std::vector<core::Gpu>& userDevices() const { return m_user; }
    /// The device with this id, built-in or the user's, or nullptr.
    const core::Gpu* find(const QString& id) const;

    /// Replaces the user's devices when core accepts the whole list.
    CatalogueResult setUserDevices(const std::vector<core::Gpu>& devices);
    /// Adds a device of the user's.
    CatalogueResult add(const core::Gpu& device);
    /// Replaces the user's device `id` by `device` (whose id may differ). Emits deviceReplaced.
    CatalogueResult replace(const QString& id, const core::Gpu& device);
    /// Removes the user's device `id`; false when there is none.
    bool remove(const QString& id);

    /// Reads a device file (core::gpuCatalogueFromJson) and adds its devices, replacing the user's
    /// devices of the same ids. Refused whole, the catalogue untouched, when any device is at fault.
    CatalogueResult importFile(const QString& path);
    /// Writes the user's devices as a device file, atomically.
    CatalogueResult exportFile(const QString& path) const;

    /// Reads the user's devices from QSettings (settings::userDevices) and writes them back there
    /// after every change. Devices the stored text holds that core refuses are dropped; the result
    /// says which. Without it, the catalogue keeps its devices for this run.
    CatalogueResult persist();

signals:
    /// The list of devices changed.
    void changed();
    /// The user's device `before` is now `after` (edited in place).
    void deviceReplaced(const archplay::core::Gpu& before, const archplay::core::Gpu& after);

private:
    CatalogueResult commit(const std::vector<core::Gpu>& devices, const QString& success);
    /// Writes the user's devices to the settings; a failure says why they are not kept.
    [[nodiscard]] core::Status save() const;

    std::vector<core::Gpu> m_user;
    bool m_persistent = false;
};

/// Each diagnostic as "field: message".
QStringList describeDiagnostics(const core::Diagnostics& diagnostics);

} // namespace archplay::ui::session
