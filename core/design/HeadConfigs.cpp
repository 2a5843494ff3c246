// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/design/HeadConfigs.h"

#include "core/config/LayerPlan.h"
#include "core/memory/KvCache.h"
#include "core/params/ParamCount.h"
#include "core/report/Summary.h"
#include "core/validate/Validation.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <tuple>

namespace archplay::core {
namespace {

constexpr auto kInt64Max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

std::int64_t widthOf(const HeadShape& shape) {
    return shape.numHeads * shape.headDim; // both bounded by the ranges below (at most 2 H x 256)
}

/// Order of the list: query width nearest the hidden size first, then head_dim, heads, KV heads down.
auto orderKey(const HeadShape& shape, std::int64_t hiddenSize) {
    return std::make_tuple(std::llabs(widthOf(shape) - hiddenSize), shape.headDim, shape.numHeads, -shape.numKvHeads);
}

/// The split's figures from the core's own counters (what analyze() runs); false when it is
/// refused by validate() or a count overflows.
bool evaluate(const ModelConfig& config, const HeadShape& shape, DType kvDType, HeadConfig& out) {
    const ModelConfig applied = applyHeadShape(config, shape);
    if (hasErrors(validate(applied))) {
        return false;
    }
    const ModelPlan plan = planLayers(applied);
    const ParamReport params = countParameters(applied, plan);
    const KvCacheReport kv = kvCache(applied, plan, 1, 1, kvDType);
    if (params.overflow || kv.overflow || params.total > kInt64Max || kv.bytesPerToken > kInt64Max) {
        return false;
    }
    out.shape = shape;
    out.queryWidth = widthOf(shape);
    out.totalParams = params.total;
    out.activeParams = params.active;
    out.kvBytesPerToken = kv.bytesPerToken;
    out.family = attentionFamily(applied);
    out.usualHeadDim = shape.headDim >= 64 && shape.headDim <= 128;
    out.tensorParallel8 = headConfigsTensorParallel8(shape);
    out.exactWidth = widthOf(shape) == config.hiddenSize;
    return true;
}

std::int64_t delta(std::uint64_t value, std::uint64_t reference) {
    return static_cast<std::int64_t>(value) - static_cast<std::int64_t>(reference); // both <= 2^63 - 1
}

} // namespace

bool headConfigsTensorParallel8(const HeadShape& shape) {
    return shape.numHeads > 0 && shape.numKvHeads > 0 && shape.numHeads % 8 == 0 &&
           (shape.numKvHeads % 8 == 0 || 8 % shape.numKvHeads == 0);
}

ModelConfig applyHeadShape(const ModelConfig& config, const HeadShape& shape) {
    ModelConfig applied = config;
    applied.numHeads = shape.numHeads;
    applied.numKvHeads = shape.numKvHeads;
    const bool derived = !config.headDim && shape.numHeads > 0 && shape.numHeads * shape.headDim == config.hiddenSize;
    applied.headDim = derived ? std::nullopt : std::optional<std::int64_t>(shape.headDim);
    return applied;
}

HeadConfigList listHeadConfigs(const ModelConfig& config, DType kvDType) {
    HeadConfigList list;
    list.estimate = estimateLabel(config);
    for (const Diagnostic& d : validate(config)) {
        if (d.severity == Severity::Error) {
            list.reason = "the config is invalid: " + (d.field.empty() ? d.message : d.field + ": " + d.message);
            return list;
        }
    }
    if (config.latent) {
        list.reason = "multi-head latent attention (MLA): its heads are set by the latent ranks "
                      "(kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim, v_head_dim), not chosen this way";
        return list;
    }
    const ModelPlan plan = planLayers(config);
    if (std::none_of(plan.layers.begin(), plan.layers.end(), [](const LayerPlan& layer) { return layer.attends(); })) {
        list.reason = "no layer has softmax attention: the stack's mixers have no query and KV heads to choose";
        return list;
    }
    const std::int64_t hidden = config.hiddenSize;
    const HeadShape current{config.numHeads, config.effectiveHeadDim(), config.numKvHeads};
    std::vector<HeadShape> shapes = {current};
    for (const std::int64_t headDim : kHeadDims) {
        const std::int64_t fewest = std::max<std::int64_t>(1, (hidden + 2 * headDim - 1) / (2 * headDim));
        for (std::int64_t heads = fewest; heads <= kMaxHeads && heads * headDim <= 2 * hidden; ++heads) {
            const std::int64_t width = heads * headDim;
            if (width % kQueryWidthMultiple != 0 && width != hidden) {
                continue;
            }
            for (std::int64_t kv = heads; kv >= 1; --kv) {
                if (heads % kv == 0 && !(HeadShape{heads, headDim, kv} == current)) {
                    shapes.push_back({heads, headDim, kv});
                }
            }
        }
    }
    list.candidates = shapes.size();
    std::stable_sort(shapes.begin() + 1, shapes.end(), [hidden](const HeadShape& a, const HeadShape& b) {
        return orderKey(a, hidden) < orderKey(b, hidden);
    });
    HeadConfig reference;
    if (!evaluate(config, current, kvDType, reference)) {
        list.reason = "the config's counts overflow";
        return list;
    }
    reference.current = true;
    list.configs.push_back(reference);
    for (std::size_t i = 1; i < shapes.size(); ++i) {
        if (list.configs.size() >= kMaxHeadConfigs) {
            list.dropped = shapes.size() - i;
            break;
        }
        HeadConfig head;
        if (evaluate(config, shapes[i], kvDType, head)) {
            list.configs.push_back(head);
        } else {
            ++list.invalid;
        }
    }
    for (HeadConfig& head : list.configs) {
        head.totalParamsDelta = delta(head.totalParams, reference.totalParams);
        head.activeParamsDelta = delta(head.activeParams, reference.activeParams);
        head.kvBytesPerTokenDelta = delta(head.kvBytesPerToken, reference.kvBytesPerToken);
    }
    std::stable_sort(list.configs.begin(), list.configs.end(), [hidden](const HeadConfig& a, const HeadConfig& b) {
        return orderKey(a.shape, hidden) < orderKey(b.shape, hidden);
    });
    return list;
}

nlohmann::json headConfigsJson(const HeadConfigList& list, const ModelConfig& config) {
    nlohmann::json configs = nlohmann::json::array();
    for (const HeadConfig& head : list.configs) {
        configs.push_back({{"num_attention_heads", head.shape.numHeads},
                           {"head_dim", head.shape.headDim},
                           {"num_key_value_heads", head.shape.numKvHeads},
                           {"query_width", head.queryWidth},
                           {"total_params", head.totalParams},
                           {"active_params", head.activeParams},
                           {"kv_bytes_per_token", head.kvBytesPerToken},
                           {"total_params_delta", head.totalParamsDelta},
                           {"active_params_delta", head.activeParamsDelta},
                           {"kv_bytes_per_token_delta", head.kvBytesPerTokenDelta},
                           {"attention", toString(head.family)},
                           {"usual_head_dim", head.usualHeadDim},
                           {"tp8", head.tensorParallel8},
                           {"exact_width", head.exactWidth},
                           {"current", head.current}});
    }
    return {{"hidden_size", config.hiddenSize},
            {"reason", list.reason},
            {"exact", list.estimate.empty()},
            {"estimate", list.estimate},
            {"candidates", list.candidates},
            {"invalid", list.invalid},
            {"dropped", list.dropped},
            {"tp_rule", "heads % 8 == 0 and (kv_heads % 8 == 0 or 8 % kv_heads == 0)"},
            {"configs", configs}};
}

} // namespace archplay::core
