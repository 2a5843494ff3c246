// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scenario/Scenario.h"

namespace archplay::core {

std::optional<std::uint64_t> fitSequenceToContext(const ModelConfig& config, Scenario& scenario) {
    if (config.maxPositions <= 0 || scenario.sequenceLength <= static_cast<std::uint64_t>(config.maxPositions)) {
        return std::nullopt;
    }
    const std::uint64_t before = scenario.sequenceLength;
    scenario.sequenceLength = static_cast<std::uint64_t>(config.maxPositions);
    return before;
}

std::optional<WeightFormat> startFromShippedFormat(const ModelConfig* previous, const ModelConfig& config,
                                                   Scenario& scenario) {
    scenario.weightsAsShipped = false;
    const WeightFormat before = scenario.weightFormat;
    if (const std::optional<WeightFormat> shipped = shippedFormat(config)) {
        scenario.weightFormat = *shipped;
    } else if (previous && shippedFormat(*previous) == before) {
        scenario.weightFormat = WeightFormat::BF16;
    }
    return scenario.weightFormat == before ? std::nullopt : std::optional<WeightFormat>(before);
}

} // namespace archplay::core
