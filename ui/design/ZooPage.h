// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/report/ZooPlots.h"
#include "ui/design/DesignExport.h"
#include "ui/design/ZooTableModel.h"
#include "ui/session/ZooSettings.h"

#include <QFutureWatcher>
#include <QList>
#include <QStringList>
#include <QWidget>

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <vector>

class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QProgressBar;
class QTableView;
class QTimer;

namespace archplay::ui::session {
class ModelBridge;
}

namespace archplay::ui::design {

class ComparePage;

/// The model zoo (issue 16): every built-in preset and every config the user added (folders searched
/// for config.json, the Hugging Face cache), with core's columns, a filter expression, and plots of
/// the shapes published models chose, the current config marked on each. Rows that cannot be counted
/// exactly are listed with their reason. Selected rows go to Compare or load into the editor.
class ZooPage : public QWidget {
    Q_OBJECT

public:
    ZooPage(session::ModelBridge* bridge, ComparePage* compare, QWidget* parent = nullptr);
    /// Cancels a read in flight and waits for it.
    ~ZooPage() override;

    void setCurrent(const core::AnalysisPtr& analysis);
    void setChooseFile(ChooseFile chooseFile) { m_chooseFile = std::move(chooseFile); }

    /// Adds the configs under a folder (kept for the next start when `remember`).
    void addFolder(const QString& folder, bool remember = true);
    /// Adds the Hugging Face hub cache (core::defaultHfCacheRoot()).
    void addHfCache(bool remember = true);
    /// Drops every added source: the presets stay.
    void clearAdded();
    /// Applies a filter expression; a failure names the clause, and the filter in force stays.
    [[nodiscard]] core::Status setFilterText(const QString& text);
    /// Loads the config of a shown row into the editor (one undo step).
    bool loadRow(int row);
    /// True while folders are read, on another thread, behind a progress bar with Cancel.
    bool reading() const { return m_reading != nullptr; }

    /// Every row, in row order.
    ZooTableModel* model() const { return m_model; }
    /// The rows the table shows, filtered and sorted.
    ZooShownRows* shown() const { return m_shown; }
    QTableView* table() const { return m_table; }
    QCustomPlot* plot() const { return m_plot; }
    /// Shows one of the zoo plots (the plot picker's choice).
    void showPlot(core::ZooPlot plot);

signals:
    void message(const QString& text);

protected:
    /// A theme change draws the charts again in the new palette.
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void addedSources(QString text, const QStringList& notes);
    /// Saves the sources in the settings; a failure becomes the first of `notes`.
    void rememberSources(QStringList& notes);
    /// What a background read found.
    struct SourcesRead {
        std::vector<core::ZooInput> inputs;
        QStringList notes;
    };
    /// Reads `sources` on another thread (one read at a time; the Add buttons wait), showing its
    /// progress with a Cancel button, then hands the result to `done` on this thread. A read that
    /// Remove added overtook is dropped.
    void readInBackground(const session::AddedZooSources& sources, std::function<void(SourcesRead)> done);
    void showReadProgress();
    void drawPlot();
    core::ZooPlot shownPlot() const;
    /// The plot shown, as core places it: the rows shown in the table, the current config marked.
    core::ZooPlotData plotData() const;
    /// The current config as a zoo row, from the window's analysis; nullopt when it is invalid.
    std::optional<core::ZooRow> currentRow() const;
    std::optional<core::ZooPlotPoint> currentPoint() const;
    void exportTable(core::ExportFormat format);
    void compareSelected();
    std::optional<core::ModelConfig> configOf(const core::ZooRow& row) const;

    session::ModelBridge* m_bridge;
    ComparePage* m_compare;
    core::AnalysisPtr m_current;
    ChooseFile m_chooseFile;
    session::AddedZooSources m_sources;
    std::vector<core::ZooInput> m_added;
    core::Scenario m_builtScenario;
    bool m_built = false;
    ZooTableModel* m_model;
    ZooShownRows* m_shown;
    QLineEdit* m_filter;
    QLabel* m_status;
    QTableView* m_table;
    QComboBox* m_plotChoice;
    QCustomPlot* m_plot;
    QLabel* m_plotNote;           ///< how many rows the plot cannot place, and why
    QList<QWidget*> m_addButtons; ///< disabled while a read runs
    QWidget* m_readRow;           ///< the progress of a read, with Cancel
    QLabel* m_readLabel;
    QProgressBar* m_readProgress;
    QTimer* m_readPoll;                               ///< shows the worker's progress every 100 ms
    QFutureWatcher<SourcesRead>* m_reading = nullptr; ///< the read in flight
    std::shared_ptr<std::atomic<bool>> m_readCancel;
    std::shared_ptr<std::array<std::atomic<std::size_t>, 2>> m_readDone; ///< files read, of how many
    int m_readGeneration = 0;                                            ///< Remove added outdates the reads before it
};

} // namespace archplay::ui::design
