// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/IntField.h"

#include "core/util/Format.h"
#include "ui/Strings.h"

#include <QFontMetrics>
#include <QKeyEvent>
#include <QLineEdit>
#include <QLocale>
#include <QMouseEvent>
#include <QRegularExpression>
#include <QSignalBlocker>

#include <algorithm>
#include <cstdint>

namespace archplay::ui::widgets {

SnapSpinBox::SnapSpinBox(QWidget* parent)
    : QAbstractSpinBox(parent) {
    connect(this, &QAbstractSpinBox::editingFinished, this, &SnapSpinBox::commitText);
    showValue();
}

void SnapSpinBox::setRange(qint64 minimum, qint64 maximum) {
    m_minimum = minimum;
    m_maximum = std::max(minimum, maximum);
    setValue(m_value);
    showValue();
}

void SnapSpinBox::setMaximum(qint64 maximum) {
    setRange(std::min(m_minimum, maximum), maximum);
}

void SnapSpinBox::setValue(qint64 value) {
    value = std::clamp(value, m_minimum, m_maximum);
    if (value == m_value) {
        showValue();
        return;
    }
    m_value = value;
    showValue();
    emit valueChanged(value);
}

void SnapSpinBox::showValue() {
    Shown now{m_value, m_minimum, m_style, specialValueText(), lineEdit()->text(), stepEnabled()};
    if (m_shown == now) {
        return; // the field shows this value already, in this style, with these arrows
    }
    now.text = textFromValue(m_value);
    if (lineEdit()->text() != now.text) {
        lineEdit()->setText(now.text);
        if (!hasFocus()) {
            // A field narrower than its text shows the leading digits, which carry the magnitude, not
            // the tail ("1,099,511,6" rather than "511,627,776" for 2^40).
            lineEdit()->setCursorPosition(0);
        }
    }
    if (!m_shown || m_shown->steps != now.steps) {
        update(); // the arrows
    }
    m_shown = std::move(now);
}

void SnapSpinBox::setNumberStyle(NumberStyle style) {
    m_style = style;
    showValue();
}

QString SnapSpinBox::textFromValue(qint64 value) const {
    if (value == m_minimum && !specialValueText().isEmpty()) {
        return specialValueText();
    }
    if (m_style == NumberStyle::Count && value >= 1000) {
        const std::string shortText = core::shortCount(std::uint64_t(value));
        if (core::parseCount(shortText) == std::uint64_t(value)) {
            return qs(shortText);
        }
    }
    QLocale shown = locale();
    shown.setNumberOptions(shown.numberOptions() & ~QLocale::OmitGroupSeparator);
    return shown.toString(value);
}

std::optional<qint64> SnapSpinBox::valueFromText(const QString& text) const {
    const QString trimmed = text.trimmed();
    if (!specialValueText().isEmpty() && trimmed == specialValueText()) {
        return m_minimum;
    }
    bool ok = false;
    qint64 value = locale().toLongLong(trimmed, &ok);
    if (!ok) {
        // Sizes as people type them: "128k", "1.5M", "8,192" (core::parseSizeCount); counts: "15T",
        // "1.5B" (core::parseCount).
        const std::string typed = trimmed.toStdString();
        const std::optional<std::uint64_t> parsed =
            m_style == NumberStyle::Count ? core::parseCount(typed) : core::parseSizeCount(typed);
        if (!parsed || *parsed > std::uint64_t(INT64_MAX)) {
            return std::nullopt;
        }
        value = qint64(*parsed);
    }
    if (value < m_minimum || value > m_maximum) {
        return std::nullopt;
    }
    return value;
}

QValidator::State SnapSpinBox::validate(QString& input, int&) const {
    const QString trimmed = input.trimmed();
    if (valueFromText(trimmed)) {
        return QValidator::Acceptable;
    }
    // A sign or digits (and group separators) may still become a number in range, and so may a size
    // on its way to "1.5M": digits, a point and one suffix at the end.
    const QString separator = locale().groupSeparator();
    static const QRegularExpression partialSize(QStringLiteral(R"(^[0-9][0-9,]*\.?[0-9]*[kKmM]?$)"));
    static const QRegularExpression partialCount(QStringLiteral(R"(^[0-9][0-9,]*\.?[0-9]*[kKmMbBgGtT]?$)"));
    if ((m_style == NumberStyle::Count ? partialCount : partialSize).match(trimmed).hasMatch()) {
        return QValidator::Intermediate;
    }
    for (const QChar c : trimmed) {
        if (!c.isDigit() && c != QLatin1Char('-') && c != QLatin1Char('+') && !separator.contains(c)) {
            return specialValueText().startsWith(trimmed) ? QValidator::Intermediate : QValidator::Invalid;
        }
    }
    return QValidator::Intermediate;
}

void SnapSpinBox::commitText() {
    if (const std::optional<qint64> typed = valueFromText(lineEdit()->text())) {
        setValue(*typed);
    } else {
        showValue(); // out of range or not a number: the field shows the value it holds
    }
}

QAbstractSpinBox::StepEnabled SnapSpinBox::stepEnabled() const {
    if (isReadOnly()) {
        return StepNone;
    }
    StepEnabled enabled = StepNone;
    if (m_value < m_maximum) {
        enabled |= StepUpEnabled;
    }
    if (m_value > m_minimum) {
        enabled |= StepDownEnabled;
    }
    return enabled;
}

void SnapSpinBox::setSnap(core::Snap snap, const core::SnapContext& context, bool enabled) {
    m_snap = snap;
    m_context = context;
    m_enabled = enabled;
}

void SnapSpinBox::stepBy(int steps) {
    if (!m_enabled || m_snap == core::Snap::None) {
        // Saturating: a step never wraps past the 64-bit range, and setValue() clamps to the field's.
        qint64 stepped = 0;
        if (__builtin_add_overflow(m_value, static_cast<qint64>(steps), &stepped)) {
            stepped = steps > 0 ? m_maximum : m_minimum;
        }
        setValue(stepped);
    } else {
        setValue(core::snapStep(m_value, steps, m_snap, m_context, m_minimum, m_maximum));
    }
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
    return QAbstractSpinBox::event(event);
}

void SnapSpinBox::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        emit pressStarted();
    }
    QAbstractSpinBox::mousePressEvent(event);
}

void SnapSpinBox::mouseReleaseEvent(QMouseEvent* event) {
    QAbstractSpinBox::mouseReleaseEvent(event);
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
                   QWidget* parent, NumberStyle style)
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
    m_spin->setNumberStyle(style);
    m_spin->setRange(m_minimum, m_spinMaximum);
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
    connect(m_spin, &SnapSpinBox::valueChanged, this, &IntField::onSpinChanged);
    connect(m_spin, &SnapSpinBox::pressStarted, this, &IntField::gestureStarted);
    connect(m_spin, &SnapSpinBox::pressFinished, this, &IntField::gestureFinished);
}

void IntField::setValue(qint64 value) {
    m_value = value;
    {
        const QSignalBlocker blocker(m_spin);
        // A value outside the field's range (a file holding hidden_size -4096) is shown as it is,
        // never clamped into a value the config does not hold.
        m_spin->setRange(std::min(m_minimum, value), std::max(m_spin->maximum(), value));
        m_spin->setValue(value);
    }
    if (!m_slider->isSliderDown()) {
        placeSlider();
    }
}

void IntField::setDynamicMaximum(qint64 maximum) {
    maximum = std::max(maximum, m_minimum);
    if (maximum == m_sliderMaximum && m_spin->maximum() == std::max(maximum, m_value)) {
        return;
    }
    m_sliderMaximum = maximum;
    m_spinMaximum = maximum;
    m_mapping = SliderMapping(m_minimum, maximum, m_mapping.scale());
    const QSignalBlocker sliderBlocker(m_slider);
    const QSignalBlocker spinBlocker(m_spin);
    m_slider->setRange(0, m_mapping.positions());
    m_slider->setPageStep(std::max(1, m_mapping.positions() / 20));
    m_spin->setMaximum(std::max(maximum, m_value));
    m_spin->setValue(m_value);
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
    m_spin->setValue(m_spin->value()); // shows the text when at the minimum
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
        m_spin->setValue(value);
    }
    emit valueEdited(value);
}

void IntField::onSpinChanged(qint64 value) {
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
