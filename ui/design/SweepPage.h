// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/design/Sweep.h"
#include "ui/design/DesignExport.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QListWidget;
class QSpinBox;
class QStackedWidget;

namespace archplay::ui::widgets {
class SnapSpinBox;
}
namespace archplay::ui::session {
class ModelBridge;
}

namespace archplay::ui::design {

/// One field of the config over a range (core::sweep): the chosen figures against its value, one
/// chart per unit, the current value marked; or two fields (core::sweepGrid): a heat map of one
/// figure with its iso-lines, the published models of the same kind placed on it and the current
/// config marked. Recomputed live as the config changes.
class SweepPage : public QWidget {
    Q_OBJECT

public:
    explicit SweepPage(session::ModelBridge* bridge, QWidget* parent = nullptr);

    void setCurrent(const core::AnalysisPtr& analysis);
    void setChooseFile(ChooseFile chooseFile) { m_chooseFile = std::move(chooseFile); }

    /// The request as the controls give it.
    core::SweepAxis axis(int which) const;
    bool twoFields() const;
    void setTwoFields(bool two);
    /// Selects the swept field `key` on axis `which` (0: x, 1: y), with its range.
    bool setField(int which, const QString& key, qint64 from, qint64 to, int steps, bool log);
    void setGridFigure(core::DesignFigure figure);

    const core::SweepResult& result() const { return m_result; }
    const core::SweepGrid& grid() const { return m_grid; }
    QCustomPlot* linePlot() const { return m_linePlot; }
    QCustomPlot* gridPlot() const { return m_gridPlot; }
    QLabel* status() const { return m_status; }
    /// The data of the sweep shown, as core writes it (as `archplay-cli sweep` does): CSV or JSON.
    QByteArray dataBytes(core::ExportFormat format) const;

signals:
    void message(const QString& text);

protected:
    /// A theme change draws the charts again in the new palette.
    void changeEvent(QEvent* event) override;

private:
    struct AxisControls {
        QComboBox* field = nullptr;
        widgets::SnapSpinBox* from = nullptr;
        widgets::SnapSpinBox* to = nullptr;
        QSpinBox* steps = nullptr;
        QCheckBox* log = nullptr;
    };
    AxisControls makeAxis(int which);
    void fillFieldChoices();
    void fieldChosen(int which);
    void recompute();
    void drawLines();
    void drawGrid();
    void exportChart(core::ExportFormat format);
    void exportData(core::ExportFormat format);
    QString caption() const;

    session::ModelBridge* m_bridge;
    core::AnalysisPtr m_current;
    ChooseFile m_chooseFile;
    AxisControls m_axes[2];
    QComboBox* m_mode;
    QListWidget* m_figures;
    QComboBox* m_gridFigure;
    QWidget* m_yRow;
    QLabel* m_status;
    QStackedWidget* m_charts;
    QCustomPlot* m_linePlot;
    QCustomPlot* m_gridPlot;
    core::SweepResult m_result;
    core::SweepGrid m_grid;
    bool m_filling = false;
};

} // namespace archplay::ui::design
