// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/widgets/Snapping.h"

#include <QAbstractSpinBox>
#include <QObject>
#include <QSlider>

#include <optional>

namespace archplay::ui::widgets {

/// A spin box over the whole 64-bit range (QSpinBox holds an int, so a hidden size of 2^32 + 1
/// would show, and could write back, 2,147,483,647). Its arrows and Page keys move between snapped
/// values while snapping is on. It reads sizes as people type them ("128k", "1.5M", "8,192":
/// core::parseSizeCount) and leaves the window's shortcuts (Ctrl+E, Ctrl+P, ...) to the window,
/// keeping only the editing ones. Typed text is taken when editing finishes (Enter or focus out);
/// text that is not a number in range is put back to the value. The wheel: see WheelGuard.
class SnapSpinBox : public QAbstractSpinBox {
    Q_OBJECT

public:
    explicit SnapSpinBox(QWidget* parent = nullptr);

    qint64 value() const { return m_value; }
    qint64 minimum() const { return m_minimum; }
    qint64 maximum() const { return m_maximum; }
    void setRange(qint64 minimum, qint64 maximum);
    void setMaximum(qint64 maximum);
    /// Shows `value` clamped into the range; emits valueChanged when that changes the value.
    void setValue(qint64 value);

    void setSnap(core::Snap snap, const core::SnapContext& context, bool enabled);
    void setNumberStyle(NumberStyle style);
    NumberStyle numberStyle() const { return m_style; }
    void stepBy(int steps) override;
    QValidator::State validate(QString& input, int& pos) const override;

    /// The value as shown: digits with group separators (a count that shortCount() writes exactly:
    /// "15T"), or the special value text at the minimum.
    QString textFromValue(qint64 value) const;
    /// The value `text` names, or nullopt when it names none in range.
    std::optional<qint64> valueFromText(const QString& text) const;

signals:
    void valueChanged(qint64 value);
    /// A mouse press on the arrows: holding one repeats steps that make one undo step together.
    void pressStarted();
    void pressFinished();

protected:
    StepEnabled stepEnabled() const override;
    bool event(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    void commitText();
    /// Writes the value into the line edit, and repaints the arrows when their state changed. Every
    /// field is shown again after each edit of any field: most are unchanged and cost nothing.
    void showValue();

    qint64 m_value = 0;
    qint64 m_minimum = 0;
    qint64 m_maximum = 99;
    core::Snap m_snap = core::Snap::None;
    core::SnapContext m_context;
    bool m_enabled = false;
    NumberStyle m_style = NumberStyle::Size;
    /// What showValue() last wrote (the text as written): it formats again only when one changed.
    struct Shown {
        qint64 value = 0;
        qint64 minimum = 0;
        NumberStyle style = NumberStyle::Size;
        QString special;
        QString text;
        StepEnabled steps;
        bool operator==(const Shown&) const = default;
    };
    std::optional<Shown> m_shown;
};

/// A slider that reports the whole press-drag-release gesture (so it becomes one undo step, the
/// jump to the click position included).
class FieldSlider : public QSlider {
    Q_OBJECT

public:
    explicit FieldSlider(QWidget* parent = nullptr);

signals:
    void pressStarted();
    void pressFinished();

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
};

/// An integer field: a slider (linear or logarithmic) for exploring and a spin box for exact entry,
/// kept in step. It shows values it is given and reports values the user picks.
class IntField : public QObject {
    Q_OBJECT

public:
    IntField(qint64 minimum, qint64 sliderMaximum, qint64 spinMaximum, SliderScale scale, core::Snap snap,
             QWidget* parent, NumberStyle style = NumberStyle::Size);

    FieldSlider* slider() const { return m_slider; }
    SnapSpinBox* spinBox() const { return m_spin; }
    qint64 value() const { return m_value; }

    /// Shows `value` without reporting it. The slider stays put while the user drags it.
    void setValue(qint64 value);
    /// A maximum that follows the config (KV heads up to the heads). Values above stay visible.
    void setDynamicMaximum(qint64 maximum);
    void setSnapping(bool enabled, const core::SnapContext& context);
    void setSpecialValueText(const QString& text);
    void setEnabled(bool enabled);
    void setVisible(bool visible);

signals:
    void valueEdited(qint64 value);
    void gestureStarted();
    void gestureFinished();

private:
    void onSliderMoved(int position);
    void onSpinChanged(qint64 value);
    void placeSlider();

    FieldSlider* m_slider;
    SnapSpinBox* m_spin;
    SliderMapping m_mapping;
    qint64 m_minimum;
    qint64 m_sliderMaximum;
    qint64 m_spinMaximum;
    core::Snap m_snap;
    core::SnapContext m_context;
    bool m_snapping = false;
    qint64 m_value = 0;
};

} // namespace archplay::ui::widgets
