// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QGridLayout;
class QToolButton;

namespace archplay::ui::widgets {

/// A titled group of the config panel that folds away with a click (or Space on its header).
class CollapsibleSection : public QWidget {
    Q_OBJECT

public:
    explicit CollapsibleSection(const QString& title, QWidget* parent = nullptr);

    /// The grid rows go into: label | slider | spin box.
    QGridLayout* grid() const { return m_grid; }
    QWidget* body() const { return m_body; }
    QToolButton* header() const { return m_header; }

    bool isExpanded() const;
    void setExpanded(bool expanded);

signals:
    void expandedChanged(bool expanded);

private:
    QToolButton* m_header;
    QWidget* m_body;
    QGridLayout* m_grid;
};

} // namespace archplay::ui::widgets
