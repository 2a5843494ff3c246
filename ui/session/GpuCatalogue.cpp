// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/session/GpuCatalogue.h"

#include "core/io/Files.h"
#include "core/io/GpuJson.h"
#include "ui/Strings.h"
#include "ui/session/AtomicWrite.h"
#include "ui/session/Settings.h"

#include <QFile>
#include <QFileInfo>
#include <QSettings>

#include <algorithm>
#include <string>

namespace archplay::ui::session {

namespace {

/// core names a device of a list "gpus[i].<key>"; for one device the key alone says it.
core::Diagnostics forDevice(core::Diagnostics diagnostics, std::size_t index) {
    const std::string prefix = "gpus[" + std::to_string(index) + "]";
    for (core::Diagnostic& diagnostic : diagnostics) {
        if (diagnostic.field.starts_with(prefix + ".")) {
            diagnostic.field.erase(0, prefix.size() + 1);
        } else if (diagnostic.field == prefix) {
            diagnostic.field.clear();
        }
    }
    return diagnostics;
}

} // namespace

QStringList describeDiagnostics(const core::Diagnostics& diagnostics) {
    QStringList lines;
    for (const core::Diagnostic& diagnostic : diagnostics) {
        lines << (diagnostic.field.empty() ? qs(diagnostic.message)
                                           : qs(diagnostic.field) + QStringLiteral(": ") + qs(diagnostic.message));
    }
    return lines;
}

GpuCatalogue::GpuCatalogue(QObject* parent)
    : QObject(parent) {}

std::vector<core::Gpu> GpuCatalogue::devices() const {
    std::vector<core::Gpu> all = core::builtinGpus();
    all.insert(all.end(), m_user.begin(), m_user.end());
    return all;
}

const core::Gpu* GpuCatalogue::find(const QString& id) const {
    const std::string key = id.toStdString();
    if (const core::Gpu* builtin = core::findGpu(core::builtinGpus(), key)) {
        return builtin;
    }
    return core::findGpu(m_user, key);
}

CatalogueResult GpuCatalogue::commit(const std::vector<core::Gpu>& devices, const QString& success) {
    core::GpuCatalogueRead read = core::checkUserGpus(devices);
    if (!read.ok()) {
        return {false, tr("The devices were left as they were."), describeDiagnostics(read.diagnostics)};
    }
    m_user = std::move(read.gpus);
    const core::Status saved = save();
    emit changed();
    if (!saved.ok()) {
        return {true, tr("%1 For this run only: %2.").arg(success, qs(saved.error())), {}};
    }
    return {true, success, {}};
}

CatalogueResult GpuCatalogue::setUserDevices(const std::vector<core::Gpu>& devices) {
    return commit(devices, tr("%n device(s) of your own.", nullptr, int(devices.size())));
}

CatalogueResult GpuCatalogue::add(const core::Gpu& device) {
    std::vector<core::Gpu> devices = m_user;
    devices.push_back(device);
    const core::GpuCatalogueRead read = core::checkUserGpus(devices);
    if (!read.ok()) {
        return {false, tr("%1 was not added.").arg(qs(device.name.empty() ? device.id : device.name)),
                describeDiagnostics(forDevice(read.diagnostics, devices.size() - 1))};
    }
    return commit(devices, tr("Added %1.").arg(qs(device.name.empty() ? device.id : device.name)));
}

CatalogueResult GpuCatalogue::replace(const QString& id, const core::Gpu& device) {
    const std::string key = id.toStdString();
    const auto found = std::find_if(m_user.begin(), m_user.end(), [&](const core::Gpu& gpu) { return gpu.id == key; });
    if (found == m_user.end()) {
        return {false, tr("%1 is not one of your devices.").arg(id), {}};
    }
    const std::size_t index = std::size_t(found - m_user.begin());
    std::vector<core::Gpu> devices = m_user;
    devices[index] = device;
    const core::GpuCatalogueRead read = core::checkUserGpus(devices);
    if (!read.ok()) {
        return {false, tr("%1 was left as it was.").arg(id), describeDiagnostics(forDevice(read.diagnostics, index))};
    }
    const core::Gpu before = m_user[index];
    CatalogueResult result = commit(devices, tr("Saved %1.").arg(qs(device.name.empty() ? device.id : device.name)));
    if (result.ok && before != m_user[index]) {
        emit deviceReplaced(before, m_user[index]);
    }
    return result;
}

bool GpuCatalogue::remove(const QString& id) {
    const std::string key = id.toStdString();
    std::vector<core::Gpu> devices = m_user;
    const auto erased = std::erase_if(devices, [&](const core::Gpu& gpu) { return gpu.id == key; });
    return erased > 0 && commit(devices, {}).ok;
}

CatalogueResult GpuCatalogue::importFile(const QString& path) {
    const QString name = QFileInfo(path).fileName();
    const core::FileRead file = core::readRegularFile(QFile::encodeName(path).toStdString());
    if (!file.bytes) {
        return {false, tr("Could not open %1: %2.").arg(name, qs(file.error)), {}};
    }
    const core::GpuCatalogueRead read = core::gpuCatalogueFromJson(*file.bytes);
    if (!read.ok()) {
        return {false, tr("Could not import %1; your devices are unchanged.").arg(name),
                describeDiagnostics(read.diagnostics)};
    }
    std::vector<core::Gpu> devices = m_user;
    int replaced = 0;
    for (const core::Gpu& gpu : read.gpus) {
        const auto same =
            std::find_if(devices.begin(), devices.end(), [&](const core::Gpu& mine) { return mine.id == gpu.id; });
        if (same != devices.end()) {
            *same = gpu;
            ++replaced;
        } else {
            devices.push_back(gpu);
        }
    }
    const int count = int(read.gpus.size());
    QString message = tr("Imported %n device(s) from %1", nullptr, count).arg(name);
    message += replaced > 0 ? tr(", replacing %n of yours of the same id.", nullptr, replaced) : QStringLiteral(".");
    CatalogueResult result = commit(devices, message);
    if (!result.ok) {
        result.message = tr("Could not import %1; your devices are unchanged.").arg(name);
    }
    return result;
}

CatalogueResult GpuCatalogue::exportFile(const QString& path) const {
    const QString name = QFileInfo(path).fileName();
    const core::Status written = writeAtomically(path, QByteArray::fromStdString(core::gpuCatalogueToJson(m_user)));
    if (!written.ok()) {
        return {false, tr("Could not export to %1: %2.").arg(name, qs(written.error())), {}};
    }
    return {true, tr("Exported %n device(s) to %1.", nullptr, int(m_user.size())).arg(name), {}};
}

CatalogueResult GpuCatalogue::persist() {
    m_persistent = true;
    const QString stored = settings::userDevices.read(QSettings());
    if (stored.isEmpty()) {
        return {true, {}, {}};
    }
    core::GpuCatalogueRead read = core::gpuCatalogueFromJson(stored.toStdString());
    m_user = std::move(read.gpus);
    emit changed();
    if (!read.ok()) {
        return {false, tr("Some of your devices could not be read and were left out."),
                describeDiagnostics(read.diagnostics)};
    }
    return {true, {}, {}};
}

core::Status GpuCatalogue::save() const {
    if (!m_persistent) {
        return {};
    }
    const QString json = qs(core::gpuCatalogueToJson(m_user));
    return writeSettings([&](QSettings& store) { settings::userDevices.write(store, json); });
}

} // namespace archplay::ui::session
