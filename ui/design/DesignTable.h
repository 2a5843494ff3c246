// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Table cells of the design pages: the text core wrote, sorted by the number behind it.

#include <QString>
#include <QTableWidgetItem>

#include <optional>

namespace archplay::ui::design {

/// A read-only cell showing `text` that sorts by `sortKey` (a cell without one sorts first).
class DesignTableItem : public QTableWidgetItem {
public:
    explicit DesignTableItem(const QString& text, std::optional<double> sortKey = std::nullopt,
                             const QString& toolTip = {});
    bool operator<(const QTableWidgetItem& other) const override;

private:
    std::optional<double> m_sortKey;
};

} // namespace archplay::ui::design
