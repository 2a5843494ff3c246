// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/ShortcutsDialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace archplay::ui::window {

ShortcutsDialog::ShortcutsDialog(const QList<QPair<QString, QList<QAction*>>>& menus, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Keyboard Shortcuts"));
    auto* tree = new QTreeWidget(this);
    tree->setColumnCount(2);
    tree->setHeaderLabels({tr("Action"), tr("Shortcut")});
    tree->setRootIsDecorated(false);
    tree->setAlternatingRowColors(true);
    tree->setUniformRowHeights(true);
    auto addGroup = [tree](const QString& title) {
        auto* group = new QTreeWidgetItem(tree, {title});
        QFont bold = group->font(0);
        bold.setBold(true);
        group->setFont(0, bold);
        group->setFirstColumnSpanned(true);
        return group;
    };
    for (const auto& [title, actions] : menus) {
        QTreeWidgetItem* group = nullptr;
        for (QAction* action : actions) {
            const QList<QKeySequence> keys = action->shortcuts();
            if (keys.isEmpty() || action->text().isEmpty()) {
                continue;
            }
            if (!group) {
                group = addGroup(QString(title).remove(QLatin1Char('&')));
            }
            QStringList texts;
            // The first two bindings are the ones people use; platforms add rarely-known extras.
            for (const QKeySequence& key : keys.mid(0, 2)) {
                texts << key.toString(QKeySequence::NativeText);
            }
            new QTreeWidgetItem(tree, {QStringLiteral("    ") + action->text().remove(QLatin1Char('&')),
                                       texts.join(QStringLiteral(", "))});
        }
    }
    addGroup(tr("Config panel"));
    const QList<QPair<QString, QString>> panelKeys = {
        {tr("Next / previous field"), tr("Tab, Shift+Tab")},
        {tr("Step a value (snapped while snapping is on)"), tr("Up, Down")},
        {tr("Step ten times"), tr("Page Up, Page Down")},
        {tr("Apply a typed value"), tr("Enter, or leave the field")},
        {tr("Fold or unfold a section"), tr("Space on its heading")},
    };
    for (const auto& [what, keys] : panelKeys) {
        new QTreeWidgetItem(tree, {QStringLiteral("    ") + what, keys});
    }
    tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    tree->header()->setStretchLastSection(true);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(tree);
    layout->addWidget(buttons);
    resize(560, 620);
}

} // namespace archplay::ui::window
