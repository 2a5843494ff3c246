// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/report/ZooQuery.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <vector>

namespace archplay::ui::design {

/// The zoo's rows for a table view, in row order: core's columns and texts (zooColumns(), zooText()).
/// ZooShownRows sorts and filters them for the view.
class ZooTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    using QAbstractTableModel::QAbstractTableModel;

    void setRows(std::vector<core::ZooRow> rows);
    const std::vector<core::ZooRow>& rows() const { return m_rows; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<core::ZooRow> m_rows;
};

/// The rows a zoo table shows: core's filter (zooMatches()) and core's order (sortZoo(): numbers
/// numerically, rows without a value last in both directions, ties in row order), through a
/// QSortFilterProxyModel, so a sort or a filter keeps the selection and the current row on the same
/// models.
class ZooShownRows : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit ZooShownRows(ZooTableModel* rows, QObject* parent = nullptr);

    void setFilter(const core::ZooFilter& filter);
    /// The row shown at position `row`.
    const core::ZooRow& rowAt(int row) const;
    /// The indices into ZooTableModel::rows() of the rows shown, in the order shown.
    std::vector<std::size_t> order() const;
    /// The position of rows()[index] in the view; -1 when it is filtered out.
    int shownPosition(std::size_t index) const;

    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    /// Each row's place in core's order of the sort column, made once per sort.
    const std::vector<std::size_t>& ranks() const;

    ZooTableModel* m_rows;
    core::ZooFilter m_filter;
    mutable std::vector<std::size_t> m_ranks; ///< empty until the next sort needs them
};

} // namespace archplay::ui::design
