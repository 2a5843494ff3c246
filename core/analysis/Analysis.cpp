// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/Analysis.h"

#include "core/validate/Validation.h"

#include <string>
#include <string_view>
#include <utility>

namespace archplay::core {
namespace {

/// The config.json field that sizes `tensor` most directly: what an overflow error names.
std::string overflowField(const std::string& tensor, Component component) {
    const auto startsWith = [&](std::string_view prefix) {
        return tensor.rfind(prefix, 0) == 0;
    };
    switch (component) {
    case Component::Embedding:
    case Component::OutputHead:
        return "vocab_size";
    case Component::Positional:
        return "max_position_embeddings";
    case Component::Attention:
        return "num_attention_heads";
    case Component::Ffn:
        return "intermediate_size";
    case Component::Router:
    case Component::Experts:
        return "num_experts";
    case Component::SharedExperts:
        return "n_shared_experts";
    case Component::Mixer:
        return startsWith("linear_attn.") ? "linear_num_value_heads"
               : startsWith("mamba.")     ? "mamba_n_heads"
               : startsWith("self_attn.") ? "num_attention_heads"
                                          : "hidden_size";
    case Component::Norm:
    case Component::Pooler:
        return "hidden_size";
    }
    return "hidden_size";
}

/// The error for a parameter count that exceeds 2^64 - 1, naming the tensor and field at fault.
Diagnostic parameterOverflow(const ParamReport& params) {
    if (params.overflowTensor.empty()) {
        return {Severity::Error, "num_hidden_layers",
                "the parameter count exceeds 2^64 - 1, more than can be represented; reduce the model's size"};
    }
    return {Severity::Error, overflowField(params.overflowTensor, params.overflowComponent),
            params.overflowTensor + " alone would hold more than 2^64 - 1 parameters, more than can be represented; "
                                    "reduce the sizes it is the product of"};
}

} // namespace

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
        analysis.diagnostics.push_back(parameterOverflow(analysis.params));
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
