// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/design/ZooPage.h"

#include "core/io/Presets.h"
#include "core/report/ReportText.h"
#include "core/report/ZooSources.h"
#include "core/util/Format.h"
#include "ui/Strings.h"
#include "ui/design/ComparePage.h"
#include "ui/session/ModelBridge.h"
#include "ui/views/ViewColors.h"
#include "ui/views/charts/PlotSupport.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMouseEvent>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace archplay::ui::design {
namespace {

const QString kFoldersKey = QStringLiteral("design/zoo/folders");
const QString kHfCacheKey = QStringLiteral("design/zoo/hf-cache");

/// Where a row sits on a plot: the two numbers, or nothing when it has neither.
struct PlotAxes {
    core::ZooColumn x;
    core::ZooColumn y;
    bool logX = false;
    bool logY = false;
};

PlotAxes axesOf(ZooPage::Plot plot) {
    using C = core::ZooColumn;
    switch (plot) {
    case ZooPage::Plot::DepthWidth:
        return {C::HiddenSize, C::Layers, true, false};
    case ZooPage::Plot::FfnRatio:
        return {C::HiddenSize, C::FfnRatio, true, false};
    case ZooPage::Plot::HeadDim:
        return {C::TotalParams, C::HeadDim, true, false};
    case ZooPage::Plot::GqaGroup:
        return {C::TotalParams, C::Heads, true, false}; // y is heads / KV heads, below
    case ZooPage::Plot::LayerEstimate:
        return {C::Layers, C::LayersRule12, false, false};
    }
    return {C::HiddenSize, C::Layers};
}

/// The plotted y of a row: the GQA group is heads per KV head.
std::optional<double> plotY(const core::ZooRow& row, ZooPage::Plot plot, core::ZooColumn column) {
    if (plot == ZooPage::Plot::GqaGroup) {
        return row.kvHeads > 0 ? std::optional<double>(double(row.heads) / double(row.kvHeads)) : std::nullopt;
    }
    return core::zooNumber(row, column);
}

/// Area in proportion to the parameters: a marker's diameter grows with the square root.
double markerSize(double params) {
    return std::clamp(3.0 * std::sqrt(std::max(params, 1.0) / 1e9), 4.0, 40.0);
}

} // namespace

void ZooTableModel::setRows(std::vector<core::ZooRow> rows) {
    beginResetModel();
    m_rows = std::move(rows);
    refilter();
    endResetModel();
}

void ZooTableModel::setFilter(const core::ZooFilter& filter) {
    beginResetModel();
    m_filter = filter;
    refilter();
    endResetModel();
}

void ZooTableModel::refilter() {
    m_order = core::filterZoo(m_rows, m_filter);
    if (m_sortColumn >= 0) {
        core::sortZoo(m_rows, m_order, core::zooColumns()[std::size_t(m_sortColumn)].column,
                      m_sortOrder == Qt::DescendingOrder);
    }
}

int ZooTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_order.size());
}

int ZooTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(core::zooColumns().size());
}

QVariant ZooTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const core::ZooRow& row = rowAt(index.row());
    const core::ZooColumnInfo& column = core::zooColumns()[std::size_t(index.column())];
    switch (role) {
    case Qt::DisplayRole:
        return qs(core::zooText(row, column.column));
    case Qt::ToolTipRole:
        if (!row.reason.empty()) {
            return qs(row.reason);
        }
        return qs(core::zooExactText(row, column.column));
    case Qt::TextAlignmentRole:
        return column.numeric ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                              : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::FontRole:
        if (row.status != core::ZooStatus::Exact) {
            QFont font;
            font.setItalic(true); // estimates and rows not counted read apart from exact ones
            return font;
        }
        return {};
    default:
        return {};
    }
}

QVariant ZooTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) {
        return {};
    }
    const core::ZooColumnInfo& column = core::zooColumns()[std::size_t(section)];
    if (role == Qt::DisplayRole) {
        return qs(std::string(column.label));
    }
    if (role == Qt::ToolTipRole) {
        return tr("%1 (filter key %2)").arg(qs(std::string(column.label)), qs(std::string(column.key)));
    }
    return {};
}

void ZooTableModel::sort(int column, Qt::SortOrder order) {
    if (column < 0 || column >= columnCount()) {
        return;
    }
    emit layoutAboutToBeChanged();
    m_sortColumn = column;
    m_sortOrder = order;
    core::sortZoo(m_rows, m_order, core::zooColumns()[std::size_t(column)].column, order == Qt::DescendingOrder);
    emit layoutChanged();
}

ZooPage::ZooPage(session::ModelBridge* bridge, ComparePage* compare, QWidget* parent)
    : QWidget(parent)
    , m_bridge(bridge)
    , m_compare(compare)
    , m_model(new ZooTableModel(this))
    , m_filter(new QLineEdit(this))
    , m_status(new QLabel(this))
    , m_table(new QTableView(this))
    , m_plotChoice(new QComboBox(this))
    , m_plot(views::plot::createPlot(this)) {
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
    auto* loadButton = new QPushButton(tr("Load"), this);
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
            const ChartFigure figure{
                m_plot, m_current ? tr("The model zoo · %1").arg(qs(core::scenarioLine(*m_current))) : QString()};
            emit message(saveChart(this, m_chooseFile, tr("the zoo plot"), QStringLiteral("zoo"), figure, format));
        });
    }

    // The legend below the plot, in rows: inside, it would cover the largest models.
    views::plot::placeLegendBelow(*m_plot);
    m_plot->legend->setWrap(4);
    m_plotChoice->addItem(tr("Depth against width (area: parameters)"));
    m_plotChoice->addItem(tr("FFN ratio against hidden size"));
    m_plotChoice->addItem(tr("head_dim across sizes"));
    m_plotChoice->addItem(tr("GQA group (heads per KV head) across sizes"));
    m_plotChoice->addItem(tr("Layers estimated from the parameters against the real layers"));
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
    m_table->setModel(m_model);
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
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_table);
    split->addWidget(plotHost);
    split->setSizes({700, 580});

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        const QString error = setFilterText(text);
        m_status->setText(error.isEmpty() ? QString() : tr("Filter not applied: %1").arg(error));
        m_status->setVisible(!error.isEmpty());
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
        int index = -1;
        QCPAbstractPlottable* plottable = m_plot->plottableAt(event->position(), false, &index);
        const QVariant rows = plottable ? plottable->property("zooRows") : QVariant();
        if (rows.isValid() && index >= 0 && index < rows.toList().size()) {
            const core::ZooRow& row = m_model->rows()[rows.toList()[index].toULongLong()];
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
        int index = -1;
        QCPAbstractPlottable* plottable = m_plot->plottableAt(event->position(), false, &index);
        const QVariant rows = plottable ? plottable->property("zooRows") : QVariant();
        if (!rows.isValid() || index < 0 || index >= rows.toList().size()) {
            return;
        }
        const std::size_t rowIndex = rows.toList()[index].toULongLong();
        const auto& order = m_model->order();
        const auto shown = std::find(order.begin(), order.end(), rowIndex);
        if (shown != order.end()) {
            loadRow(int(shown - order.begin()));
        }
    });

    QSettings settings;
    const QStringList folders = settings.value(kFoldersKey).toStringList();
    for (const QString& folder : folders) {
        m_folders << folder;
        const core::ZooScan scan = core::zooFromFolder(folder.toStdString());
        m_added.insert(m_added.end(), scan.inputs.begin(), scan.inputs.end());
    }
    if (settings.value(kHfCacheKey, false).toBool()) {
        addHfCache(false);
    }
}

void ZooPage::setCurrent(const core::AnalysisPtr& analysis) {
    m_current = analysis;
    if (!m_built || !(m_builtScenario == analysis->scenario)) {
        rebuild(); // the rows depend on the scenario (KV precision, weight format, GPUs), not on the config
    } else {
        drawPlot(); // the current config's marker moves
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
    const core::ZooScan scan = core::zooFromFolder(folder.toStdString());
    m_added.insert(m_added.end(), scan.inputs.begin(), scan.inputs.end());
    if (remember && !m_folders.contains(folder)) {
        m_folders << folder;
        QSettings().setValue(kFoldersKey, m_folders);
    }
    QString text = tr("Added %1 config files from %2.").arg(scan.inputs.size()).arg(folder);
    if (!scan.notes.empty()) {
        text += QLatin1Char(' ') + qs(scan.notes.front().message);
    }
    m_built = false;
    if (m_current) {
        rebuild();
    }
    emit message(text);
}

void ZooPage::addHfCache(bool remember) {
    const std::optional<std::filesystem::path> root = core::defaultHfCacheRoot();
    if (!root) {
        emit message(tr("No Hugging Face cache: neither HF_HUB_CACHE, HF_HOME, XDG_CACHE_HOME nor HOME is set."));
        return;
    }
    const core::ZooScan scan = core::zooFromHfCache(*root);
    m_added.insert(m_added.end(), scan.inputs.begin(), scan.inputs.end());
    if (remember && !m_hfCache) {
        m_hfCache = true;
        QSettings().setValue(kHfCacheKey, true);
    }
    m_built = false;
    if (m_current) {
        rebuild();
    }
    emit message(tr("Added %1 models from the Hugging Face cache at %2.")
                     .arg(scan.inputs.size())
                     .arg(QString::fromStdString(root->string())));
}

void ZooPage::clearAdded() {
    m_added.clear();
    m_folders.clear();
    m_hfCache = false;
    QSettings settings;
    settings.remove(kFoldersKey);
    settings.remove(kHfCacheKey);
    rebuild();
}

QString ZooPage::setFilterText(const QString& text) {
    const core::ZooFilterParse parsed = core::parseZooFilter(text.toStdString());
    if (!parsed.filter) {
        return qs(parsed.error);
    }
    m_model->setFilter(*parsed.filter);
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
    if (row < 0 || row >= m_model->rowCount()) {
        return false;
    }
    const core::ZooRow& zooRow = m_model->rowAt(row);
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
        const core::ZooRow& row = m_model->rowAt(index.row());
        if (const auto config = configOf(row); config && row.counted()) {
            added += m_compare->addEntry({qs(row.name), *config, false}) ? 1 : 0;
        }
    }
    emit message(tr("Added %1 models to Compare.").arg(added));
}

void ZooPage::exportTable(core::ExportFormat format) {
    core::ModelZoo shown;
    shown.scenario = m_builtScenario;
    for (std::size_t index : m_model->order()) {
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

void ZooPage::showPlot(Plot plot) {
    m_plotChoice->setCurrentIndex(int(plot));
}

void ZooPage::drawPlot() {
    QCustomPlot& plot = *m_plot;
    plot.clearPlottables();
    plot.clearItems();
    const QPalette pal = palette();
    const auto which = static_cast<Plot>(std::max(0, m_plotChoice->currentIndex()));
    const PlotAxes axes = axesOf(which);
    plot.xAxis->setLabel(qs(std::string(core::zooColumnInfo(axes.x).label)));
    plot.yAxis->setLabel(which == Plot::GqaGroup        ? tr("query heads per KV head")
                         : which == Plot::LayerEstimate ? tr("estimated layers")
                                                        : qs(std::string(core::zooColumnInfo(axes.y).label)));
    if (axes.logX) {
        if (axes.x == core::ZooColumn::TotalParams) {
            views::plot::useCountLogTicker(plot.xAxis);
        } else {
            views::plot::usePlainLogTicker(plot.xAxis, 2);
        }
    } else {
        plot.xAxis->setScaleType(QCPAxis::stLinear);
        plot.xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    }
    plot.yAxis->setScaleType(QCPAxis::stLinear);
    plot.yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());

    // One series per family (the largest ten apart, the rest together), sized by parameters where
    // the plot says so; each point remembers its row for hover and click.
    std::map<std::string, std::vector<std::size_t>> byFamily;
    for (std::size_t index : m_model->order()) {
        const core::ZooRow& row = m_model->rows()[index];
        if (row.counted()) {
            byFamily[row.family].push_back(index);
        }
    }
    std::vector<std::pair<std::string, std::vector<std::size_t>>> families(byFamily.begin(), byFamily.end());
    std::stable_sort(families.begin(), families.end(),
                     [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
    // Seven families in colours of their own (the colour-blind-safe set has eight), the rest in grey.
    constexpr std::size_t kNamed = 7;
    bool hasOthers = false;
    if (families.size() > kNamed) {
        std::vector<std::size_t> rest;
        for (std::size_t i = kNamed; i < families.size(); ++i) {
            rest.insert(rest.end(), families[i].second.begin(), families[i].second.end());
        }
        families.resize(kNamed);
        families.emplace_back(tr("other families").toStdString(), std::move(rest));
        hasOthers = true;
    }
    QCPRange xRange;
    QCPRange yRange;
    bool any = false;
    auto extend = [&](double x, double y) {
        if (!any) {
            xRange = QCPRange(x, x);
            yRange = QCPRange(y, y);
            any = true;
        }
        xRange.expand(x);
        yRange.expand(y);
    };
    const bool sized = which == Plot::DepthWidth;
    auto addSeries = [&](const QString& name, const QColor& color, const std::vector<std::size_t>& rows, auto yOf,
                         QCPScatterStyle::ScatterShape shape) {
        // QCustomPlot sizes a whole graph's markers alike: a graph per size class keeps areas by
        // parameters. A graph's points are sorted by x (QCustomPlot's hit test needs it), each with
        // its row, in the "zooRows" property, for hover and click.
        struct Point {
            double x;
            double y;
            std::size_t row;
        };
        std::map<int, std::vector<Point>> bySize;
        for (std::size_t index : rows) {
            const core::ZooRow& row = m_model->rows()[index];
            const auto x = core::zooNumber(row, axes.x);
            const auto y = yOf(row);
            if (!x || !y || (axes.logX && *x <= 0)) {
                continue;
            }
            const int size = sized ? int(std::lround(markerSize(double(row.totalParams)))) : 7;
            bySize[size].push_back({*x, *y, index});
            extend(*x, *y);
        }
        bool first = true;
        for (auto& [size, points] : bySize) {
            std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
            QVector<double> xs;
            QVector<double> ys;
            QVariantList rowsOf;
            for (const Point& point : points) {
                xs << point.x;
                ys << point.y;
                rowsOf << QVariant::fromValue(qulonglong(point.row));
            }
            QCPGraph* graph = plot.addGraph();
            graph->setLineStyle(QCPGraph::lsNone);
            QColor fill = color;
            fill.setAlpha(110);
            graph->setScatterStyle(QCPScatterStyle(shape, color, fill, size));
            graph->setData(xs, ys, true);
            graph->setProperty("zooRows", rowsOf);
            graph->setName(name);
            if (!first) {
                graph->removeFromLegend();
            }
            first = false;
        }
    };
    if (which == Plot::LayerEstimate) {
        std::vector<std::size_t> all;
        for (const auto& family : families) {
            all.insert(all.end(), family.second.begin(), family.second.end());
        }
        addSeries(
            tr("12·L·d² rule"), views::colors::series(pal, 1), all,
            [](const core::ZooRow& row) { return core::zooNumber(row, core::ZooColumn::LayersRule12); },
            QCPScatterStyle::ssCircle);
        addSeries(
            tr("archplay's per-layer count"), views::colors::series(pal, 0), all,
            [](const core::ZooRow& row) { return core::zooNumber(row, core::ZooColumn::LayersPerLayer); },
            QCPScatterStyle::ssDiamond);
        if (any) {
            auto* diagonal = new QCPItemStraightLine(&plot);
            diagonal->point1->setCoords(0, 0);
            diagonal->point2->setCoords(1, 1);
            diagonal->setPen(QPen(views::colors::muted(pal), 1, Qt::DashLine));
        }
    } else {
        int colour = 0;
        for (const auto& [family, rows] : families) {
            const bool others = hasOthers && colour == int(kNamed);
            addSeries(
                qs(family), others ? views::colors::muted(pal) : views::colors::series(pal, colour), rows,
                [which, &axes](const core::ZooRow& row) { return plotY(row, which, axes.y); }, QCPScatterStyle::ssDisc);
            ++colour;
        }
    }

    // The current config, as the editor has it now.
    if (m_current && m_current->valid) {
        core::ZooInput input;
        input.source = "current";
        input.name = tr("current config").toStdString();
        input.imported.config = m_current->config;
        // From the analysis the window has, not a second one.
        const core::ZooRow row = core::zooRow(input, *m_current);
        const auto x = core::zooNumber(row, axes.x);
        const auto y = which == Plot::LayerEstimate ? core::zooNumber(row, core::ZooColumn::LayersPerLayer)
                                                    : plotY(row, which, axes.y);
        if (x && y) {
            QCPGraph* current = plot.addGraph();
            current->setName(tr("current config"));
            current->setLineStyle(QCPGraph::lsNone);
            current->setScatterStyle(
                QCPScatterStyle(QCPScatterStyle::ssCrossCircle, QPen(pal.color(QPalette::Text), 2.5), Qt::NoBrush, 16));
            current->addData(*x, *y);
            extend(*x, *y);
        }
    }
    if (any) {
        const double dy = std::max(yRange.size() * 0.08, 1.0);
        plot.yAxis->setRange(std::min(0.0, yRange.lower - dy), yRange.upper + dy);
        if (axes.logX) {
            plot.xAxis->setRange(std::max(1.0, xRange.lower / 1.5), xRange.upper * 1.5);
        } else {
            const double dx = std::max(xRange.size() * 0.05, 1.0);
            plot.xAxis->setRange(xRange.lower - dx, xRange.upper + dx);
        }
    }
    views::plot::applyPalette(plot, pal, font());
    plot.replot();
}

} // namespace archplay::ui::design
