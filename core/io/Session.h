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
//                "weight_dtype": "bf16", "kv_dtype": "bf16", "gpu_memory_gib": 80, "gpu_count": 1},
//   "origin": {"kind": "file", "label": "config.json", "path": "/models/x/config.json",
//              "loaded_config": { ...the config as it was loaded, only when edited since... }},
//   "view": "kv-cache",
//   "selected_layer": 3
// }
//
// "origin", "view" and "selected_layer" are optional: a session without them (schema 1 as first
// written) still opens, and a program that does not know them ignores them.

#include "core/config/ModelConfig.h"
#include "core/io/ViewKind.h"
#include "core/scenario/Scenario.h"
#include "core/validate/Diagnostic.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
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

/// Where a session's config came from, so that a reopened session keeps its name and whether it
/// was edited since it was loaded.
struct SessionOrigin {
    enum class Kind { None, Preset, File, Clipboard };
    Kind kind = Kind::None;
    std::string label; ///< the preset's name or the file's name
    std::string path;  ///< the file, for Kind::File
    /// The config as it was loaded; nullopt when the session's config is that config, unedited.
    std::optional<ModelConfig> loadedConfig;

    bool operator==(const SessionOrigin&) const = default;
};

struct Session {
    ModelConfig config;
    Scenario scenario;
    std::string presetId;
    SessionOrigin origin;
    std::optional<ViewKind> view;              ///< the view that was shown
    std::optional<std::int64_t> selectedLayer; ///< the layer selected in the one-layer views
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
