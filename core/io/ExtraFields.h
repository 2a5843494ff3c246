// SPDX-License-Identifier: GPL-3.0-or-later
// The typed fields a config reads from the config.json keys it otherwise passes through: the
// router's rule and the forward-pass constants of ModelConfig::forward. Internal to core/io.
#pragma once

#include "core/config/ModelConfig.h"

#include <nlohmann/json_fwd.hpp>

#include <string_view>

namespace archplay::core {

/// Where multimodal wrappers keep the language model's config.
inline constexpr std::string_view kTextConfigKey = "text_config";

/// Sets config.moe.router and the key-backed numbers of config.forward from the passthrough
/// fields, leaving the family's value where a key is absent or of another type. The router is read
/// from the top level only; the numbers from the top level, else a multimodal wrapper's text_config.
void readExtraFields(const nlohmann::json& passthrough, ModelConfig& config);

/// Writes into `out` the keys whose reading would not give back `config`'s router rule and
/// forward-pass numbers, where `absent` holds what the reader gives without them (the family's
/// defaults). An unchanged config writes nothing, so its keys keep their original spelling.
void writeExtraFields(const ModelConfig& config, const ModelConfig& absent, nlohmann::json& out);

} // namespace archplay::core
