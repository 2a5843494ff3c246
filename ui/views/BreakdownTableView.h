// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/views/AnalysisView.h"

#include <QString>

#include <vector>

class QTreeWidget;
class QTreeWidgetItem;

namespace archplay::ui::views {

/// One row of the breakdown as shown: used by the tree and by render() alike.
struct BreakdownRow {
    int depth = 0;
    QString name;
    std::uint64_t params = 0;
    QString perLayer;   ///< a layer kind's row: "218,112,000 × 32 layers" (core::perLayerText); else empty
    double share = 0.0; ///< of the total, 0..1; negative for rows not counted in the total
    QString shape;
};

/// Rows of a parameter tree, depth first (all of them, expanded or not). Pure: formats what the
/// core counted; `share` divides by the total only to place the bar.
std::vector<BreakdownRow> breakdownRows(const core::ParamReport& params);

/// The exact parameter breakdown: component, parameters (exact, with thousands separators), one
/// layer's parameters times the layers for the rows of a layer kind, share of the total and tensor
/// shapes as the checkpoint stores them, as an expandable tree that keeps its expansion while you edit.
class BreakdownTableView : public AnalysisView {
    Q_OBJECT

public:
    explicit BreakdownTableView(QWidget* parent = nullptr);

    core::ViewKind kind() const override { return core::ViewKind::Breakdown; }
    QString title() const override { return tr("Parameter breakdown"); }
    QString tabTitle() const override { return tr("Breakdown"); }
    void setSharedAnalysis(core::AnalysisPtr analysis) override;
    void render(QPainter& painter, const QRectF& target) const override;

    QTreeWidget* tree() const { return m_tree; }
    /// The rows currently shown (collapsed branches left out), as render() draws them.
    std::vector<BreakdownRow> visibleRows() const;
    /// Tab-separated text of the visible rows, with a header line.
    QString toTsv() const;

private:
    void copySelection() const;
    void fitNameColumn();

    QTreeWidget* m_tree;
    bool m_valid = false;
};

} // namespace archplay::ui::views
