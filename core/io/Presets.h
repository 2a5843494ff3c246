// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/ModelConfig.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace archplay::core {

/// Metadata of a preset (the "archplay_preset" object of a presets/*.json file).
struct PresetInfo {
    std::string id;
    std::string name;
    std::string family;
    std::string source;                           ///< Hugging Face repository or paper
    std::optional<std::uint64_t> publishedParams; ///< exact published count of unique parameters
    std::string publishedLabel;                   ///< the size in the model's name, e.g. "8B"; for search
    std::string paramsSource;
    std::string notes;
};

/// A preset built into the program: its metadata and its config.json text.
struct Preset {
    PresetInfo info;
    std::string_view json;
};

/// How a preset's size reads wherever it is listed: its published count as every count reads
/// (shortCount(): "8.03B", "109M", "13B"), else empty. The name-style published label ("8B", "110M")
/// is the model's name, not its size, and is only searched.
std::string presetSizeLabel(const PresetInfo& info);

/// Every built-in preset, ordered by family then by published size.
const std::vector<Preset>& builtinPresets();
/// The preset with this id, or nullptr.
const Preset* findPreset(std::string_view id);
/// Loads a preset's config. The config of a built-in preset always imports without error.
std::optional<ModelConfig> presetConfig(const Preset& preset);

} // namespace archplay::core
