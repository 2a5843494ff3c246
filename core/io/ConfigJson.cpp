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
constexpr std::string_view kNestedKey = "text_config"; // Gemma 3's multimodal wrapper
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

    if (modelType == "gemma3") {
        auto nested = object.find(kNestedKey);
        const json inner = nested != object.end() && nested->is_object() ? *nested : json::object();
        ModelConfig config = readObject(inner, "gemma3_text", result.diagnostics);
        // The wrapper keeps its own fields; the text model's uninterpreted ones go back inside it.
        json passthrough = object;
        passthrough.erase("model_type");
        passthrough.erase(kPresetKey);
        passthrough[std::string(kNestedKey)] = config.passthrough.json();
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
    const bool nested = config.modelType == "gemma3";
    const std::string familyType = nested ? "gemma3_text" : config.modelType;
    if (const Family* family = findFamily(familyType)) {
        json out = nested ? config.passthrough.json().value(std::string(kNestedKey), json::object())
                          : config.passthrough.json();
        family->write(config, out);
        if (nested) {
            json wrapper = config.passthrough.json();
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
    json out = nested ? json::object() : config.passthrough.json();
    out.erase("__archplay_inexpressible");
    writeNative(config, out);
    return out;
}

std::string exportConfigText(const ModelConfig& config, Diagnostics* notes) {
    return exportConfig(config, notes).dump(2) + "\n";
}

} // namespace archplay::core
