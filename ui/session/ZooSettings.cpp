// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/session/ZooSettings.h"

#include "core/report/ZooSources.h"
#include "ui/Strings.h"
#include "ui/session/Settings.h"

#include <QSettings>

namespace archplay::ui::session {
namespace {

void keepNotes(const core::ZooScan& scan, QStringList* notes) {
    if (notes) {
        for (const core::Diagnostic& note : scan.notes) {
            *notes << qs(note.message);
        }
    }
}

} // namespace

AddedZooSources savedZooSources() {
    const QSettings store;
    return {settings::zooFolders.read(store), settings::zooHfCache.read(store)};
}

core::Status saveZooSources(const AddedZooSources& sources) {
    return writeSettings([&sources](QSettings& store) {
        settings::zooFolders.writeOrRemove(store, sources.folders);
        settings::zooHfCache.writeOrRemove(store, sources.hfCache);
    });
}

std::vector<core::ZooInput> zooInputs(const AddedZooSources& sources, QStringList* notes,
                                      const core::ZooScanLimits& limits) {
    std::vector<core::ZooInput> inputs;
    for (const QString& folder : sources.folders) {
        const core::ZooScan scan = core::zooFromFolder(folder.toStdString(), limits);
        inputs.insert(inputs.end(), scan.inputs.begin(), scan.inputs.end());
        keepNotes(scan, notes);
    }
    if (sources.hfCache) {
        if (const std::optional<std::filesystem::path> root = core::defaultHfCacheRoot()) {
            const core::ZooScan scan = core::zooFromHfCache(*root, limits);
            inputs.insert(inputs.end(), scan.inputs.begin(), scan.inputs.end());
            keepNotes(scan, notes);
        } else if (notes) {
            *notes << QObject::tr("No Hugging Face cache: neither HF_HUB_CACHE, HF_HOME, XDG_CACHE_HOME nor HOME is "
                                  "set.");
        }
    }
    return inputs;
}

core::ModelZoo reportZoo(const core::Scenario& scenario) {
    std::vector<core::ZooInput> inputs = core::presetZooInputs();
    const std::vector<core::ZooInput> added = zooInputs(savedZooSources());
    inputs.insert(inputs.end(), added.begin(), added.end());
    return core::buildZoo(inputs, scenario, 0);
}

} // namespace archplay::ui::session
