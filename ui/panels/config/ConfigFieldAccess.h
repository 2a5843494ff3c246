// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the field tables (ConfigFields*.cpp) share: the accessors that read and write a member of the
// config or the scenario, the conditions under which fields apply, and the tables of each section.
// Not a public header.

#include "ui/Strings.h"
#include "ui/panels/config/ConfigFields.h"

#include <QCoreApplication>

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace archplay::ui::panels::fieldtables {

using ModelConfig = core::ModelConfig;
using Scenario = core::Scenario;
using Scale = widgets::SliderScale;

inline QString tr(const char* text) {
    return QCoreApplication::translate("archplay::ui::ConfigFields", text);
}

/// Reads and writes the integer, enum or bool that `select(config)` refers to.
template <typename Select> IntegerValue integerAt(Select select) {
    return {
        .get = [select](const ModelConfig& c, const Scenario&) { return qint64(select(c)); },
        .set =
            [select](ModelConfig& c, Scenario&, qint64 v, const EditContext&) {
                auto& field = select(c);
                field = std::remove_cvref_t<decltype(field)>(v);
            },
    };
}

/// config.*field, e.g. member(&ModelConfig::hiddenSize).
template <typename T> IntegerValue member(T ModelConfig::*field) {
    return integerAt([field](auto& c) -> auto& { return c.*field; });
}

/// (config.*part).*field, e.g. member(&ModelConfig::moe, &core::MixtureOfExperts::topK).
template <typename Part, typename T> IntegerValue member(Part ModelConfig::*part, T Part::*field) {
    return integerAt([=](auto& c) -> auto& { return (c.*part).*field; });
}

/// config.moe.*field.
template <typename T> IntegerValue moeMember(T core::MixtureOfExperts::*field) {
    return member(&ModelConfig::moe, field);
}

/// Reads with `read`; writes through `rule`, a core::edits function that keeps the config coherent
/// (the KV heads follow the heads, top-k stays within the experts).
template <typename T> IntegerValue withRule(IntegerValue read, void (*rule)(ModelConfig&, T)) {
    read.set = [rule](ModelConfig& c, Scenario&, qint64 v, const EditContext&) {
        rule(c, T(v));
    };
    return read;
}
template <typename T> IntegerValue withRule(IntegerValue read, void (*rule)(ModelConfig&, T, const EditContext&)) {
    read.set = [rule](ModelConfig& c, Scenario&, qint64 v, const EditContext& context) {
        rule(c, T(v), context);
    };
    return read;
}

/// A member of an optional part (the MLA latent, the sparse indexer): 0 while the part is absent,
/// and writes are dropped then.
template <typename Part>
IntegerValue optionalMember(std::optional<Part> ModelConfig::*part, std::int64_t Part::*field) {
    return {
        .get = [part, field](const ModelConfig& c,
                             const Scenario&) { return (c.*part) ? qint64(*(c.*part).*field) : 0; },
        .set =
            [part, field](ModelConfig& c, Scenario&, qint64 v, const EditContext&) {
                if (c.*part) {
                    *(c.*part).*field = v;
                }
            },
    };
}

/// scenario.*field, e.g. scenarioMember(&Scenario::batch).
template <typename T> IntegerValue scenarioMember(T Scenario::*field) {
    return {
        .get = [field](const ModelConfig&, const Scenario& s) { return qint64(s.*field); },
        .set = [field](ModelConfig&, Scenario& s, qint64 v, const EditContext&) { s.*field = T(v); },
    };
}

/// The list `select(config)` refers to, typed as text: read with `format` and written with `parse`
/// (core::edits), which rejects text it cannot read.
template <typename Select, typename List>
TextEditor textAt(Select select, std::string (*format)(const List&), std::optional<List> (*parse)(std::string_view)) {
    return {
        .get = [select, format](const ModelConfig& c) { return qs(format(select(c))); },
        .set =
            [select, parse](ModelConfig& c, const QString& text) {
                auto list = parse(text.toStdString());
                if (list) {
                    select(c) = std::move(*list);
                }
                return list.has_value();
            },
    };
}

/// config.*field typed as text, e.g. listText(&ModelConfig::mixers, formatMixers, parseMixers).
template <typename List>
TextEditor listText(List ModelConfig::*field, std::string (*format)(const List&),
                    std::optional<List> (*parse)(std::string_view)) {
    return textAt(
        [field](auto& c) -> auto& { return c.*field; }, format, parse);
}

/// Layer indices typed as "0, 5, 7": config.*field, or config.moe.*field.
inline TextEditor layerList(std::vector<std::int64_t> ModelConfig::*field) {
    return listText(field, core::edits::formatLayerList, core::edits::parseLayerList);
}
inline TextEditor layerList(std::vector<std::int64_t> core::MixtureOfExperts::*field) {
    return textAt(
        [field](auto& c) -> auto& { return c.moe.*field; }, core::edits::formatLayerList, core::edits::parseLayerList);
}

// When fields apply.
inline bool isMoe(const ModelConfig& c) {
    return c.ffnKind == core::FfnKind::Moe;
}
inline bool isLatent(const ModelConfig& c) {
    return c.latent.has_value();
}
inline bool notLatent(const ModelConfig& c) {
    return !c.latent.has_value();
}
/// Some layer has attention heads: softmax or lightning attention (not a stack of Mamba layers).
inline bool hasHeads(const ModelConfig& c) {
    return c.hasAttentionLayers() || c.usesMixer(core::TokenMixer::LightningAttention);
}
inline bool isEncoderDecoder(const ModelConfig& c) {
    return c.architecture == core::ArchitectureKind::EncoderDecoder;
}
inline bool isEncoderOnly(const ModelConfig& c) {
    return c.architecture == core::ArchitectureKind::EncoderOnly;
}

// The tables, one per section, in display order; fieldSpecs() sets each row's section.
std::vector<FieldSpec> shapeFields();
std::vector<FieldSpec> attentionFields();
std::vector<FieldSpec> mixerFields();
std::vector<FieldSpec> feedForwardFields();
std::vector<FieldSpec> embeddingFields();
std::vector<FieldSpec> scenarioFields();
std::vector<FieldSpec> trainingFields();

} // namespace archplay::ui::panels::fieldtables
