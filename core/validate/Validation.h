// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/ModelConfig.h"
#include "core/scenario/Scenario.h"
#include "core/validate/Diagnostic.h"

namespace archplay::core {

/// Checks a config. Errors name what makes it impossible (non-positive sizes, kv heads not dividing
/// heads, top-k above the number of experts, a derived head_dim that does not divide, ...);
/// warnings and hints name unusual or hardware-unfriendly values. Each names its config.json field.
[[nodiscard]] Diagnostics validate(const ModelConfig& config);

/// Checks the scenario a config is looked at in: a listed memory size and at least one device
/// (errors), a sequence within the model's context (a warning), and, on several devices, query and
/// KV heads that split evenly over them for tensor parallelism (hints). Each names its field.
[[nodiscard]] Diagnostics validateScenario(const ModelConfig& config, const Scenario& scenario);

/// The largest value any size field may take; anything above is reported as absurd.
inline constexpr std::int64_t kMaxDimension = std::int64_t{1} << 40;

} // namespace archplay::core
