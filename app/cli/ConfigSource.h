// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "config/ModelConfig.h"
#include "io/Presets.h"
#include "validate/Diagnostic.h"

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

LoadedConfig loadConfig(const std::string& spec, bool bestEffort = false);

/// Prints the first error as one line naming `origin`, the field and the problem; returns exit code 1.
int reportInvalid(const std::string& origin, const core::Diagnostics& diagnostics, std::ostream& err);

} // namespace archplay::cli
