// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/report/Costs.h"
#include "core/report/Summary.h"
#include "ui/views/PaintedView.h"

#include <QStringList>

#include <vector>

namespace archplay::ui::views {

/// "Will it run?" at a glance, the overview's tile of the Memory view: one GPU's serving memory
/// (weights in their format, the cache as the scenario's allocator holds it, the prefill workspace)
/// against the device, then core's answers (willItRunRows()): how many sequences and how long, the
/// fewest devices, and decode and first-token upper bounds.
class WillItRunTile : public PaintedView {
    Q_OBJECT

public:
    explicit WillItRunTile(QWidget* parent = nullptr);

    core::ViewKind kind() const override { return core::ViewKind::Memory; }
    QString title() const override { return tr("Will it run?"); }

    /// The rows drawn, for tests.
    const std::vector<core::SummaryRow>& rows() const;
    /// The verdict and the memory line, for tests.
    QStringList texts() const;
    /// How many rows have room in `target`, for tests.
    std::size_t rowsShown(const QRectF& target) const { return placement(target).rows.size(); }

protected:
    void rebuild() override;
    void paintContent(QPainter& painter, const QRectF& target) const override;
    void selectedLayerChanged() override {}
    QString contentKey() const override;

private:
    struct Placement {
        qreal line = 0;
        QStringList verdict;
        qreal verdictTop = 0;
        QRectF bar;                   ///< one GPU's memory
        std::vector<QRectF> segments; ///< per part of the stack, its share of the bar
        QStringList memory;
        qreal memoryTop = 0;
        std::vector<QRectF> rows; ///< per row that has room: label left, value right
    };
    const Placement& placement(const QRectF& target) const;

    core::MemoryStack m_stack;
    std::vector<core::SummaryRow> m_rows;
    QString m_verdict;
    QString m_memory;
    mutable Placement m_placement;
    mutable QRectF m_placementTarget;
    mutable quint64 m_placementGeneration = 0;
};

} // namespace archplay::ui::views
