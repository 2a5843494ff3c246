// SPDX-License-Identifier: GPL-3.0-or-later
// ExportActions' context menus: installed from outside the views, on every view, its children and
// the tab bar, so the views need no code of their own for them.
#include "ui/export/ExportActions.h"
#include "ui/theme/Theme.h"
#include "ui/views/AnalysisView.h"

#include <QAction>
#include <QContextMenuEvent>
#include <QMenu>
#include <QPointer>
#include <QTabBar>
#include <QTabWidget>

namespace archplay::ui::exports {

QMenu* ExportActions::contextMenu(views::AnalysisView& view, QWidget* at, QWidget* parent) {
    auto* menu = new QMenu(parent);
    QList<QAction*> own;
    for (QWidget* widget = at; widget; widget = widget->parentWidget()) {
        if (widget->contextMenuPolicy() == Qt::ActionsContextMenu || widget == &view) {
            for (QAction* action : widget->actions()) {
                if (!own.contains(action)) {
                    own << action;
                }
            }
        }
        if (widget == &view) {
            break;
        }
    }
    menu->addActions(own);
    if (!own.isEmpty()) {
        menu->addSeparator();
    }
    QPointer<views::AnalysisView> target(&view);
    QAction* exportAction = menu->addAction(theme::icon(QStringLiteral("export")), tr("Export %1…").arg(view.title()));
    exportAction->setObjectName(QStringLiteral("context.export"));
    connect(exportAction, &QAction::triggered, this, [this, target] {
        if (target) {
            exportWithDialog(*target);
        }
    });
    QAction* copy = menu->addAction(theme::icon(QStringLiteral("edit-copy")), tr("Copy %1 as Image").arg(view.title()));
    copy->setObjectName(QStringLiteral("context.copyImage"));
    connect(copy, &QAction::triggered, this, [this, target] {
        if (target) {
            copyImage(*target);
        }
    });
    return menu;
}

void ExportActions::installContextMenus() {
    m_tabs->tabBar()->installEventFilter(this);
    for (views::AnalysisView* view : m_views.views) {
        view->installEventFilter(this);
        for (QWidget* child : view->findChildren<QWidget*>()) {
            child->installEventFilter(this);
        }
    }
}

bool ExportActions::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() != QEvent::ContextMenu) {
        return QObject::eventFilter(watched, event);
    }
    auto* contextEvent = static_cast<QContextMenuEvent*>(event);
    views::AnalysisView* view = nullptr;
    QWidget* at = qobject_cast<QWidget*>(watched);
    if (watched == m_tabs->tabBar()) {
        const int index = m_tabs->tabBar()->tabAt(contextEvent->pos());
        view = index >= 0 ? viewOf(m_tabs->widget(index)) : nullptr;
        at = view;
    } else {
        view = viewOf(watched);
    }
    if (!view || !at) {
        return QObject::eventFilter(watched, event);
    }
    QMenu* menu = contextMenu(*view, at, at);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(contextEvent->globalPos());
    return true;
}

} // namespace archplay::ui::exports
