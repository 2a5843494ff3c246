// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/IntField.h"

#include "core/util/Format.h"

#include <QFontMetrics>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMouseEvent>
#include <QRegularExpression>
#include <QSignalBlocker>

#include <algorithm>
#include <climits>
#include <cstdint>

namespace archplay::ui::widgets {

namespace {

int toInt(qint64 value) {
    return int(std::clamp<qint64>(value, INT_MIN, INT_MAX));
}

} // namespace

void SnapSpinBox::setSnap(core::Snap snap, const core::SnapContext& context, bool enabled) {
    m_snap = snap;
    m_context = context;
    m_enabled = enabled;
}

void SnapSpinBox::stepBy(int steps) {
    if (!m_enabled || m_snap == core::Snap::None) {
        QSpinBox::stepBy(steps);
        return;
    }
    setValue(toInt(core::snapStep(value(), steps, m_snap, m_context, minimum(), maximum())));
    selectAll();
}

bool SnapSpinBox::event(QEvent* event) {
    if (event->type() == QEvent::ShortcutOverride) {
        auto* key = static_cast<QKeyEvent*>(event);
        // A number field needs the clipboard, select-all and word moves; any other chord (Ctrl+E,
        // which a line edit reads as "end of line") is the window's. With nothing typed to undo,
        // Ctrl+Z and Ctrl+Y are the window's undo and redo too.
        const bool editing =
            key->matches(QKeySequence::Copy) || key->matches(QKeySequence::Cut) || key->matches(QKeySequence::Paste) ||
            key->matches(QKeySequence::SelectAll) || key->matches(QKeySequence::MoveToNextWord) ||
            key->matches(QKeySequence::MoveToPreviousWord) || key->matches(QKeySequence::SelectNextWord) ||
            key->matches(QKeySequence::SelectPreviousWord) || key->matches(QKeySequence::DeleteStartOfWord) ||
            key->matches(QKeySequence::DeleteEndOfWord) ||
            (key->matches(QKeySequence::Undo) && lineEdit()->isUndoAvailable()) ||
            (key->matches(QKeySequence::Redo) && lineEdit()->isRedoAvailable());
        const bool chord = (key->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier)) != 0;
        const bool undoKey = key->matches(QKeySequence::Undo) || key->matches(QKeySequence::Redo) ||
                             key->keyCombination() == QKeyCombination(Qt::ControlModifier, Qt::Key_Y);
        if ((chord || undoKey) && !editing) {
            event->ignore();
            return false;
        }
    }
    return QSpinBox::event(event);
}

QValidator::State SnapSpinBox::validate(QString& text, int& position) const {
    const QValidator::State state = QSpinBox::validate(text, position);
    if (state == QValidator::Acceptable) {
        return state;
    }
    if (const auto parsed = core::parseSizeCount(text.toStdString())) {
        return *parsed <= std::uint64_t(maximum()) ? QValidator::Acceptable : QValidator::Intermediate;
    }
    // On the way to "1.5M" or "8,192": digits, separators, a point and one suffix at the end.
    static const QRegularExpression partial(QStringLiteral(R"(^\s*[0-9][0-9,]*\.?[0-9]*[kKmM]?\s*$)"));
    return partial.match(text).hasMatch() ? QValidator::Intermediate : state;
}

int SnapSpinBox::valueFromText(const QString& text) const {
    if (const auto parsed = core::parseSizeCount(text.toStdString())) {
        return toInt(qint64(std::min<std::uint64_t>(*parsed, std::uint64_t(INT_MAX))));
    }
    return QSpinBox::valueFromText(text);
}

void SnapSpinBox::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        emit pressStarted();
    }
    QSpinBox::mousePressEvent(event);
}

void SnapSpinBox::mouseReleaseEvent(QMouseEvent* event) {
    QSpinBox::mouseReleaseEvent(event);
    if (event->button() == Qt::LeftButton) {
        emit pressFinished();
    }
}

FieldSlider::FieldSlider(QWidget* parent)
    : QSlider(Qt::Horizontal, parent) {
    // The spin box beside it is the keyboard control; keeping sliders out of the tab chain halves
    // the number of Tab presses through the panel.
    setFocusPolicy(Qt::NoFocus);
}

void FieldSlider::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        emit pressStarted();
    }
    QSlider::mousePressEvent(event);
}

void FieldSlider::mouseReleaseEvent(QMouseEvent* event) {
    QSlider::mouseReleaseEvent(event);
    if (event->button() == Qt::LeftButton) {
        emit pressFinished();
    }
}

IntField::IntField(qint64 minimum, qint64 sliderMaximum, qint64 spinMaximum, SliderScale scale, core::Snap snap,
                   QWidget* parent)
    : QObject(parent)
    , m_slider(new FieldSlider(parent))
    , m_spin(new SnapSpinBox(parent))
    , m_mapping(minimum, sliderMaximum, scale)
    , m_minimum(minimum)
    , m_sliderMaximum(sliderMaximum)
    , m_spinMaximum(std::max(spinMaximum, sliderMaximum))
    , m_snap(snap) {
    m_slider->setRange(0, m_mapping.positions());
    m_slider->setPageStep(std::max(1, m_mapping.positions() / 20));
    m_spin->setRange(toInt(m_minimum), toInt(m_spinMaximum));
    m_spin->setKeyboardTracking(false);
    m_spin->setGroupSeparatorShown(true);
    m_spin->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_spin->setAccelerated(true);
    // One width for every spin box of the panel, so the sliders line up.
    const int digits = QFontMetrics(m_spin->font()).horizontalAdvance(QStringLiteral("16,777,216"));
    m_spin->setFixedWidth(digits + 40);

    connect(m_slider, &QSlider::valueChanged, this, &IntField::onSliderMoved);
    connect(m_slider, &FieldSlider::pressStarted, this, &IntField::gestureStarted);
    connect(m_slider, &FieldSlider::pressFinished, this, [this] {
        placeSlider();
        emit gestureFinished();
    });
    connect(m_spin, &QSpinBox::valueChanged, this, &IntField::onSpinChanged);
    connect(m_spin, &SnapSpinBox::pressStarted, this, &IntField::gestureStarted);
    connect(m_spin, &SnapSpinBox::pressFinished, this, &IntField::gestureFinished);
}

void IntField::setValue(qint64 value) {
    m_value = value;
    {
        const QSignalBlocker blocker(m_spin);
        // A value outside the field's range (a file holding hidden_size -4096) is shown as it is,
        // never clamped into a value the config does not hold.
        if (value > m_spin->maximum()) {
            m_spin->setMaximum(toInt(value));
        }
        m_spin->setMinimum(toInt(std::min(m_minimum, value)));
        m_spin->setValue(toInt(value));
    }
    if (!m_slider->isSliderDown()) {
        placeSlider();
    }
}

void IntField::setDynamicMaximum(qint64 maximum) {
    maximum = std::max(maximum, m_minimum);
    if (maximum == m_sliderMaximum && m_spin->maximum() == toInt(std::max(maximum, m_value))) {
        return;
    }
    m_sliderMaximum = maximum;
    m_spinMaximum = maximum;
    m_mapping = SliderMapping(m_minimum, maximum, m_mapping.scale());
    const QSignalBlocker sliderBlocker(m_slider);
    const QSignalBlocker spinBlocker(m_spin);
    m_slider->setRange(0, m_mapping.positions());
    m_slider->setPageStep(std::max(1, m_mapping.positions() / 20));
    m_spin->setMaximum(toInt(std::max(maximum, m_value)));
    m_spin->setValue(toInt(m_value));
    if (!m_slider->isSliderDown()) {
        placeSlider();
    }
}

void IntField::setSnapping(bool enabled, const core::SnapContext& context) {
    m_snapping = enabled;
    m_context = context;
    m_spin->setSnap(m_snap, context, enabled);
}

void IntField::setSpecialValueText(const QString& text) {
    m_spin->setSpecialValueText(text);
}

void IntField::setEnabled(bool enabled) {
    m_slider->setEnabled(enabled);
    m_spin->setEnabled(enabled);
}

void IntField::setVisible(bool visible) {
    m_slider->setVisible(visible);
    m_spin->setVisible(visible);
}

void IntField::onSliderMoved(int position) {
    qint64 value = m_mapping.value(position);
    if (m_snapping) {
        value = core::snapNearest(value, m_snap, m_context, m_minimum, m_sliderMaximum);
    }
    if (value == m_value) {
        return;
    }
    m_value = value;
    {
        const QSignalBlocker blocker(m_spin);
        m_spin->setValue(toInt(value));
    }
    emit valueEdited(value);
}

void IntField::onSpinChanged(int value) {
    if (value == m_value) {
        return;
    }
    m_value = value;
    placeSlider();
    emit valueEdited(value);
}

void IntField::placeSlider() {
    const QSignalBlocker blocker(m_slider);
    m_slider->setValue(m_mapping.position(m_value));
}

} // namespace archplay::ui::widgets
