// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/design/DesignTable.h"

namespace archplay::ui::design {

DesignTableItem::DesignTableItem(const QString& text, std::optional<double> sortKey, const QString& toolTip)
    : QTableWidgetItem(text)
    , m_sortKey(sortKey) {
    setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (sortKey) {
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (!toolTip.isEmpty()) {
        setToolTip(toolTip);
    }
}

bool DesignTableItem::operator<(const QTableWidgetItem& other) const {
    const auto* item = dynamic_cast<const DesignTableItem*>(&other);
    if (item == nullptr || (!m_sortKey && !item->m_sortKey)) {
        return QTableWidgetItem::operator<(other);
    }
    if (!m_sortKey || !item->m_sortKey) {
        return !m_sortKey;
    }
    return *m_sortKey < *item->m_sortKey;
}

} // namespace archplay::ui::design
