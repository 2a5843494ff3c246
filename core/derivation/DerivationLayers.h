// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The layer sections of the derivation; not part of the core API.

#include "core/config/LayerPlan.h"
#include "core/config/ModelConfig.h"
#include "core/derivation/Derivation.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace archplay::core::derivation {

/// What earlier sections have defined already, so each definition is written once.
struct Defined {
    std::set<std::string> names;

    /// True the first time `name` is asked for.
    bool first(const std::string& name) { return names.insert(name).second; }
};

/// The section for every layer of one kind: its norms, attention, feed-forward and residuals,
/// with the sizes of `config`. `tokens` is the symbol of the stack's sequence ("T", or "S" for an
/// encoder of an encoder-decoder model); `layerCount` the layers of its stack.
DerivationSection layerSection(const ModelConfig& config, const LayerPlan& kind,
                               const std::vector<std::int64_t>& indices, const std::string& tokens,
                               std::int64_t layerCount, Defined& defined);

/// The definition of the config's normalisation with its width and epsilon substituted.
std::string normDefinition(const ModelConfig& config);

} // namespace archplay::core::derivation
