// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/design/HeadConfigs.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace archplay::ui::session {
class ModelBridge;
}

namespace archplay::ui::design {

/// The head configurations of the current hidden size (core::listHeadConfigs): every valid
/// (heads, head_dim, KV heads) with its exact parameters and KV cache against the current config,
/// head_dim 64-128 and 8-way tensor-parallel splits highlighted. Apply (or a double-click) sets the
/// chosen split as one undo step.
class HeadsPage : public QWidget {
    Q_OBJECT

public:
    explicit HeadsPage(session::ModelBridge* bridge, QWidget* parent = nullptr);

    /// Lists the combinations of this analysis's config (once per change of the config's heads,
    /// width or anything else that changes a count).
    void setCurrent(const core::AnalysisPtr& analysis);
    const core::HeadConfigList& list() const { return m_list; }
    /// The rows shown after the filters, in list order.
    std::vector<core::HeadShape> shownShapes() const;
    /// Applies the combination of a shown row.
    void applyRow(int row);
    QTableWidget* table() const { return m_table; }

signals:
    void message(const QString& text);

private:
    void fill();

    session::ModelBridge* m_bridge;
    core::AnalysisPtr m_analysis;
    core::HeadConfigList m_list;
    QLabel* m_summary;
    QCheckBox* m_exactOnly;
    QCheckBox* m_usualOnly;
    QCheckBox* m_tpOnly;
    QTableWidget* m_table;
    QPushButton* m_apply;
};

} // namespace archplay::ui::design
