// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/ShippedWeights.h"

#include "core/cost/WeightFormats.h"
#include "core/io/ExtraFields.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace archplay::core {
namespace {

using nlohmann::json;

const json* member(const json& object, const char* key) {
    if (!object.is_object()) {
        return nullptr;
    }
    const auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
}

std::int64_t integer(const json& object, const char* key) {
    const json* value = member(object, key);
    return value && value->is_number_integer() ? value->get<std::int64_t>() : 0;
}

bool flag(const json& object, const char* key) {
    const json* value = member(object, key);
    return value && value->is_boolean() && value->get<bool>();
}

std::string text(const json& object, const char* key) {
    const json* value = member(object, key);
    return value && value->is_string() ? value->get<std::string>() : std::string();
}

/// A module list (modules_to_not_convert, ignore); why it cannot be applied, or empty.
std::string readModules(const json& object, const char* key, std::vector<std::string>& out) {
    const json* list = member(object, key);
    if (!list) {
        return {};
    }
    if (!list->is_array()) {
        return fmt::format("quantization_config.{} is not a list", key);
    }
    for (const json& each : *list) {
        if (!each.is_string()) {
            return fmt::format("quantization_config.{} holds a non-string", key);
        }
        const std::string name = each.get<std::string>();
        if (name.starts_with("re:")) {
            return fmt::format("quantization_config.{} holds a regular expression ('{}')", key, name);
        }
        // A module of one numbered layer would need the layers told apart, which the weights' sum by
        // layer kind does not do.
        for (std::size_t dot = 0; dot < name.size();) {
            const std::size_t end = std::min(name.find('.', dot), name.size());
            const std::string_view part(name.data() + dot, end - dot);
            if (!part.empty() && std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; })) {
                return fmt::format("quantization_config.{} names a single layer ('{}')", key, name);
            }
            dot = end + 1;
        }
        out.push_back(name);
    }
    return {};
}

/// The format of a GPTQ or AWQ checkpoint: 4 bits in groups of 128 or 32.
std::string int4Format(std::int64_t bits, std::int64_t group) {
    if (bits == 4 && group == 128) {
        return std::string(formatInfo(WeightFormat::Int4G128).id);
    }
    if (bits == 4 && group == 32) {
        return std::string(formatInfo(WeightFormat::Int4G32).id);
    }
    return {};
}

ShippedWeights readQuantization(const json& q) {
    ShippedWeights shipped;
    shipped.method = text(q, "quant_method");
    const std::string& method = shipped.method;
    std::string unread;
    if (method == "fp8") {
        const json* block = member(q, "weight_block_size");
        if (!block) {
            shipped.format = formatInfo(WeightFormat::FP8).id;
        } else if (*block == json::array({128, 128})) {
            shipped.format = formatInfo(WeightFormat::FP8Block128).id;
        } else {
            unread = fmt::format("fp8 with weight_block_size {} (archplay stores 128 x 128 blocks or one scale per "
                                 "tensor)",
                                 block->dump());
        }
        unread = unread.empty() ? readModules(q, "modules_to_not_convert", shipped.keptModules) : unread;
    } else if (method == "mxfp4") {
        shipped.format = formatInfo(WeightFormat::MXFP4).id;
        unread = readModules(q, "modules_to_not_convert", shipped.keptModules);
    } else if (method == "gptq" || method == "awq") {
        shipped.format = int4Format(integer(q, "bits"), integer(q, "group_size"));
        if (shipped.format.empty()) {
            unread = fmt::format("{} with {} bits in groups of {} (archplay stores int4 in groups of 128 or 32)",
                                 method, integer(q, "bits"), integer(q, "group_size"));
        }
        unread = unread.empty() ? readModules(q, "modules_to_not_convert", shipped.keptModules) : unread;
    } else if (method == "bitsandbytes") {
        if (flag(q, "load_in_4bit") && text(q, "bnb_4bit_quant_type") == "nf4" &&
            flag(q, "bnb_4bit_use_double_quant")) {
            shipped.format = formatInfo(WeightFormat::NF4).id;
        } else if (flag(q, "load_in_8bit")) {
            shipped.format = formatInfo(WeightFormat::INT8).id;
        } else {
            unread = "bitsandbytes other than NF4 with double quantisation or LLM.int8";
        }
        unread = unread.empty() ? readModules(q, "llm_int8_skip_modules", shipped.keptModules) : unread;
    } else if (method == "modelopt" && text(q, "quant_algo") == "NVFP4") {
        shipped.format = formatInfo(WeightFormat::NVFP4).id;
        unread = readModules(q, "exclude_modules", shipped.keptModules);
    } else if (method == "compressed-tensors") {
        // Only its block FP8 matches one of archplay's layouts byte for byte.
        const json* groups = member(q, "config_groups");
        const json* weights =
            groups && groups->is_object() && groups->size() == 1 ? member(groups->begin().value(), "weights") : nullptr;
        if (weights && integer(*weights, "num_bits") == 8 && text(*weights, "type") == "float" &&
            text(*weights, "strategy") == "block" && member(*weights, "block_structure") &&
            *member(*weights, "block_structure") == json::array({128, 128})) {
            shipped.format = formatInfo(WeightFormat::FP8Block128).id;
            unread = readModules(q, "ignore", shipped.keptModules);
        } else {
            unread = "compressed-tensors other than FP8 in 128 x 128 blocks";
        }
    } else {
        unread = method.empty() ? std::string("quantization_config has no quant_method")
                                : fmt::format("quant_method '{}'", method);
    }
    if (!unread.empty()) {
        shipped.format.clear();
        shipped.keptModules.clear();
        shipped.unread = unread + " is not one of archplay's weight layouts; pick the nearest format by hand";
    }
    return shipped;
}

} // namespace

void readShippedWeights(const json& passthrough, ModelConfig& config) {
    config.shipped.reset();
    const json* q = member(passthrough, "quantization_config");
    if (!q) {
        const json* textConfig = member(passthrough, std::string(kTextConfigKey).c_str());
        q = textConfig ? member(*textConfig, "quantization_config") : nullptr;
    }
    if (!q) {
        return;
    }
    config.shipped =
        q->is_object() ? readQuantization(*q) : ShippedWeights{.unread = "quantization_config is not an object"};
}

} // namespace archplay::core
