// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/design/TargetSearch.h"
#include "ui/design/DesignExport.h"

#include <QWidget>

#include <atomic>
#include <memory>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;
class QTableWidget;

namespace archplay::ui::widgets {
class SnapSpinBox;
}
namespace archplay::ui::session {
class ModelBridge;
}

namespace archplay::ui::design {

/// Search for a target (core::searchTargets): decoders whose exact count meets a parameter target,
/// within the KV, device-fit and FLOPs budgets asked for, in the current scenario, ranked by the
/// rules published models follow. Each result says why it ranks where it does; a scatter of two
/// figures marks the Pareto front and the designers' seed heuristic beside the results. Selecting a
/// result shows it in every view: it becomes the editor's config, one undo step. Results follow the
/// targets and the scenario live.
class SearchPage : public QWidget {
    Q_OBJECT

public:
    explicit SearchPage(session::ModelBridge* bridge, QWidget* parent = nullptr);
    ~SearchPage() override;

    void setCurrent(const core::AnalysisPtr& analysis);
    void setChooseFile(ChooseFile chooseFile) { m_chooseFile = std::move(chooseFile); }

    /// The targets and space as the controls give them (scenario: the current one).
    core::SearchTargets targets() const;
    core::TargetSpace space() const;
    void setTargetParams(qint64 params);
    void setKind(int kind); ///< 0 dense, 1 MoE, 2 MoE with latent attention
    /// Starts the search on a worker thread, stopping the one still running; searched() follows.
    /// A mixture-of-experts space takes a few hundred milliseconds, so the window never waits.
    void search();
    /// A search is running.
    bool searching() const;
    /// Makes candidate `index` of the results the editor's config (one undo step), as selecting its
    /// row does.
    void loadCandidate(int index);

    const core::TargetSearchResult& result() const { return m_result; }
    QTableWidget* table() const { return m_table; }
    QCustomPlot* scatter() const { return m_scatter; }

signals:
    void message(const QString& text);
    /// The results of the last search are shown.
    void searched();

protected:
    /// A theme change draws the charts again in the new palette.
    void changeEvent(QEvent* event) override;

private:
    void showResult(const core::SearchTargets& targets);
    void fillTable();
    void drawScatter();
    void exportResults(core::ExportFormat format);

    session::ModelBridge* m_bridge;
    core::AnalysisPtr m_current;
    ChooseFile m_chooseFile;
    widgets::SnapSpinBox* m_params;
    QCheckBox* m_activeOn;
    widgets::SnapSpinBox* m_active;
    QDoubleSpinBox* m_tolerance;
    QComboBox* m_kind;
    QCheckBox* m_headDims[3];
    QCheckBox* m_kvOn;
    widgets::SnapSpinBox* m_kvBudget;
    QCheckBox* m_kvScenarioOn;
    widgets::SnapSpinBox* m_kvScenarioBudget;
    QCheckBox* m_fitServing;
    QCheckBox* m_fitTraining;
    QCheckBox* m_flopsOn;
    widgets::SnapSpinBox* m_flopsBudget;
    QSpinBox* m_limit;
    QComboBox* m_xAxis;
    QComboBox* m_yAxis;
    QLabel* m_status;
    QLabel* m_seed;
    QTableWidget* m_table;
    QCustomPlot* m_scatter;
    QLabel* m_hint;
    core::TargetSearchResult m_result;
    core::SeedDesign m_seedDesign;
    std::shared_ptr<std::atomic<bool>> m_cancel; ///< stops the search running, when one is
    bool m_ready = false;
};

} // namespace archplay::ui::design
