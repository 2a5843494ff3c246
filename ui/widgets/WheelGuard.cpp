// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/WheelGuard.h"

#include <QAbstractScrollArea>
#include <QCoreApplication>
#include <QEvent>
#include <QWidget>

namespace archplay::ui::widgets {

WheelGuard::WheelGuard(QAbstractScrollArea* scrollArea)
    : QObject(scrollArea)
    , m_scrollArea(scrollArea) {}

void WheelGuard::guard(QWidget* field) {
    if (field->focusPolicy() != Qt::NoFocus) {
        field->setFocusPolicy(Qt::StrongFocus);
    }
    field->installEventFilter(this);
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Wheel) {
        auto* field = qobject_cast<QWidget*>(watched);
        if (field && !field->hasFocus()) {
            // The viewport's events reach the scroll area, which scrolls by the wheel's delta.
            QCoreApplication::sendEvent(m_scrollArea->viewport(), event);
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace archplay::ui::widgets
