// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/ConfigJson.h"

#include "io/Families.h"
#include "io/JsonFields.h"

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include <fstream>
#include <sstream>

namespace archplay::core {
namespace {

using nlohmann::json;

constexpr std::string_view kPresetKey = "archplay_preset";
constexpr std::string_view kNestedKey = "text_config"; // Gemma 3's multimodal wrapper
constexpr std::uintmax_t kMaxFileBytes = 64u * 1024u * 1024u;

/// Reads one (non-nested) config object whose model_type is `modelType`.
ModelConfig readObject(const json& object, const std::string& modelType, Diagnostics& diagnostics) {
    ModelConfig config;
    config.modelType = modelType;
    JsonFields fields(object, diagnostics);
    fields.consume("model_type");
    fields.consume(kPresetKey);
    if (const Family* family = findFamily(modelType)) {
        family->read(fields, config);
    } else {
        readNative(fields, config, modelType != "archplay");
    }
    config.passthrough = fields.remaining();
    return config;
}

bool sameModel(ModelConfig a, ModelConfig b) {
    a.passthrough = nullptr;
    b.passthrough = nullptr;
    return a == b;
}

} // namespace

const std::vector<std::string>& supportedModelTypes() {
    static const std::vector<std::string> types = [] {
        std::vector<std::string> result;
        for (const Family& family : families()) {
            result.emplace_back(family.modelType);
        }
        result.emplace_back("gemma3");
        result.emplace_back("archplay");
        return result;
    }();
    return types;
}

ImportResult importConfig(const json& object) {
    ImportResult result;
    if (!object.is_object()) {
        result.diagnostics.push_back({Severity::Error, "", fmt::format("a config.json must hold a JSON object, not "
                                                                       "a {}",
                                                                       object.type_name())});
        return result;
    }
    std::string modelType = "archplay";
    if (auto it = object.find("model_type"); it != object.end()) {
        if (!it->is_string()) {
            result.diagnostics.push_back({Severity::Error, "model_type", "model_type must be a string"});
            return result;
        }
        modelType = it->get<std::string>();
    } else {
        result.diagnostics.push_back(
            {Severity::Warning, "model_type", "model_type is missing; reading the common field names"});
        modelType = "unknown";
    }

    if (modelType == "gemma3") {
        auto nested = object.find(kNestedKey);
        const json inner = nested != object.end() && nested->is_object() ? *nested : json::object();
        ModelConfig config = readObject(inner, "gemma3_text", result.diagnostics);
        // The wrapper keeps its own fields; the text model's uninterpreted ones go back inside it.
        json passthrough = object;
        passthrough.erase("model_type");
        passthrough.erase(kPresetKey);
        passthrough[std::string(kNestedKey)] = config.passthrough;
        config.passthrough = std::move(passthrough);
        config.modelType = "gemma3";
        result.diagnostics.push_back({Severity::Hint, "text_config",
                                      "gemma3 is multimodal: archplay counts its text model; the SigLIP vision tower "
                                      "and projector are not included"});
        result.config = std::move(config);
    } else {
        result.config = readObject(object, modelType, result.diagnostics);
    }
    if (hasErrors(result.diagnostics)) {
        result.config.reset();
    }
    return result;
}

ImportResult importConfigText(std::string_view text) {
    json object = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    if (object.is_discarded()) {
        // Parse again with exceptions on, only to obtain the position of the error.
        std::string where;
        try {
            (void)json::parse(text.begin(), text.end());
        } catch (const json::parse_error& error) {
            where = fmt::format(" (at byte {})", error.byte);
        }
        ImportResult result;
        result.diagnostics.push_back({Severity::Error, "", "the text is not valid JSON" + where});
        return result;
    }
    return importConfig(object);
}

ImportResult importConfigFile(const std::filesystem::path& path) {
    ImportResult result;
    std::error_code error;
    const std::uintmax_t size = std::filesystem::file_size(path, error);
    if (error) {
        result.diagnostics.push_back({Severity::Error, "", fmt::format("cannot read {}: {}", path.string(),
                                                                       error.message())});
        return result;
    }
    if (size > kMaxFileBytes) {
        result.diagnostics.push_back(
            {Severity::Error, "", fmt::format("{} is {} bytes; a config.json is expected to be far below 64 MiB",
                                              path.string(), size)});
        return result;
    }
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (!in && !in.eof()) {
        result.diagnostics.push_back({Severity::Error, "", fmt::format("cannot read {}", path.string())});
        return result;
    }
    return importConfigText(buffer.str());
}

json exportConfig(const ModelConfig& config, Diagnostics* notes) {
    const bool nested = config.modelType == "gemma3";
    const std::string familyType = nested ? "gemma3_text" : config.modelType;
    if (const Family* family = findFamily(familyType)) {
        json out = nested ? config.passthrough.value(std::string(kNestedKey), json::object()) : config.passthrough;
        family->write(config, out);
        if (nested) {
            json wrapper = config.passthrough;
            wrapper["model_type"] = "gemma3";
            out["model_type"] = "gemma3_text";
            wrapper[std::string(kNestedKey)] = std::move(out);
            out = std::move(wrapper);
        } else {
            out["model_type"] = familyType;
        }
        // Verify by reading back: whatever the family's keys cannot express falls back to the native format.
        const ImportResult check = importConfig(out);
        if (check.config && sameModel(*check.config, config)) {
            return out;
        }
        if (notes) {
            notes->push_back({Severity::Warning, "model_type",
                              fmt::format("this design cannot be expressed as a '{}' config; it is written in "
                                          "archplay's native format (model_type \"archplay\")",
                                          config.modelType)});
        }
    }
    json out = nested ? json::object() : config.passthrough;
    out.erase("__archplay_inexpressible");
    writeNative(config, out);
    return out;
}

std::string exportConfigText(const ModelConfig& config, Diagnostics* notes) {
    return exportConfig(config, notes).dump(2) + "\n";
}

} // namespace archplay::core
