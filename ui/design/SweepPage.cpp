// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/design/SweepPage.h"

#include "core/design/SweepText.h"
#include "ui/Strings.h"
#include "ui/design/SweepCharts.h"
#include "ui/session/ModelBridge.h"
#include "ui/views/charts/PlotSupport.h"
#include "ui/widgets/IntField.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace archplay::ui::design {
namespace {

const core::SweepField* fieldOf(const QComboBox* combo) {
    return core::findSweepField(combo->currentData().toString().toStdString());
}

} // namespace

SweepPage::SweepPage(session::ModelBridge* bridge, QWidget* parent)
    : QWidget(parent)
    , m_bridge(bridge)
    , m_mode(new QComboBox(this))
    , m_figures(new QListWidget(this))
    , m_gridFigure(new QComboBox(this))
    , m_yRow(new QWidget(this))
    , m_status(new QLabel(this))
    , m_charts(new QStackedWidget(this))
    , m_linePlot(views::plot::createPlot(this))
    , m_gridPlot(views::plot::createPlot(this)) {
    m_mode->addItem(tr("One field"));
    m_mode->addItem(tr("Two fields (heat map)"));
    m_mode->setToolTip(tr("Sweep one field and chart every chosen figure, or two fields and map one figure"));
    m_axes[0] = makeAxis(0);
    m_axes[1] = makeAxis(1);
    m_status->setWordWrap(true);
    m_figures->setObjectName(QStringLiteral("design.sweep.figures"));
    m_figures->setToolTip(tr("The figures to chart, one chart per unit"));
    for (const core::DesignFigureInfo& info : core::designFigures()) {
        auto* item = new QListWidgetItem(qs(std::string(info.label)), m_figures);
        item->setData(Qt::UserRole, int(info.figure));
        const bool shown =
            info.figure == core::DesignFigure::TotalParams || info.figure == core::DesignFigure::ActiveParams ||
            info.figure == core::DesignFigure::KvBytesScenario || info.figure == core::DesignFigure::WeightBytes;
        item->setCheckState(shown ? Qt::Checked : Qt::Unchecked);
        m_gridFigure->addItem(qs(std::string(info.label)), int(info.figure));
    }
    m_figures->setMaximumWidth(260);
    m_gridFigure->setToolTip(tr("The figure the heat map shows"));

    QToolButton* exportButton = design::exportButton(this);
    QMenu* exportMenu = exportButton->menu();
    exportMenu->addAction(tr("Data as CSV…"), this, [this] { exportData(core::ExportFormat::Csv); });
    exportMenu->addAction(tr("Data as JSON…"), this, [this] { exportData(core::ExportFormat::Json); });
    exportMenu->addSeparator();
    exportMenu->addAction(tr("Chart as PNG…"), this, [this] { exportChart(core::ExportFormat::Png); });
    exportMenu->addAction(tr("Chart as SVG…"), this, [this] { exportChart(core::ExportFormat::Svg); });
    exportMenu->addAction(tr("Chart as PDF…"), this, [this] { exportChart(core::ExportFormat::Pdf); });

    auto axisRow = [](const AxisControls& axis, const QString& name, QWidget* host) {
        auto* row = new QHBoxLayout(host);
        row->setContentsMargins(0, 0, 0, 0);
        row->addWidget(new QLabel(name, host));
        row->addWidget(axis.field, 1);
        row->addWidget(new QLabel(tr("from"), host));
        row->addWidget(axis.from);
        row->addWidget(new QLabel(tr("to"), host));
        row->addWidget(axis.to);
        row->addWidget(new QLabel(tr("points"), host));
        row->addWidget(axis.steps);
        row->addWidget(axis.log);
        return row;
    };
    auto* xRow = new QWidget(this);
    QHBoxLayout* xLayout = axisRow(m_axes[0], tr("Field"), xRow);
    xLayout->addWidget(m_mode);
    xLayout->addWidget(exportButton);
    QHBoxLayout* yLayout = axisRow(m_axes[1], tr("and"), m_yRow);
    yLayout->addWidget(new QLabel(tr("map"), m_yRow));
    yLayout->addWidget(m_gridFigure);
    m_yRow->hide();

    m_charts->addWidget(m_linePlot);
    m_charts->addWidget(m_gridPlot);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_charts);
    split->addWidget(m_figures);
    split->setStretchFactor(0, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(xRow);
    layout->addWidget(m_yRow);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);

    connect(m_mode, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_yRow->setVisible(index == 1);
        m_figures->setVisible(index == 0);
        m_charts->setCurrentIndex(index);
        recompute();
    });
    connect(m_figures, &QListWidget::itemChanged, this, [this] { drawLines(); });
    connect(m_gridFigure, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
}

SweepPage::AxisControls SweepPage::makeAxis(int which) {
    AxisControls axis;
    axis.field = new QComboBox(this);
    axis.field->setObjectName(QStringLiteral("design.sweep.field%1").arg(which + 1));
    axis.field->setToolTip(tr("The field to sweep: a config.json key, or the scenario's sequence length or batch"));
    axis.from = new widgets::SnapSpinBox(this);
    axis.to = new widgets::SnapSpinBox(this);
    axis.from->setToolTip(tr("The first value (type 8,192, 128k or 1.5M)"));
    axis.to->setToolTip(tr("The last value"));
    for (widgets::SnapSpinBox* box : {axis.from, axis.to}) {
        box->setMinimumWidth(box->fontMetrics().horizontalAdvance(QStringLiteral("99,999,999,999")) + 40);
    }
    axis.steps = new QSpinBox(this);
    axis.steps->setRange(2, int(which == 0 ? core::kMaxSweepSteps : core::kMaxGridSteps));
    axis.steps->setValue(which == 0 ? 64 : 32);
    axis.steps->setToolTip(tr("Values between the ends, both included; repeats after rounding are dropped"));
    axis.log = new QCheckBox(tr("log"), this);
    axis.log->setToolTip(tr("Space the values geometrically, on a logarithmic axis"));
    connect(axis.field, &QComboBox::activated, this, [this, which] { fieldChosen(which); });
    for (widgets::SnapSpinBox* box : {axis.from, axis.to}) {
        connect(box, &widgets::SnapSpinBox::valueChanged, this, [this] { recompute(); });
    }
    connect(axis.steps, &QSpinBox::valueChanged, this, [this] { recompute(); });
    connect(axis.log, &QCheckBox::toggled, this, [this] { recompute(); });
    return axis;
}

void SweepPage::setCurrent(const core::AnalysisPtr& analysis) {
    if (analysis == m_current) {
        return;
    }
    m_current = analysis;
    fillFieldChoices();
    recompute();
}

void SweepPage::fillFieldChoices() {
    if (!m_current) {
        return;
    }
    const std::vector<const core::SweepField*> fields = core::sweepFieldsFor(m_current->config);
    m_filling = true;
    for (int which = 0; which < 2; ++which) {
        QComboBox* combo = m_axes[which].field;
        const QString chosen = combo->currentData().toString();
        QStringList keys;
        for (const core::SweepField* field : fields) {
            keys << qs(std::string(field->key));
        }
        QStringList present;
        for (int i = 0; i < combo->count(); ++i) {
            present << combo->itemData(i).toString();
        }
        if (keys != present) {
            combo->clear();
            for (const core::SweepField* field : fields) {
                combo->addItem(tr("%1 (%2)").arg(qs(std::string(field->label)), qs(std::string(field->key))),
                               qs(std::string(field->key)));
            }
        }
        const QString fallback = which == 0 ? QStringLiteral("num_hidden_layers") : QStringLiteral("hidden_size");
        int index = combo->findData(chosen.isEmpty() ? fallback : chosen);
        const bool fresh = index < 0 || chosen.isEmpty();
        if (index < 0) {
            index = std::max(0, combo->findData(fallback));
        }
        combo->setCurrentIndex(index);
        if (fresh) {
            m_filling = false;
            fieldChosen(which);
            m_filling = true;
        } else if (const core::SweepField* field = fieldOf(combo)) {
            // The config's limits may have moved (top-k within the experts).
            m_axes[which].from->setRange(field->minimum, field->maximumOf(m_current->config));
            m_axes[which].to->setRange(field->minimum, field->maximumOf(m_current->config));
        }
    }
    m_filling = false;
}

void SweepPage::fieldChosen(int which) {
    const core::SweepField* field = fieldOf(m_axes[which].field);
    if (!field || !m_current) {
        return;
    }
    const std::int64_t maximum = field->maximumOf(m_current->config);
    const std::int64_t value = field->get(m_current->config, m_current->scenario);
    const bool wasFilling = std::exchange(m_filling, true);
    AxisControls& axis = m_axes[which];
    axis.from->setRange(field->minimum, maximum);
    axis.to->setRange(field->minimum, maximum);
    axis.from->setValue(std::max<std::int64_t>(field->minimum, value / 4));
    axis.to->setValue(std::min<std::int64_t>(maximum, std::max<std::int64_t>(value * 4, field->minimum + 1)));
    axis.log->setChecked(field->logScale);
    m_filling = wasFilling;
    recompute();
}

bool SweepPage::twoFields() const {
    return m_mode->currentIndex() == 1;
}

void SweepPage::setTwoFields(bool two) {
    m_mode->setCurrentIndex(two ? 1 : 0);
}

bool SweepPage::setField(int which, const QString& key, qint64 from, qint64 to, int steps, bool log) {
    AxisControls& axis = m_axes[which];
    const int index = axis.field->findData(key);
    if (index < 0) {
        return false;
    }
    m_filling = true;
    axis.field->setCurrentIndex(index);
    fieldChosen(which);
    m_filling = true;
    axis.from->setValue(from);
    axis.to->setValue(to);
    axis.steps->setValue(steps);
    axis.log->setChecked(log);
    m_filling = false;
    recompute();
    return true;
}

void SweepPage::setGridFigure(core::DesignFigure figure) {
    m_gridFigure->setCurrentIndex(m_gridFigure->findData(int(figure)));
}

core::SweepAxis SweepPage::axis(int which) const {
    const AxisControls& controls = m_axes[which];
    core::SweepAxis axis;
    axis.field = controls.field->currentData().toString().toStdString();
    axis.from = controls.from->value();
    axis.to = controls.to->value();
    axis.steps = std::size_t(controls.steps->value());
    axis.spacing = controls.log->isChecked() ? core::SweepSpacing::Log : core::SweepSpacing::Linear;
    return axis;
}

void SweepPage::recompute() {
    if (m_filling || !m_current || !isVisible()) {
        return;
    }
    QStringList problems;
    if (!m_current->valid) {
        problems << tr("The configuration has errors: fix them to sweep it.");
    }
    if (twoFields()) {
        core::SweepGridRequest request;
        request.x = axis(0);
        request.y = axis(1);
        request.figure = static_cast<core::DesignFigure>(m_gridFigure->currentData().toInt());
        m_grid = core::sweepGrid(m_current->config, m_current->scenario, request);
        for (const core::Diagnostic& d : m_grid.diagnostics) {
            problems << qs(d.message);
        }
        if (m_grid.estimate) {
            problems << tr("Every value is an estimate: %1.").arg(qs(core::estimateLabel(m_current->config)));
        }
        drawGrid();
    } else {
        m_result = core::sweep(m_current->config, m_current->scenario, axis(0));
        for (const core::Diagnostic& d : m_result.diagnostics) {
            problems << qs(d.message);
        }
        std::size_t invalid = 0;
        std::optional<core::Diagnostic> firstError;
        for (const core::SweepPoint& point : m_result.points) {
            if (!point.valid) {
                ++invalid;
                if (!firstError && point.error) {
                    firstError = point.error;
                }
            }
        }
        if (invalid > 0) {
            problems << tr("%1 of %2 values give an invalid config and are left out (first: %3: %4).")
                            .arg(invalid)
                            .arg(m_result.points.size())
                            .arg(firstError ? qs(firstError->field) : QString(),
                                 firstError ? qs(firstError->message) : QString());
        }
        if (m_result.estimate) {
            problems << tr("Every value is an estimate: %1.").arg(qs(core::estimateLabel(m_current->config)));
        }
        drawLines();
    }
    m_status->setText(problems.join(QLatin1Char('\n')));
    m_status->setVisible(!problems.isEmpty());
}

void SweepPage::drawLines() {
    std::vector<core::DesignFigure> figures;
    for (int i = 0; i < m_figures->count(); ++i) {
        if (m_figures->item(i)->checkState() == Qt::Checked) {
            figures.push_back(static_cast<core::DesignFigure>(m_figures->item(i)->data(Qt::UserRole).toInt()));
        }
    }
    static const core::SweepResult kNothing;
    drawSweepLines(*m_linePlot, m_current ? m_result : kNothing, figures, axis(0).spacing == core::SweepSpacing::Log,
                   palette(), font());
}

void SweepPage::drawGrid() {
    static const core::SweepGrid kNothing;
    drawSweepGrid(*m_gridPlot, m_current ? m_grid : kNothing, axis(0).spacing == core::SweepSpacing::Log,
                  axis(1).spacing == core::SweepSpacing::Log, palette(), font());
}

QString SweepPage::caption() const {
    if (!m_current) {
        return {};
    }
    const session::OriginSummary origin = m_bridge->originSummary();
    QString model = origin.label.isEmpty() ? tr("Untitled") : origin.label;
    if (origin.modified) {
        model += tr(" (modified)");
    }
    return tr("%1 · %2").arg(model, qs(core::scenarioLine(*m_current)));
}

void SweepPage::exportChart(core::ExportFormat format) {
    QCustomPlot* plot = twoFields() ? m_gridPlot : m_linePlot;
    emit message(saveChart(this, m_chooseFile, tr("the sweep chart"), QStringLiteral("sweep"),
                           ChartFigure{plot, caption()}, format));
}

QByteArray SweepPage::dataBytes(core::ExportFormat format) const {
    if (twoFields()) {
        core::SweepGridRequest request{axis(0), axis(1), m_grid.figure, {}};
        return QByteArray::fromStdString(format == core::ExportFormat::Csv
                                             ? core::sweepGridCsv(m_grid)
                                             : core::sweepGridJson(m_grid, request).dump(2) + "\n");
    }
    if (format == core::ExportFormat::Csv) {
        return QByteArray::fromStdString(core::sweepCsv(m_result));
    }
    std::vector<core::PlacedPreset> presets;
    if (m_current && m_result.field) {
        std::vector<std::int64_t> values;
        for (const core::SweepPoint& point : m_result.points) {
            values.push_back(point.value);
        }
        presets = core::placedPresets(m_current->config, m_current->scenario, *m_result.field, nullptr, values, {});
    }
    return QByteArray::fromStdString(core::sweepJson(m_result, axis(0), presets).dump(2) + "\n");
}

void SweepPage::exportData(core::ExportFormat format) {
    const QString name = QStringLiteral("sweep.") + QString::fromUtf8(core::toString(format));
    emit message(saveWithDialog(this, m_chooseFile, tr("the sweep data"), name, format,
                                [this, format](QString*) { return dataBytes(format); }));
}

void SweepPage::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        if (twoFields()) {
            drawGrid();
        } else {
            drawLines();
        }
    }
}

} // namespace archplay::ui::design
