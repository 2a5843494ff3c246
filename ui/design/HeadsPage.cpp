// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/design/HeadsPage.h"

#include "core/analysis/DesignFigures.h"
#include "core/util/Format.h"
#include "ui/Strings.h"
#include "ui/design/DesignTable.h"
#include "ui/session/ModelBridge.h"
#include "ui/views/ViewColors.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace archplay::ui::design {
namespace {

enum HeadsPageColumn {
    HeadsColumn,
    HeadDimColumn,
    KvHeadsColumn,
    AttentionColumn,
    WidthColumn,
    TotalColumn,
    TotalDeltaColumn,
    KvColumn,
    KvDeltaColumn,
    NotesColumn,
    HeadsColumnCount
};

bool shown(const core::HeadConfig& config, bool exactOnly, bool usualOnly, bool tpOnly) {
    return config.current || ((!exactOnly || config.exactWidth) && (!usualOnly || config.usualHeadDim) &&
                              (!tpOnly || config.tensorParallel8));
}

QBrush usualBrush(const QPalette& palette) {
    return views::colors::faded(views::colors::series(palette, 2), 0.82, palette);
}

} // namespace

HeadsPage::HeadsPage(session::ModelBridge* bridge, QWidget* parent)
    : QWidget(parent)
    , m_bridge(bridge)
    , m_summary(new QLabel(this))
    , m_exactOnly(new QCheckBox(tr("Width = hidden size only"), this))
    , m_usualOnly(new QCheckBox(tr("head_dim 64–128 only"), this))
    , m_tpOnly(new QCheckBox(tr("8-way tensor parallel only"), this))
    , m_table(new QTableWidget(this))
    , m_apply(new QPushButton(tr("Apply"), this)) {
    m_summary->setWordWrap(true);
    m_exactOnly->setChecked(true);
    m_exactOnly->setToolTip(tr("Only the splits whose query width, heads × head_dim, equals hidden_size"));
    m_usualOnly->setToolTip(tr("Only head_dim from 64 to 128, where most published models sit"));
    m_tpOnly->setToolTip(tr("Only splits whose query heads divide by 8 and whose KV heads divide by 8 or divide 8 "
                            "(as vLLM and Megatron split them over 8 GPUs)"));
    m_apply->setToolTip(tr("Set the selected heads, head_dim and KV heads on the config (one undo step); a "
                           "double-click on a row does the same"));
    m_apply->setEnabled(false);
    m_table->setObjectName(QStringLiteral("design.heads"));
    m_table->setColumnCount(HeadsColumnCount);
    m_table->setHorizontalHeaderLabels({tr("Heads"), tr("head_dim"), tr("KV heads"), tr("Attention"), tr("Query width"),
                                        tr("Total"), tr("Δ total"), tr("KV / token"), tr("Δ KV / token"), tr("Notes")});
    m_table->horizontalHeaderItem(HeadsColumn)->setToolTip(tr("num_attention_heads"));
    m_table->horizontalHeaderItem(KvHeadsColumn)->setToolTip(tr("num_key_value_heads"));
    m_table->horizontalHeaderItem(WidthColumn)->setToolTip(tr("heads × head_dim: the width of q_proj's output"));
    m_table->horizontalHeaderItem(KvColumn)->setToolTip(tr("KV cache per token of context, all layers, at the "
                                                           "scenario's KV precision"));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSortingEnabled(true);

    auto* filters = new QHBoxLayout;
    filters->addWidget(m_exactOnly);
    filters->addWidget(m_usualOnly);
    filters->addWidget(m_tpOnly);
    filters->addStretch(1);
    filters->addWidget(m_apply);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addLayout(filters);
    layout->addWidget(m_table, 1);

    for (QCheckBox* box : {m_exactOnly, m_usualOnly, m_tpOnly}) {
        connect(box, &QCheckBox::toggled, this, &HeadsPage::fill);
    }
    connect(m_table, &QTableWidget::itemSelectionChanged, this,
            [this] { m_apply->setEnabled(!m_table->selectedItems().isEmpty()); });
    connect(m_apply, &QPushButton::clicked, this, [this] {
        if (!m_table->selectedItems().isEmpty()) {
            applyRow(m_table->selectedItems().first()->row());
        }
    });
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) { applyRow(row); });
}

void HeadsPage::setCurrent(const core::AnalysisPtr& analysis) {
    if (m_analysis && analysis && m_analysis->config == analysis->config &&
        m_analysis->scenario.kvDType == analysis->scenario.kvDType) {
        return;
    }
    m_analysis = analysis;
    m_list = analysis && analysis->valid ? core::listHeadConfigs(analysis->config, analysis->scenario.kvDType)
                                         : core::HeadConfigList{{}, "the configuration has errors"};
    fill();
}

std::vector<core::HeadShape> HeadsPage::shownShapes() const {
    std::vector<core::HeadShape> shapes;
    for (const core::HeadConfig& config : m_list.configs) {
        if (shown(config, m_exactOnly->isChecked(), m_usualOnly->isChecked(), m_tpOnly->isChecked())) {
            shapes.push_back(config.shape);
        }
    }
    return shapes;
}

void HeadsPage::fill() {
    m_table->setSortingEnabled(false);
    m_table->clearContents();
    m_table->setRowCount(0);
    if (!m_analysis) {
        return;
    }
    if (m_list.configs.empty()) {
        m_summary->setText(tr("No head configurations to list: %1.").arg(qs(m_list.reason)));
        return;
    }
    const bool exactOnly = m_exactOnly->isChecked();
    const bool usualOnly = m_usualOnly->isChecked();
    const bool tpOnly = m_tpOnly->isChecked();
    const QFont bold = [this] {
        QFont font = m_table->font();
        font.setBold(true);
        return font;
    }();
    for (const core::HeadConfig& config : m_list.configs) {
        if (!shown(config, exactOnly, usualOnly, tpOnly)) {
            continue;
        }
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        auto number = [](std::int64_t value) {
            return new DesignTableItem(qs(core::withThousands(std::uint64_t(value))), double(value));
        };
        m_table->setItem(row, HeadsColumn, number(config.shape.numHeads));
        m_table->setItem(row, HeadDimColumn, number(config.shape.headDim));
        m_table->setItem(row, KvHeadsColumn, number(config.shape.numKvHeads));
        m_table->setItem(row, AttentionColumn, new DesignTableItem(qs(std::string(core::toString(config.family)))));
        m_table->setItem(row, WidthColumn, number(config.queryWidth));
        m_table->setItem(row, TotalColumn,
                         new DesignTableItem(qs(core::shortCount(config.totalParams)), double(config.totalParams),
                                             qs(core::withThousands(config.totalParams))));
        m_table->setItem(
            row, TotalDeltaColumn,
            new DesignTableItem(
                qs(core::figureDifferenceText(core::DesignFigure::TotalParams, double(config.totalParamsDelta))),
                double(config.totalParamsDelta),
                qs(core::figureDifferenceExactText(core::DesignFigure::TotalParams, double(config.totalParamsDelta)))));
        m_table->setItem(row, KvColumn,
                         new DesignTableItem(qs(core::binaryBytes(config.kvBytesPerToken)),
                                             double(config.kvBytesPerToken),
                                             qs(core::withThousands(config.kvBytesPerToken))));
        m_table->setItem(row, KvDeltaColumn,
                         new DesignTableItem(qs(core::figureDifferenceText(core::DesignFigure::KvBytesPerToken,
                                                                           double(config.kvBytesPerTokenDelta))),
                                             double(config.kvBytesPerTokenDelta)));
        QStringList notes;
        if (config.current) {
            notes << tr("current");
        }
        if (config.usualHeadDim) {
            notes << tr("head_dim 64–128");
        }
        if (config.tensorParallel8) {
            notes << tr("TP 8");
        }
        m_table->setItem(row, NotesColumn, new DesignTableItem(notes.join(QStringLiteral(" · "))));
        m_table->item(row, HeadsColumn)
            ->setData(Qt::UserRole, QVariant::fromValue(qsizetype(&config - m_list.configs.data())));
        // The splits published models use (head_dim 64-128 over 8 GPUs) stand out; the current one is bold.
        const QBrush usual = usualBrush(palette());
        for (int column = 0; column < HeadsColumnCount; ++column) {
            if (config.current) {
                m_table->item(row, column)->setFont(bold);
            }
            if (config.usualHeadDim && config.tensorParallel8) {
                m_table->item(row, column)->setBackground(usual);
            }
        }
    }
    m_table->setSortingEnabled(true);
    m_table->resizeColumnsToContents();
    m_summary->setText(
        tr("Hidden size %1: %2 valid splits of the attention into heads (%3 shown). Counts and caches are the "
           "core's own for each applied config; Δ is against the current config (bold).")
            .arg(qs(core::withThousands(std::uint64_t(m_analysis->config.hiddenSize))),
                 qs(core::withThousands(m_list.configs.size())),
                 qs(core::withThousands(std::uint64_t(m_table->rowCount())))));
}

void HeadsPage::applyRow(int row) {
    const QTableWidgetItem* item = m_table->item(row, HeadsColumn);
    if (!item || !m_analysis) {
        return;
    }
    const auto index = item->data(Qt::UserRole).value<qsizetype>();
    if (index < 0 || std::size_t(index) >= m_list.configs.size()) {
        return;
    }
    const core::HeadShape shape = m_list.configs[std::size_t(index)].shape;
    m_bridge->edit(
        tr("Heads → %1 × %2, %3 KV").arg(shape.numHeads).arg(shape.headDim).arg(shape.numKvHeads),
        [shape](core::ModelConfig& config, core::Scenario&) { config = core::applyHeadShape(config, shape); });
    emit message(
        tr("Applied %1 heads of %2 with %3 KV heads.").arg(shape.numHeads).arg(shape.headDim).arg(shape.numKvHeads));
}

} // namespace archplay::ui::design
