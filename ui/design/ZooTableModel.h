// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/report/ZooQuery.h"

#include <QAbstractTableModel>

#include <vector>

namespace archplay::ui::design {

/// The zoo's rows for a table view: core's columns and texts (zooColumns(), zooText()), sorted and
/// filtered by core (sortZoo(), filterZoo()) over an index, so 10,000 rows sort without copying.
class ZooTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    using QAbstractTableModel::QAbstractTableModel;

    void setRows(std::vector<core::ZooRow> rows);
    void setFilter(const core::ZooFilter& filter);
    const std::vector<core::ZooRow>& rows() const { return m_rows; }
    /// The row shown at `index`'s position.
    const core::ZooRow& rowAt(int row) const { return m_rows[m_order[std::size_t(row)]]; }
    /// The rows shown, in the order shown.
    const std::vector<std::size_t>& order() const { return m_order; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    void sort(int column, Qt::SortOrder order) override;

private:
    void refilter();

    std::vector<core::ZooRow> m_rows;
    core::ZooFilter m_filter;
    std::vector<std::size_t> m_order;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
};

} // namespace archplay::ui::design
