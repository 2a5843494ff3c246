// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/Analysis.h"

#include "core/validate/Validation.h"

#include <utility>

namespace archplay::core {

Analysis analyze(const ModelConfig& config, const Scenario& scenario) {
    Analysis analysis;
    analysis.config = config;
    analysis.scenario = scenario;
    analysis.diagnostics = validate(config);
    for (Diagnostic& diagnostic : validateScenario(config, scenario)) {
        analysis.diagnostics.push_back(std::move(diagnostic));
    }
    if (hasErrors(analysis.diagnostics)) {
        return analysis;
    }
    analysis.plan = planLayers(config);
    analysis.params = countParameters(config, analysis.plan);
    analysis.kv = kvCache(config, analysis.plan, scenario.sequenceLength, scenario.batch, scenario.kvDType,
                          scenario.encoderSequenceLength, scenario.stateDType);
    analysis.weightBytes = bytesFor(analysis.params.total, scenario.weightDType);
    analysis.devices = deviceFit(*findGpuMemorySize(scenario.gpuMemoryGiB), scenario.gpuCount, analysis.weightBytes,
                                 analysis.kv.totalBytes);
    if (analysis.params.overflow) {
        analysis.diagnostics.push_back(
            {Severity::Error, "hidden_size", "the parameter count exceeds 2^64 - 1; reduce the model's size"});
        return analysis;
    }
    if (analysis.kv.overflow) {
        analysis.diagnostics.push_back({Severity::Warning, "max_position_embeddings",
                                        "the KV cache for this sequence length and batch exceeds 2^64 bytes"});
    }
    analysis.valid = true;
    return analysis;
}

} // namespace archplay::core
