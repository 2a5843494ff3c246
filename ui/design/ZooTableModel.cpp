// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/design/ZooTableModel.h"

#include "ui/Strings.h"

#include <QFont>

#include <numeric>

namespace archplay::ui::design {

void ZooTableModel::setRows(std::vector<core::ZooRow> rows) {
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int ZooTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ZooTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(core::zooColumns().size());
}

QVariant ZooTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const core::ZooRow& row = m_rows[std::size_t(index.row())];
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

ZooShownRows::ZooShownRows(ZooTableModel* rows, QObject* parent)
    : QSortFilterProxyModel(parent)
    , m_rows(rows) {
    setSourceModel(rows);
    // New rows are ranked afresh before the proxy sorts them again at the reset.
    connect(rows, &QAbstractItemModel::modelAboutToBeReset, this, [this] { m_ranks.clear(); });
}

void ZooShownRows::setFilter(const core::ZooFilter& filter) {
    m_filter = filter;
    invalidateFilter();
}

const core::ZooRow& ZooShownRows::rowAt(int row) const {
    return m_rows->rows()[std::size_t(mapToSource(index(row, 0)).row())];
}

std::vector<std::size_t> ZooShownRows::order() const {
    std::vector<std::size_t> shown;
    shown.reserve(std::size_t(rowCount()));
    for (int row = 0; row < rowCount(); ++row) {
        shown.push_back(std::size_t(mapToSource(index(row, 0)).row()));
    }
    return shown;
}

int ZooShownRows::shownPosition(std::size_t index) const {
    return index < m_rows->rows().size() ? mapFromSource(m_rows->index(int(index), 0)).row() : -1;
}

void ZooShownRows::sort(int column, Qt::SortOrder order) {
    m_ranks.clear();
    QSortFilterProxyModel::sort(column, order);
}

bool ZooShownRows::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    return !sourceParent.isValid() && core::zooMatches(m_rows->rows()[std::size_t(sourceRow)], m_filter);
}

bool ZooShownRows::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    // Qt sorts descending by asking lessThan(right, left); the ranks are already core's descending
    // order then, so the comparison turns round with it.
    const std::vector<std::size_t>& rank = ranks();
    const std::size_t l = rank[std::size_t(left.row())];
    const std::size_t r = rank[std::size_t(right.row())];
    return sortOrder() == Qt::DescendingOrder ? r < l : l < r;
}

const std::vector<std::size_t>& ZooShownRows::ranks() const {
    const std::vector<core::ZooRow>& rows = m_rows->rows();
    if (m_ranks.size() != rows.size()) {
        std::vector<std::size_t> order(rows.size());
        std::iota(order.begin(), order.end(), std::size_t(0));
        const int column = std::clamp(sortColumn(), 0, int(core::zooColumns().size()) - 1);
        core::sortZoo(rows, order, core::zooColumns()[std::size_t(column)].column, sortOrder() == Qt::DescendingOrder);
        m_ranks.assign(rows.size(), 0);
        for (std::size_t place = 0; place < order.size(); ++place) {
            m_ranks[order[place]] = place;
        }
    }
    return m_ranks;
}

} // namespace archplay::ui::design
