// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/ModelConfig.h"
#include "core/validate/Diagnostic.h"

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

/// How to read a config.json.
struct ImportOptions {
    /// Read a model type without a dedicated reader even when it has architecture fields the common
    /// reader does not understand: they are ignored, listed in ModelConfig::ignoredFields, and every
    /// figure is labelled an estimate. Off: such a config is refused, naming the fields.
    bool bestEffort = false;
    /// Refuse a config that reads but is impossible (validate() finds an error, such as a negative
    /// hidden_size): no config, and the validation errors, each naming its field, join the diagnostics.
    /// Off: it is returned for the caller to report (archplay-cli validate).
    bool refuseInvalid = false;
};

/// The tensor names (and fusions) of a model_type with a dedicated reader, as its reader sets them
/// (BERT's for "bert", Llama's for "mistral"); nullopt for "archplay" and types without a reader, whose
/// configs keep the names they have. For an editor that changes a config's model_type.
[[nodiscard]] std::optional<TensorNaming> familyTensorNaming(std::string_view modelType);

/// Model types with a dedicated reader (Hugging Face model_type values), plus "archplay", the native format.
const std::vector<std::string>& supportedModelTypes();

/// Reads a Hugging Face config.json object. Absent fields take the default of that model type's
/// configuration class in transformers. A multimodal wrapper is read from its text_config (only the
/// language model is counted). A model_type without a dedicated reader is read from the common field
/// names, with a warning listing each assumption, only when it has every required shape field and no
/// architecture field the common reader does not understand; otherwise it is refused naming those
/// fields (or, with bestEffort, read as a labelled estimate). Speech, vision and state-space models
/// are refused naming the architecture. Never throws.
/// True when the config has a projected token embedding (word_embed_proj_dim) or its family can
/// write one (OPT), so an editor offers the field.
[[nodiscard]] bool embeddingProjectionApplies(const ModelConfig& config);

/// The model's own name as its config.json records it (`_name_or_path`, e.g.
/// "meta-llama/Llama-3.1-8B"), or nullopt when it records none.
[[nodiscard]] std::optional<std::string> recordedModelName(const ModelConfig& config);

ImportResult importConfig(const nlohmann::json& object, const ImportOptions& options = {});
/// Parses JSON text, then importConfig(). Malformed JSON yields a diagnostic and no config.
ImportResult importConfigText(std::string_view text, const ImportOptions& options = {});
/// Reads a file, then importConfigText(). An unreadable file yields a diagnostic and no config.
ImportResult importConfigFile(const std::filesystem::path& path, const ImportOptions& options = {});

/// Writes a config back as a Hugging Face config.json object with the key names of its model_type.
/// Fields the reader did not interpret are written back unchanged. When the config uses a switch
/// its model_type cannot express (e.g. biases that family hard-codes), the result is written in the
/// archplay native format instead, so nothing is lost; `notes` (optional) says so.
nlohmann::json exportConfig(const ModelConfig& config, Diagnostics* notes = nullptr);
/// exportConfig() as indented text with a trailing newline.
std::string exportConfigText(const ModelConfig& config, Diagnostics* notes = nullptr);

} // namespace archplay::core
