// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/config/ConfigEdits.h"
#include "core/config/ModelConfig.h"
#include "ui/widgets/Snapping.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

namespace archplay::ui::panels {

/// The groups of the config panel, in display order.
enum class FieldSection { Shape, Attention, Mixers, FeedForward, EmbeddingsNorms, Scenario };
QString sectionTitle(FieldSection section);

enum class FieldKind {
    Integer, ///< slider + spin box
    Choice,  ///< combo box of named values
    Toggle,  ///< check box
    Text,    ///< a short list typed as text (layer indices, layer kinds)
    Real,    ///< spin box for a fraction
};

using core::edits::EditContext;

struct FieldChoice {
    QString label;
    qint64 value = 0;
};

/// One editable field of the config or the scenario: what it is called in config.json, how it is
/// shown, how it is read and written, and when it applies. The panel is built from these, and the
/// diagnostics strip finds a field's widgets by `key`.
struct FieldSpec {
    using Getter = std::function<qint64(const core::ModelConfig&, const core::Scenario&)>;
    using Setter = std::function<void(core::ModelConfig&, core::Scenario&, qint64, const core::edits::EditContext&)>;
    using Predicate = std::function<bool(const core::ModelConfig&)>;

    QString key;     ///< the config.json key (or scenario key) diagnostics name
    QString jsonKey; ///< what the tooltip names when it differs from `key` (switches without a key of their own)
    QString label;
    /// A label that depends on the config ("Decoder layers" for an encoder-decoder); empty: `label`.
    std::function<QString(const core::ModelConfig&)> labelFor;
    QString tooltip; ///< one or two sentences defining the field
    FieldSection section = FieldSection::Shape;
    FieldKind kind = FieldKind::Integer;

    qint64 minimum = 0;     ///< slider and spin box minimum
    qint64 maximum = 0;     ///< slider maximum
    qint64 spinMaximum = 0; ///< spin box maximum when exact entry may go beyond the slider; 0 = maximum
    widgets::SliderScale scale = widgets::SliderScale::Linear;
    core::Snap snap = core::Snap::None;
    QString specialValueText; ///< shown for the minimum, e.g. "off"
    /// A maximum that depends on the config (KV heads up to the heads, top-k up to the experts).
    std::function<qint64(const core::ModelConfig&)> maximumFor;

    std::vector<FieldChoice> choices;
    Getter get;
    Setter set;
    std::function<double(const core::ModelConfig&)> getReal;
    std::function<void(core::ModelConfig&, double)> setReal;
    std::function<QString(const core::ModelConfig&)> getText;
    std::function<bool(core::ModelConfig&, const QString&)> setText;

    Predicate applies; ///< shown only when true; empty means always
    Predicate enabled; ///< shown but disabled when false; empty means always enabled
};

/// Every field of the panel, in display order within each section.
const std::vector<FieldSpec>& fieldSpecs();
/// The spec with this key (after resolving aliases), or nullptr.
const FieldSpec* findFieldSpec(const QString& key);
/// Maps the config.json spellings of the Hugging Face families onto the key the panel uses,
/// e.g. "n_routed_experts" and "num_local_experts" -> "num_experts", "n_embd" -> "hidden_size".
QString canonicalFieldKey(const QString& key);
/// The full tooltip: the definition, then the config.json key.
QString fieldToolTip(const FieldSpec& spec);

} // namespace archplay::ui::panels
