// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/report/ModelZoo.h"
#include "core/report/ZooSources.h"
#include "core/util/Status.h"

#include <QStringList>

#include <vector>

namespace archplay::ui::session {

/// The configs the user added to the zoo, kept in the settings between sessions.
struct AddedZooSources {
    QStringList folders;  ///< searched recursively for config.json
    bool hfCache = false; ///< the Hugging Face hub cache (core::defaultHfCacheRoot())
};

/// The sources saved in the settings (QSettings keys design/zoo/folders and design/zoo/hf-cache).
[[nodiscard]] AddedZooSources savedZooSources();
/// Saves them; a failure says why they are not kept (writeSettings()).
[[nodiscard]] core::Status saveZooSources(const AddedZooSources& sources);

/// Every config the sources hold, as zoo inputs; `notes` (optional) receives what the scans said
/// (a folder that does not exist, a scan cut at its bound, no cache found). `limits` bound each scan
/// and carry its Cancel and progress.
[[nodiscard]] std::vector<core::ZooInput> zooInputs(const AddedZooSources& sources, QStringList* notes = nullptr,
                                                    const core::ZooScanLimits& limits = {});

/// The zoo a report places its design among: the built-in presets and the configs saved in the
/// settings, analysed in `scenario`.
[[nodiscard]] core::ModelZoo reportZoo(const core::Scenario& scenario);

} // namespace archplay::ui::session
