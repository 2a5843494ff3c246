// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

class QAction;

namespace archplay::ui::window {

/// Lists every action that has a keyboard shortcut, grouped by menu, plus the panel's keys.
class ShortcutsDialog : public QDialog {
    Q_OBJECT

public:
    /// `menus` pairs each menu title with its actions, in menu order.
    ShortcutsDialog(const QList<QPair<QString, QList<QAction*>>>& menus, QWidget* parent = nullptr);
};

} // namespace archplay::ui::window
