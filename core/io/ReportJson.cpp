// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/ReportJson.h"

#include "core/params/Tensors.h"

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

json kvJson(const Analysis& analysis) {
    const KvCacheReport& kv = analysis.kv;
    // After an overflow a saturated figure is not a size: null, beside "overflow": true.
    const auto figure = [&](std::uint64_t value) {
        return kv.overflow && value == UINT64_MAX ? json() : json(value);
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
    json out = {{"dtype", std::string(toString(kv.dtype))},
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
                {"expanded_total_bytes", figure(kv.expandedTotalBytes)},
                {"overflow", kv.overflow},
                {"latent", analysis.config.latent.has_value()},
                {"gpu_fit", deviceFitJson(analysis)},
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
            {"required_bytes", fit.requiredBytes},
            {"capacity_bytes", fit.capacityBytes},
            {"fits", fit.fits},
            {"devices_needed", fit.devicesNeeded}};
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
