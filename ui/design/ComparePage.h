// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/design/Compare.h"
#include "ui/design/DesignExport.h"

#include <QString>
#include <QWidget>

#include <vector>

class QComboBox;
class QCustomPlot;
class QLabel;
class QPushButton;
class QTableWidget;
class QTabWidget;

namespace archplay::ui::session {
class ModelBridge;
}

namespace archplay::ui::design {

class StacksStrip;

/// Up to four configs side by side in the scenario (core::compareAnalyses): every figure with its
/// difference and ratio to the baseline (the first column), the parameters by component, the layer
/// stacks and the config.json fields that differ, with the parameters by component and the KV cache
/// against sequence length overlaid. The current config is a live column; the others are fixed
/// copies: the config pinned as baseline, presets, files.
class ComparePage : public QWidget {
    Q_OBJECT

public:
    /// A compared config: fixed, or following the editor.
    struct Entry {
        QString name;
        core::ModelConfig config; ///< unused when live
        bool live = false;
        /// The fixed config's analysis in the last scenario: kept while only the editor's config moves.
        core::AnalysisPtr analysis;
    };

    explicit ComparePage(session::ModelBridge* bridge, QWidget* parent = nullptr);

    void setCurrent(const core::AnalysisPtr& analysis);
    void setChooseFile(ChooseFile chooseFile) { m_chooseFile = std::move(chooseFile); }

    /// Makes a copy of the current config the baseline (the first column).
    void pinCurrentAsBaseline();
    /// Adds a fixed config; false (with a message) when four are compared already.
    bool addEntry(const Entry& entry);
    /// Removes the config of column `index` (not the live one).
    void removeEntry(int index);
    /// Makes column `index` the baseline.
    void makeBaseline(int index);

    const std::vector<Entry>& entries() const { return m_entries; }
    const core::Comparison& comparison() const { return m_comparison; }
    QTableWidget* figuresTable() const { return m_figures; }
    QCustomPlot* componentsPlot() const { return m_componentsPlot; }
    QCustomPlot* kvPlot() const { return m_kvPlot; }
    /// The exports of the page: the table as CSV, Markdown, JSON or LaTeX, a chart as PNG, SVG or PDF.
    QByteArray tableBytes(core::ExportFormat format) const;
    QString chartCaption() const;

signals:
    void message(const QString& text);

protected:
    /// A theme change draws the charts again in the new palette.
    void changeEvent(QEvent* event) override;

private:
    void recompute();
    void fillTables();
    void fillCharts();
    void addFile();
    void exportTable(core::ExportFormat format);
    void exportChart(QCustomPlot* plot, const QString& what, core::ExportFormat format);

    session::ModelBridge* m_bridge;
    core::AnalysisPtr m_current;
    std::vector<Entry> m_entries;
    core::Comparison m_comparison;
    std::vector<core::AnalysisPtr> m_analyses;
    ChooseFile m_chooseFile;
    QLabel* m_notes;
    QComboBox* m_presets;
    QTabWidget* m_tabs;
    QTableWidget* m_figures;
    QTableWidget* m_fields;
    QTableWidget* m_stacks;
    StacksStrip* m_stacksStrip;
    QCustomPlot* m_componentsPlot;
    QCustomPlot* m_kvPlot;
};

} // namespace archplay::ui::design
