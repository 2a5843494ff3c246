// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/config/ConfigFields.h"

#include "ui/Strings.h"
#include "ui/panels/config/ConfigFieldAccess.h"

#include <utility>

namespace archplay::ui::panels {

using fieldtables::tr;

QString sectionTitle(FieldSection section) {
    switch (section) {
    case FieldSection::Shape:
        return tr("Shape");
    case FieldSection::Attention:
        return tr("Attention");
    case FieldSection::Mixers:
        return tr("Linear attention and SSM");
    case FieldSection::FeedForward:
        return tr("Feed-forward");
    case FieldSection::EmbeddingsNorms:
        return tr("Embeddings and norms");
    case FieldSection::Scenario:
        return tr("Scenario");
    case FieldSection::Training:
        return tr("Training");
    }
    return {};
}

bool isScenarioSection(FieldSection section) {
    return section == FieldSection::Scenario || section == FieldSection::Training;
}

const IntegerValue* integerValue(const FieldSpec& spec) {
    if (const auto* integer = std::get_if<IntegerEditor>(&spec.editor)) {
        return &integer->value;
    }
    if (const auto* choice = std::get_if<ChoiceEditor>(&spec.editor)) {
        return &choice->value;
    }
    if (const auto* toggle = std::get_if<ToggleEditor>(&spec.editor)) {
        return &toggle->value;
    }
    return nullptr;
}

const std::vector<FieldSpec>& fieldSpecs() {
    static const std::vector<FieldSpec> specs = [] {
        using namespace fieldtables;
        const std::pair<FieldSection, std::vector<FieldSpec> (*)()> tables[] = {
            {FieldSection::Shape, shapeFields},
            {FieldSection::Attention, attentionFields},
            {FieldSection::Mixers, mixerFields},
            {FieldSection::FeedForward, feedForwardFields},
            {FieldSection::EmbeddingsNorms, embeddingFields},
            {FieldSection::Scenario, scenarioFields},
            {FieldSection::Training, trainingFields},
        };
        std::vector<FieldSpec> all;
        for (const auto& [section, table] : tables) {
            for (FieldSpec& spec : table()) {
                spec.section = section;
                if (spec.field != core::Field::None) {
                    spec.key = qs(core::fieldKey(spec.field));
                }
                all.push_back(std::move(spec));
            }
        }
        return all;
    }();
    return specs;
}

const FieldSpec* findFieldSpec(const QString& key) {
    for (const FieldSpec& spec : fieldSpecs()) {
        if (spec.key == key) {
            return &spec;
        }
    }
    return nullptr;
}

QString fieldToolTip(const FieldSpec& spec) {
    const QString key = spec.jsonKey.isEmpty() ? spec.key : spec.jsonKey;
    if (isScenarioSection(spec.section)) {
        return QStringLiteral("<p><b>%1</b> — %2</p><p>%3 <code>%4</code></p>")
            .arg(spec.label.toHtmlEscaped(), spec.tooltip.toHtmlEscaped(),
                 tr("Scenario setting, not part of config.json; the session file stores it as"), key.toHtmlEscaped());
    }
    return QStringLiteral("<p><b>%1</b> — %2</p><p>%3 <code>%4</code></p>")
        .arg(spec.label.toHtmlEscaped(), spec.tooltip.toHtmlEscaped(), tr("config.json key:"), key.toHtmlEscaped());
}

} // namespace archplay::ui::panels
