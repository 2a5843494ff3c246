// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "ui/panels/config/ConfigFields.h"

#include <QObject>

#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QWidget;

namespace archplay::ui::widgets {
class IntField;
}

namespace archplay::ui::panels {

/// The widgets of one field of the config panel: they show the value they are given and report
/// what the user picks. Built from a FieldSpec.
class FieldRow : public QObject {
    Q_OBJECT

public:
    FieldRow(const FieldSpec& spec, QWidget* parent);

    const FieldSpec& spec() const { return *m_spec; }
    /// Places a non-toggle row into a label | slider | spin box grid.
    void place(QGridLayout* grid, int row);
    /// The check box of a toggle, for the panel to lay out with its neighbours.
    QCheckBox* checkBox() const { return m_check; }

    /// The devices a device row lists (built-in, then the user's); other rows ignore them.
    void setDevices(const std::vector<core::Gpu>& devices);
    /// Shows the config's value; hides the row when it does not apply.
    void sync(const core::ModelConfig& config, const core::Scenario& scenario, bool snapping);
    bool isShown() const { return m_shown; }
    /// Marks the row with the worst diagnostic naming its field (or clears the mark).
    void setDiagnostic(std::optional<core::Severity> severity, const QString& message);
    /// Re-derives the label colour from `palette`, the panel's new palette after a theme change: the
    /// panel hears of the change before its children take the new palette.
    void refreshColors(const QPalette& palette);
    /// Moves the keyboard focus to the row's editor and briefly highlights it.
    void focusAndFlash();
    QWidget* editor() const;
    /// Every widget of the row that takes input (a slider and its spin box, a combo box...).
    std::vector<QWidget*> inputs() const;
    /// Width the label column needs for this row (0 for toggles, which span the row).
    int labelWidth() const;

signals:
    void integerEdited(const archplay::ui::panels::FieldSpec* spec, qint64 value);
    void realEdited(const archplay::ui::panels::FieldSpec* spec, double value);
    void textEdited(const archplay::ui::panels::FieldSpec* spec, const QString& text);
    void deviceEdited(const archplay::ui::panels::FieldSpec* spec, const archplay::core::Gpu& device);
    void gestureStarted();
    void gestureFinished();

private:
    /// The label's colour for the row's diagnostic, from `base` (by default its parent's palette).
    void applyLabelColor(const QPalette* base = nullptr);
    void applyToolTips();
    void syncDevice(const core::Scenario& scenario);

    const FieldSpec* m_spec;
    QLabel* m_label = nullptr;
    widgets::IntField* m_int = nullptr;
    QComboBox* m_combo = nullptr;
    QCheckBox* m_check = nullptr;
    QDoubleSpinBox* m_real = nullptr;
    QLineEdit* m_text = nullptr;
    bool m_shown = true;
    std::optional<core::Severity> m_severity;
    QString m_diagnosticMessage;
    QString m_toolTip;
    QString m_valueToolTip; ///< what the current value adds to the tooltip (a device's source)
    std::vector<core::Gpu> m_devices;
};

} // namespace archplay::ui::panels
