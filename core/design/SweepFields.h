// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The whole-number fields a sweep varies: config.json fields and the scenario's sequence length and
// batch. Each is written through the same core edit rule the config panel's field uses
// (core/config/ConfigEdits.h), so a sweep point is the model the slider would give at that value.

#include "core/config/ConfigEdits.h"
#include "core/config/ModelConfig.h"
#include "core/scenario/Scenario.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace archplay::core {

/// A field a sweep can vary.
struct SweepField {
    std::string_view key;   ///< config.json key ("num_hidden_layers") or scenario field ("sequence_length")
    std::string_view label; ///< "Layers"
    bool scenario;          ///< a field of the Scenario, not of the config
    bool logScale;          ///< spans orders of magnitude: a log axis suits it (the panel's slider is logarithmic)
    std::int64_t minimum;   ///< least value a sweep may take
    std::int64_t maximum;   ///< most value a sweep may take (the config panel's spin box limit)
    /// What a config must have for the field to apply ("a mixture of experts"); empty: every config.
    std::string_view requirement;
    /// True when the field applies to `config`; nullptr: always.
    bool (*appliesTo)(const ModelConfig& config);
    /// A maximum that depends on the config (top-k within the experts); nullptr: `maximum`.
    std::int64_t (*maximumFor)(const ModelConfig& config);
    /// The field's current value.
    std::int64_t (*get)(const ModelConfig& config, const Scenario& scenario);
    /// Writes `value` through the field's edit rule; `context` is the panel's (snapping, FFN ratio lock).
    void (*set)(ModelConfig& config, Scenario& scenario, std::int64_t value, const edits::EditContext& context);

    /// True when the field applies to `config`.
    [[nodiscard]] bool applies(const ModelConfig& config) const { return appliesTo == nullptr || appliesTo(config); }
    /// The most value a sweep of `config` may take.
    [[nodiscard]] std::int64_t maximumOf(const ModelConfig& config) const {
        return maximumFor == nullptr ? maximum : maximumFor(config);
    }
};

/// Every sweepable field, in the config panel's order (shape, attention, feed-forward, scenario).
[[nodiscard]] const std::vector<SweepField>& sweepFields();
/// The field whose key is `key`, or nullptr.
[[nodiscard]] const SweepField* findSweepField(std::string_view key);
/// The fields that apply to `config`, in order.
[[nodiscard]] std::vector<const SweepField*> sweepFieldsFor(const ModelConfig& config);

} // namespace archplay::core
