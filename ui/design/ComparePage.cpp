// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/design/ComparePage.h"

#include "core/io/ConfigJson.h"
#include "core/io/Presets.h"
#include "core/report/ReportText.h"
#include "core/report/ScenarioLabels.h"
#include "core/scenario/KvCurve.h"
#include "ui/Strings.h"
#include "ui/design/DesignTable.h"
#include "ui/design/StacksStrip.h"
#include "ui/session/ModelBridge.h"
#include "ui/views/ViewColors.h"
#include "ui/views/charts/PlotSupport.h"

#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

namespace archplay::ui::design {
namespace {

constexpr int kMaxEntries = static_cast<int>(core::kMaxCompared);

QTableWidget* makeTable(QWidget* parent, const QString& name) {
    auto* table = new QTableWidget(parent);
    table->setObjectName(name);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectItems);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    table->setWordWrap(false);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    return table;
}

/// The colour of compared config `index`: the series colours of the views.
QColor configColor(const QPalette& palette, int index) {
    return views::colors::series(palette, index);
}

void fillFromRows(QTableWidget* table, const std::vector<std::vector<std::string>>& rows) {
    table->clear();
    if (rows.empty()) {
        table->setRowCount(0);
        table->setColumnCount(0);
        return;
    }
    QStringList header;
    for (const std::string& title : rows.front()) {
        header << qs(title);
    }
    table->setColumnCount(int(header.size()));
    table->setHorizontalHeaderLabels(header);
    table->setRowCount(int(rows.size() - 1));
    for (std::size_t r = 1; r < rows.size(); ++r) {
        for (std::size_t c = 0; c < rows[r].size() && c < std::size_t(header.size()); ++c) {
            auto* item = new DesignTableItem(qs(rows[r][c]));
            if (c > 0) {
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            }
            table->setItem(int(r - 1), int(c), item);
        }
    }
    table->resizeColumnsToContents();
}

} // namespace

ComparePage::ComparePage(session::ModelBridge* bridge, QWidget* parent)
    : QWidget(parent)
    , m_bridge(bridge)
    , m_notes(new QLabel(this))
    , m_presets(new QComboBox(this))
    , m_tabs(new QTabWidget(this))
    , m_figures(makeTable(this, QStringLiteral("design.compare.figures")))
    , m_fields(makeTable(this, QStringLiteral("design.compare.fields")))
    , m_stacks(makeTable(this, QStringLiteral("design.compare.stacks")))
    , m_stacksStrip(new StacksStrip(this))
    , m_componentsPlot(views::plot::createPlot(this))
    , m_kvPlot(views::plot::createPlot(this)) {
    m_entries.push_back({tr("Current"), {}, true});
    m_notes->setWordWrap(true);

    auto* pin = new QPushButton(tr("Pin current as baseline"), this);
    pin->setToolTip(tr("Keep a copy of the config as it is now as the first column; later edits show against it"));
    m_presets->setObjectName(QStringLiteral("design.compare.presets"));
    m_presets->addItem(tr("Add a preset…"));
    for (const core::Preset& preset : core::builtinPresets()) {
        m_presets->addItem(qs(preset.info.name), qs(preset.info.id));
    }
    m_presets->setToolTip(tr("Add a built-in model as a column"));
    auto* file = new QPushButton(tr("Add file…"), this);
    file->setToolTip(tr("Add a config.json as a column"));
    auto* columns = new QToolButton(this);
    columns->setText(tr("Columns"));
    columns->setPopupMode(QToolButton::InstantPopup);
    columns->setToolTip(tr("Make a column the baseline, or remove it"));
    auto* columnsMenu = new QMenu(columns);
    columns->setMenu(columnsMenu);
    connect(columnsMenu, &QMenu::aboutToShow, this, [this, columnsMenu] {
        columnsMenu->clear();
        for (int i = 0; i < int(m_entries.size()); ++i) {
            const QString name = m_entries[std::size_t(i)].name;
            if (i > 0) {
                columnsMenu->addAction(tr("Make “%1” the baseline").arg(name), this, [this, i] { makeBaseline(i); });
            }
            if (!m_entries[std::size_t(i)].live) {
                columnsMenu->addAction(tr("Remove “%1”").arg(name), this, [this, i] { removeEntry(i); });
            }
        }
    });
    QToolButton* exportButton = design::exportButton(this);
    QMenu* exportMenu = exportButton->menu();
    exportMenu->addAction(tr("Table as CSV…"), this, [this] { exportTable(core::ExportFormat::Csv); });
    exportMenu->addAction(tr("Table as Markdown…"), this, [this] { exportTable(core::ExportFormat::Markdown); });
    exportMenu->addAction(tr("Table as JSON…"), this, [this] { exportTable(core::ExportFormat::Json); });
    exportMenu->addAction(tr("Table as LaTeX…"), this, [this] { exportTable(core::ExportFormat::Latex); });
    exportMenu->addSeparator();
    for (const auto& [format, name] :
         {std::pair{core::ExportFormat::Png, tr("PNG")}, std::pair{core::ExportFormat::Svg, tr("SVG")},
          std::pair{core::ExportFormat::Pdf, tr("PDF")}}) {
        exportMenu->addAction(tr("Parameters chart as %1…").arg(name), this, [this, format = format] {
            exportChart(m_componentsPlot, tr("the parameters chart"), format);
        });
        exportMenu->addAction(tr("KV cache chart as %1…").arg(name), this,
                              [this, format = format] { exportChart(m_kvPlot, tr("the KV cache chart"), format); });
    }

    auto* bar = new QHBoxLayout;
    bar->addWidget(pin);
    bar->addWidget(m_presets);
    bar->addWidget(file);
    bar->addWidget(columns);
    bar->addStretch(1);
    bar->addWidget(exportButton);

    m_tabs->addTab(m_figures, tr("Figures"));
    m_tabs->addTab(m_fields, tr("Config fields"));
    auto* stacks = new QSplitter(Qt::Vertical, this);
    stacks->addWidget(m_stacksStrip);
    stacks->addWidget(m_stacks);
    m_tabs->addTab(stacks, tr("Layer stacks"));
    // The table on the left, the two charts stacked on the right: each gets room at 1280 x 720.
    auto* charts = new QSplitter(Qt::Vertical, this);
    charts->addWidget(m_componentsPlot);
    charts->addWidget(m_kvPlot);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_tabs);
    split->addWidget(charts);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_notes);
    layout->addWidget(split, 1);

    m_componentsPlot->legend->setVisible(true);
    m_componentsPlot->yAxis->setLabel(tr("parameters"));
    views::plot::useCountTicker(m_componentsPlot->yAxis);
    m_kvPlot->legend->setVisible(true);
    m_kvPlot->xAxis->setLabel(tr("sequence length (tokens)"));
    m_kvPlot->yAxis->setLabel(tr("KV cache"));
    views::plot::useTokenLogTicker(m_kvPlot->xAxis);
    views::plot::useBytesLogTicker(m_kvPlot->yAxis);
    // Legends below the plots: inside, they would cover bars and curves.
    views::plot::placeLegendBelow(*m_componentsPlot);
    views::plot::placeLegendBelow(*m_kvPlot);
    m_componentsPlot->xAxis->setTickLabelRotation(-30);
    split->setSizes({640, 640});

    connect(pin, &QPushButton::clicked, this, &ComparePage::pinCurrentAsBaseline);
    connect(file, &QPushButton::clicked, this, &ComparePage::addFile);
    connect(m_presets, &QComboBox::activated, this, [this](int index) {
        const QString id = m_presets->itemData(index).toString();
        m_presets->setCurrentIndex(0);
        if (const core::Preset* preset = core::findPreset(id.toStdString())) {
            if (auto config = core::presetConfig(*preset)) {
                addEntry({qs(preset->info.name), *config, false});
            }
        }
    });
}

void ComparePage::setCurrent(const core::AnalysisPtr& analysis) {
    if (analysis == m_current) {
        return;
    }
    m_current = analysis;
    recompute();
}

void ComparePage::pinCurrentAsBaseline() {
    if (!m_current) {
        return;
    }
    const Entry pinned{tr("Baseline (pinned)"), m_current->config, false};
    if (!m_entries.front().live) {
        m_entries.front() = pinned;
    } else {
        if (int(m_entries.size()) >= kMaxEntries) {
            m_entries.pop_back();
        }
        m_entries.insert(m_entries.begin(), pinned);
    }
    recompute();
    emit message(tr("The current config is the baseline now."));
}

bool ComparePage::addEntry(const Entry& entry) {
    if (int(m_entries.size()) >= kMaxEntries) {
        emit message(tr("Four configs are compared already: remove one first (Columns)."));
        return false;
    }
    m_entries.push_back(entry);
    recompute();
    return true;
}

void ComparePage::removeEntry(int index) {
    if (index < 0 || index >= int(m_entries.size()) || m_entries[std::size_t(index)].live) {
        return;
    }
    m_entries.erase(m_entries.begin() + index);
    recompute();
}

void ComparePage::makeBaseline(int index) {
    if (index <= 0 || index >= int(m_entries.size())) {
        return;
    }
    std::rotate(m_entries.begin(), m_entries.begin() + index, m_entries.begin() + index + 1);
    recompute();
}

void ComparePage::addFile() {
    const QString path = m_chooseFile
                             ? m_chooseFile(tr("Add a config to compare"), QString(), tr("config.json (*.json)"))
                             : QFileDialog::getOpenFileName(this, tr("Add a config to compare"), QString(),
                                                            tr("config.json (*.json);;All files (*)"));
    if (path.isEmpty()) {
        return;
    }
    core::ImportOptions options;
    options.refuseInvalid = true;
    const core::ImportResult result = core::importConfigFile(path.toStdString(), options);
    if (!result.config) {
        QString reason = tr("it could not be read");
        for (const core::Diagnostic& d : result.diagnostics) {
            if (d.severity == core::Severity::Error) {
                reason = qs(d.field.empty() ? d.message : d.field + ": " + d.message);
                break;
            }
        }
        emit message(tr("Could not add %1: %2.").arg(QFileInfo(path).fileName(), reason));
        return;
    }
    addEntry({QFileInfo(path).fileName(), *result.config, false});
}

void ComparePage::recompute() {
    if (!m_current) {
        return;
    }
    std::vector<core::CompareInput> inputs;
    m_analyses.clear();
    for (Entry& entry : m_entries) {
        // A fixed config is analysed again only when the scenario moves, not at every slider step.
        if (!entry.live && (!entry.analysis || !(entry.analysis->scenario == m_current->scenario))) {
            entry.analysis = std::make_shared<const core::Analysis>(core::analyze(entry.config, m_current->scenario));
        }
        const core::AnalysisPtr& analysis = entry.live ? m_current : entry.analysis;
        m_analyses.push_back(analysis);
        inputs.push_back({entry.name.toStdString(), analysis});
    }
    m_comparison = core::compareAnalyses(inputs);
    fillTables();
    fillCharts();
}

void ComparePage::fillTables() {
    QStringList notes;
    for (const std::string& note : core::compareNotes(m_comparison)) {
        notes << qs(note);
    }
    if (m_entries.size() == 1) {
        notes.prepend(tr("Pin the current config as the baseline, or add a preset or a file, to compare."));
    }
    m_notes->setText(notes.join(QLatin1Char('\n')));
    m_notes->setVisible(!notes.isEmpty());

    // Figures and components: one column per config, then the difference and ratio of each other config.
    const std::size_t n = m_comparison.columns.size();
    QStringList header{tr("Figure")};
    for (const core::CompareColumn& column : m_comparison.columns) {
        header << qs(column.name);
    }
    for (std::size_t i = 1; i < n; ++i) {
        header << tr("Δ %1").arg(qs(m_comparison.columns[i].name)) << tr("× %1").arg(qs(m_comparison.columns[i].name));
    }
    m_figures->clear();
    m_figures->setColumnCount(int(header.size()));
    m_figures->setHorizontalHeaderLabels(header);
    m_figures->setRowCount(0);
    auto addRows = [&](const std::vector<core::CompareRow>& rows, const QString& prefix) {
        for (const core::CompareRow& row : rows) {
            const int r = m_figures->rowCount();
            m_figures->insertRow(r);
            m_figures->setItem(r, 0, new DesignTableItem(prefix + qs(row.label)));
            for (std::size_t i = 0; i < row.cells.size() && i < n; ++i) {
                const core::CompareCell& cell = row.cells[i];
                m_figures->setItem(r, int(1 + i), new DesignTableItem(qs(cell.text), cell.value, qs(cell.exact)));
                if (i > 0) {
                    const int column = int(1 + n + 2 * (i - 1));
                    m_figures->setItem(
                        r, column,
                        new DesignTableItem(qs(cell.differenceText), cell.difference, qs(cell.differenceExact)));
                    m_figures->setItem(r, column + 1, new DesignTableItem(qs(cell.ratioText), cell.ratio));
                }
            }
        }
    };
    addRows(m_comparison.figures, QString());
    addRows(m_comparison.components, tr("Parameters: "));
    m_figures->resizeColumnsToContents();

    // Config fields: key, then each config's value; a value differing from the baseline's in bold.
    m_fields->clear();
    QStringList fieldHeader{tr("config.json key")};
    for (const core::CompareColumn& column : m_comparison.columns) {
        fieldHeader << qs(column.name);
    }
    m_fields->setColumnCount(int(fieldHeader.size()));
    m_fields->setHorizontalHeaderLabels(fieldHeader);
    m_fields->setRowCount(int(m_comparison.configFields.size()));
    QFont bold = m_fields->font();
    bold.setBold(true);
    for (std::size_t r = 0; r < m_comparison.configFields.size(); ++r) {
        const core::ConfigFieldRow& row = m_comparison.configFields[r];
        m_fields->setItem(int(r), 0, new DesignTableItem(qs(row.key)));
        for (std::size_t i = 0; i < row.values.size(); ++i) {
            auto* item = new DesignTableItem(row.values[i] ? qs(*row.values[i]) : tr("(absent)"));
            if (i < row.differs.size() && row.differs[i]) {
                item->setFont(bold);
            }
            m_fields->setItem(int(r), int(1 + i), item);
        }
    }
    m_fields->resizeColumnsToContents();

    // Stacks: per config its layer kinds, then its runs of identical layers in order.
    std::vector<std::vector<std::string>> stackRows{{tr("Config").toStdString(), tr("Layers").toStdString(),
                                                     tr("Attention").toStdString(), tr("Layer kinds").toStdString(),
                                                     tr("Runs, in order").toStdString()}};
    for (const core::CompareColumn& column : m_comparison.columns) {
        QStringList runs;
        for (const core::CompareLayerRun& run : column.stack.runs) {
            runs << tr("%1 × %2").arg(run.run.count).arg(qs(run.name));
        }
        stackRows.push_back({column.name, std::to_string(column.stack.layerCount), column.stack.attention,
                             column.stack.kindsLabel, runs.join(QStringLiteral("; ")).toStdString()});
    }
    fillFromRows(m_stacks, stackRows);
    m_stacksStrip->setComparison(&m_comparison);
}

void ComparePage::fillCharts() {
    const QPalette pal = palette();
    views::plot::applyPalette(*m_componentsPlot, pal, font());
    views::plot::applyPalette(*m_kvPlot, pal, font());

    // Parameters by component: one bar per config in each component's group.
    m_componentsPlot->clearPlottables();
    auto* group = new QCPBarsGroup(m_componentsPlot);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double most = 0;
    for (std::size_t r = 0; r < m_comparison.components.size(); ++r) {
        ticker->addTick(double(r), qs(m_comparison.components[r].label));
    }
    for (std::size_t i = 0; i < m_comparison.columns.size(); ++i) {
        auto* bars = new QCPBars(m_componentsPlot->xAxis, m_componentsPlot->yAxis);
        bars->setName(qs(m_comparison.columns[i].name));
        const QColor color = configColor(pal, int(i));
        bars->setPen(QPen(color.darker(120)));
        bars->setBrush(color);
        bars->setWidth(0.8 / double(std::max<std::size_t>(1, m_comparison.columns.size())));
        bars->setBarsGroup(group);
        for (std::size_t r = 0; r < m_comparison.components.size(); ++r) {
            const std::optional<double>& value = m_comparison.components[r].cells[i].value;
            bars->addData(double(r), value.value_or(0));
            most = std::max(most, value.value_or(0));
        }
    }
    m_componentsPlot->xAxis->setTicker(ticker);
    m_componentsPlot->xAxis->setRange(-0.6, double(m_comparison.components.size()) - 0.4);
    m_componentsPlot->yAxis->setRange(0, most > 0 ? most * 1.1 : 1);
    m_componentsPlot->replot();

    // KV cache against sequence length: one curve per config that keeps a cache.
    m_kvPlot->clearGraphs();
    double low = 0;
    double high = 0;
    for (std::size_t i = 0; i < m_comparison.kvCurves.size(); ++i) {
        const std::optional<core::KvCurve>& curve = m_comparison.kvCurves[i];
        if (!curve) {
            continue;
        }
        QCPGraph* graph = m_kvPlot->addGraph();
        graph->setName(qs(m_comparison.columns[i].name));
        graph->setPen(QPen(configColor(pal, int(i)), 2));
        for (std::size_t p = 0; p < curve->lengths.size(); ++p) {
            const double bytes = double(curve->bytes[p]);
            if (bytes <= 0) {
                continue;
            }
            graph->addData(double(curve->lengths[p]), bytes);
            low = low == 0 ? bytes : std::min(low, bytes);
            high = std::max(high, bytes);
        }
    }
    m_kvPlot->xAxis->setRange(1, double(std::max<std::uint64_t>(m_comparison.kvLongest, 1)));
    m_kvPlot->yAxis->setRange(low > 0 ? low / 2 : 1, high > 0 ? high * 2 : 1024);
    m_kvPlot->replot();
}

QString ComparePage::chartCaption() const {
    QStringList names;
    for (const core::CompareColumn& column : m_comparison.columns) {
        names << qs(column.name);
    }
    const QString scenario = m_current ? qs(core::scenarioLine(*m_current)) : QString();
    return tr("%1 · %2").arg(names.join(tr(" vs ")), scenario);
}

QByteArray ComparePage::tableBytes(core::ExportFormat format) const {
    switch (format) {
    case core::ExportFormat::Csv:
        return QByteArray::fromStdString(core::compareCsv(m_comparison));
    case core::ExportFormat::Markdown:
        return QByteArray::fromStdString(core::compareMarkdown(m_comparison));
    case core::ExportFormat::Json:
        return QByteArray::fromStdString(core::compareJson(m_comparison).dump(2) + "\n");
    case core::ExportFormat::Latex:
        return QByteArray::fromStdString(core::compareLatex(m_comparison));
    default:
        return {};
    }
}

void ComparePage::exportTable(core::ExportFormat format) {
    const QString name = QStringLiteral("compare.") + QString::fromUtf8(core::toString(format));
    emit message(saveWithDialog(this, m_chooseFile, tr("the compare table"), name, format,
                                [this, format](QString*) { return tableBytes(format); }));
}

void ComparePage::exportChart(QCustomPlot* plot, const QString& what, core::ExportFormat format) {
    const QString base = plot == m_kvPlot ? QStringLiteral("compare-kv") : QStringLiteral("compare-params");
    emit message(saveChart(this, m_chooseFile, what, base, ChartFigure{plot, chartCaption()}, format));
}

void ComparePage::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        fillCharts();
    }
}

} // namespace archplay::ui::design
