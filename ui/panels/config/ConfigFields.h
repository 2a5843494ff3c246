// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/config/ConfigEdits.h"
#include "core/config/Field.h"
#include "core/config/ModelConfig.h"
#include "core/cost/Gpus.h"
#include "ui/widgets/Snapping.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <variant>
#include <vector>

namespace archplay::ui::panels {

/// The groups of the config panel, in display order. Scenario and Training hold the scenario's fields
/// (the Scenario tab), the others the model's.
enum class FieldSection { Shape, Attention, Mixers, FeedForward, EmbeddingsNorms, Scenario, Training };
QString sectionTitle(FieldSection section);
/// True for the sections of scenario settings, which are not part of config.json.
bool isScenarioSection(FieldSection section);

using core::edits::EditContext;
/// A rule that depends on the config only: when a field applies, when it is enabled.
using ConfigPredicate = bool (*)(const core::ModelConfig&);

/// How an integer-valued field (a count, an enum's value, a switch as 0/1) is read and written.
struct IntegerValue {
    std::function<qint64(const core::ModelConfig&, const core::Scenario&)> get;
    std::function<void(core::ModelConfig&, core::Scenario&, qint64, const EditContext&)> set;
};

/// A slider paired with a spin box.
struct IntegerEditor {
    qint64 minimum = 0;     ///< slider and spin box minimum
    qint64 maximum = 0;     ///< slider maximum
    qint64 spinMaximum = 0; ///< spin box maximum when exact entry may go beyond the slider; 0 = maximum
    widgets::SliderScale scale = widgets::SliderScale::Linear;
    core::Snap snap = core::Snap::None;
    widgets::NumberStyle numbers = widgets::NumberStyle::Size; ///< how typed text reads ("128k" or "15T")
    QString specialValueText;                                  ///< shown for the minimum, e.g. "off"
    /// A maximum that depends on the config (KV heads up to the heads, top-k up to the experts).
    qint64 (*maximumFor)(const core::ModelConfig&) = nullptr;
    IntegerValue value;
};

struct FieldChoice {
    QString label;
    qint64 value = 0;
};

/// A combo box of named values.
struct ChoiceEditor {
    std::vector<FieldChoice> choices;
    IntegerValue value;
    /// Shown when the value is none of the choices (a model_type archplay does not list); may be empty.
    QString (*placeholder)(const core::ModelConfig&) = nullptr;
};

/// A check box; the value is 0 or 1.
struct ToggleEditor {
    IntegerValue value;
};

/// A short list typed as text (layer indices, layer kinds).
struct TextEditor {
    std::function<QString(const core::ModelConfig&)> get;
    /// False, leaving the config as it was, when the text does not parse.
    std::function<bool(core::ModelConfig&, const QString&)> set;
};

/// A spin box for a fraction in [0, 1] of the config or the scenario.
struct RealEditor {
    std::function<double(const core::ModelConfig&, const core::Scenario&)> get;
    std::function<void(core::ModelConfig&, core::Scenario&, double)> set;
    double minimum = 0.0; ///< the smallest fraction the spin box takes
    /// Shown as a percentage ("40%") rather than a fraction ("0.400").
    bool percent = false;
};

/// A combo box of the device catalogue (built-in devices, then the user's), which the panel supplies.
struct DeviceEditor {
    std::function<const core::Gpu&(const core::Scenario&)> get;
    std::function<void(core::Scenario&, const core::Gpu&)> set;
};

using FieldEditor = std::variant<IntegerEditor, ChoiceEditor, ToggleEditor, TextEditor, RealEditor, DeviceEditor>;

/// One editable field of the config or the scenario: what it is called in config.json, how it is
/// shown, when it applies, and its editor, which reads and writes the value. The panel is built from
/// these, and a diagnostic finds its field's widgets by `field`.
struct FieldSpec {
    core::Field field = core::Field::None; ///< the field a diagnostic names; None for a second control of one
    QString key;     ///< core::fieldKey(field), set by fieldSpecs(); a key of the panel's own where `field` is None
    QString jsonKey; ///< what the tooltip names when it differs from `key` (switches without a key of their own)
    QString label;
    /// A label that depends on the config ("Decoder layers" for an encoder-decoder); null: `label`.
    QString (*labelFor)(const core::ModelConfig&) = nullptr;
    QString tooltip;                            ///< one or two sentences defining the field
    FieldSection section = FieldSection::Shape; ///< set by fieldSpecs() from the table the row is in
    ConfigPredicate applies = nullptr;          ///< shown only when true; null means always
    ConfigPredicate enabled = nullptr;          ///< shown but disabled when false; null means always enabled
    FieldEditor editor;
};

/// The value of an integer, choice or toggle field; nullptr for text, real and device fields.
const IntegerValue* integerValue(const FieldSpec& spec);

/// Every field of the panel, in display order within each section.
const std::vector<FieldSpec>& fieldSpecs();
/// The spec with this key, or nullptr.
const FieldSpec* findFieldSpec(const QString& key);
/// The full tooltip: the definition, then the config.json key.
QString fieldToolTip(const FieldSpec& spec);

} // namespace archplay::ui::panels
