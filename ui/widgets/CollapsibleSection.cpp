// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/CollapsibleSection.h"

#include <QGridLayout>
#include <QToolButton>
#include <QVBoxLayout>

namespace archplay::ui::widgets {

CollapsibleSection::CollapsibleSection(const QString& title, QWidget* parent)
    : QWidget(parent)
    , m_header(new QToolButton(this))
    , m_body(new QWidget(this))
    , m_grid(new QGridLayout(m_body)) {
    m_header->setText(title);
    m_header->setCheckable(true);
    m_header->setChecked(true);
    m_header->setAutoRaise(true);
    m_header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_header->setArrowType(Qt::DownArrow);
    m_header->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    QFont font = m_header->font();
    font.setBold(true);
    m_header->setFont(font);
    m_header->setAccessibleName(tr("%1 section").arg(title));

    m_grid->setContentsMargins(8, 2, 2, 8);
    m_grid->setHorizontalSpacing(8);
    m_grid->setVerticalSpacing(4);
    m_grid->setColumnStretch(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_header);
    layout->addWidget(m_body);

    connect(m_header, &QToolButton::toggled, this, [this](bool expanded) {
        m_header->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
        m_body->setVisible(expanded);
        emit expandedChanged(expanded);
    });
}

bool CollapsibleSection::isExpanded() const {
    return m_header->isChecked();
}

void CollapsibleSection::setExpanded(bool expanded) {
    m_header->setChecked(expanded);
}

} // namespace archplay::ui::widgets
