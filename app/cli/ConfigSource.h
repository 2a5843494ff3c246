// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/config/ModelConfig.h"
#include "core/io/Presets.h"
#include "core/validate/Diagnostic.h"

#include <iosfwd>
#include <optional>
#include <string>

namespace archplay::cli {

/// A CONFIG argument read as a config.json path or, failing that, a preset id.
struct LoadedConfig {
    std::optional<core::ModelConfig> config;
    core::Diagnostics diagnostics;
    std::string origin;                   ///< the path, or "preset ID": what messages name
    const core::Preset* preset = nullptr; ///< the preset, when CONFIG named one
};

/// Reads CONFIG; `bestEffort` reads an uncountable config as a labelled estimate.
[[nodiscard]] LoadedConfig loadConfig(const std::string& spec, bool bestEffort = false);

/// A CONFIG read and, when it could be read, analyzed.
struct AnalyzedConfig {
    LoadedConfig loaded;
    /// The analysis, the loader's diagnostics first; absent when the config could not be read.
    std::optional<core::Analysis> analysis;

    /// True when the config was read and is valid.
    [[nodiscard]] bool ok() const { return analysis && analysis->valid; }
    /// What a failure is reported with: the analysis's diagnostics, or the loader's.
    [[nodiscard]] const core::Diagnostics& diagnostics() const {
        return analysis ? analysis->diagnostics : loaded.diagnostics;
    }
};

/// Reads CONFIG and analyzes it for `scenario`.
[[nodiscard]] AnalyzedConfig analyzeConfig(const std::string& spec, bool bestEffort, const core::Scenario& scenario);

/// Prints the first error as one line naming `origin`, the field and the problem; returns exit code 1.
int reportInvalid(const std::string& origin, const core::Diagnostics& diagnostics, std::ostream& err);

} // namespace archplay::cli
