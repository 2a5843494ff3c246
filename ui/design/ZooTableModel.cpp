// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/design/ZooTableModel.h"

#include "ui/Strings.h"

#include <QFont>

namespace archplay::ui::design {

void ZooTableModel::setRows(std::vector<core::ZooRow> rows) {
    beginResetModel();
    m_rows = std::move(rows);
    refilter();
    endResetModel();
}

void ZooTableModel::setFilter(const core::ZooFilter& filter) {
    beginResetModel();
    m_filter = filter;
    refilter();
    endResetModel();
}

void ZooTableModel::refilter() {
    m_order = core::filterZoo(m_rows, m_filter);
    if (m_sortColumn >= 0) {
        core::sortZoo(m_rows, m_order, core::zooColumns()[std::size_t(m_sortColumn)].column,
                      m_sortOrder == Qt::DescendingOrder);
    }
}

int ZooTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_order.size());
}

int ZooTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(core::zooColumns().size());
}

QVariant ZooTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const core::ZooRow& row = rowAt(index.row());
    const core::ZooColumnInfo& column = core::zooColumns()[std::size_t(index.column())];
    switch (role) {
    case Qt::DisplayRole:
        return qs(core::zooText(row, column.column));
    case Qt::ToolTipRole:
        if (!row.reason.empty()) {
            return qs(row.reason);
        }
        return qs(core::zooExactText(row, column.column));
    case Qt::TextAlignmentRole:
        return column.numeric ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                              : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::FontRole:
        if (row.status != core::ZooStatus::Exact) {
            QFont font;
            font.setItalic(true); // estimates and rows not counted read apart from exact ones
            return font;
        }
        return {};
    default:
        return {};
    }
}

QVariant ZooTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) {
        return {};
    }
    const core::ZooColumnInfo& column = core::zooColumns()[std::size_t(section)];
    if (role == Qt::DisplayRole) {
        return qs(std::string(column.label));
    }
    if (role == Qt::ToolTipRole) {
        return tr("%1 (filter key %2)").arg(qs(std::string(column.label)), qs(std::string(column.key)));
    }
    return {};
}

void ZooTableModel::sort(int column, Qt::SortOrder order) {
    if (column < 0 || column >= columnCount()) {
        return;
    }
    emit layoutAboutToBeChanged();
    m_sortColumn = column;
    m_sortOrder = order;
    core::sortZoo(m_rows, m_order, core::zooColumns()[std::size_t(column)].column, order == Qt::DescendingOrder);
    emit layoutChanged();
}

} // namespace archplay::ui::design
