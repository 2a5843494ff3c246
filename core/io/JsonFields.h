// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/validate/Diagnostic.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>

namespace archplay::core {

/// Typed, non-throwing access to the fields of a config.json object. Every key read is marked as
/// interpreted; a value of the wrong type is reported as an error naming the field, and the fallback
/// is used. `remaining()` gives the object without the interpreted keys, for a lossless round trip.
class JsonFields {
public:
    JsonFields(const nlohmann::json& object, Diagnostics& diagnostics)
        : m_object(object)
        , m_diagnostics(diagnostics) {}

    /// True when the key is present and not null.
    bool has(std::string_view key) const;
    /// True when the key holds a JSON string.
    bool isText(std::string_view key) const;
    /// True when the key holds a JSON array.
    bool isList(std::string_view key) const;
    /// True when the key is present with a null value.
    bool isNull(std::string_view key) const;

    /// An integer field (integral floats like 4096.0 accepted); absent or null gives `fallback`, null
    /// with a warning naming the key (flag, number and text likewise).
    std::int64_t integer(std::string_view key, std::int64_t fallback);
    /// The first present key of `keys`, else `fallback`.
    std::int64_t integer(std::initializer_list<std::string_view> keys, std::int64_t fallback);
    /// An integer that may be null: absent gives `fallback`, null gives nullopt.
    std::optional<std::int64_t> nullableInteger(std::string_view key, std::optional<std::int64_t> fallback);
    bool flag(std::string_view key, bool fallback);
    double number(std::string_view key, double fallback);
    std::string text(std::string_view key, std::string fallback);
    /// A list of integers (mlp_only_layers); invalid entries are reported and skipped.
    std::vector<std::int64_t> integers(std::string_view key);
    /// A list of strings (layer_types).
    std::vector<std::string> texts(std::string_view key);
    /// A string field read without marking it interpreted (it stays in remaining()); empty when absent.
    std::string peekText(std::string_view key) const;
    /// Marks a key as interpreted without reading it.
    void consume(std::string_view key) { m_consumed.insert(std::string(key)); }

    void warn(std::string field, std::string message);
    void error(std::string field, std::string message);
    /// A field this reader understands but archplay does not model exactly: the import refuses it,
    /// naming the field and `why`, unless the user asked for an estimate (then it is ignored and the
    /// config is labelled an estimate).
    void notModelled(std::string field, std::string why);
    /// The fields notModelled() named, each with its reason.
    const std::vector<std::pair<std::string, std::string>>& notModelledFields() const { return m_notModelled; }

    nlohmann::json remaining() const;

private:
    const nlohmann::json* find(std::string_view key);
    /// A warning when `key` is null, which the reader replaces by `fallback` (the family's default).
    void nullDefault(std::string_view key, const std::string& fallback);

    const nlohmann::json& m_object;
    Diagnostics& m_diagnostics;
    std::set<std::string> m_consumed;
    std::vector<std::pair<std::string, std::string>> m_notModelled;
};

} // namespace archplay::core
