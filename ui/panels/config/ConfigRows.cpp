// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/config/ConfigRows.h"

#include "core/report/ScenarioLabels.h"
#include "ui/Strings.h"
#include "ui/panels/config/ConfigFieldAccess.h"
#include "ui/theme/Theme.h"
#include "ui/widgets/IntField.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QTimer>

#include <algorithm>
#include <variant>

namespace archplay::ui::panels {

namespace {

/// Lambdas as one visitor for std::visit.
template <typename... Handlers> struct Overloaded : Handlers... { using Handlers::operator()...; };
template <typename... Handlers> Overloaded(Handlers...) -> Overloaded<Handlers...>; // clang 14 deduces no aggregates

} // namespace

FieldRow::FieldRow(const FieldSpec& spec, QWidget* parent)
    : QObject(parent)
    , m_spec(&spec)
    , m_toolTip(fieldToolTip(spec)) {
    const QString objectBase = QStringLiteral("field.") + spec.key;
    if (!std::holds_alternative<ToggleEditor>(spec.editor)) {
        m_label = new QLabel(spec.label, parent);
        m_label->setToolTip(m_toolTip);
        m_label->setObjectName(objectBase + QStringLiteral(".label"));
    }
    std::visit(Overloaded{
                   [&](const IntegerEditor& editor) {
                       m_int = new widgets::IntField(editor.minimum, editor.maximum,
                                                     editor.spinMaximum ? editor.spinMaximum : editor.maximum,
                                                     editor.scale, editor.snap, parent, editor.numbers);
                       m_int->slider()->setObjectName(objectBase + QStringLiteral(".slider"));
                       m_int->spinBox()->setObjectName(objectBase + QStringLiteral(".spin"));
                       m_int->slider()->setToolTip(m_toolTip);
                       m_int->spinBox()->setToolTip(m_toolTip);
                       m_int->spinBox()->setAccessibleName(spec.label);
                       if (!editor.specialValueText.isEmpty()) {
                           m_int->setSpecialValueText(editor.specialValueText);
                       }
                       m_label->setBuddy(m_int->spinBox());
                       connect(m_int, &widgets::IntField::valueEdited, this,
                               [this](qint64 value) { emit integerEdited(m_spec, value); });
                       connect(m_int, &widgets::IntField::gestureStarted, this, &FieldRow::gestureStarted);
                       connect(m_int, &widgets::IntField::gestureFinished, this, &FieldRow::gestureFinished);
                   },
                   [&](const ChoiceEditor& editor) {
                       m_combo = new QComboBox(parent);
                       m_combo->setObjectName(objectBase + QStringLiteral(".combo"));
                       m_combo->setToolTip(m_toolTip);
                       m_combo->setAccessibleName(spec.label);
                       m_combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
                       m_combo->setMinimumContentsLength(12);
                       for (const FieldChoice& choice : editor.choices) {
                           m_combo->addItem(choice.label, QVariant::fromValue(choice.value));
                       }
                       m_label->setBuddy(m_combo);
                       connect(m_combo, &QComboBox::activated, this, [this](int index) {
                           emit integerEdited(m_spec, m_combo->itemData(index).toLongLong());
                       });
                   },
                   [&](const ToggleEditor&) {
                       m_check = new QCheckBox(spec.label, parent);
                       m_check->setObjectName(objectBase + QStringLiteral(".check"));
                       m_check->setToolTip(m_toolTip);
                       connect(m_check, &QCheckBox::clicked, this,
                               [this](bool checked) { emit integerEdited(m_spec, checked); });
                   },
                   [&](const RealEditor& editor) {
                       m_real = new QDoubleSpinBox(parent);
                       m_real->setObjectName(objectBase + QStringLiteral(".spin"));
                       m_real->setToolTip(m_toolTip);
                       m_real->setAccessibleName(spec.label);
                       // A percentage shows the fraction times 100, as core's percentText() writes it.
                       const double shown = editor.percent ? 100.0 : 1.0;
                       m_real->setRange(editor.minimum * shown, shown);
                       m_real->setDecimals(editor.percent ? 1 : 3);
                       m_real->setSingleStep(0.05 * shown);
                       m_real->setSuffix(editor.percent ? QStringLiteral("%") : QString());
                       m_real->setKeyboardTracking(false);
                       m_real->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
                       m_label->setBuddy(m_real);
                       connect(m_real, &QDoubleSpinBox::valueChanged, this,
                               [this, shown](double value) { emit realEdited(m_spec, value / shown); });
                   },
                   [&](const DeviceEditor&) {
                       m_combo = new QComboBox(parent);
                       m_combo->setObjectName(objectBase + QStringLiteral(".combo"));
                       m_combo->setToolTip(m_toolTip);
                       m_combo->setAccessibleName(spec.label);
                       m_combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
                       m_combo->setMinimumContentsLength(12);
                       m_label->setBuddy(m_combo);
                       connect(m_combo, &QComboBox::activated, this, [this](int index) {
                           const QVariant data = m_combo->itemData(index);
                           const qsizetype device = data.isValid() ? data.toLongLong() : -1;
                           if (device >= 0 && std::size_t(device) < m_devices.size()) {
                               emit deviceEdited(m_spec, m_devices[std::size_t(device)]);
                           }
                       });
                   },
                   [&](const TextEditor&) {
                       m_text = new QLineEdit(parent);
                       m_text->setObjectName(objectBase + QStringLiteral(".edit"));
                       m_text->setToolTip(m_toolTip);
                       m_text->setAccessibleName(spec.label);
                       m_text->setClearButtonEnabled(true);
                       m_label->setBuddy(m_text);
                       connect(m_text, &QLineEdit::editingFinished, this, [this] {
                           if (m_text->isModified()) {
                               m_text->setModified(false);
                               emit textEdited(m_spec, m_text->text());
                           }
                       });
                   },
               },
               spec.editor);
}

void FieldRow::place(QGridLayout* grid, int row) {
    grid->addWidget(m_label, row, 0);
    if (m_int) {
        grid->addWidget(m_int->slider(), row, 1);
        grid->addWidget(m_int->spinBox(), row, 2);
    } else if (m_combo) {
        grid->addWidget(m_combo, row, 1, 1, 2);
    } else if (m_real) {
        grid->addWidget(m_real, row, 2);
    } else if (m_text) {
        grid->addWidget(m_text, row, 1, 1, 2);
    }
}

int FieldRow::labelWidth() const {
    if (!m_label) {
        return 0;
    }
    int width = m_label->sizeHint().width();
    if (m_spec->labelFor) {
        width = std::max(width, m_label->fontMetrics().horizontalAdvance(QStringLiteral("Decoder layers")) + 4);
    }
    return width;
}

std::vector<QWidget*> FieldRow::inputs() const {
    if (m_int) {
        return {m_int->slider(), m_int->spinBox()};
    }
    return {editor()};
}

QWidget* FieldRow::editor() const {
    if (m_int) {
        return m_int->spinBox();
    }
    if (m_combo) {
        return m_combo;
    }
    if (m_check) {
        return m_check;
    }
    if (m_real) {
        return m_real;
    }
    return m_text;
}

void FieldRow::sync(const core::ModelConfig& config, const core::Scenario& scenario, bool snapping) {
    const FieldSpec& spec = *m_spec;
    // The Attention section applies only where some layer has heads (not to a stack of Mamba layers).
    m_shown = (!spec.applies || spec.applies(config)) &&
              (spec.section != FieldSection::Attention || fieldtables::hasHeads(config));
    const bool enabled = !spec.enabled || spec.enabled(config);
    if (m_label) {
        m_label->setVisible(m_shown);
        m_label->setEnabled(enabled);
        if (spec.labelFor) {
            m_label->setText(spec.labelFor(config));
        }
    }
    if (m_int) {
        m_int->setVisible(m_shown);
        m_int->setEnabled(enabled);
        const auto& editor = std::get<IntegerEditor>(spec.editor);
        if (editor.maximumFor) {
            m_int->setDynamicMaximum(editor.maximumFor(config));
        }
        m_int->setSnapping(snapping, core::snapContext(config));
        m_int->setValue(editor.value.get(config, scenario));
    } else if (m_combo && std::holds_alternative<DeviceEditor>(spec.editor)) {
        m_combo->setVisible(m_shown);
        m_combo->setEnabled(enabled);
        syncDevice(scenario);
    } else if (m_combo) {
        m_combo->setVisible(m_shown);
        m_combo->setEnabled(enabled);
        const auto& editor = std::get<ChoiceEditor>(spec.editor);
        const QSignalBlocker blocker(m_combo);
        const int index = m_combo->findData(QVariant::fromValue(editor.value.get(config, scenario)));
        m_combo->setCurrentIndex(index);
        if (index < 0 && editor.placeholder) {
            m_combo->setPlaceholderText(editor.placeholder(config));
        }
    } else if (m_check) {
        m_check->setVisible(m_shown);
        m_check->setEnabled(enabled);
        const QSignalBlocker blocker(m_check);
        m_check->setChecked(std::get<ToggleEditor>(spec.editor).value.get(config, scenario) != 0);
    } else if (m_real) {
        m_real->setVisible(m_shown);
        m_real->setEnabled(enabled);
        const QSignalBlocker blocker(m_real);
        const auto& editor = std::get<RealEditor>(spec.editor);
        m_real->setValue(editor.get(config, scenario) * (editor.percent ? 100.0 : 1.0));
    } else if (m_text) {
        m_text->setVisible(m_shown);
        m_text->setEnabled(enabled);
        if (!m_text->hasFocus() || !m_text->isModified()) {
            const QSignalBlocker blocker(m_text);
            m_text->setText(std::get<TextEditor>(spec.editor).get(config));
            m_text->setModified(false);
        }
    }
}

void FieldRow::setDevices(const std::vector<core::Gpu>& devices) {
    if (!m_combo || !std::holds_alternative<DeviceEditor>(m_spec->editor) || devices == m_devices) {
        return;
    }
    m_devices = devices;
    const QSignalBlocker blocker(m_combo);
    m_combo->clear();
    bool builtin = true;
    for (std::size_t i = 0; i < m_devices.size(); ++i) {
        const core::Gpu& device = m_devices[i];
        if (builtin && !device.builtin && m_combo->count() > 0) {
            m_combo->insertSeparator(m_combo->count()); // the user's devices after the built-in ones
        }
        builtin = device.builtin;
        m_combo->addItem(qs(core::gpuChoiceLabel(device)), QVariant::fromValue(qint64(i)));
        const QString source = qs(device.source);
        m_combo->setItemData(m_combo->count() - 1,
                             device.builtin ? source : tr("Your device. %1").arg(source).trimmed(), Qt::ToolTipRole);
    }
}

void FieldRow::syncDevice(const core::Scenario& scenario) {
    const core::Gpu& current = std::get<DeviceEditor>(m_spec->editor).get(scenario);
    const auto found = std::find(m_devices.begin(), m_devices.end(), current);
    const QSignalBlocker blocker(m_combo);
    const int index =
        found == m_devices.end() ? -1 : m_combo->findData(QVariant::fromValue(qint64(found - m_devices.begin())));
    m_combo->setCurrentIndex(index);
    if (index < 0) {
        // A device from a session file that the catalogue does not hold (or holds with other figures).
        m_combo->setPlaceholderText(tr("%1 (not in the catalogue)").arg(qs(core::gpuChoiceLabel(current))));
    }
    const QString source = qs(current.source).toHtmlEscaped();
    const QString valueTip =
        source.isEmpty() ? QString() : tr("<p>%1: %2</p>").arg(qs(current.name).toHtmlEscaped(), source);
    if (valueTip != m_valueToolTip) {
        m_valueToolTip = valueTip;
        applyToolTips();
    }
}

void FieldRow::setDiagnostic(std::optional<core::Severity> severity, const QString& message) {
    if (severity == m_severity && message == m_diagnosticMessage) {
        return;
    }
    m_severity = severity;
    m_diagnosticMessage = message;
    applyToolTips();
    applyLabelColor();
}

void FieldRow::applyToolTips() {
    QString tip = m_toolTip + m_valueToolTip;
    if (!m_diagnosticMessage.isEmpty()) {
        tip += QStringLiteral("<p>") + m_diagnosticMessage.toHtmlEscaped();
    }
    if (m_label) {
        m_label->setToolTip(tip);
    }
    if (QWidget* widget = editor()) {
        widget->setToolTip(tip);
    }
}

void FieldRow::refreshColors(const QPalette& palette) {
    applyLabelColor(&palette);
}

void FieldRow::applyLabelColor(const QPalette* base) {
    QWidget* target = m_label ? static_cast<QWidget*>(m_label) : m_check;
    if (!target) {
        return;
    }
    // Only the roles set here override the inherited palette, so the label follows theme changes.
    QPalette palette;
    if (m_severity && *m_severity != core::Severity::Hint) {
        palette.setColor(QPalette::WindowText,
                         theme::severityColor(*m_severity, base ? *base : target->parentWidget()->palette()));
    }
    target->setPalette(palette);
}

void FieldRow::focusAndFlash() {
    QWidget* widget = editor();
    if (!widget) {
        return;
    }
    widget->setFocus(Qt::OtherFocusReason);
    if (auto* spin = qobject_cast<QAbstractSpinBox*>(widget)) {
        spin->selectAll();
    }
    QWidget* marker = m_label ? static_cast<QWidget*>(m_label) : m_check;
    marker->setAutoFillBackground(true);
    QPalette palette;
    palette.setColor(QPalette::Window, theme::flashBackground(marker->parentWidget()->palette()));
    if (m_severity && *m_severity != core::Severity::Hint) {
        palette.setColor(QPalette::WindowText, theme::severityColor(*m_severity, marker->parentWidget()->palette()));
    }
    marker->setPalette(palette);
    QTimer::singleShot(900, marker, [this, marker] {
        marker->setAutoFillBackground(false);
        applyLabelColor();
    });
}

} // namespace archplay::ui::panels
