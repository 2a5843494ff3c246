// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/ConfigPanel.h"

#include "core/report/ScenarioLabels.h"
#include "core/util/Format.h"
#include "ui/Strings.h"
#include "ui/panels/config/ConfigRows.h"
#include "ui/session/GpuCatalogue.h"
#include "ui/session/ModelBridge.h"
#include "ui/theme/Theme.h"
#include "ui/widgets/CollapsibleSection.h"
#include "ui/widgets/WheelGuard.h"

#include <QAction>
#include <QCheckBox>
#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QScrollBar>
#include <QVBoxLayout>

#include <algorithm>
#include <map>
#include <variant>

namespace archplay::ui::panels {

namespace {

std::vector<FieldSection> sectionsOf(ConfigPanel::Content content) {
    if (content == ConfigPanel::Content::Scenario) {
        return {FieldSection::Scenario, FieldSection::Training};
    }
    return {FieldSection::Shape, FieldSection::Attention, FieldSection::Mixers, FieldSection::FeedForward,
            FieldSection::EmbeddingsNorms};
}

QString severityWord(core::Severity severity) {
    switch (severity) {
    case core::Severity::Error:
        return ConfigPanel::tr("Error");
    case core::Severity::Warning:
        return ConfigPanel::tr("Warning");
    case core::Severity::Hint:
        break;
    }
    return ConfigPanel::tr("Hint");
}

} // namespace

ConfigPanel::ConfigPanel(session::ModelBridge* bridge, Content content, QWidget* parent, QAction* sharedSnap)
    : QWidget(parent)
    , m_bridge(bridge)
    , m_scroll(new QScrollArea(this))
    , m_wheelGuard(new widgets::WheelGuard(m_scroll))
    , m_snapAction(sharedSnap)
    , m_sectionKinds(sectionsOf(content)) {
    auto* body = new QWidget;
    auto* contentLayout = new QVBoxLayout(body);
    contentLayout->setContentsMargins(6, 4, 6, 6);
    contentLayout->setSpacing(2);

    if (!m_snapAction) {
        m_snapAction = new QAction(theme::icon(QStringLiteral("snap")), tr("&Snap to Hardware-Friendly Values"), this);
        m_snapAction->setCheckable(true);
        m_snapAction->setChecked(true);
        m_snapAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
        m_snapAction->setToolTip(
            tr("Sliders snap widths to multiples of 64/128, lengths and expert counts to powers of "
               "two, KV heads to divisors of the heads, heads to whole KV groups. Typed values are kept exactly."));
        m_snapAction->setStatusTip(m_snapAction->toolTip());
        auto* snapBox = new QCheckBox(tr("Snap sliders to hardware-friendly values"), body);
        snapBox->setObjectName(QStringLiteral("panel.snap"));
        snapBox->setToolTip(m_snapAction->toolTip());
        snapBox->setChecked(m_snapAction->isChecked());
        connect(snapBox, &QCheckBox::toggled, m_snapAction, &QAction::setChecked);
        connect(m_snapAction, &QAction::toggled, snapBox, &QCheckBox::setChecked);
        contentLayout->addWidget(snapBox);
    }

    for (FieldSection section : m_sectionKinds) {
        auto* box = new widgets::CollapsibleSection(sectionTitle(section), body);
        box->setObjectName(QStringLiteral("section.%1").arg(int(section)));
        m_sections.push_back(box);
        contentLayout->addWidget(box);
        buildSection(section);
    }
    contentLayout->addStretch(1);
    // One label column width for every section, so the sliders line up down the whole panel.
    int labelWidth = 0;
    for (FieldRow* row : m_rows) {
        labelWidth = std::max(labelWidth, row->labelWidth());
    }
    for (widgets::CollapsibleSection* section : m_sections) {
        section->grid()->setColumnMinimumWidth(0, labelWidth);
    }

    m_scroll->setWidget(body);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_scroll);

    connect(m_snapAction, &QAction::toggled, this, [this] { setAnalysis(m_analysis); });
    connect(m_bridge, &session::ModelBridge::analysisChanged, this, &ConfigPanel::setAnalysis);
    setAnalysis(m_bridge->sharedAnalysis());
}

void ConfigPanel::buildSection(FieldSection section) {
    widgets::CollapsibleSection* box = m_sections.back();
    QGridLayout* grid = box->grid();
    int row = 0;
    QGridLayout* toggles = nullptr;
    int toggleIndex = 0;
    for (const FieldSpec& spec : fieldSpecs()) {
        if (spec.section != section) {
            continue;
        }
        auto* fieldRow = new FieldRow(spec, box->body());
        m_rows.push_back(fieldRow);
        for (QWidget* input : fieldRow->inputs()) {
            m_wheelGuard->guard(input);
        }
        connect(fieldRow, &FieldRow::integerEdited, this, &ConfigPanel::onIntegerEdited);
        connect(fieldRow, &FieldRow::realEdited, this, &ConfigPanel::onRealEdited);
        connect(fieldRow, &FieldRow::textEdited, this, &ConfigPanel::onTextEdited);
        connect(fieldRow, &FieldRow::deviceEdited, this, &ConfigPanel::onDeviceEdited);
        fieldRow->setDevices(core::builtinGpus());
        connect(fieldRow, &FieldRow::gestureStarted, m_bridge, &session::ModelBridge::beginGesture);
        connect(fieldRow, &FieldRow::gestureFinished, m_bridge, &session::ModelBridge::endGesture);
        if (std::holds_alternative<ToggleEditor>(spec.editor)) {
            // Neighbouring switches share a two-column strip instead of a row each.
            if (!toggles) {
                auto* strip = new QWidget(box->body());
                toggles = new QGridLayout(strip);
                toggles->setContentsMargins(0, 2, 0, 2);
                toggles->setHorizontalSpacing(12);
                toggles->setVerticalSpacing(4);
                grid->addWidget(strip, row++, 0, 1, 3);
                m_toggleStrips[box].push_back(strip);
                toggleIndex = 0;
            }
            toggles->addWidget(fieldRow->checkBox(), toggleIndex / 2, toggleIndex % 2);
            ++toggleIndex;
            continue;
        }
        toggles = nullptr;
        fieldRow->place(grid, row++);
        if (spec.key == QLatin1String("intermediate_size")) {
            m_keepRatio = new QCheckBox(tr("FFN width keeps its ratio to the hidden size"), box->body());
            m_keepRatio->setObjectName(QStringLiteral("field.intermediate_size.keepRatio"));
            m_keepRatio->setToolTip(tr("While on, moving the hidden size moves the FFN width with it at the ratio "
                                       "they had when you last set the FFN width or loaded a config."));
            grid->addWidget(m_keepRatio, row++, 0, 1, 3);
            connect(m_keepRatio, &QCheckBox::toggled, this, [this] { setAnalysis(m_analysis); });
        }
    }
}

void ConfigPanel::setGpuCatalogue(session::GpuCatalogue* catalogue) {
    if (m_gpus) {
        m_gpus->disconnect(this);
    }
    m_gpus = catalogue;
    if (m_gpus) {
        connect(m_gpus, &session::GpuCatalogue::changed, this, &ConfigPanel::refreshDevices);
    }
    refreshDevices();
}

void ConfigPanel::refreshDevices() {
    const std::vector<core::Gpu> devices = m_gpus ? m_gpus->devices() : core::builtinGpus();
    for (FieldRow* row : m_rows) {
        row->setDevices(devices);
    }
    setAnalysis(m_analysis);
}

core::edits::EditContext ConfigPanel::editContext() const {
    core::edits::EditContext context;
    context.snap = m_snapAction->isChecked();
    context.keepFfnRatio = keepsFfnRatio();
    context.ffnRatio = m_ffnRatio;
    return context;
}

bool ConfigPanel::keepsFfnRatio() const {
    return m_keepRatio && m_keepRatio->isChecked();
}

void ConfigPanel::setKeepFfnRatio(bool keep) {
    if (m_keepRatio) {
        m_keepRatio->setChecked(keep);
    }
}

void ConfigPanel::onIntegerEdited(const FieldSpec* spec, qint64 value) {
    QString shown = QLocale().toString(value);
    if (const auto* integer = std::get_if<IntegerEditor>(&spec->editor);
        integer && integer->numbers == widgets::NumberStyle::Count && value > 0) {
        shown = qs(core::shortCount(std::uint64_t(value)));
    } else if (const auto* choice = std::get_if<ChoiceEditor>(&spec->editor)) {
        for (const FieldChoice& option : choice->choices) {
            if (option.value == value) {
                shown = option.label;
            }
        }
    } else if (std::holds_alternative<ToggleEditor>(spec->editor)) {
        shown = value ? tr("on") : tr("off");
    }
    const core::edits::EditContext context = editContext();
    // The ratio lock keeps the ratio it was taken at, so hidden-size moves must not retake it.
    m_hiddenEditInFlight = context.keepFfnRatio && spec->key == QLatin1String("hidden_size");
    m_bridge->edit(tr("%1 → %2").arg(spec->label, shown),
                   [spec, value, context](core::ModelConfig& config, core::Scenario& scenario) {
                       integerValue(*spec)->set(config, scenario, value, context);
                   });
    m_hiddenEditInFlight = false;
}

void ConfigPanel::onRealEdited(const FieldSpec* spec, double value) {
    const auto& editor = std::get<RealEditor>(spec->editor);
    const QString shown = editor.percent ? qs(core::percentText(value)) : QLocale().toString(value);
    m_bridge->edit(
        tr("%1 → %2").arg(spec->label, shown),
        [&editor, value](core::ModelConfig& config, core::Scenario& scenario) { editor.set(config, scenario, value); });
}

void ConfigPanel::onDeviceEdited(const FieldSpec* spec, const core::Gpu& device) {
    m_bridge->edit(tr("%1 → %2").arg(spec->label, qs(core::gpuChoiceLabel(device))),
                   [spec, device](core::ModelConfig&, core::Scenario& scenario) {
                       std::get<DeviceEditor>(spec->editor).set(scenario, device);
                   });
}

void ConfigPanel::onTextEdited(const FieldSpec* spec, const QString& text) {
    bool parsed = true;
    m_bridge->edit(tr("%1 → %2").arg(spec->label, text), [&](core::ModelConfig& config, core::Scenario&) {
        parsed = std::get<TextEditor>(spec->editor).set(config, text);
    });
    if (!parsed) {
        if (FieldRow* row = rowFor(spec->key)) {
            row->setDiagnostic(core::Severity::Error, tr("Could not read “%1”; the previous value is kept.").arg(text));
            row->focusAndFlash();
        }
    }
    setAnalysis(m_analysis);
}

void ConfigPanel::setAnalysis(const core::AnalysisPtr& analysis) {
    m_analysis = analysis;
    const core::ModelConfig& config = m_analysis->config;
    if (!m_hiddenEditInFlight && config.hiddenSize > 0) {
        m_ffnRatio = core::edits::ffnRatio(config);
    }
    std::map<core::Field, std::pair<core::Severity, QString>> marks;
    for (const core::Diagnostic& diagnostic : m_analysis->diagnostics) {
        const core::Field key = diagnostic.target;
        if (key == core::Field::None) {
            continue;
        }
        const QString line = severityWord(diagnostic.severity) + QStringLiteral(": ") + qs(diagnostic.message);
        auto it = marks.find(key);
        if (it == marks.end()) {
            marks.emplace(key, std::pair{diagnostic.severity, line});
        } else {
            it->second.first = std::min(it->second.first, diagnostic.severity);
            it->second.second += QStringLiteral("\n") + line;
        }
    }
    const bool snapping = m_snapAction->isChecked();
    for (FieldRow* row : m_rows) {
        row->sync(config, m_analysis->scenario, snapping);
        auto it = marks.find(row->spec().field);
        if (it != marks.end()) {
            row->setDiagnostic(it->second.first, it->second.second);
        } else {
            row->setDiagnostic(std::nullopt, {});
        }
    }
    for (auto it = m_toggleStrips.begin(); it != m_toggleStrips.end(); ++it) {
        for (QWidget* strip : it.value()) {
            bool any = false;
            for (QObject* child : strip->children()) {
                auto* box = qobject_cast<QCheckBox*>(child);
                any = any || (box && !box->isHidden());
            }
            strip->setVisible(any);
        }
    }
    // A section none of whose fields applies (linear attention and SSM for an encoder) is hidden.
    for (std::size_t i = 0; i < m_sections.size(); ++i) {
        const bool any = std::any_of(m_rows.begin(), m_rows.end(), [&](FieldRow* row) {
            return row->spec().section == m_sectionKinds[i] && row->isShown();
        });
        m_sections[i]->setVisible(any);
    }
    if (m_keepRatio) {
        const FieldSpec* ffn = findFieldSpec(QStringLiteral("intermediate_size"));
        m_keepRatio->setVisible(!ffn->applies || ffn->applies(config));
    }
}

FieldRow* ConfigPanel::rowFor(const QString& key) const {
    for (FieldRow* row : m_rows) {
        if (row->spec().key == key) {
            return row;
        }
    }
    return nullptr;
}

QWidget* ConfigPanel::editorFor(const QString& key) const {
    FieldRow* row = rowFor(key);
    return row ? row->editor() : nullptr;
}

bool ConfigPanel::focusField(const QString& key) {
    FieldRow* row = rowFor(key);
    if (!row || !row->isShown()) {
        return false;
    }
    for (widgets::CollapsibleSection* section : m_sections) {
        if (section->isAncestorOf(row->editor())) {
            section->setExpanded(true);
        }
    }
    m_scroll->ensureWidgetVisible(row->editor(), 20, 40);
    row->focusAndFlash();
    return true;
}

QStringList ConfigPanel::collapsedSections() const {
    QStringList titles;
    for (widgets::CollapsibleSection* section : m_sections) {
        if (!section->isExpanded()) {
            titles << section->objectName();
        }
    }
    return titles;
}

void ConfigPanel::setCollapsedSections(const QStringList& titles) {
    for (widgets::CollapsibleSection* section : m_sections) {
        section->setExpanded(!titles.contains(section->objectName()));
    }
}

void ConfigPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        for (FieldRow* row : m_rows) {
            row->refreshColors(palette());
        }
    }
}

} // namespace archplay::ui::panels
