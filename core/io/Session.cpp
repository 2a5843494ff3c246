// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/Session.h"

#include "core/io/ConfigJson.h"
#include "core/io/GpuJson.h"
#include "core/io/JsonText.h"

#include <nlohmann/json.hpp>

#include <limits>
#include <utility>

namespace archplay::core {

namespace {

Diagnostic error(std::string field, std::string message) {
    const Field target = fieldForKey(field);
    return Diagnostic{Severity::Error, std::move(field), std::move(message), target};
}

/// Reads an unsigned scenario number; absent keeps the default, anything else is an error.
bool readCount(const nlohmann::json& object, const char* key, std::uint64_t& out, Diagnostics& diagnostics) {
    auto it = object.find(key);
    if (it == object.end()) {
        return true;
    }
    if (!it->is_number_integer() || it->get<std::int64_t>() < 1) {
        diagnostics.push_back(error(key, "expected a positive integer"));
        return false;
    }
    out = it->get<std::uint64_t>();
    return true;
}

bool readDType(const nlohmann::json& object, const char* key, DType& out, Diagnostics& diagnostics) {
    auto it = object.find(key);
    if (it == object.end()) {
        return true;
    }
    std::optional<DType> dtype;
    if (it->is_string()) {
        dtype = parseDType(it->get<std::string>());
    }
    if (!dtype) {
        diagnostics.push_back(error(key, "expected one of fp32, fp16, bf16, fp8, int8, int4"));
        return false;
    }
    out = *dtype;
    return true;
}

/// "kv_allocator": whose cache the KV figures are; absent in sessions before it (the architecture's).
bool readKvAllocator(const nlohmann::json& object, KvAllocator& out, Diagnostics& diagnostics) {
    const auto it = object.find("kv_allocator");
    if (it == object.end()) {
        return true;
    }
    const std::optional<KvAllocator> allocator =
        it->is_string() ? parseKvAllocator(it->get<std::string>()) : std::nullopt;
    if (!allocator) {
        diagnostics.push_back(error("kv_allocator", "expected " + kvAllocatorChoices()));
        return false;
    }
    out = *allocator;
    return true;
}

/// "weight_format" (or an older session's "weight_dtype": fp32 ... int4, int4 read as GPTQ/AWQ g128).
bool readWeightFormat(const nlohmann::json& object, WeightFormat& out, Diagnostics& diagnostics) {
    for (const char* key : {"weight_format", "weight_dtype"}) {
        const auto it = object.find(key);
        if (it == object.end()) {
            continue;
        }
        const std::optional<WeightFormat> format =
            it->is_string() ? parseWeightFormat(it->get<std::string>()) : std::nullopt;
        if (!format) {
            diagnostics.push_back(error(key, "expected one of " + weightFormatIdList()));
            return false;
        }
        out = *format;
        return true;
    }
    return true;
}

/// "gpu" (a device object), or an older session's "gpu_memory_gib": the first built-in device of
/// that memory.
bool readGpuChoice(const nlohmann::json& object, Gpu& out, Diagnostics& diagnostics) {
    if (const auto it = object.find("gpu"); it != object.end()) {
        return readGpu(*it, out, diagnostics, "gpu");
    }
    std::uint64_t gib = 0;
    if (!object.contains("gpu_memory_gib")) {
        return true;
    }
    if (!readCount(object, "gpu_memory_gib", gib, diagnostics)) {
        return false;
    }
    for (const Gpu& gpu : builtinGpus()) {
        if (gpu.memoryGiB == gib) {
            out = gpu;
            return true;
        }
    }
    diagnostics.push_back(error("gpu_memory_gib", std::to_string(gib) + " GiB is the memory of no built-in device"));
    return false;
}

/// The training keys that are not counts.
bool readTraining(const nlohmann::json& object, Scenario& s, Diagnostics& diagnostics) {
    bool ok = true;
    if (const auto it = object.find("zero_stage"); it != object.end()) {
        if (!it->is_number_integer() || it->get<std::int64_t>() < 0 || it->get<std::int64_t>() > 3) {
            diagnostics.push_back(error("zero_stage", "expected 0, 1, 2 or 3"));
            ok = false;
        } else {
            s.zeroStage = static_cast<int>(it->get<std::int64_t>());
        }
    }
    if (const auto it = object.find("recompute"); it != object.end()) {
        const auto recompute = it->is_string() ? parseRecompute(it->get<std::string>()) : std::nullopt;
        if (!recompute) {
            diagnostics.push_back(error("recompute", "expected none, selective or full"));
            ok = false;
        } else {
            s.recompute = *recompute;
        }
    }
    if (const auto it = object.find("optimizer"); it != object.end()) {
        const auto optimizer = it->is_string() ? parseOptimizer(it->get<std::string>()) : std::nullopt;
        if (!optimizer) {
            diagnostics.push_back(error("optimizer", "expected adam16 or adam18"));
            ok = false;
        } else {
            s.optimizer = *optimizer;
        }
    }
    for (auto [key, flag] : {std::pair{"flash_attention", &s.flashAttention}, std::pair{"dropout", &s.dropout}}) {
        if (const auto it = object.find(key); it != object.end()) {
            if (!it->is_boolean()) {
                diagnostics.push_back(error(key, "expected true or false"));
                ok = false;
            } else {
                *flag = it->get<bool>();
            }
        }
    }
    if (const auto it = object.find("mfu"); it != object.end()) {
        if (!it->is_number() || !(it->get<double>() > 0) || it->get<double>() > 1) {
            diagnostics.push_back(error("mfu", "expected a number above 0 and at most 1"));
            ok = false;
        } else {
            s.mfu = it->get<double>();
        }
    }
    if (const auto it = object.find("gpu_memory_utilization"); it != object.end()) {
        if (!it->is_number() || !(it->get<double>() > 0) || it->get<double>() > 1) {
            diagnostics.push_back(error("gpu_memory_utilization", "expected a number above 0 and at most 1"));
            ok = false;
        } else {
            s.gpuMemoryUtilization = it->get<double>();
        }
    }
    return ok;
}

constexpr std::pair<SessionOrigin::Kind, const char*> kOriginKinds[] = {
    {SessionOrigin::Kind::Preset, "preset"},
    {SessionOrigin::Kind::File, "file"},
    {SessionOrigin::Kind::Clipboard, "clipboard"},
};

nlohmann::json originJson(const SessionOrigin& origin) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [kind, name] : kOriginKinds) {
        if (kind == origin.kind) {
            out["kind"] = name;
        }
    }
    if (!origin.label.empty()) {
        out["label"] = origin.label;
    }
    if (!origin.path.empty()) {
        out["path"] = origin.path;
    }
    if (origin.loadedConfig) {
        out["loaded_config"] = exportConfig(*origin.loadedConfig);
    }
    return out;
}

/// Reads "origin". What is malformed there is dropped with a warning: the session's config and
/// scenario are whole without it.
SessionOrigin readOrigin(const nlohmann::json& object, Diagnostics& diagnostics) {
    SessionOrigin origin;
    if (!object.is_object()) {
        diagnostics.push_back({Severity::Warning, "origin", "expected an object; ignored"});
        return origin;
    }
    auto text = [&](const char* key) -> std::string {
        auto it = object.find(key);
        if (it == object.end()) {
            return {};
        }
        if (!it->is_string()) {
            diagnostics.push_back({Severity::Warning, std::string("origin.") + key, "expected a string; ignored"});
            return {};
        }
        return it->get<std::string>();
    };
    const std::string kind = text("kind");
    for (const auto& [value, name] : kOriginKinds) {
        if (kind == name) {
            origin.kind = value;
        }
    }
    if (!kind.empty() && origin.kind == SessionOrigin::Kind::None) {
        diagnostics.push_back({Severity::Warning, "origin.kind", "\"" + kind + "\" is not preset, file or clipboard"});
    }
    origin.label = text("label");
    origin.path = text("path");
    if (auto loaded = object.find("loaded_config"); loaded != object.end()) {
        ImportResult imported = importConfig(*loaded);
        if (imported.config) {
            origin.loadedConfig = std::move(*imported.config);
        } else {
            diagnostics.push_back({Severity::Warning, "origin.loaded_config",
                                   "not a config archplay reads; the session is shown as unedited"});
        }
    }
    return origin;
}

} // namespace

nlohmann::json scenarioJson(const Scenario& s) {
    nlohmann::json out = {
        {"sequence_length", s.sequenceLength},
        {"encoder_sequence_length", s.encoderSequenceLength},
        {"batch_size", s.batch},
        {"weight_format", std::string(formatInfo(s.weightFormat).id)},
        {"kv_dtype", std::string(toString(s.kvDType))},
        {"activation_dtype", std::string(toString(s.activationDType))},
        {"gpu", gpuJson(s.gpu)},
        {"gpu_count", s.gpuCount},
        {"prefill_chunk", s.prefillChunk},
        {"training_tokens", s.trainingTokens},
        {"micro_batch", s.microBatch},
        {"tensor_parallel", s.tensorParallel},
        {"zero_stage", s.zeroStage},
        {"recompute", std::string(toString(s.recompute))},
        {"flash_attention", s.flashAttention},
        {"dropout", s.dropout},
        {"optimizer", std::string(toString(s.optimizer))},
        {"mfu", s.mfu},
        {"gpu_memory_utilization", s.gpuMemoryUtilization},
        {"weights_as_shipped", s.weightsAsShipped},
    };
    if (s.kvCacheMemoryBytes > 0) {
        out["kv_cache_memory_bytes"] = s.kvCacheMemoryBytes;
    }
    if (s.stateDType) {
        out["state_dtype"] = std::string(toString(*s.stateDType));
    }
    out["kv_allocator"] = std::string(toString(s.kvAllocator));
    return out;
}

bool readScenario(const nlohmann::json& object, Scenario& s, Diagnostics& diagnostics) {
    if (!object.is_object()) {
        diagnostics.push_back(error("scenario", "expected an object"));
        return false;
    }
    bool ok = readCount(object, "sequence_length", s.sequenceLength, diagnostics);
    ok = readCount(object, "encoder_sequence_length", s.encoderSequenceLength, diagnostics) && ok;
    ok = readCount(object, "batch_size", s.batch, diagnostics) && ok;
    ok = readWeightFormat(object, s.weightFormat, diagnostics) && ok;
    ok = readDType(object, "kv_dtype", s.kvDType, diagnostics) && ok;
    ok = readDType(object, "activation_dtype", s.activationDType, diagnostics) && ok;
    if (object.contains("state_dtype")) {
        DType state = s.kvDType;
        ok = readDType(object, "state_dtype", state, diagnostics) && ok;
        s.stateDType = state;
    }
    ok = readKvAllocator(object, s.kvAllocator, diagnostics) && ok;
    // A session holds the format it was looked at in; one without the key was written before formats
    // were read from quantization_config, in the format it names.
    s.weightsAsShipped = false;
    if (const auto it = object.find("weights_as_shipped"); it != object.end()) {
        if (!it->is_boolean()) {
            diagnostics.push_back(error("weights_as_shipped", "expected true or false"));
            ok = false;
        } else {
            s.weightsAsShipped = it->get<bool>();
        }
    }
    ok = readCount(object, "gpu_count", s.gpuCount, diagnostics) && ok;
    ok = readGpuChoice(object, s.gpu, diagnostics) && ok;
    ok = readCount(object, "prefill_chunk", s.prefillChunk, diagnostics) && ok;
    ok = readCount(object, "kv_cache_memory_bytes", s.kvCacheMemoryBytes, diagnostics) && ok;
    ok = readCount(object, "training_tokens", s.trainingTokens, diagnostics) && ok;
    ok = readCount(object, "micro_batch", s.microBatch, diagnostics) && ok;
    ok = readCount(object, "tensor_parallel", s.tensorParallel, diagnostics) && ok;
    ok = readTraining(object, s, diagnostics) && ok;
    return ok;
}

std::string sessionToJson(const Session& session, std::string_view appVersion) {
    nlohmann::json root = nlohmann::json::object();
    root["archplay_session"] = {{"schema_version", kSessionSchemaVersion}, {"app_version", std::string(appVersion)}};
    if (!session.presetId.empty()) {
        root["preset"] = session.presetId;
    }
    root["config"] = exportConfig(session.config);
    root["scenario"] = scenarioJson(session.scenario);
    if (session.origin.kind != SessionOrigin::Kind::None) {
        root["origin"] = originJson(session.origin);
    }
    if (session.view) {
        root["view"] = std::string(toString(*session.view));
    }
    if (session.selectedLayer) {
        root["selected_layer"] = *session.selectedLayer;
    }
    return root.dump(2) + "\n";
}

bool looksLikeSession(std::string_view text) {
    Diagnostics ignored;
    const std::optional<nlohmann::json> root = parseJsonText(text, ignored);
    return root && root->is_object() && root->contains("archplay_session");
}

SessionReadResult sessionFromJson(std::string_view text) {
    SessionReadResult result;
    const std::optional<nlohmann::json> parsed = parseJsonText(text, result.diagnostics);
    if (!parsed) {
        return result;
    }
    const nlohmann::json& root = *parsed;
    if (!root.is_object()) {
        result.diagnostics.push_back(error("", "not a JSON object"));
        return result;
    }
    auto header = root.find("archplay_session");
    if (header == root.end() || !header->is_object()) {
        result.diagnostics.push_back(error("archplay_session", "missing: this is not an archplay session file"));
        return result;
    }
    auto version = header->find("schema_version");
    if (version == header->end() || !version->is_number_integer()) {
        result.diagnostics.push_back(error("schema_version", "missing or not an integer"));
        return result;
    }
    // Read whole: a version cut to 32 bits would take 4294967297 for 1.
    const bool positive =
        version->is_number_unsigned() ? version->get<std::uint64_t>() > 0 : version->get<std::int64_t>() > 0;
    if (!positive) {
        result.diagnostics.push_back(error("schema_version", "must be a positive integer, not " + version->dump()));
        return result;
    }
    if (version->get<std::uint64_t>() > static_cast<std::uint64_t>(kSessionSchemaVersion)) {
        result.diagnostics.push_back(error("schema_version", "version " + version->dump() +
                                                                 " is newer than this program reads (" +
                                                                 std::to_string(kSessionSchemaVersion) + ")"));
        return result;
    }
    auto config = root.find("config");
    if (config == root.end() || !config->is_object()) {
        result.diagnostics.push_back(error("config", "missing or not an object"));
        return result;
    }
    ImportResult imported = importConfig(*config);
    result.diagnostics = imported.diagnostics;
    if (!imported.config) {
        return result;
    }
    Session session;
    session.config = std::move(*imported.config);
    if (auto preset = root.find("preset"); preset != root.end() && preset->is_string()) {
        session.presetId = preset->get<std::string>();
    }
    if (auto scenario = root.find("scenario"); scenario != root.end()) {
        if (!readScenario(*scenario, session.scenario, result.diagnostics)) {
            return result;
        }
    }
    if (auto origin = root.find("origin"); origin != root.end()) {
        session.origin = readOrigin(*origin, result.diagnostics);
    }
    if (auto view = root.find("view"); view != root.end()) {
        session.view = view->is_string() ? parseViewKind(view->get<std::string>()) : std::nullopt;
        if (!session.view) {
            result.diagnostics.push_back({Severity::Warning, "view", "not a view this program has; ignored"});
        }
    }
    if (auto layer = root.find("selected_layer"); layer != root.end()) {
        if (layer->is_number_unsigned() &&
            layer->get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<std::int64_t>::max())) {
            session.selectedLayer = layer->get<std::int64_t>();
        } else {
            result.diagnostics.push_back(
                {Severity::Warning, "selected_layer", "expected a layer number from 0; ignored"});
        }
    }
    result.session = std::move(session);
    return result;
}

} // namespace archplay::core
