// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/ConfigJson.h"

#include "io/Families.h"
#include "io/JsonFields.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

namespace archplay::core {
namespace {

using nlohmann::json;

constexpr std::string_view kPresetKey = "archplay_preset";
constexpr std::string_view kNestedKey = "text_config"; // where multimodal wrappers keep the language model
constexpr std::uintmax_t kMaxFileBytes = 64u * 1024u * 1024u;
// Copying and comparing JSON values recurses per level; real configs nest two or three levels deep.
constexpr int kMaxNesting = 64;

/// The deepest nesting of arrays and objects in JSON text, ignoring brackets inside strings.
int nestingDepth(std::string_view text) {
    int depth = 0;
    int deepest = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        if (inString) {
            if (ch == '\\') {
                ++i;
            } else if (ch == '"') {
                inString = false;
            }
        } else if (ch == '"') {
            inString = true;
        } else if (ch == '[' || ch == '{') {
            deepest = std::max(deepest, ++depth);
        } else if (ch == ']' || ch == '}') {
            --depth;
        }
    }
    return deepest;
}

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

/// A multimodal model_type whose language model sits in text_config, read with `innerType` when the
/// text_config names no model_type of its own.
struct Wrapper {
    std::string_view modelType;
    std::string_view innerType;
};

constexpr Wrapper kWrappers[] = {
    {"gemma3", "gemma3_text"},   {"llama4", "llama4_text"},         {"mistral3", "mistral"},
    {"qwen3_5", "qwen3_5_text"}, {"qwen3_5_moe", "qwen3_5_moe_text"},
};

const Wrapper* findWrapper(std::string_view modelType) {
    for (const Wrapper& wrapper : kWrappers) {
        if (wrapper.modelType == modelType) {
            return &wrapper;
        }
    }
    return nullptr;
}

/// The wrapper's other sub-configs (vision_config, audio_config, ...): the towers not counted.
std::vector<std::string> towersOf(const json& object) {
    std::vector<std::string> towers;
    for (const auto& [key, value] : object.items()) {
        if (key != kNestedKey && value.is_object() && key.size() > 7 && key.ends_with("_config") &&
            key != "quantization_config" && key != "rope_scaling" && key != "auto_map") {
            towers.push_back(key.substr(0, key.size() - 7));
        }
    }
    return towers;
}

/// Reads the language model of a multimodal wrapper from its text_config. Only the language model is
/// counted; the towers are named. A wrapper-level tie_word_embeddings decides the output head.
ModelConfig readWrapped(const json& object, const std::string& modelType, std::string_view innerDefault,
                        Diagnostics& diagnostics) {
    auto nested = object.find(kNestedKey);
    const json inner = nested != object.end() && nested->is_object() ? *nested : json::object();
    std::string innerType(innerDefault);
    if (auto it = inner.find("model_type"); it != inner.end() && it->is_string()) {
        innerType = it->get<std::string>();
    }
    if (innerType == "ministral") {
        innerType = "mistral"; // the same configuration class defaults
    }
    ModelConfig config = readObject(inner, innerType, diagnostics);
    json passthrough = object;
    passthrough.erase("model_type");
    passthrough.erase(kPresetKey);
    if (auto tie = object.find("tie_word_embeddings"); tie != object.end() && tie->is_boolean()) {
        config.tieWordEmbeddings = tie->get<bool>();
    }
    json innerRest = config.passthrough.json();
    innerRest["model_type"] = innerType;
    passthrough[std::string(kNestedKey)] = std::move(innerRest);
    config.passthrough = std::move(passthrough);
    config.modelType = modelType;
    config.uncountedParts = towersOf(object);
    std::string towers;
    for (const std::string& tower : config.uncountedParts) {
        towers += (towers.empty() ? "" : ", ") + tower;
    }
    diagnostics.push_back(
        {Severity::Hint, std::string(kNestedKey),
         fmt::format("{} is multimodal: archplay counts its language model ({}) only{}", modelType, innerType,
                     towers.empty() ? std::string() : fmt::format("; not counted: {}", towers))});
    return config;
}

bool sameModel(ModelConfig a, ModelConfig b) {
    a.passthrough = {};
    b.passthrough = {};
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
        result.diagnostics.push_back({Severity::Error, "",
                                      fmt::format("a config.json must hold a JSON object, not "
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

    if (const Wrapper* wrapper = findWrapper(modelType)) {
        result.config = readWrapped(object, modelType, wrapper->innerType, result.diagnostics);
    } else if (!findFamily(modelType) && object.contains(kNestedKey) && object[std::string(kNestedKey)].is_object()) {
        result.config = readWrapped(object, modelType, "unknown", result.diagnostics);
    } else {
        result.config = readObject(object, modelType, result.diagnostics);
    }
    if (hasErrors(result.diagnostics)) {
        result.config.reset();
    }
    return result;
}

ImportResult importConfigText(std::string_view text) {
    if (nestingDepth(text) > kMaxNesting) {
        ImportResult result;
        result.diagnostics.push_back(
            {Severity::Error, "",
             fmt::format("the JSON nests deeper than {} levels; a config.json is flat", kMaxNesting)});
        return result;
    }
    // allow_exceptions=false still throws for out-of-range numbers such as 1e400; catch everything.
    try {
        return importConfig(json::parse(text.begin(), text.end()));
    } catch (const json::exception& error) {
        ImportResult result;
        std::string reason = error.what();
        if (auto colon = reason.find("] "); colon != std::string::npos) {
            reason = reason.substr(colon + 2);
        }
        result.diagnostics.push_back({Severity::Error, "", "the text is not valid JSON: " + reason});
        return result;
    }
}

ImportResult importConfigFile(const std::filesystem::path& path) {
    ImportResult result;
    auto fail = [&](std::string message) {
        result.diagnostics.push_back({Severity::Error, "", fmt::format("cannot read {}: {}", path.string(), message)});
        return result;
    };
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) {
        return fail("it is a directory");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return fail(std::filesystem::exists(path, error) ? "permission denied" : "no such file");
    }
    // Read in chunks up to the limit, so pipes and devices are bounded too.
    std::string text;
    char chunk[1 << 16];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
        text.append(chunk, static_cast<std::size_t>(in.gcount()));
        if (text.size() > kMaxFileBytes) {
            return fail("larger than 64 MiB; a config.json is a few kilobytes");
        }
    }
    if (in.bad()) {
        return fail("read error");
    }
    return importConfigText(text);
}

json exportConfig(const ModelConfig& config, Diagnostics* notes) {
    const json& kept = config.passthrough.json();
    const bool nested = kept.contains(kNestedKey) && kept[std::string(kNestedKey)].is_object() &&
                        kept[std::string(kNestedKey)].contains("model_type") && !findFamily(config.modelType);
    const std::string familyType =
        nested ? kept[std::string(kNestedKey)].value("model_type", std::string()) : config.modelType;
    if (const Family* family = findFamily(familyType)) {
        json out = nested ? kept[std::string(kNestedKey)] : kept;
        family->write(config, out);
        out["model_type"] = familyType;
        if (nested) {
            json wrapper = kept;
            wrapper["model_type"] = config.modelType;
            if (wrapper.contains("tie_word_embeddings")) {
                wrapper["tie_word_embeddings"] = config.tieWordEmbeddings;
            }
            wrapper[std::string(kNestedKey)] = std::move(out);
            out = std::move(wrapper);
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
    json out = nested ? json::object() : kept;
    out.erase("__archplay_inexpressible");
    writeNative(config, out);
    return out;
}

std::string exportConfigText(const ModelConfig& config, Diagnostics* notes) {
    return exportConfig(config, notes).dump(2) + "\n";
}

} // namespace archplay::core
