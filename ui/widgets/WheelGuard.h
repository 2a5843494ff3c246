// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

class QAbstractScrollArea;
class QWidget;

namespace archplay::ui::widgets {

/// Leaves the mouse wheel to a scrolling panel: a guarded field that does not have the keyboard
/// focus hands wheel events to the scroll area instead of changing its value, so scrolling over a
/// column of combo boxes, spin boxes and sliders never edits one of them.
class WheelGuard : public QObject {
    Q_OBJECT

public:
    explicit WheelGuard(QAbstractScrollArea* scrollArea);

    /// Guards `field`: it takes the focus by click or Tab only (Qt::StrongFocus, never by the wheel)
    /// and takes the wheel only while it has the focus.
    void guard(QWidget* field);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QAbstractScrollArea* m_scrollArea;
};

} // namespace archplay::ui::widgets
