// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/SessionFile.h"

#include "io/ConfigJson.h"
#include "memory/GpuFit.h"

#include <nlohmann/json.hpp>

namespace archplay::ui {

namespace {

#ifndef ARCHPLAY_VERSION
#define ARCHPLAY_VERSION "0.0.0"
#endif

core::Diagnostic error(std::string field, std::string message) {
    return core::Diagnostic{core::Severity::Error, std::move(field), std::move(message)};
}

/// Reads an unsigned scenario number; absent keeps the default, anything else is an error.
bool readCount(const nlohmann::json& object, const char* key, std::uint64_t& out, core::Diagnostics& diagnostics) {
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

bool readDType(const nlohmann::json& object, const char* key, core::DType& out, core::Diagnostics& diagnostics) {
    auto it = object.find(key);
    if (it == object.end()) {
        return true;
    }
    std::optional<core::DType> dtype;
    if (it->is_string()) {
        dtype = core::parseDType(it->get<std::string>());
    }
    if (!dtype) {
        diagnostics.push_back(error(key, "expected one of fp32, fp16, bf16, fp8, int8, int4"));
        return false;
    }
    out = *dtype;
    return true;
}

} // namespace

QByteArray sessionToJson(const Session& session) {
    nlohmann::json root = nlohmann::json::object();
    root["archplay_session"] = {{"schema_version", kSessionSchemaVersion}, {"app_version", ARCHPLAY_VERSION}};
    if (!session.presetId.isEmpty()) {
        root["preset"] = session.presetId.toStdString();
    }
    root["config"] = core::exportConfig(session.config);
    const core::Scenario& s = session.scenario;
    root["scenario"] = {
        {"sequence_length", s.sequenceLength},
        {"encoder_sequence_length", s.encoderSequenceLength},
        {"batch_size", s.batch},
        {"weight_dtype", std::string(core::toString(s.weightDType))},
        {"kv_dtype", std::string(core::toString(s.kvDType))},
        {"gpu_memory_gib", s.gpuMemoryGiB},
        {"gpu_count", s.gpuCount},
    };
    if (s.stateDType) {
        root["scenario"]["state_dtype"] = std::string(core::toString(*s.stateDType));
    }
    return QByteArray::fromStdString(root.dump(2) + "\n");
}

bool looksLikeSession(const QByteArray& json) {
    const nlohmann::json root = nlohmann::json::parse(json.constData(), json.constData() + json.size(), nullptr, false);
    return root.is_object() && root.contains("archplay_session");
}

SessionReadResult sessionFromJson(const QByteArray& json) {
    SessionReadResult result;
    const nlohmann::json root = nlohmann::json::parse(json.constData(), json.constData() + json.size(), nullptr, false);
    if (root.is_discarded() || !root.is_object()) {
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
    if (version->get<int>() > kSessionSchemaVersion) {
        result.diagnostics.push_back(error("schema_version", "version " + std::to_string(version->get<int>()) +
                                                                 " is newer than this program reads (" +
                                                                 std::to_string(kSessionSchemaVersion) + ")"));
        return result;
    }
    auto config = root.find("config");
    if (config == root.end() || !config->is_object()) {
        result.diagnostics.push_back(error("config", "missing or not an object"));
        return result;
    }
    core::ImportResult imported = core::importConfig(*config);
    result.diagnostics = imported.diagnostics;
    if (!imported.config) {
        return result;
    }
    Session session;
    session.config = std::move(*imported.config);
    if (auto preset = root.find("preset"); preset != root.end() && preset->is_string()) {
        session.presetId = QString::fromStdString(preset->get<std::string>());
    }
    if (auto scenario = root.find("scenario"); scenario != root.end()) {
        if (!scenario->is_object()) {
            result.diagnostics.push_back(error("scenario", "expected an object"));
            return result;
        }
        core::Scenario& s = session.scenario;
        bool ok = readCount(*scenario, "sequence_length", s.sequenceLength, result.diagnostics);
        ok = readCount(*scenario, "encoder_sequence_length", s.encoderSequenceLength, result.diagnostics) && ok;
        ok = readCount(*scenario, "batch_size", s.batch, result.diagnostics) && ok;
        ok = readDType(*scenario, "weight_dtype", s.weightDType, result.diagnostics) && ok;
        ok = readDType(*scenario, "kv_dtype", s.kvDType, result.diagnostics) && ok;
        if (scenario->contains("state_dtype")) {
            core::DType state = s.kvDType;
            ok = readDType(*scenario, "state_dtype", state, result.diagnostics) && ok;
            s.stateDType = state;
        }
        ok = readCount(*scenario, "gpu_memory_gib", s.gpuMemoryGiB, result.diagnostics) && ok;
        ok = readCount(*scenario, "gpu_count", s.gpuCount, result.diagnostics) && ok;
        if (ok && core::findGpuMemorySize(s.gpuMemoryGiB) == nullptr) {
            result.diagnostics.push_back(error("gpu_memory_gib", std::to_string(s.gpuMemoryGiB) + " is not one of " +
                                                                     core::gpuMemorySizeList()));
            ok = false;
        }
        if (!ok) {
            return result;
        }
    }
    result.session = std::move(session);
    return result;
}

} // namespace archplay::ui
