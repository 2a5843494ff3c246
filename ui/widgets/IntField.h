// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/widgets/Snapping.h"

#include <QObject>
#include <QSlider>
#include <QSpinBox>

namespace archplay::ui::widgets {

/// A spin box whose arrows and Page keys move between snapped values while snapping is on, which
/// reads sizes as people type them ("128k", "1.5M", "8,192": core::parseSizeCount), and which leaves
/// the window's shortcuts (Ctrl+E, Ctrl+P, ...) to the window, keeping only the editing ones.
class SnapSpinBox : public QSpinBox {
    Q_OBJECT

public:
    using QSpinBox::QSpinBox;

    void setSnap(core::Snap snap, const core::SnapContext& context, bool enabled);
    void stepBy(int steps) override;

signals:
    /// A mouse press on the arrows: holding one repeats steps that make one undo step together.
    void pressStarted();
    void pressFinished();

protected:
    bool event(QEvent* event) override;
    QValidator::State validate(QString& text, int& position) const override;
    int valueFromText(const QString& text) const override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    core::Snap m_snap = core::Snap::None;
    core::SnapContext m_context;
    bool m_enabled = false;
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
             QWidget* parent);

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
    void onSpinChanged(int value);
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
