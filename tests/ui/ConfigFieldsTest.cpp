// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/config/ConfigFields.h"

#include "core/io/ConfigJson.h"
#include "core/io/Presets.h"
#include "ui/Strings.h"
#include "ui/panels/DiagnosticsStrip.h"

#include <QListWidget>
#include <QSignalSpy>

#include <gtest/gtest.h>

#include <algorithm>
#include <variant>

namespace archplay::ui {
namespace {

bool isPrime(std::int64_t n) {
    for (std::int64_t d = 2; d * d <= n; ++d) {
        if (n % d == 0) {
            return false;
        }
    }
    return n > 1;
}

TEST(ConfigFields, EveryFieldOfCoreHasOneRowUnderItsKey) {
    QStringList keys;
    for (const archplay::ui::panels::FieldSpec& spec : archplay::ui::panels::fieldSpecs()) {
        EXPECT_FALSE(keys.contains(spec.key)) << spec.key.toStdString();
        keys << spec.key;
        EXPECT_FALSE(spec.tooltip.isEmpty()) << spec.key.toStdString();
        EXPECT_TRUE(fieldToolTip(spec).contains(spec.jsonKey.isEmpty() ? spec.key : spec.jsonKey.toHtmlEscaped()));
        // A row without a field of core's (a second control of one) has a key no diagnostic names.
        EXPECT_EQ(spec.key, spec.field == core::Field::None ? spec.key : qs(core::fieldKey(spec.field)));
        EXPECT_EQ(spec.field, core::fieldForKey(spec.key.toStdString())) << spec.key.toStdString();
    }
    for (const core::Field field : core::allFields()) {
        const auto rows =
            std::count_if(archplay::ui::panels::fieldSpecs().begin(), archplay::ui::panels::fieldSpecs().end(),
                          [field](const archplay::ui::panels::FieldSpec& spec) { return spec.field == field; });
        EXPECT_EQ(rows, 1) << core::fieldKey(field);
    }
    // A family's spelling is not a key of the panel: the diagnostic carries the field instead.
    EXPECT_EQ(archplay::ui::panels::findFieldSpec(QStringLiteral("n_routed_experts")), nullptr);
}

TEST(ConfigFields, EveryNewArchitectureKeyHasAField) {
    // Diagnostics name these keys; the panel must have a field to focus for each.
    for (const char* key : {"token_mixers",
                            "linear_num_key_heads",
                            "linear_num_value_heads",
                            "linear_key_head_dim",
                            "linear_value_head_dim",
                            "linear_conv_kernel_dim",
                            "mamba_n_heads",
                            "mamba_d_head",
                            "mamba_d_state",
                            "mamba_n_groups",
                            "mamba_d_conv",
                            "conv_L_cache",
                            "attention_sinks",
                            "attention_output_gate",
                            "index_n_heads",
                            "index_head_dim",
                            "index_topk",
                            "moe_layers",
                            "router_bias",
                            "expert_bias",
                            "nope_layers",
                            "state_dtype"}) {
        EXPECT_NE(archplay::ui::panels::findFieldSpec(QString::fromLatin1(key)), nullptr) << key;
    }
    core::ModelConfig config;
    core::Scenario scenario;
    const core::edits::EditContext context;
    const archplay::ui::panels::FieldSpec* heads = archplay::ui::panels::findFieldSpec(QStringLiteral("mamba_n_heads"));
    EXPECT_FALSE(heads->applies(config));
    config.mixers = {core::TokenMixer::Mamba2, core::TokenMixer::Attention};
    EXPECT_TRUE(heads->applies(config));
    integerValue(*heads)->set(config, scenario, 96, context);
    EXPECT_EQ(config.mamba.numHeads, 96);
    const archplay::ui::panels::FieldSpec* state = archplay::ui::panels::findFieldSpec(QStringLiteral("state_dtype"));
    integerValue(*state)->set(config, scenario, qint64(core::DType::BF16), context);
    EXPECT_EQ(scenario.stateDType, core::DType::BF16);
    integerValue(*state)->set(config, scenario, -1, context);
    EXPECT_FALSE(scenario.stateDType.has_value());
}

/// What each kind of editor needs: a range that holds, readers and writers, choices that can be told
/// apart. A row with a hole here would build a broken widget or crash on the first edit.
TEST(ConfigFields, EveryEditorIsComplete) {
    using namespace archplay::ui::panels;
    for (const FieldSpec& spec : fieldSpecs()) {
        SCOPED_TRACE(spec.key.toStdString());
        EXPECT_FALSE(spec.label.isEmpty());
        if (const IntegerValue* value = integerValue(spec)) {
            EXPECT_TRUE(value->get && value->set);
        }
        if (const auto* integer = std::get_if<IntegerEditor>(&spec.editor)) {
            EXPECT_LT(integer->minimum, integer->maximum);
            EXPECT_TRUE(integer->spinMaximum == 0 || integer->spinMaximum >= integer->maximum);
            EXPECT_TRUE(integer->specialValueText.isEmpty() || integer->minimum == 0)
                << "the special text stands for the minimum, which only 0 can mean 'off' or 'none'";
        } else if (const auto* choice = std::get_if<ChoiceEditor>(&spec.editor)) {
            ASSERT_GE(choice->choices.size(), 2u);
            for (std::size_t i = 0; i < choice->choices.size(); ++i) {
                EXPECT_FALSE(choice->choices[i].label.isEmpty());
                for (std::size_t j = 0; j < i; ++j) {
                    EXPECT_NE(choice->choices[i].value, choice->choices[j].value);
                    EXPECT_NE(choice->choices[i].label, choice->choices[j].label);
                }
            }
        } else if (const auto* text = std::get_if<TextEditor>(&spec.editor)) {
            EXPECT_TRUE(text->get && text->set);
        } else if (const auto* real = std::get_if<RealEditor>(&spec.editor)) {
            EXPECT_TRUE(real->get && real->set);
            EXPECT_TRUE(real->minimum >= 0.0 && real->minimum < 1.0);
        } else if (const auto* device = std::get_if<DeviceEditor>(&spec.editor)) {
            EXPECT_TRUE(device->get && device->set);
            EXPECT_TRUE(isScenarioSection(spec.section));
        }
    }
}

/// Every built-in preset shows, in every field that applies to it, a value its editor can hold, and
/// picking any choice reads back as that choice (except GQA on a head count with no divisor between
/// 1 and itself, Falcon-7B's 71: the grouped-query rule then keeps one KV head per head, MHA).
TEST(ConfigFields, PresetValuesFitTheirEditors) {
    using namespace archplay::ui::panels;
    const core::Scenario scenario;
    const core::edits::EditContext context;
    ASSERT_FALSE(core::builtinPresets().empty());
    for (const core::Preset& preset : core::builtinPresets()) {
        const std::optional<core::ModelConfig> config = core::presetConfig(preset);
        ASSERT_TRUE(config.has_value()) << preset.info.id;
        for (const FieldSpec& spec : fieldSpecs()) {
            if (spec.applies && !spec.applies(*config)) {
                continue;
            }
            SCOPED_TRACE(preset.info.id + " " + spec.key.toStdString());
            if (const auto* integer = std::get_if<IntegerEditor>(&spec.editor)) {
                const qint64 value = integer->value.get(*config, scenario);
                EXPECT_GE(value, integer->minimum);
                EXPECT_LE(value, std::max(integer->spinMaximum, integer->maximum));
            } else if (const auto* choice = std::get_if<ChoiceEditor>(&spec.editor)) {
                const qint64 value = choice->value.get(*config, scenario);
                EXPECT_TRUE(std::any_of(choice->choices.begin(), choice->choices.end(),
                                        [&](const FieldChoice& option) { return option.value == value; }) ||
                            choice->placeholder)
                    << value;
                for (const FieldChoice& option : choice->choices) {
                    if (spec.key == QLatin1String("attention_family") &&
                        option.value == qint64(core::AttentionFamily::GQA) && isPrime(config->numHeads)) {
                        continue;
                    }
                    core::ModelConfig edited = *config;
                    core::Scenario editedScenario = scenario;
                    choice->value.set(edited, editedScenario, option.value, context);
                    EXPECT_EQ(choice->value.get(edited, editedScenario), option.value) << option.label.toStdString();
                }
            } else if (const auto* toggle = std::get_if<ToggleEditor>(&spec.editor)) {
                const qint64 value = toggle->value.get(*config, scenario);
                EXPECT_TRUE(value == 0 || value == 1) << value;
            }
        }
    }
}

TEST(ConfigFields, GettersReadWhatSettersWrite) {
    core::ModelConfig config;
    core::Scenario scenario;
    const core::edits::EditContext context;
    for (const char* key : {"num_hidden_layers", "hidden_size", "vocab_size", "max_position_embeddings",
                            "sequence_length", "batch_size"}) {
        const archplay::ui::panels::FieldSpec* spec = archplay::ui::panels::findFieldSpec(QString::fromLatin1(key));
        ASSERT_NE(spec, nullptr) << key;
        integerValue(*spec)->set(config, scenario, 2048, context);
        EXPECT_EQ(integerValue(*spec)->get(config, scenario), 2048) << key;
    }
}

TEST(ConfigFields, AnImportNoteInAFamilysSpellingTakesTheUserToItsField) {
    const core::ImportResult imported = core::importConfigText(R"({"model_type": "gpt2", "n_embd": null})");
    ASSERT_TRUE(imported.config);
    panels::DiagnosticsStrip strip;
    strip.setImportNotes(imported.diagnostics, QStringLiteral("config.json"));
    QSignalSpy activated(&strip, &panels::DiagnosticsStrip::fieldActivated);
    QListWidgetItem* note = nullptr;
    for (int i = 0; i < strip.list()->count(); ++i) {
        if (strip.list()->item(i)->text().contains(QStringLiteral("n_embd"))) {
            note = strip.list()->item(i);
        }
    }
    ASSERT_NE(note, nullptr) << "the note names the key as the file spelled it";
    emit strip.list()->itemClicked(note);
    ASSERT_EQ(activated.size(), 1);
    EXPECT_EQ(activated.front().front().toString(), QStringLiteral("hidden_size"));
    ASSERT_NE(panels::findFieldSpec(QStringLiteral("hidden_size")), nullptr);
}

} // namespace
} // namespace archplay::ui
