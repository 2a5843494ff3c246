// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/ModelConfig.h"
#include "core/io/JsonFields.h"

#include <nlohmann/json.hpp>

#include <string_view>
#include <vector>

namespace archplay::core {

/// How one Hugging Face model_type maps to and from a ModelConfig. `read` applies the defaults of
/// that model type's configuration class in transformers; `write` sets the keys it reads.
struct Family {
    std::string_view modelType;
    void (*read)(JsonFields& fields, ModelConfig& config);
    void (*write)(const ModelConfig& config, nlohmann::json& out);
};

const std::vector<Family>& families();
const Family* findFamily(std::string_view modelType);

/// The archplay native format: every switch spelled out. With `assume`, absent switches are
/// reported as assumptions (used for unknown model types).
void readNative(JsonFields& fields, ModelConfig& config, bool assume);
void writeNative(const ModelConfig& config, nlohmann::json& out);

Activation parseActivation(std::string_view name);

} // namespace archplay::core
