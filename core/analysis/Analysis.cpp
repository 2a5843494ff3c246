// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/Analysis.h"

#include "core/validate/Validation.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>

namespace archplay::core {
namespace {

/// The scenario's factor that grows a cache or a cost the most: the batch or the sequence length.
Field largerFactor(const Scenario& s) {
    return s.batch > s.sequenceLength ? Field::BatchSize : Field::SequenceLength;
}

/// A diagnostic on `field`, named by its key.
Diagnostic diagnostic(Severity severity, Field field, std::string message) {
    return {severity, std::string(fieldKey(field)), std::move(message), field};
}

/// The field that sizes `tensor` most directly: what an overflow error names.
Field overflowField(const std::string& tensor, Component component) {
    const auto startsWith = [&](std::string_view prefix) {
        return tensor.rfind(prefix, 0) == 0;
    };
    switch (component) {
    case Component::Embedding:
    case Component::OutputHead:
        return Field::VocabSize;
    case Component::Positional:
        return Field::MaxPositionEmbeddings;
    case Component::Attention:
        return Field::NumAttentionHeads;
    case Component::Ffn:
        return Field::IntermediateSize;
    case Component::Router:
    case Component::Experts:
        return Field::NumExperts;
    case Component::SharedExperts:
        return Field::NSharedExperts;
    case Component::Mixer:
        return startsWith("linear_attn.") ? Field::LinearNumValueHeads
               : startsWith("mamba.")     ? Field::MambaNHeads
               : startsWith("self_attn.") ? Field::NumAttentionHeads
                                          : Field::HiddenSize;
    case Component::Norm:
    case Component::Pooler:
        return Field::HiddenSize;
    }
    return Field::HiddenSize;
}

/// The error for a parameter count that exceeds 2^64 - 1, naming the tensor and field at fault.
Diagnostic parameterOverflow(const ParamReport& params) {
    if (params.overflowTensor.empty()) {
        return diagnostic(
            Severity::Error, Field::NumHiddenLayers,
            "the parameter count exceeds 2^64 - 1, more than can be represented; reduce the model's size");
    }
    return diagnostic(Severity::Error, overflowField(params.overflowTensor, params.overflowComponent),
                      params.overflowTensor +
                          " alone would hold more than 2^64 - 1 parameters, more than can be represented; "
                          "reduce the sizes it is the product of");
}

/// Compute, memory and speed for the scenario (core/cost).
void addCosts(Analysis& analysis) {
    const ModelConfig& config = analysis.config;
    const Scenario& s = analysis.scenario;
    const bool fp8 = formatInfo(s.weightFormat).fp8Compute;
    const TrainingSetup training{s.trainingTokens, s.recompute, s.gpuCount,
                                 s.gpu.peakFlops(s.activationDType == DType::FP8), s.mfu};
    analysis.compute =
        compute(config, analysis.plan, s.sequenceLength, s.encoderSequenceLength, analysis.params.total, training);
    const std::uint64_t chunk = std::min(s.prefillChunk, (Checked(s.sequenceLength) * Checked(s.batch)).value());
    analysis.serving = servingMemory(config, analysis.weightBytes, analysis.kv.totalBytes, s.batch, chunk,
                                     s.activationDType, s.gpuCount, s.gpu.memoryBytes());
    analysis.training = trainingMemory(config, analysis.plan, analysis.params.total, s.trainingShape());
    analysis.trainingGpusNeeded = trainingGpusNeeded(analysis.training, s.gpu.memoryBytes());
    const KvCacheReport one = kvCache(config, analysis.plan, s.sequenceLength, 1, s.kvDType, s.encoderSequenceLength,
                                      s.stateDType, s.kvAllocator, s.prefillChunk);
    const RooflineInputs inputs{&config,        &analysis.compute, &analysis.weights,
                                one.totalBytes, s.batch,           analysis.devices.capacityBytes};
    analysis.speed = roofline(inputs, s.gpu, s.gpuCount, fp8);
    const bool overflow = analysis.compute.overflow || analysis.serving.overflow || one.overflow ||
                          analysis.kv.overflow || analysis.weights.overflow;
    analysis.costsValid = !overflow && !analysis.training.overflow;
}

/// The warning for cost figures beyond 2^64 - 1, naming the scenario field that grows them.
Diagnostic costOverflow(const Analysis& analysis) {
    const bool training = analysis.training.overflow && !analysis.compute.overflow && !analysis.kv.overflow;
    return diagnostic(
        Severity::Warning, training ? Field::MicroBatch : largerFactor(analysis.scenario),
        "compute, memory and speed figures exceed 2^64 - 1 in this scenario and are not shown; reduce it");
}

} // namespace

Analysis analyze(const ModelConfig& config, const Scenario& scenario) {
    Analysis analysis;
    analysis.config = config;
    analysis.scenario = scenario;
    if (const std::optional<WeightFormat> shipped = shippedFormat(config); shipped && scenario.weightsAsShipped) {
        analysis.scenario.weightFormat = *shipped;
    }
    analysis.diagnostics = validate(config);
    for (Diagnostic& diagnostic : validateScenario(config, scenario)) {
        analysis.diagnostics.push_back(std::move(diagnostic));
    }
    if (hasErrors(analysis.diagnostics)) {
        return analysis;
    }
    analysis.plan = planLayers(config);
    analysis.params = countParameters(config, analysis.plan);
    analysis.kv =
        kvCache(config, analysis.plan, scenario.sequenceLength, scenario.batch, scenario.kvDType,
                scenario.encoderSequenceLength, scenario.stateDType, scenario.kvAllocator, scenario.prefillChunk);
    analysis.weights = weightMemory(config, analysis.plan, analysis.scenario.weightFormat);
    analysis.weightBytes = analysis.weights.bytes;
    analysis.devices =
        deviceFit(memorySizeOf(scenario.gpu), scenario.gpuCount, analysis.weightBytes, analysis.kv.totalBytes);
    addCosts(analysis);
    if (analysis.params.overflow) {
        analysis.diagnostics.push_back(parameterOverflow(analysis.params));
        return analysis;
    }
    if (analysis.kv.overflow) {
        analysis.diagnostics.push_back(
            diagnostic(Severity::Warning, largerFactor(scenario),
                       "the KV cache for this sequence length and batch exceeds 2^64 bytes"));
    }
    if (analysis.config.shipped && !analysis.config.shipped->unread.empty()) {
        analysis.diagnostics.push_back(
            diagnostic(Severity::Hint, Field::WeightFormat, "quantization_config: " + analysis.config.shipped->unread));
    }
    if (!analysis.kv.unsupported.empty()) {
        // The allocator has no rule here: no cost figure is shown rather than one from another rule,
        // nor a speed or a fit computed without the cache.
        analysis.costsValid = false;
        analysis.speed = RooflineReport{};
        analysis.devices = DeviceFit{};
        analysis.diagnostics.push_back(
            diagnostic(Severity::Warning, Field::KvAllocator, analysis.kv.unsupported + "; choose another allocator"));
    } else if (!analysis.costsValid) {
        analysis.diagnostics.push_back(costOverflow(analysis));
    }
    analysis.valid = true;
    return analysis;
}

} // namespace archplay::core
