// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/design/ZooPage.h"

#include "core/io/Presets.h"
#include "core/report/ReportText.h"
#include "core/report/ZooPlots.h"
#include "core/util/Format.h"
#include "ui/Strings.h"
#include "ui/design/ComparePage.h"
#include "ui/session/ModelBridge.h"
#include "ui/session/ZooSettings.h"
#include "ui/views/charts/PlotSupport.h"
#include "ui/views/charts/ZooChart.h"

#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMouseEvent>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <qcustomplot.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>

namespace archplay::ui::design {

ZooPage::ZooPage(session::ModelBridge* bridge, ComparePage* compare, QWidget* parent)
    : QWidget(parent)
    , m_bridge(bridge)
    , m_compare(compare)
    , m_model(new ZooTableModel(this))
    , m_shown(new ZooShownRows(m_model, this))
    , m_filter(new QLineEdit(this))
    , m_status(new QLabel(this))
    , m_table(new QTableView(this))
    , m_plotChoice(new QComboBox(this))
    , m_plot(views::plot::createPlot(this))
    , m_plotNote(new QLabel(this))
    , m_readRow(new QWidget(this))
    , m_readLabel(new QLabel(m_readRow))
    , m_readProgress(new QProgressBar(m_readRow))
    , m_readPoll(new QTimer(this)) {
    m_filter->setObjectName(QStringLiteral("design.zoo.filter"));
    m_filter->setPlaceholderText(tr("Filter: kind=moe, total_params>7B, family~llama"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(tr("Clauses separated by commas, each KEY OP VALUE with = != < <= > >= or ~ (contains); "
                            "keys are the columns' (hover a column title); counts as 7B or 350M"));
    m_status->setWordWrap(true);

    auto* addFolderButton = new QPushButton(tr("Add folder…"), this);
    addFolderButton->setToolTip(tr("Add every config.json under a folder, searched recursively"));
    auto* hfButton = new QPushButton(tr("Add Hugging Face cache"), this);
    hfButton->setToolTip(tr("Add every model in the local Hugging Face cache ($HF_HOME/hub or "
                            "~/.cache/huggingface/hub)"));
    auto* clearButton = new QPushButton(tr("Remove added"), this);
    clearButton->setToolTip(tr("Keep only the built-in presets"));
    auto* compareButton = new QPushButton(tr("Compare selected"), this);
    compareButton->setToolTip(tr("Add the selected rows to the Compare page"));
    compareButton->setObjectName(QStringLiteral("design.zoo.compare"));
    auto* loadButton = new QPushButton(tr("Load"), this);
    loadButton->setObjectName(QStringLiteral("design.zoo.load"));
    loadButton->setToolTip(tr("Make the selected row the editor's config (one undo step); a double-click does too"));
    QToolButton* exportButton = design::exportButton(this);
    QMenu* exportMenu = exportButton->menu();
    exportMenu->addAction(tr("Table as CSV…"), this, [this] { exportTable(core::ExportFormat::Csv); });
    exportMenu->addAction(tr("Table as Markdown…"), this, [this] { exportTable(core::ExportFormat::Markdown); });
    exportMenu->addAction(tr("Table as JSON…"), this, [this] { exportTable(core::ExportFormat::Json); });
    exportMenu->addSeparator();
    for (const auto& [format, name] :
         {std::pair{core::ExportFormat::Png, tr("PNG")}, std::pair{core::ExportFormat::Svg, tr("SVG")},
          std::pair{core::ExportFormat::Pdf, tr("PDF")}}) {
        exportMenu->addAction(tr("Plot as %1…").arg(name), this, [this, format = format] {
            // The exported chart is drawn afresh with vector markers; the screen's are pixmaps.
            const std::unique_ptr<QCustomPlot> chart =
                views::plot::zooChart(plotData(), m_plot->size(), palette(), font());
            const ChartFigure figure{
                chart.get(), m_current ? tr("The model zoo · %1").arg(qs(core::scenarioLine(*m_current))) : QString()};
            emit message(saveChart(this, m_chooseFile, tr("the zoo plot"),
                                   QStringLiteral("zoo-%1").arg(qs(std::string(core::toString(shownPlot())))), figure,
                                   format));
        });
    }

    // The legend below the plot, in rows: inside, it would cover the largest models.
    views::plot::placeLegendBelow(*m_plot);
    m_plot->legend->setWrap(4);
    for (core::ZooPlot plot : core::zooPlots()) {
        m_plotChoice->addItem(qs(core::zooPlotInfo(plot).title));
    }
    m_plotNote->setWordWrap(true);
    m_plotNote->hide();
    m_plotChoice->setToolTip(tr("Every counted row shown in the table, the current config as a circled cross; "
                                "hover a point for the model, click it to load it"));

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_filter, 1);
    bar->addWidget(addFolderButton);
    bar->addWidget(hfButton);
    bar->addWidget(clearButton);
    bar->addWidget(compareButton);
    bar->addWidget(loadButton);
    bar->addWidget(exportButton);

    m_table->setObjectName(QStringLiteral("design.zoo.table"));
    m_table->setModel(m_shown);
    m_table->setSortingEnabled(true);
    m_table->horizontalHeader()->setSortIndicator(int(core::ZooColumn::TotalParams), Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->setWordWrap(false);

    auto* plotHost = new QWidget(this);
    auto* plotLayout = new QVBoxLayout(plotHost);
    plotLayout->setContentsMargins(0, 0, 0, 0);
    plotLayout->addWidget(m_plotChoice);
    plotLayout->addWidget(m_plot, 1);
    plotLayout->addWidget(m_plotNote);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_table);
    split->addWidget(plotHost);
    split->setSizes({700, 580});

    m_addButtons = {addFolderButton, hfButton};
    m_readRow->setObjectName(QStringLiteral("design.zoo.reading"));
    auto* cancelRead = new QPushButton(tr("Cancel"), m_readRow);
    cancelRead->setObjectName(QStringLiteral("design.zoo.cancelRead"));
    cancelRead->setToolTip(tr("Stop reading; the files read so far are added"));
    auto* readLayout = new QHBoxLayout(m_readRow);
    readLayout->setContentsMargins(0, 0, 0, 0);
    readLayout->addWidget(m_readLabel);
    readLayout->addWidget(m_readProgress, 1);
    readLayout->addWidget(cancelRead);
    m_readRow->hide();
    m_readPoll->setInterval(100);
    connect(m_readPoll, &QTimer::timeout, this, &ZooPage::showReadProgress);
    connect(cancelRead, &QPushButton::clicked, this, [this] {
        if (m_readCancel) {
            m_readCancel->store(true);
        }
    });

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_readRow);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        const core::Status applied = setFilterText(text);
        m_status->setText(applied.ok() ? QString() : tr("Filter not applied: %1").arg(qs(applied.error())));
        m_status->setVisible(!applied.ok());
    });
    connect(addFolderButton, &QPushButton::clicked, this, [this] {
        const QString folder = m_chooseFile ? m_chooseFile(tr("Add a folder of configs"), QString(), QString())
                                            : QFileDialog::getExistingDirectory(this, tr("Add a folder of configs"));
        if (!folder.isEmpty()) {
            addFolder(folder);
        }
    });
    connect(hfButton, &QPushButton::clicked, this, [this] { addHfCache(); });
    connect(clearButton, &QPushButton::clicked, this, &ZooPage::clearAdded);
    connect(compareButton, &QPushButton::clicked, this, &ZooPage::compareSelected);
    connect(loadButton, &QPushButton::clicked, this, [this] {
        const QModelIndexList rows = m_table->selectionModel()->selectedRows();
        if (!rows.isEmpty()) {
            loadRow(rows.front().row());
        }
    });
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) { loadRow(index.row()); });
    connect(m_plotChoice, &QComboBox::currentIndexChanged, this, [this] { drawPlot(); });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] { drawPlot(); });
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        if (const std::optional<std::size_t> index = views::plot::zooRowAt(*m_plot, event->position())) {
            const core::ZooRow& row = m_model->rows()[*index];
            QToolTip::showText(event->globalPosition().toPoint(),
                               tr("%1\n%2 parameters · %3 layers × %4 hidden")
                                   .arg(qs(row.name), qs(core::withThousands(row.totalParams)))
                                   .arg(row.layers())
                                   .arg(qs(core::withThousands(std::uint64_t(row.hiddenSize)))),
                               m_plot);
        } else {
            QToolTip::hideText();
        }
    });
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        const std::optional<std::size_t> index = views::plot::zooRowAt(*m_plot, event->position());
        if (index) {
            loadRow(m_shown->shownPosition(*index));
        }
    });

    // The folders kept from the last run are read in the background: opening Design never waits for them.
    m_sources = session::savedZooSources();
    if (!m_sources.folders.isEmpty() || m_sources.hfCache) {
        readInBackground(m_sources, [this](SourcesRead read) {
            m_added = std::move(read.inputs);
            addedSources(tr("Read %1 configs from the added sources.").arg(m_added.size()), read.notes);
        });
    }
}

ZooPage::~ZooPage() {
    if (m_reading) {
        m_readCancel->store(true);
        m_reading->disconnect(this);
        m_reading->waitForFinished();
    }
}

void ZooPage::readInBackground(const session::AddedZooSources& sources, std::function<void(SourcesRead)> done) {
    if (m_reading) {
        return; // the Add buttons are disabled while a read runs
    }
    m_readCancel = std::make_shared<std::atomic<bool>>(false);
    m_readDone = std::make_shared<std::array<std::atomic<std::size_t>, 2>>();
    core::ZooScanLimits limits;
    limits.cancelled = [cancel = m_readCancel] {
        return cancel->load();
    };
    limits.progress = [counts = m_readDone](std::size_t read, std::size_t total) {
        (*counts)[0] = read;
        (*counts)[1] = total;
    };
    for (QWidget* button : std::as_const(m_addButtons)) {
        button->setEnabled(false);
    }
    m_readProgress->setRange(0, 0); // busy until the first file is read
    m_readLabel->setText(tr("Searching the folders…"));
    m_readRow->show();
    m_readPoll->start();
    m_reading = new QFutureWatcher<SourcesRead>(this);
    connect(m_reading, &QFutureWatcher<SourcesRead>::finished, this,
            [this, generation = m_readGeneration, done = std::move(done)] {
                SourcesRead read = m_reading->result();
                m_reading->deleteLater();
                m_reading = nullptr;
                m_readPoll->stop();
                m_readRow->hide();
                for (QWidget* button : std::as_const(m_addButtons)) {
                    button->setEnabled(true);
                }
                if (generation == m_readGeneration) {
                    done(std::move(read));
                }
            });
    m_reading->setFuture(QtConcurrent::run([sources, limits] {
        SourcesRead read;
        read.inputs = session::zooInputs(sources, &read.notes, limits);
        return read;
    }));
}

void ZooPage::showReadProgress() {
    const std::size_t read = (*m_readDone)[0];
    const std::size_t total = (*m_readDone)[1];
    if (total == 0) {
        return;
    }
    m_readProgress->setRange(0, int(std::min<std::size_t>(total, INT_MAX)));
    m_readProgress->setValue(int(std::min(read, total)));
    m_readLabel->setText(tr("Reading config.json files: %1 of %2").arg(read).arg(total));
}
void ZooPage::setCurrent(const core::AnalysisPtr& analysis) {
    m_current = analysis;
    if (!m_built || !(m_builtScenario == analysis->scenario)) {
        rebuild(); // the rows depend on the scenario (KV precision, weight format, GPUs), not on the config
    } else if (!views::plot::moveZooCurrent(*m_plot, currentPoint())) {
        drawPlot(); // the marker left the axes: they must grow
    }
}

void ZooPage::rebuild() {
    if (!m_current) {
        return;
    }
    std::vector<core::ZooInput> inputs = core::presetZooInputs();
    inputs.insert(inputs.end(), m_added.begin(), m_added.end());
    core::ModelZoo zoo = core::buildZoo(inputs, m_current->scenario, 0);
    m_builtScenario = m_current->scenario;
    m_built = true;
    std::size_t notCounted = 0;
    std::size_t estimates = 0;
    for (const core::ZooRow& row : zoo.rows) {
        notCounted += row.status == core::ZooStatus::NotCounted ? 1 : 0;
        estimates += row.status == core::ZooStatus::Estimate ? 1 : 0;
    }
    m_model->setRows(std::move(zoo.rows));
    m_table->horizontalHeader()->setResizeContentsPrecision(200); // the widths of the first rows, fast at 10,000
    m_table->resizeColumnsToContents();
    emit message(tr("The zoo holds %1 configs: %2 counted exactly, %3 estimates (in italics), %4 not counted "
                    "(hover for the reason).")
                     .arg(m_model->rows().size())
                     .arg(m_model->rows().size() - notCounted - estimates)
                     .arg(estimates)
                     .arg(notCounted));
}

void ZooPage::addFolder(const QString& folder, bool remember) {
    readInBackground({{folder}, false}, [this, folder, remember](SourcesRead read) {
        m_added.insert(m_added.end(), read.inputs.begin(), read.inputs.end());
        if (remember && !m_sources.folders.contains(folder)) {
            m_sources.folders << folder;
            rememberSources(read.notes);
        }
        addedSources(tr("Added %1 config files from %2.").arg(read.inputs.size()).arg(folder), read.notes);
    });
}

void ZooPage::addHfCache(bool remember) {
    readInBackground({{}, true}, [this, remember](SourcesRead read) {
        m_added.insert(m_added.end(), read.inputs.begin(), read.inputs.end());
        if (remember && !m_sources.hfCache) {
            m_sources.hfCache = true;
            rememberSources(read.notes);
        }
        addedSources(tr("Added %1 models from the Hugging Face cache.").arg(read.inputs.size()), read.notes);
    });
}

void ZooPage::rememberSources(QStringList& notes) {
    if (const core::Status saved = session::saveZooSources(m_sources); !saved.ok()) {
        notes.prepend(tr("It is added for this run only: %1.").arg(qs(saved.error())));
    }
}

void ZooPage::addedSources(QString text, const QStringList& notes) {
    if (!notes.isEmpty()) {
        text += QLatin1Char(' ') + notes.front();
    }
    m_built = false;
    if (m_current) {
        rebuild();
    }
    emit message(text);
}

void ZooPage::clearAdded() {
    // A read in flight is stopped, and what it read is not added.
    ++m_readGeneration;
    if (m_readCancel) {
        m_readCancel->store(true);
    }
    m_added.clear();
    m_sources = {};
    const core::Status saved = session::saveZooSources(m_sources);
    rebuild();
    if (!saved.ok()) {
        emit message(tr("The added sources are cleared for this run only: %1.").arg(qs(saved.error())));
    }
}

core::Status ZooPage::setFilterText(const QString& text) {
    const core::ZooFilterParse parsed = core::parseZooFilter(text.toStdString());
    if (!parsed.filter) {
        return core::Status::failure(parsed.error);
    }
    m_shown->setFilter(*parsed.filter);
    drawPlot(); // the plots show the rows the table shows
    return {};
}

std::optional<core::ModelConfig> ZooPage::configOf(const core::ZooRow& row) const {
    if (row.origin == core::ZooOrigin::Preset) {
        const core::Preset* preset = core::findPreset(row.id);
        return preset ? core::presetConfig(*preset) : std::nullopt;
    }
    core::ImportOptions options;
    options.bestEffort = row.status == core::ZooStatus::Estimate; // labelled as an estimate wherever shown
    return core::importConfigFile(row.path, options).config;
}

bool ZooPage::loadRow(int row) {
    if (row < 0 || row >= m_shown->rowCount()) {
        return false;
    }
    const core::ZooRow& zooRow = m_shown->rowAt(row);
    if (!zooRow.counted()) {
        emit message(tr("%1 is not counted: %2").arg(qs(zooRow.id), qs(zooRow.reason)));
        return false;
    }
    if (zooRow.origin == core::ZooOrigin::Preset) {
        return m_bridge->loadPreset(qs(zooRow.id));
    }
    const std::optional<core::ModelConfig> config = configOf(zooRow);
    if (!config) {
        emit message(tr("%1 could not be read again.").arg(qs(zooRow.path)));
        return false;
    }
    session::ConfigOrigin origin;
    origin.kind = session::ConfigOrigin::Kind::File;
    origin.label = QFileInfo(qs(zooRow.path)).fileName();
    origin.path = qs(zooRow.path);
    origin.base = *config;
    m_bridge->loadConfig(*config, origin, tr("Load %1").arg(qs(zooRow.name)));
    return true;
}

void ZooPage::compareSelected() {
    int added = 0;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows()) {
        const core::ZooRow& row = m_shown->rowAt(index.row());
        if (const auto config = configOf(row); config && row.counted()) {
            added += m_compare->addEntry({qs(row.name), *config, false}) ? 1 : 0;
        }
    }
    emit message(tr("Added %1 models to Compare.").arg(added));
}

void ZooPage::exportTable(core::ExportFormat format) {
    core::ModelZoo shown;
    shown.scenario = m_builtScenario;
    for (std::size_t index : m_shown->order()) {
        shown.rows.push_back(m_model->rows()[index]);
    }
    const QString name = QStringLiteral("zoo.") + QString::fromUtf8(core::toString(format));
    emit message(saveWithDialog(this, m_chooseFile, tr("the zoo table"), name, format, [shown, format](QString*) {
        switch (format) {
        case core::ExportFormat::Csv:
            return QByteArray::fromStdString(core::zooCsv(shown));
        case core::ExportFormat::Markdown:
            return QByteArray::fromStdString(core::zooMarkdown(shown));
        default:
            return QByteArray::fromStdString(core::zooJson(shown).dump(2) + "\n");
        }
    }));
}

void ZooPage::showPlot(core::ZooPlot plot) {
    const auto& plots = core::zooPlots();
    m_plotChoice->setCurrentIndex(int(std::find(plots.begin(), plots.end(), plot) - plots.begin()));
}

std::optional<core::ZooRow> ZooPage::currentRow() const {
    if (!m_current || !m_current->valid) {
        return std::nullopt;
    }
    // From the analysis the window has, not a second one.
    return core::designZooRow(*m_current, tr("current config").toStdString());
}

core::ZooPlot ZooPage::shownPlot() const {
    return core::zooPlots()[std::size_t(std::max(0, m_plotChoice->currentIndex()))];
}

std::optional<core::ZooPlotPoint> ZooPage::currentPoint() const {
    const std::optional<core::ZooRow> row = currentRow();
    return row ? core::zooPlotPoint(*row, shownPlot(), core::todayInYears()) : std::nullopt;
}

core::ZooPlotData ZooPage::plotData() const {
    return core::zooPlotData(m_model->rows(), m_shown->order(), shownPlot(), currentRow(), core::todayInYears());
}

void ZooPage::drawPlot() {
    const core::ZooPlotData plotted = plotData();
    views::plot::drawZooChart(*m_plot, plotted, palette(), font(), views::plot::ZooMarkers::Raster);
    m_plotNote->setText(plotted.left == 0
                            ? QString()
                            : tr("%n row(s) of the table not on this plot: %1.", nullptr, int(plotted.left))
                                  .arg(qs(plotted.leftReason)));
    m_plotNote->setVisible(plotted.left > 0);
}

void ZooPage::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        drawPlot();
    }
}

} // namespace archplay::ui::design
