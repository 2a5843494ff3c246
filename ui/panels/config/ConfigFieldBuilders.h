// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Builders for the field table (ConfigFields.cpp, ConfigFieldSections.cpp); not a public header.

#include "ui/panels/config/ConfigFields.h"

#include <QCoreApplication>

namespace archplay::ui::panels::fieldbuilders {

using ModelConfig = core::ModelConfig;
using Scenario = core::Scenario;

inline QString tr(const char* text) {
    return QCoreApplication::translate("archplay::ui::ConfigFields", text);
}

inline bool isMoe(const ModelConfig& c) {
    return c.ffnKind == core::FfnKind::Moe;
}
inline bool isLatent(const ModelConfig& c) {
    return c.latent.has_value();
}

/// A plain integer member of the config.
inline FieldSpec integer(FieldSection section, QString key, QString label, QString tooltip, qint64 minimum,
                         qint64 maximum, widgets::SliderScale scale, core::Snap snap, std::int64_t ModelConfig::*member,
                         qint64 spinMaximum = 0) {
    FieldSpec spec;
    spec.section = section;
    spec.key = std::move(key);
    spec.label = std::move(label);
    spec.tooltip = std::move(tooltip);
    spec.kind = FieldKind::Integer;
    spec.minimum = minimum;
    spec.maximum = maximum;
    spec.spinMaximum = spinMaximum;
    spec.scale = scale;
    spec.snap = snap;
    spec.get = [member](const ModelConfig& c, const Scenario&) {
        return qint64(c.*member);
    };
    spec.set = [member](ModelConfig& c, Scenario&, qint64 v, const core::edits::EditContext&) {
        c.*member = v;
    };
    return spec;
}

inline FieldSpec moeInteger(QString key, QString label, QString tooltip, qint64 minimum, qint64 maximum,
                            widgets::SliderScale scale, core::Snap snap, std::int64_t core::MixtureOfExperts::*member,
                            qint64 spinMaximum = 0) {
    FieldSpec spec = integer(FieldSection::FeedForward, std::move(key), std::move(label), std::move(tooltip), minimum,
                             maximum, scale, snap, nullptr, spinMaximum);
    spec.get = [member](const ModelConfig& c, const Scenario&) {
        return qint64(c.moe.*member);
    };
    spec.set = [member](ModelConfig& c, Scenario&, qint64 v, const core::edits::EditContext&) {
        c.moe.*member = v;
    };
    spec.applies = isMoe;
    return spec;
}

inline FieldSpec latentInteger(QString key, QString label, QString tooltip, qint64 minimum, qint64 maximum,
                               std::int64_t core::LatentAttention::*member) {
    FieldSpec spec = integer(FieldSection::Attention, std::move(key), std::move(label), std::move(tooltip), minimum,
                             maximum, widgets::SliderScale::Linear, core::Snap::Multiple16, nullptr, 4096);
    spec.get = [member](const ModelConfig& c, const Scenario&) {
        return c.latent ? qint64((*c.latent).*member) : 0;
    };
    spec.set = [member](ModelConfig& c, Scenario&, qint64 v, const core::edits::EditContext&) {
        if (c.latent) {
            (*c.latent).*member = v;
        }
    };
    spec.applies = isLatent;
    return spec;
}

inline FieldSpec toggle(FieldSection section, QString key, QString label, QString tooltip, bool ModelConfig::*member) {
    FieldSpec spec;
    spec.section = section;
    spec.key = std::move(key);
    spec.label = std::move(label);
    spec.tooltip = std::move(tooltip);
    spec.kind = FieldKind::Toggle;
    spec.get = [member](const ModelConfig& c, const Scenario&) {
        return qint64(c.*member ? 1 : 0);
    };
    spec.set = [member](ModelConfig& c, Scenario&, qint64 v, const core::edits::EditContext&) {
        c.*member = v != 0;
    };
    return spec;
}

/// A combo over an enum member; choices carry the enum's integer value.
template <typename Enum>
inline FieldSpec choice(FieldSection section, QString key, QString label, QString tooltip, Enum ModelConfig::*member,
                        std::vector<FieldChoice> choices) {
    FieldSpec spec;
    spec.section = section;
    spec.key = std::move(key);
    spec.label = std::move(label);
    spec.tooltip = std::move(tooltip);
    spec.kind = FieldKind::Choice;
    spec.choices = std::move(choices);
    spec.get = [member](const ModelConfig& c, const Scenario&) {
        return qint64(c.*member);
    };
    spec.set = [member](ModelConfig& c, Scenario&, qint64 v, const core::edits::EditContext&) {
        c.*member = Enum(v);
    };
    return spec;
}

inline FieldSpec scenarioInteger(QString key, QString label, QString tooltip, qint64 minimum, qint64 maximum,
                                 qint64 spinMaximum, std::uint64_t Scenario::*member) {
    FieldSpec spec;
    spec.section = FieldSection::Scenario;
    spec.key = std::move(key);
    spec.label = std::move(label);
    spec.tooltip = std::move(tooltip);
    spec.kind = FieldKind::Integer;
    spec.minimum = minimum;
    spec.maximum = maximum;
    spec.spinMaximum = spinMaximum;
    spec.scale = widgets::SliderScale::Logarithmic;
    spec.snap = core::Snap::PowerOfTwo;
    spec.get = [member](const ModelConfig&, const Scenario& s) {
        return qint64(s.*member);
    };
    spec.set = [member](ModelConfig&, Scenario& s, qint64 v, const core::edits::EditContext&) {
        s.*member = std::uint64_t(v);
    };
    return spec;
}

inline FieldSpec dtypeChoice(QString key, QString label, QString tooltip, core::DType Scenario::*member) {
    FieldSpec spec;
    spec.section = FieldSection::Scenario;
    spec.key = std::move(key);
    spec.label = std::move(label);
    spec.tooltip = std::move(tooltip);
    spec.kind = FieldKind::Choice;
    for (core::DType dtype : core::kAllDTypes) {
        spec.choices.push_back(
            {QString::fromLatin1(core::toString(dtype).data(), qsizetype(core::toString(dtype).size())).toUpper(),
             qint64(dtype)});
    }
    spec.get = [member](const ModelConfig&, const Scenario& s) {
        return qint64(s.*member);
    };
    spec.set = [member](ModelConfig&, Scenario& s, qint64 v, const core::edits::EditContext&) {
        s.*member = core::DType(v);
    };
    return spec;
}

} // namespace archplay::ui::panels::fieldbuilders
