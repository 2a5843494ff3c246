// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/ReportJson.h"

#include "core/params/Tensors.h"
#include "core/report/Costs.h"
#include "core/util/Format.h"

#include <nlohmann/json.hpp>

namespace archplay::core {

using nlohmann::json;

json toJson(const ParamNode& node) {
    json out = {{"name", node.name}, {"params", node.params}};
    if (!node.shape.empty()) {
        out["shape"] = toString(node.shape);
    }
    if (node.repeated()) {
        // params = per_layer x layers, for a layer kind and its parts.
        out["per_layer"] = node.perLayer;
        out["layers"] = node.layers;
    }
    json children = json::array();
    for (const ParamNode& child : node.children) {
        children.push_back(toJson(child));
    }
    out["children"] = std::move(children);
    return out;
}

json paramsJson(const ParamReport& params) {
    json byComponent = json::object();
    for (std::size_t i = 0; i < params.byComponent.size(); ++i) {
        if (params.byComponent[i] > 0) {
            byComponent[std::string(toString(static_cast<Component>(i)))] = params.byComponent[i];
        }
    }
    json out = {{"total", params.total},
                {"active", params.active},
                {"active_compute", params.activeCompute},
                {"by_component", byComponent},
                {"breakdown", toJson(params.breakdown)}};
    if (params.extras.params > 0) {
        out["extras"] = toJson(params.extras);
    }
    return out;
}

json figureJson(std::uint64_t value) {
    return value == kSaturated ? json() : json(value);
}

namespace {

/// How vLLM or llama.cpp lays the cache out; null under the other allocators.
json engineLayoutJson(const KvCacheReport& kv) {
    const KvEngineLayout& e = kv.engine;
    if (kv.allocator == KvAllocator::Vllm) {
        return {{"block_tokens", e.blockTokens},
                {"page_bytes", e.pageBytes},
                {"group_size", e.groupSize},
                {"groups", e.groups},
                {"padding_layers", e.paddingLayers},
                {"padding_bytes", kv.paddingBytes},
                {"pages_per_sequence", e.pagesPerSequence}};
    }
    if (kv.allocator == KvAllocator::LlamaCpp) {
        return {{"cells", e.cells},
                {"sliding_cells", e.slidingCells},
                {"k_bytes", e.keyBytes},
                {"v_bytes", e.valueBytes},
                {"recurrent_bytes", e.recurrentBytes}};
    }
    return json();
}

} // namespace

json kvJson(const Analysis& analysis) {
    const KvCacheReport& kv = analysis.kv;
    // After an overflow a saturated figure is not a size: null, beside "overflow": true.
    const auto figure = [](std::uint64_t value) {
        return figureJson(value);
    };
    json layers = json::array();
    for (std::size_t i = 0; i < kv.layers.size() && i < analysis.plan.layers.size(); ++i) {
        const LayerPlan& plan = analysis.plan.layers[i];
        if (plan.stack != Stack::Decoder) {
            continue;
        }
        const KvLayerCache& layer = kv.layers[i];
        layers.push_back({{"index", plan.index},
                          {"kind", layerKindName(analysis.config, plan)},
                          {"elements_per_token", figure(layer.selfElementsPerToken)},
                          {"cached_tokens", layer.cachedTokens},
                          {"cross_elements_per_token", figure(layer.crossElementsPerToken)},
                          {"fixed_state_elements", figure(layer.fixedStateElements)},
                          {"bytes", figure(layer.bytes)}});
    }
    json out = {{"allocator", std::string(toString(kv.allocator))},
                {"allocator_source", std::string(allocatorSource(kv.allocator))},
                {"dtype", std::string(toString(kv.dtype))},
                {"sequence_length", kv.sequenceLength},
                {"encoder_sequence_length", kv.encoderSequenceLength},
                {"batch", kv.batch},
                {"bytes_per_token", figure(kv.bytesPerToken)},
                {"expanded_bytes_per_token", figure(kv.expandedBytesPerToken)},
                {"cross_bytes_per_encoder_token", figure(kv.crossBytesPerEncoderToken)},
                {"fixed_state_bytes", figure(kv.fixedStateBytes)},
                {"fixed_state_bytes_per_sequence", figure(kv.fixedStateBytesPerSequence)},
                {"state_dtype", kv.stateDType ? std::string(toString(*kv.stateDType)) : std::string("as implemented")},
                {"total_bytes", figure(kv.totalBytes)},
                {"allocated_bytes", figure(kv.totalBytes)},
                {"expanded_total_bytes", figure(kv.expandedTotalBytes)},
                {"overflow", kv.overflow},
                {"unsupported", kv.unsupported.empty() ? json() : json(kv.unsupported)},
                {"engine", engineLayoutJson(kv)},
                {"latent", analysis.config.latent.has_value()},
                {"gpu_fit", kv.unsupported.empty() ? deviceFitJson(analysis) : json()},
                {"layers", layers}};
    addExactness(out, analysis.config);
    return out;
}

void addExactness(json& out, const ModelConfig& config) {
    out["exact"] = config.exact();
    out["ignored_fields"] = config.ignoredFields;
    if (!config.uncountedParts.empty()) {
        out["uncounted_parts"] = config.uncountedParts;
    }
}

json deviceFitJson(const Analysis& analysis) {
    const DeviceFit& fit = analysis.devices;
    return {{"gpu", analysis.scenario.gpu.id},
            {"gpu_memory_gib", analysis.scenario.gpu.memoryGiB},
            {"gpu_count", analysis.scenario.gpuCount},
            {"weight_bytes", analysis.weightBytes},
            {"required_bytes", figureJson(fit.requiredBytes)},
            {"capacity_bytes", figureJson(fit.capacityBytes)},
            {"fits", fit.fits},
            {"beyond", fit.beyond},
            {"devices_needed", fit.beyond ? json() : json(fit.devicesNeeded)}};
}

json computeJson(const Analysis& analysis) {
    const ComputeReport& c = analysis.compute;
    json components = json::object();
    for (std::size_t i = 0; i < kComponentCount; ++i) {
        if (c.weightsByComponent[i] > 0) {
            components[std::string(toString(static_cast<Component>(i)))] = c.weightsByComponent[i];
        }
    }
    json kinds = json::array();
    for (const LayerKindCompute& kind : c.kinds) {
        kinds.push_back({{"kind", layerKindName(analysis.config, kind.kind)},
                         {"layers", kind.layers},
                         {"mixer_weight_flops", kind.mixerWeights},
                         {"ffn_weight_flops", kind.ffnWeights},
                         {"attention_flops_per_key", kind.perKey},
                         {"keys_at_sequence_length", kind.kind.causal ? attendedKeyCount(kind, c.context) : c.context},
                         {"state_flops", kind.statePerToken}});
    }
    return {{"sequence_length", c.context},
            {"flops_per_token", c.perToken},
            {"weight_flops_per_token", c.weights},
            {"attention_flops_per_token", c.attention},
            {"state_flops_per_token", c.state},
            {"by_component", components},
            {"prefill_flops", c.prefill},
            {"prefill_attention_flops", c.prefillAttention},
            {"training_tokens", c.trainingTokens},
            {"recompute", std::string(toString(c.recompute))},
            {"training_flops", c.trainingFlops},
            {"six_nd_flops", c.sixND},
            {"chinchilla_tokens", c.chinchillaTokens},
            {"chinchilla_flops", c.chinchillaFlops},
            {"training_seconds", c.trainingSeconds},
            {"layer_kinds", kinds}};
}

json memoryJson(const Analysis& analysis, bool training) {
    const ServingMemory& s = analysis.serving;
    const TrainingMemory& t = analysis.training;
    const Scenario& scenario = analysis.scenario;
    json serving = {{"weight_format", std::string(formatInfo(scenario.weightFormat).id)},
                    {"weights_bytes", s.weightBytes},
                    {"kv_bytes", s.kvBytes},
                    {"activation_bytes", s.workspaceBytes},
                    {"prefill_chunk_tokens", s.chunkTokens},
                    {"total_bytes", s.totalBytes},
                    {"per_gpu_bytes", s.perGpuBytes},
                    {"gpus_needed", s.gpusNeeded},
                    {"fits", s.fits}};
    const bool trainingFits = !t.overflow && t.gpuTotalBytes <= scenario.gpu.memoryBytes();
    json trainingJson = {{"bytes_per_param", t.bytesPerParam},
                         {"optimizer", std::string(toString(scenario.optimizer))},
                         {"tensor_parallel", scenario.tensorParallel},
                         {"data_parallel", t.dataParallel},
                         {"zero_stage", scenario.zeroStage},
                         {"recompute", std::string(toString(scenario.recompute))},
                         {"flash_attention", scenario.flashAttention},
                         {"micro_batch", scenario.microBatch},
                         {"weights_bytes", t.weightBytes},
                         {"gradient_bytes", t.gradientBytes},
                         {"optimizer_bytes", t.optimizerBytes},
                         {"gpu_weights_bytes", t.gpuWeightBytes},
                         {"gpu_gradient_bytes", t.gpuGradientBytes},
                         {"gpu_optimizer_bytes", t.gpuOptimizerBytes},
                         {"activation_bytes", t.gpuActivationBytes},
                         {"logit_bytes", t.logitBytes},
                         {"total_bytes", t.weightBytes + t.gradientBytes + t.optimizerBytes},
                         {"per_gpu_bytes", t.gpuTotalBytes},
                         {"gpus_needed", analysis.trainingGpusNeeded},
                         {"fits", trainingFits}};
    json out = {{"mode", training ? "training" : "serving"},
                {"gpu", scenario.gpu.id},
                {"gpu_memory_bytes", scenario.gpu.memoryBytes()},
                {"gpus", scenario.gpuCount},
                {"sequence_length", scenario.sequenceLength},
                {"batch", training ? scenario.microBatch : scenario.batch},
                {"serving", serving},
                {"training", trainingJson}};
    const json& chosen = training ? trainingJson : serving;
    for (const char* key :
         {"weights_bytes", "activation_bytes", "total_bytes", "per_gpu_bytes", "gpus_needed", "fits"}) {
        out[key] = chosen[key];
    }
    out["kv_bytes"] = training ? 0 : s.kvBytes;
    out["gradient_bytes"] = training ? t.gradientBytes : 0;
    out["optimizer_bytes"] = training ? t.optimizerBytes : 0;
    return out;
}

json rooflineJson(const Analysis& analysis) {
    const RooflineReport& r = analysis.speed;
    const auto step = [](const DecodeStep& d) {
        return json{{"batch", d.batch},
                    {"weight_bytes", d.weightBytes},
                    {"cache_bytes", d.cacheBytes},
                    {"flops", d.flops},
                    {"experts_per_layer", d.expertsPerLayer},
                    {"seconds", d.seconds},
                    {"tokens_per_s", d.tokensPerSecond},
                    {"tokens_per_s_per_sequence", d.perSequence},
                    {"arithmetic_intensity", d.intensity},
                    {"bound", d.computeBound ? "compute" : "memory"}};
    };
    const auto ifFits = [&r](double seconds) {
        return r.fits ? json(seconds) : json(nullptr);
    };
    json curve = json::array();
    for (const DecodeStep& d : r.curve) {
        curve.push_back(step(d));
    }
    return {{"gpu", r.gpu.id},
            {"gpus", r.gpus},
            {"precision", r.fp8 ? "fp8" : "bf16"},
            {"peak_flops", r.peakFlops},
            {"bandwidth_bytes_per_s", r.bandwidth},
            {"ridge_flops_per_byte", r.ridge},
            {"sequence_length", r.context},
            {"batch", r.scenario.batch},
            {"upper_bound", std::string(speedBoundLabel())},
            {"capacity_bytes", analysis.devices.capacityBytes},
            {"cache_bytes_per_sequence", r.cacheBytesPerSequence},
            {"largest_batch", figureJson(r.largestBatch)}, // null: any batch (no cache grows with it)
            {"fits", r.fits},
            {"devices_needed", analysis.devices.beyond ? json() : json(analysis.devices.devicesNeeded)},
            // No speed for a batch that does not fit: null, the reason in "fits".
            {"decode_tokens_per_s", ifFits(r.scenario.tokensPerSecond)},
            {"decode_tokens_per_s_per_sequence", ifFits(r.scenario.perSequence)},
            {"decode_step_seconds", ifFits(r.scenario.seconds)},
            // At the bandwidth measured on the device; null where nothing is measured, the step is
            // compute-bound or the batch does not fit.
            {"decode_expected_tokens_per_s", r.expectedDecode ? json{{"low", r.expectedDecode->low},
                                                                     {"high", r.expectedDecode->high},
                                                                     {"source", r.expectedDecode->source}}
                                                              : json()},
            {"arithmetic_intensity", r.scenario.intensity},
            {"bound", r.scenario.computeBound ? "compute" : "memory"},
            {"compute_bound_batch", r.computeBoundBatch},
            {"prefill_flops", r.prefillFlops},
            {"prefill_seconds", ifFits(r.prefillSeconds)},
            {"prefill_arithmetic_intensity", r.prefillIntensity},
            {"time_to_first_token_s", ifFits(r.timeToFirstToken)},
            {"curve", curve}};
}

json diagnosticsJson(const Diagnostics& diagnostics) {
    json out = json::array();
    for (const Diagnostic& d : diagnostics) {
        out.push_back({{"severity", std::string(toString(d.severity))}, {"field", d.field}, {"message", d.message}});
    }
    return out;
}

json presetJson(const PresetInfo& info) {
    return {{"id", info.id},
            {"name", info.name},
            {"family", info.family},
            {"source", info.source},
            {"published_params", info.publishedParams ? json(*info.publishedParams) : json(nullptr)},
            {"published_label", info.publishedLabel}};
}

} // namespace archplay::core
