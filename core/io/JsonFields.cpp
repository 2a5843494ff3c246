// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/JsonFields.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace archplay::core {
namespace {

std::string typeName(const nlohmann::json& value) {
    return value.type_name();
}

} // namespace

bool JsonFields::has(std::string_view key) const {
    auto it = m_object.find(key);
    return it != m_object.end() && !it->is_null();
}

bool JsonFields::isNull(std::string_view key) const {
    auto it = m_object.find(key);
    return it != m_object.end() && it->is_null();
}

const nlohmann::json* JsonFields::find(std::string_view key) {
    auto it = m_object.find(key);
    if (it == m_object.end()) {
        return nullptr;
    }
    m_consumed.insert(std::string(key));
    return it->is_null() ? nullptr : &*it;
}

void JsonFields::nullDefault(std::string_view key, const std::string& fallback) {
    if (isNull(key)) {
        warn(std::string(key), fmt::format("{} is null; read as the default, {}", key, fallback));
    }
}

std::int64_t JsonFields::integer(std::string_view key, std::int64_t fallback) {
    nullDefault(key, std::to_string(fallback));
    return nullableInteger(key, fallback).value_or(fallback);
}

std::int64_t JsonFields::integer(std::initializer_list<std::string_view> keys, std::int64_t fallback) {
    for (std::string_view key : keys) {
        if (has(key)) {
            return integer(key, fallback);
        }
    }
    for (std::string_view key : keys) {
        nullDefault(key, std::to_string(fallback));
        find(key); // an explicit null still counts as interpreted
    }
    return fallback;
}

std::optional<std::int64_t> JsonFields::nullableInteger(std::string_view key, std::optional<std::int64_t> fallback) {
    if (isNull(key)) {
        find(key);
        return std::nullopt;
    }
    const nlohmann::json* value = find(key);
    if (!value) {
        return fallback;
    }
    if (value->is_number_integer() && !value->is_number_unsigned()) {
        return value->get<std::int64_t>();
    }
    if (value->is_number_unsigned()) {
        const auto u = value->get<std::uint64_t>();
        if (u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            return static_cast<std::int64_t>(u);
        }
        error(std::string(key), fmt::format("{} = {} is out of range", key, u));
        return fallback;
    }
    if (value->is_number_float()) {
        const double d = value->get<double>();
        if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9.0e18) {
            return static_cast<std::int64_t>(d);
        }
        error(std::string(key), fmt::format("{} must be a whole number, not {}", key, value->dump()));
        return fallback;
    }
    error(std::string(key), fmt::format("{} must be an integer, not a {}", key, typeName(*value)));
    return fallback;
}

bool JsonFields::isText(std::string_view key) const {
    const auto it = m_object.find(key);
    return it != m_object.end() && it->is_string();
}

bool JsonFields::isList(std::string_view key) const {
    const auto it = m_object.find(key);
    return it != m_object.end() && it->is_array();
}

bool JsonFields::flag(std::string_view key, bool fallback) {
    nullDefault(key, fallback ? "true" : "false");
    const nlohmann::json* value = find(key);
    if (!value) {
        return fallback;
    }
    if (value->is_boolean()) {
        return value->get<bool>();
    }
    if (value->is_number_integer() && (value->get<std::int64_t>() == 0 || value->get<std::int64_t>() == 1)) {
        return value->get<std::int64_t>() == 1;
    }
    error(std::string(key), fmt::format("{} must be true or false, not {}", key, value->dump()));
    return fallback;
}

double JsonFields::number(std::string_view key, double fallback) {
    nullDefault(key, fmt::format("{:g}", fallback));
    const nlohmann::json* value = find(key);
    if (!value) {
        return fallback;
    }
    if (value->is_number()) {
        return value->get<double>();
    }
    error(std::string(key), fmt::format("{} must be a number, not a {}", key, typeName(*value)));
    return fallback;
}

std::string JsonFields::text(std::string_view key, std::string fallback) {
    nullDefault(key, "\"" + fallback + "\"");
    const nlohmann::json* value = find(key);
    if (!value) {
        return fallback;
    }
    if (value->is_string()) {
        return value->get<std::string>();
    }
    error(std::string(key), fmt::format("{} must be a string, not a {}", key, typeName(*value)));
    return fallback;
}

std::vector<std::int64_t> JsonFields::integers(std::string_view key) {
    std::vector<std::int64_t> result;
    const nlohmann::json* value = find(key);
    if (!value) {
        return result;
    }
    if (!value->is_array()) {
        error(std::string(key), fmt::format("{} must be a list of integers, not a {}", key, typeName(*value)));
        return result;
    }
    for (const nlohmann::json& item : *value) {
        if (item.is_number_integer()) {
            result.push_back(item.get<std::int64_t>());
        } else {
            error(std::string(key), fmt::format("{} holds {}, which is not an integer", key, item.dump()));
        }
    }
    return result;
}

std::vector<std::string> JsonFields::texts(std::string_view key) {
    std::vector<std::string> result;
    const nlohmann::json* value = find(key);
    if (!value) {
        return result;
    }
    if (!value->is_array()) {
        error(std::string(key), fmt::format("{} must be a list of strings, not a {}", key, typeName(*value)));
        return result;
    }
    for (const nlohmann::json& item : *value) {
        if (item.is_string()) {
            result.push_back(item.get<std::string>());
        } else {
            error(std::string(key), fmt::format("{} holds {}, which is not a string", key, item.dump()));
        }
    }
    return result;
}

std::string JsonFields::peekText(std::string_view key) const {
    auto it = m_object.find(key);
    return it != m_object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void JsonFields::warn(std::string field, std::string message) {
    m_diagnostics.push_back({Severity::Warning, std::move(field), std::move(message)});
}

void JsonFields::notModelled(std::string field, std::string why) {
    m_notModelled.emplace_back(std::move(field), std::move(why));
}

void JsonFields::error(std::string field, std::string message) {
    m_diagnostics.push_back({Severity::Error, std::move(field), std::move(message)});
}

nlohmann::json JsonFields::remaining() const {
    nlohmann::json result = nlohmann::json::object();
    for (auto it = m_object.begin(); it != m_object.end(); ++it) {
        if (!m_consumed.contains(it.key())) {
            result[it.key()] = it.value();
        }
    }
    return result;
}

} // namespace archplay::core
