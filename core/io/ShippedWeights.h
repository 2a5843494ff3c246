// SPDX-License-Identifier: GPL-3.0-or-later
// The weights as a checkpoint ships them: its config.json's quantization_config read into one of
// archplay's weight formats (FORMULAS.md §6.3). Internal to core/io.
#pragma once

#include "core/config/ModelConfig.h"

#include <nlohmann/json_fwd.hpp>

namespace archplay::core {

/// Sets config.shipped from the passthrough's quantization_config (top level, else a multimodal
/// wrapper's text_config); absent without one. A layout archplay does not store exactly is kept
/// with an empty format and the reason in `unread`.
void readShippedWeights(const nlohmann::json& passthrough, ModelConfig& config);

} // namespace archplay::core
