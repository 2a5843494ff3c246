// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/ExtraFields.h"

#include <nlohmann/json.hpp>

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace archplay::core {
namespace {

using nlohmann::json;

/// The normalisation epsilon's spellings, in the order they are looked for.
constexpr std::array<std::string_view, 6> kEpsilonKeys = {"rms_norm_eps",      "layer_norm_eps", "layer_norm_epsilon",
                                                          "layernorm_epsilon", "norm_epsilon",   "norm_eps"};

/// The value of `key` in `object` when present and not null.
const json* topLevel(const json& object, std::string_view key) {
    if (!object.is_object()) {
        return nullptr;
    }
    auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
}

/// topLevel(), else the same key in a wrapper's text_config (Gemma 3 keeps the text model's fields there).
const json* topOrText(const json& object, std::string_view key) {
    if (const json* value = topLevel(object, key)) {
        return value;
    }
    const json* nested = topLevel(object, kTextConfigKey);
    return nested ? topLevel(*nested, key) : nullptr;
}

std::optional<double> number(const json& object, std::string_view key) {
    const json* value = topOrText(object, key);
    return value && value->is_number() ? std::optional<double>(value->get<double>()) : std::nullopt;
}

std::optional<std::string> text(const json* value) {
    return value && value->is_string() ? std::optional<std::string>(value->get<std::string>()) : std::nullopt;
}

void readRouterRule(const json& object, RouterRule& rule) {
    if (auto scoring = text(topLevel(object, "scoring_func"))) {
        rule.scoring = *scoring == "sigmoid" ? RouterScoring::Sigmoid : RouterScoring::Softmax;
    }
    if (const json* normalise = topLevel(object, "norm_topk_prob"); normalise && normalise->is_boolean()) {
        rule.normaliseTopK = normalise->get<bool>();
    }
    const json* groups = topLevel(object, "n_group");
    const json* topKGroups = topLevel(object, "topk_group");
    const std::optional<std::string> method = text(topLevel(object, "topk_method"));
    if (method != "greedy" && groups && groups->is_number_integer() && topKGroups && topKGroups->is_number_integer()) {
        rule.groups = groups->get<std::int64_t>();
        rule.topKGroups = topKGroups->get<std::int64_t>();
        rule.groupByTopTwo = method == "noaux_tc";
    }
    if (const json* scaling = topLevel(object, "routed_scaling_factor"); scaling && scaling->is_number()) {
        rule.routedScaling = scaling->get<double>();
    }
}

std::optional<RopeScaling> readRopeScaling(const json& object) {
    const json* scaling = topLevel(object, "rope_scaling");
    if (!scaling || !scaling->is_object()) {
        return std::nullopt;
    }
    RopeScaling result;
    if (auto type = text(topLevel(*scaling, "rope_type"))) {
        result.type = *type;
    } else if (auto legacy = text(topLevel(*scaling, "type"))) {
        result.type = *legacy;
    }
    if (const json* factor = topLevel(*scaling, "factor"); factor && factor->is_number()) {
        result.factor = factor->get<double>();
    }
    return result;
}

/// The number fields of ForwardDetails with their keys.
struct NumberField {
    std::string_view key;
    std::optional<double> ForwardDetails::*member;
};

constexpr std::array<NumberField, 5> kNumberFields = {{
    {"rope_theta", &ForwardDetails::ropeTheta},
    {"rope_local_base_freq", &ForwardDetails::ropeLocalTheta},
    {"query_pre_attn_scalar", &ForwardDetails::queryPreAttentionScalar},
    {"attn_logit_softcapping", &ForwardDetails::attentionLogitSoftcap},
    {"final_logit_softcapping", &ForwardDetails::finalLogitSoftcap},
}};

std::optional<double> readEpsilon(const json& object) {
    for (std::string_view key : kEpsilonKeys) {
        if (auto value = number(object, key)) {
            return value;
        }
    }
    return std::nullopt;
}

/// Removes `key` from the top level and from a wrapper's text_config.
void eraseEverywhere(json& out, std::string_view key) {
    out.erase(std::string(key));
    if (auto nested = out.find(kTextConfigKey); nested != out.end() && nested->is_object()) {
        nested->erase(std::string(key));
    }
}

void writeRouterRule(const RouterRule& wanted, const RouterRule& read, json& out) {
    if (wanted.scoring != read.scoring) {
        out["scoring_func"] = wanted.scoring == RouterScoring::Sigmoid ? "sigmoid" : "softmax";
    }
    if (wanted.normaliseTopK != read.normaliseTopK) {
        out["norm_topk_prob"] = wanted.normaliseTopK;
    }
    if (wanted.groups != read.groups || wanted.topKGroups != read.topKGroups ||
        wanted.groupByTopTwo != read.groupByTopTwo) {
        out["n_group"] = wanted.groups;
        out["topk_group"] = wanted.topKGroups;
        out["topk_method"] = wanted.groupByTopTwo ? "noaux_tc" : "group_limited_greedy";
    }
    if (wanted.routedScaling != read.routedScaling) {
        out["routed_scaling_factor"] = wanted.routedScaling;
    }
}

void writeForwardNumbers(const ModelConfig& config, const ForwardDetails& read, json& out) {
    const ForwardDetails& wanted = config.forward;
    for (const NumberField& field : kNumberFields) {
        const std::optional<double>& value = wanted.*field.member;
        if (value == read.*field.member) {
            continue;
        }
        eraseEverywhere(out, field.key);
        if (value) {
            out[std::string(field.key)] = *value;
        }
    }
    if (wanted.normEpsilon != read.normEpsilon) {
        for (std::string_view key : kEpsilonKeys) {
            eraseEverywhere(out, key);
        }
        if (wanted.normEpsilon) {
            out[config.normKind == NormKind::RmsNorm ? "rms_norm_eps" : "layer_norm_eps"] = *wanted.normEpsilon;
        }
    }
    if (wanted.ropeScaling != read.ropeScaling) {
        out.erase("rope_scaling");
        if (wanted.ropeScaling) {
            json scaling = {{"rope_type", wanted.ropeScaling->type}};
            if (wanted.ropeScaling->factor) {
                scaling["factor"] = *wanted.ropeScaling->factor;
            }
            out["rope_scaling"] = std::move(scaling);
        }
    }
}

} // namespace

void readExtraFields(const json& passthrough, ModelConfig& config) {
    readRouterRule(passthrough, config.moe.router);
    ForwardDetails& forward = config.forward;
    for (const NumberField& field : kNumberFields) {
        if (auto value = number(passthrough, field.key)) {
            forward.*field.member = value;
        }
    }
    if (auto epsilon = readEpsilon(passthrough)) {
        forward.normEpsilon = epsilon;
    }
    if (auto scaling = readRopeScaling(passthrough)) {
        forward.ropeScaling = scaling;
    }
}

void writeExtraFields(const ModelConfig& config, const ModelConfig& absent, json& out) {
    ModelConfig read = absent;
    readExtraFields(out, read);
    writeRouterRule(config.moe.router, read.moe.router, out);
    writeForwardNumbers(config, read.forward, out);
}

} // namespace archplay::core
