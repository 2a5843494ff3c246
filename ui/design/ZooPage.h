// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/report/ZooQuery.h"
#include "ui/design/DesignExport.h"

#include <QAbstractTableModel>
#include <QStringList>
#include <QWidget>

#include <vector>

class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QTableView;

namespace archplay::ui::session {
class ModelBridge;
}

namespace archplay::ui::design {

class ComparePage;

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

/// The model zoo (issue 16): every built-in preset and every config the user added (folders searched
/// for config.json, the Hugging Face cache), with core's columns, a filter expression, and plots of
/// the shapes published models chose, the current config marked on each. Rows that cannot be counted
/// exactly are listed with their reason. Selected rows go to Compare or load into the editor.
class ZooPage : public QWidget {
    Q_OBJECT

public:
    ZooPage(session::ModelBridge* bridge, ComparePage* compare, QWidget* parent = nullptr);

    void setCurrent(const core::AnalysisPtr& analysis);
    void setChooseFile(ChooseFile chooseFile) { m_chooseFile = std::move(chooseFile); }

    /// Adds the configs under a folder (kept for the next start when `remember`).
    void addFolder(const QString& folder, bool remember = true);
    /// Adds the Hugging Face hub cache (core::defaultHfCacheRoot()).
    void addHfCache(bool remember = true);
    /// Drops every added source: the presets stay.
    void clearAdded();
    /// Applies a filter expression; returns the error naming the clause, or an empty string.
    QString setFilterText(const QString& text);
    /// Loads the config of a shown row into the editor (one undo step).
    bool loadRow(int row);

    ZooTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QCustomPlot* plot() const { return m_plot; }
    /// The plots the page draws, by index of its plot picker.
    enum class Plot { DepthWidth, FfnRatio, HeadDim, GqaGroup, LayerEstimate };
    void showPlot(Plot plot);

signals:
    void message(const QString& text);

private:
    void rebuild();
    void drawPlot();
    void exportTable(core::ExportFormat format);
    void compareSelected();
    std::optional<core::ModelConfig> configOf(const core::ZooRow& row) const;

    session::ModelBridge* m_bridge;
    ComparePage* m_compare;
    core::AnalysisPtr m_current;
    ChooseFile m_chooseFile;
    QStringList m_folders;
    bool m_hfCache = false;
    std::vector<core::ZooInput> m_added;
    core::Scenario m_builtScenario;
    bool m_built = false;
    ZooTableModel* m_model;
    QLineEdit* m_filter;
    QLabel* m_status;
    QTableView* m_table;
    QComboBox* m_plotChoice;
    QCustomPlot* m_plot;
};

} // namespace archplay::ui::design
