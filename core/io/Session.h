// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The program's own file, a session: a config (as config.json would hold it) plus the scenario and
// the preset it started from. Also the one JSON form of a scenario, which reports reuse.
//
// {
//   "archplay_session": {"schema_version": 1, "app_version": "0.1.0"},
//   "preset": "llama-3-8b",
//   "config": { ...Hugging Face config.json... },
//   "scenario": {"sequence_length": 4096, "encoder_sequence_length": 512, "batch_size": 1,
//                "weight_dtype": "bf16", "kv_dtype": "bf16", "gpu_memory_gib": 80, "gpu_count": 1}
// }

#include "core/config/ModelConfig.h"
#include "core/config/Scenario.h"
#include "core/validate/Diagnostic.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace archplay::core {

/// The scenario as JSON: sequence_length, encoder_sequence_length, batch_size, weight_dtype,
/// kv_dtype, state_dtype (only when set), gpu_memory_gib, gpu_count.
nlohmann::json scenarioJson(const Scenario& scenario);
/// Reads what scenarioJson() writes over `scenario`; absent keys keep their value. False, with
/// diagnostics naming the fields, when a value is malformed or not allowed.
bool readScenario(const nlohmann::json& object, Scenario& scenario, Diagnostics& diagnostics);

struct Session {
    ModelConfig config;
    Scenario scenario;
    std::string presetId;
};

inline constexpr int kSessionSchemaVersion = 1;

/// The session file's text, stamped with `appVersion`.
std::string sessionToJson(const Session& session, std::string_view appVersion);

struct SessionReadResult {
    std::optional<Session> session;
    Diagnostics diagnostics; ///< what was wrong or assumed, each naming its field
};

/// Reads a session. A newer schema version, a missing config or a config with errors yields no
/// session and diagnostics that say why.
SessionReadResult sessionFromJson(std::string_view text);

/// True when `text` is a JSON object with an "archplay_session" member.
bool looksLikeSession(std::string_view text);

} // namespace archplay::core
