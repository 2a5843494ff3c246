// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "config/ModelConfig.h"
#include "validate/Diagnostic.h"

#include <nlohmann/json_fwd.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace archplay::core {

/// The result of reading a config: the config when it could be read, plus what was noticed on the
/// way (assumed defaults for unknown model types, ignored fields, type errors).
struct ImportResult {
    std::optional<ModelConfig> config;
    Diagnostics diagnostics;
};

/// Model types with a dedicated reader (Hugging Face model_type values), plus "archplay", the native format.
const std::vector<std::string>& supportedModelTypes();

/// Reads a Hugging Face config.json object. Absent fields take the default of that model type's
/// configuration class in transformers; an unknown model_type is read from the common field names
/// with a warning listing each assumption. Never throws.
ImportResult importConfig(const nlohmann::json& object);
/// Parses JSON text, then importConfig(). Malformed JSON yields a diagnostic and no config.
ImportResult importConfigText(std::string_view text);
/// Reads a file, then importConfigText(). An unreadable file yields a diagnostic and no config.
ImportResult importConfigFile(const std::filesystem::path& path);

/// Writes a config back as a Hugging Face config.json object with the key names of its model_type.
/// Fields the reader did not interpret are written back unchanged. When the config uses a switch
/// its model_type cannot express (e.g. biases that family hard-codes), the result is written in the
/// archplay native format instead, so nothing is lost; `notes` (optional) says so.
nlohmann::json exportConfig(const ModelConfig& config, Diagnostics* notes = nullptr);
/// exportConfig() as indented text with a trailing newline.
std::string exportConfigText(const ModelConfig& config, Diagnostics* notes = nullptr);

} // namespace archplay::core
