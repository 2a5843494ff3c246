// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/design/SearchPage.h"

#include "core/report/ReportText.h"
#include "core/report/Tables.h"
#include "core/util/Format.h"
#include "ui/Strings.h"
#include "ui/design/DesignTable.h"
#include "ui/design/SearchColumns.h"
#include "ui/session/ModelBridge.h"
#include "ui/views/ViewColors.h"
#include "ui/views/charts/PlotSupport.h"
#include "ui/widgets/IntField.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <qcustomplot.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <variant>

namespace archplay::ui::design {
namespace {

widgets::SnapSpinBox* countField(QWidget* parent, widgets::NumberStyle style, qint64 value, const QString& tip) {
    auto* field = new widgets::SnapSpinBox(parent);
    field->setNumberStyle(style);
    field->setRange(1, std::numeric_limits<qint64>::max());
    field->setValue(value);
    field->setToolTip(tip);
    return field;
}

/// The axis choices of the scatter: every design figure, then the candidate's own figures.
std::vector<core::SearchAxis> axisChoices() {
    std::vector<core::SearchAxis> axes;
    for (const core::DesignFigureInfo& info : core::designFigures()) {
        axes.emplace_back(info.figure);
    }
    axes.emplace_back(core::CandidateFigure::Distance);
    axes.emplace_back(core::CandidateFigure::Plausibility);
    axes.emplace_back(core::CandidateFigure::Score);
    return axes;
}

/// Wide enough for the longest value the field takes, so no digit is cut.
void fitWidth(widgets::SnapSpinBox* field, const QString& longest) {
    field->setMinimumWidth(field->fontMetrics().horizontalAdvance(longest) + 48);
}

} // namespace

SearchPage::SearchPage(session::ModelBridge* bridge, QWidget* parent)
    : QWidget(parent)
    , m_bridge(bridge)
    , m_params(countField(this, widgets::NumberStyle::Count, 7'000'000'000,
                          tr("Total parameters to aim for: type 7B, 1.5B, 350M or an exact count")))
    , m_activeOn(new QCheckBox(tr("active"), this))
    , m_active(countField(this, widgets::NumberStyle::Count, 1'000'000'000,
                          tr("Parameters one token uses, for a mixture of experts")))
    , m_tolerance(new QDoubleSpinBox(this))
    , m_kind(new QComboBox(this))
    , m_headDims{new QCheckBox(QStringLiteral("64"), this), new QCheckBox(QStringLiteral("128"), this),
                 new QCheckBox(QStringLiteral("256"), this)}
    , m_kvOn(new QCheckBox(tr("KV / token ≤"), this))
    , m_kvBudget(countField(this, widgets::NumberStyle::Size, 131072,
                            tr("Most KV cache one token of context may cost, all layers, at the scenario's KV "
                               "precision (bytes; 128k = 131,072)")))
    , m_kvScenarioOn(new QCheckBox(tr("KV at scenario ≤"), this))
    , m_kvScenarioBudget(countField(this, widgets::NumberStyle::Size, 8ll << 30,
                                    tr("Most KV cache at the scenario's sequence length and batch (bytes; 8G is "
                                       "not read: type 8,589,934,592 or 8192M)")))
    , m_fitServing(new QCheckBox(tr("weights + cache fit the scenario's GPUs"), this))
    , m_fitTraining(new QCheckBox(tr("training fits the scenario's GPUs"), this))
    , m_flopsOn(new QCheckBox(tr("FLOPs / token ≤"), this))
    , m_flopsBudget(countField(this, widgets::NumberStyle::Count, 20'000'000'000,
                               tr("Most forward FLOPs of one decode step at the scenario's sequence length")))
    , m_limit(new QSpinBox(this))
    , m_xAxis(new QComboBox(this))
    , m_yAxis(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_seed(new QLabel(this))
    , m_table(new QTableWidget(this))
    , m_scatter(views::plot::createPlot(this))
    , m_hint(new QLabel(tr("Select a design to show it in every view (one undo step each)"), this)) {
    fitWidth(m_params, QStringLiteral("999,999,999,999"));
    fitWidth(m_active, QStringLiteral("999,999,999,999"));
    fitWidth(m_kvBudget, QStringLiteral("99,999,999"));
    fitWidth(m_kvScenarioBudget, QStringLiteral("9,999,999,999,999"));
    fitWidth(m_flopsBudget, QStringLiteral("999,999,999,999"));
    m_tolerance->setRange(0, 100);
    m_tolerance->setDecimals(1);
    m_tolerance->setSuffix(QStringLiteral(" %"));
    m_tolerance->setValue(5);
    m_tolerance->setToolTip(tr("Accepted distance from the parameter target(s), as a share of the target"));
    m_kind->addItem(tr("Dense (MHA, GQA, MQA)"));
    m_kind->addItem(tr("Mixture of experts"));
    m_kind->addItem(tr("MoE with latent attention (MLA)"));
    m_kind->setToolTip(tr("Which decoders to search: Llama-style dense, Qwen3-MoE-style, or DeepSeek-V3-style"));
    m_headDims[1]->setChecked(true);
    for (QCheckBox* box : m_headDims) {
        box->setToolTip(tr("head_dim values to try"));
    }
    m_limit->setRange(1, 1000);
    m_limit->setValue(25);
    m_limit->setToolTip(tr("Results listed"));
    m_status->setWordWrap(true);
    m_seed->setWordWrap(true);
    m_seed->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_hint->setForegroundRole(QPalette::PlaceholderText);

    for (const core::SearchAxis& axis : axisChoices()) {
        m_xAxis->addItem(qs(std::string(core::axisLabel(axis))), qs(std::string(core::axisKey(axis))));
        m_yAxis->addItem(qs(std::string(core::axisLabel(axis))), qs(std::string(core::axisKey(axis))));
    }
    m_xAxis->setCurrentIndex(m_xAxis->findData(QStringLiteral("total_params")));
    m_yAxis->setCurrentIndex(m_yAxis->findData(QStringLiteral("kv_bytes_per_token")));
    m_xAxis->setToolTip(tr("The scatter's horizontal figure; the Pareto front is taken on both axes"));
    m_yAxis->setToolTip(tr("The scatter's vertical figure"));

    QToolButton* exportButton = design::exportButton(this);
    QMenu* exportMenu = exportButton->menu();
    exportMenu->addAction(tr("Results as JSON…"), this, [this] { exportResults(core::ExportFormat::Json); });
    exportMenu->addAction(tr("Scatter as PNG…"), this, [this] { exportResults(core::ExportFormat::Png); });
    exportMenu->addAction(tr("Scatter as SVG…"), this, [this] { exportResults(core::ExportFormat::Svg); });
    exportMenu->addAction(tr("Scatter as PDF…"), this, [this] { exportResults(core::ExportFormat::Pdf); });

    // Three rows, each its own box: a grid would line the rows' columns up and widen the window.
    auto boxOf = [](std::initializer_list<QWidget*> widgets) {
        auto* box = new QHBoxLayout;
        for (QWidget* widget : widgets) {
            box->addWidget(widget);
        }
        return box;
    };
    QHBoxLayout* targetRow =
        boxOf({new QLabel(tr("Total"), this), m_params, m_activeOn, m_active, new QLabel(tr("within"), this),
               m_tolerance, m_kind, new QLabel(tr("head_dim"), this), m_headDims[0], m_headDims[1], m_headDims[2]});
    targetRow->addStretch(1);
    QHBoxLayout* budgetRow = boxOf({m_kvOn, m_kvBudget, m_kvScenarioOn, m_kvScenarioBudget, m_flopsOn, m_flopsBudget});
    budgetRow->addStretch(1);
    QHBoxLayout* fits = boxOf({m_fitServing, m_fitTraining});
    fits->addStretch(1);
    fits->addWidget(new QLabel(tr("show"), this));
    fits->addWidget(m_limit);
    fits->addWidget(m_hint);
    fits->addWidget(exportButton);

    m_table->setObjectName(QStringLiteral("design.search.results"));
    m_table->setColumnCount(ColumnCount);
    m_table->setHorizontalHeaderLabels({tr("#"), tr("Layers"), tr("Hidden"), tr("Attention"), tr("head_dim"), tr("FFN"),
                                        tr("Total"), tr("Active"), tr("KV / token"), tr("Weights"), tr("FLOPs / token"),
                                        tr("Rules"), tr("Distance"), tr("Pareto"), tr("Why it ranks here")});
    m_table->horizontalHeaderItem(Plausibility)
        ->setToolTip(tr("Sum of the penalties of the rules published models follow (0: follows every rule)"));
    m_table->horizontalHeaderItem(Distance)->setToolTip(tr("|total − target| (+ |active − active target|)"));
    m_table->horizontalHeaderItem(Pareto)->setToolTip(tr("Not dominated on the scatter's two figures"));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSortingEnabled(true);

    auto* axes = new QHBoxLayout;
    axes->addWidget(new QLabel(tr("Scatter"), this));
    axes->addWidget(m_xAxis);
    axes->addWidget(new QLabel(tr("against"), this));
    axes->addWidget(m_yAxis);
    axes->addStretch(1);
    auto* plotHost = new QWidget(this);
    auto* plotLayout = new QVBoxLayout(plotHost);
    plotLayout->setContentsMargins(0, 0, 0, 0);
    plotLayout->addLayout(axes);
    plotLayout->addWidget(m_scatter, 1);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_table);
    split->addWidget(plotHost);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(targetRow);
    layout->addLayout(budgetRow);
    layout->addLayout(fits);
    layout->addWidget(m_status);
    layout->addWidget(m_seed);
    layout->addWidget(split, 1);

    // The legend below the scatter: inside, it could cover the seed design or a result.
    views::plot::placeLegendBelow(*m_scatter);

    auto rerun = [this] {
        search();
    };
    for (widgets::SnapSpinBox* field : {m_params, m_active, m_kvBudget, m_kvScenarioBudget, m_flopsBudget}) {
        connect(field, &widgets::SnapSpinBox::valueChanged, this, rerun);
    }
    for (QCheckBox* box : {m_activeOn, m_kvOn, m_kvScenarioOn, m_fitServing, m_fitTraining, m_flopsOn, m_headDims[0],
                           m_headDims[1], m_headDims[2]}) {
        connect(box, &QCheckBox::toggled, this, rerun);
    }
    connect(m_tolerance, &QDoubleSpinBox::valueChanged, this, rerun);
    connect(m_kind, &QComboBox::currentIndexChanged, this, rerun);
    connect(m_limit, &QSpinBox::valueChanged, this, rerun);
    connect(m_xAxis, &QComboBox::currentIndexChanged, this, rerun);
    connect(m_yAxis, &QComboBox::currentIndexChanged, this, rerun);
    // Selecting a design shows it in every view: it becomes the editor's config, one undo step.
    connect(m_table, &QTableWidget::itemSelectionChanged, this, [this] {
        if (!m_table->selectedItems().isEmpty()) {
            loadCandidate(m_table->item(m_table->selectedItems().first()->row(), Rank)->data(Qt::UserRole).toInt());
        }
        drawScatter();
    });
    m_ready = true;
}

void SearchPage::setCurrent(const core::AnalysisPtr& analysis) {
    const bool scenarioChanged = !m_current || !analysis || !(m_current->scenario == analysis->scenario);
    m_current = analysis;
    if (scenarioChanged || m_result.candidates.empty()) {
        search(); // the targets are the page's own: only the scenario (KV precision, GPUs) moves the results
    }
}

void SearchPage::setTargetParams(qint64 params) {
    m_params->setValue(params);
}

void SearchPage::setKind(int kind) {
    m_kind->setCurrentIndex(kind);
}

core::TargetSpace SearchPage::space() const {
    core::TargetSpace space;
    space.moe = m_kind->currentIndex() >= 1;
    space.mla = m_kind->currentIndex() == 2;
    space.headDims.clear();
    for (QCheckBox* box : m_headDims) {
        if (box->isChecked()) {
            space.headDims.push_back(box->text().toLongLong());
        }
    }
    return space;
}

core::SearchTargets SearchPage::targets() const {
    core::SearchTargets targets;
    targets.params = std::uint64_t(m_params->value());
    if (m_activeOn->isChecked()) {
        targets.activeParams = std::uint64_t(m_active->value());
    }
    targets.tolerance = m_tolerance->value() / 100.0;
    if (m_kvOn->isChecked()) {
        targets.maxKvBytesPerToken = std::uint64_t(m_kvBudget->value());
    }
    if (m_kvScenarioOn->isChecked()) {
        targets.maxKvBytesScenario = std::uint64_t(m_kvScenarioBudget->value());
    }
    targets.fitServing = m_fitServing->isChecked();
    targets.fitTraining = m_fitTraining->isChecked();
    if (m_flopsOn->isChecked()) {
        targets.maxFlopsPerToken = std::uint64_t(m_flopsBudget->value());
    }
    if (m_current) {
        targets.scenario = m_current->scenario;
    }
    targets.top = std::size_t(m_limit->value());
    if (auto x = core::axisFromKey(m_xAxis->currentData().toString().toStdString())) {
        targets.paretoX = *x;
    }
    if (auto y = core::axisFromKey(m_yAxis->currentData().toString().toStdString())) {
        targets.paretoY = *y;
    }
    return targets;
}

SearchPage::~SearchPage() {
    if (m_cancel) {
        m_cancel->store(true); // the worker returns at its next width; it holds no pointer to the page
    }
}

bool SearchPage::searching() const {
    return m_cancel && !m_cancel->load();
}

void SearchPage::search() {
    if (!m_ready || !m_current || !isVisible()) {
        return;
    }
    if (m_cancel) {
        m_cancel->store(true);
    }
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancel;
    core::SearchTargets wanted = targets();
    wanted.progress = [cancel](double) {
        return !cancel->load();
    };
    const core::TargetSpace range = space();
    m_status->setText(tr("Searching…"));
    auto* watcher = new QFutureWatcher<core::TargetSearchResult>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, cancel, wanted] {
        watcher->deleteLater();
        if (cancel->exchange(true)) {
            return; // a newer search took its place
        }
        m_result = watcher->result();
        showResult(wanted);
    });
    watcher->setFuture(QtConcurrent::run([range, wanted] { return core::searchTargets(range, wanted); }));
}

void SearchPage::showResult(const core::SearchTargets& wanted) {
    m_seedDesign = core::seedDesign(wanted);
    QStringList lines;
    for (const core::Diagnostic& d : m_result.diagnostics) {
        lines << (d.field.empty() ? qs(d.message) : tr("%1: %2").arg(qs(d.field), qs(d.message)));
    }
    if (!core::hasErrors(m_result.diagnostics)) {
        lines << tr("%1 candidates searched, %2 meet every target; the best %3 are listed, ranked by the rules "
                    "published models follow plus the distance to the target.")
                     .arg(qs(core::withThousands(m_result.evaluated)), qs(core::withThousands(m_result.matched)))
                     .arg(m_result.candidates.size());
    }
    m_status->setText(lines.join(QLatin1Char('\n')));
    if (m_seedDesign.analysis && m_seedDesign.analysis->valid) {
        const core::DesignShape& s = m_seedDesign.shape;
        m_seed->setText(tr("Seed heuristic (12·L·d² = target, L ≈ d/100, head_dim 128, FFN 8/3): %1 layers × %2 "
                           "hidden, %3 heads / %4 KV, FFN %5 → exactly %6 parameters (%7 against the target).")
                            .arg(QString::number(s.layers), qs(core::withThousands(std::uint64_t(s.hiddenSize))),
                                 QString::number(s.numHeads), QString::number(s.numKvHeads),
                                 qs(core::withThousands(std::uint64_t(s.intermediateSize))),
                                 qs(core::withThousands(m_seedDesign.analysis->params.total)),
                                 qs(core::figureDifferenceText(core::DesignFigure::TotalParams,
                                                               double(m_seedDesign.analysis->params.total) -
                                                                   double(wanted.params)))));
    } else {
        m_seed->clear();
    }
    fillTable();
    drawScatter();
    emit searched();
}

void SearchPage::fillTable() {
    m_table->setSortingEnabled(false);
    m_table->clearContents();
    m_table->setRowCount(int(m_result.candidates.size()));
    for (std::size_t i = 0; i < m_result.candidates.size(); ++i) {
        const core::TargetCandidate& c = m_result.candidates[i];
        const int row = int(i);
        auto count = [](std::uint64_t value) {
            return new DesignTableItem(qs(core::shortCount(value)), double(value), qs(core::withThousands(value)));
        };
        auto bytes = [](std::uint64_t value) {
            return new DesignTableItem(qs(core::binaryBytes(value)), double(value), qs(core::withThousands(value)));
        };
        auto* rank = new DesignTableItem(QString::number(i + 1), double(i + 1));
        rank->setData(Qt::UserRole, int(i));
        m_table->setItem(row, Rank, rank);
        m_table->setItem(row, Layers, new DesignTableItem(QString::number(c.shape.layers), double(c.shape.layers)));
        m_table->setItem(row, Hidden,
                         new DesignTableItem(qs(core::withThousands(std::uint64_t(c.shape.hiddenSize))),
                                             double(c.shape.hiddenSize)));
        const core::ModelConfig* config = c.analysis ? &c.analysis->config : nullptr;
        m_table->setItem(row, Attention, new DesignTableItem(config ? qs(core::attentionLabel(*config)) : QString()));
        m_table->setItem(row, HeadDim, new DesignTableItem(QString::number(c.shape.headDim), double(c.shape.headDim)));
        m_table->setItem(row, Ffn, new DesignTableItem(config ? qs(core::ffnLabel(*config)) : QString()));
        m_table->setItem(row, Total, count(c.params));
        m_table->setItem(row, Active, count(c.activeParams));
        m_table->setItem(row, KvPerToken, bytes(c.kvBytesPerToken));
        m_table->setItem(row, Weights, bytes(c.weightBytes));
        m_table->setItem(row, Flops,
                         new DesignTableItem(qs(core::flopText(double(c.flopsPerToken))), double(c.flopsPerToken)));
        m_table->setItem(row, Plausibility,
                         new DesignTableItem(QString::number(c.plausibility, 'f', 2), c.plausibility));
        m_table->setItem(row, Distance, count(c.distance));
        m_table->setItem(row, Pareto, new DesignTableItem(c.pareto ? QStringLiteral("✓") : QString()));
        QStringList why;
        for (const core::RulePenalty& penalty : c.penalties) {
            why << tr("%1 (+%2)").arg(qs(penalty.text)).arg(penalty.penalty, 0, 'f', 2);
        }
        if (why.isEmpty()) {
            why << tr("follows every rule");
        }
        why << tr("%1 from the target").arg(qs(core::shortCount(c.distance)));
        m_table->setItem(
            row, Why, new DesignTableItem(why.join(QStringLiteral("; ")), std::nullopt, why.join(QLatin1Char('\n'))));
    }
    m_table->setSortingEnabled(true);
    m_table->resizeColumnsToContents();
    m_table->setColumnWidth(Why, std::min(m_table->columnWidth(Why), 480));
}

void SearchPage::loadCandidate(int index) {
    if (index < 0 || std::size_t(index) >= m_result.candidates.size()) {
        return;
    }
    const core::TargetCandidate& c = m_result.candidates[std::size_t(index)];
    const core::ModelConfig config = c.analysis ? c.analysis->config : core::designConfig(c.shape);
    if (config == m_bridge->config()) {
        return; // shown already: selecting it again adds no step
    }
    session::ConfigOrigin origin;
    origin.label = tr("Design %1").arg(qs(core::shortCount(c.params)));
    origin.base = config;
    m_bridge->loadConfig(config, origin, tr("Load design %1").arg(qs(core::shortCount(c.params))));
    emit message(tr("Design %1 (%2 parameters) is the editor's config now; Undo brings the previous one back.")
                     .arg(index + 1)
                     .arg(qs(core::withThousands(c.params))));
}

void SearchPage::exportResults(core::ExportFormat format) {
    if (format == core::ExportFormat::Json) {
        const core::SearchTargets wanted = targets();
        emit message(saveWithDialog(this, m_chooseFile, tr("the search results"), QStringLiteral("search.json"), format,
                                    [this, wanted](QString*) {
                                        return QByteArray::fromStdString(
                                            core::targetSearchJson(m_result, wanted, &m_seedDesign).dump(2) + "\n");
                                    }));
        return;
    }
    const QString caption =
        m_current ? tr("Search for %1 parameters · %2")
                        .arg(qs(core::shortCount(std::uint64_t(m_params->value()))), qs(core::scenarioLine(*m_current)))
                  : QString();
    emit message(saveChart(this, m_chooseFile, tr("the search scatter"), QStringLiteral("search"),
                           ChartFigure{m_scatter, caption}, format));
}

void SearchPage::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        drawScatter();
    }
}

} // namespace archplay::ui::design
