// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/Analysis.h"
#include "config/ModelConfig.h"
#include "validate/Diagnostic.h"

#include <QByteArray>
#include <QString>

#include <optional>
#include <string>

namespace archplay::ui {

/// The program's own file: a config (as config.json would hold it) plus the scenario and the
/// preset it started from.
///
/// {
///   "archplay_session": {"schema_version": 1, "app_version": "0.1.0"},
///   "preset": "llama-3-8b",
///   "config": { ...Hugging Face config.json... },
///   "scenario": {"sequence_length": 4096, "encoder_sequence_length": 512, "batch_size": 1,
///                "weight_dtype": "bf16", "kv_dtype": "bf16"}
/// }
struct Session {
    core::ModelConfig config;
    core::Scenario scenario;
    QString presetId;
};

inline constexpr int kSessionSchemaVersion = 1;

QByteArray sessionToJson(const Session& session);

struct SessionReadResult {
    std::optional<Session> session;
    core::Diagnostics diagnostics; ///< what was wrong or assumed, each naming its field
};

/// Reads a session. A newer schema version, a missing config or a config with errors yields no
/// session and diagnostics that say why.
SessionReadResult sessionFromJson(const QByteArray& json);

/// True when `json` is a JSON object with an "archplay_session" member.
bool looksLikeSession(const QByteArray& json);

} // namespace archplay::ui
