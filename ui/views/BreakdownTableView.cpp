// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/BreakdownTableView.h"

#include "core/report/Tables.h"
#include "core/util/Format.h"
#include "ui/Strings.h"
#include "ui/theme/Theme.h"
#include "ui/widgets/ShapedText.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

namespace archplay::ui::views {

namespace {

enum Column { NameColumn, ParamsColumn, PerLayerColumn, ShareColumn, ShapeColumn, ColumnCount };
constexpr int kShareRole = Qt::UserRole + 1;
constexpr int kParamsRole = Qt::UserRole + 2;

QString shareText(double share) {
    if (share < 0) {
        return BreakdownTableView::tr("not counted");
    }
    return qs(core::percentText(share));
}

/// Draws the share column as a bar behind the percentage.
class ShareBarDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        const QWidget* widget = opt.widget;
        QStyle* style = widget ? widget->style() : QApplication::style();
        style->drawPrimitive(QStyle::PE_PanelItemViewItem, &opt, painter, widget);
        const double share = index.data(kShareRole).toDouble();
        if (share > 0) {
            QRectF bar = QRectF(opt.rect).adjusted(3, 4, -3, -4);
            bar.setWidth(bar.width() * std::min(1.0, share));
            painter->fillRect(bar, theme::shareBar(opt.palette));
        }
        const bool selected = opt.state & QStyle::State_Selected;
        painter->setPen(opt.palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
        painter->setFont(opt.font);
        painter->drawText(opt.rect.adjusted(6, 0, -6, 0), Qt::AlignRight | Qt::AlignVCenter, opt.text);
    }
};

void fillRows(const core::ParamNode& node, int depth, std::uint64_t total, bool counted,
              std::vector<BreakdownRow>& rows) {
    BreakdownRow row;
    row.depth = depth;
    row.name = qs(node.name);
    row.params = node.params;
    row.perLayer = qs(core::perLayerText(node));
    row.share = counted ? (total > 0 ? double(node.params) / double(total) : 0.0) : -1.0;
    row.shape = qs(core::toString(node.shape));
    rows.push_back(row);
    for (const core::ParamNode& child : node.children) {
        fillRows(child, depth + 1, total, counted, rows);
    }
}

void setRow(QTreeWidgetItem* item, const core::ParamNode& node, std::uint64_t total, bool counted) {
    const double share = counted ? (total > 0 ? double(node.params) / double(total) : 0.0) : -1.0;
    item->setText(NameColumn, qs(node.name));
    item->setText(ParamsColumn, qs(core::withThousands(node.params)));
    item->setData(ParamsColumn, kParamsRole, QVariant::fromValue<qulonglong>(node.params));
    item->setToolTip(ParamsColumn, BreakdownTableView::tr("%1 parameters (%2)")
                                       .arg(qs(core::withThousands(node.params)), qs(core::shortCount(node.params))));
    item->setText(PerLayerColumn, qs(core::perLayerText(node)));
    item->setToolTip(PerLayerColumn, qs(core::perLayerEquation(node)));
    item->setText(ShareColumn, shareText(share));
    item->setData(ShareColumn, kShareRole, share);
    item->setText(ShapeColumn, qs(core::toString(node.shape)));
    item->setTextAlignment(ParamsColumn, Qt::AlignRight | Qt::AlignVCenter);
    item->setTextAlignment(PerLayerColumn, Qt::AlignRight | Qt::AlignVCenter);
    item->setTextAlignment(ShareColumn, Qt::AlignRight | Qt::AlignVCenter);
    if (!counted) {
        QFont italic = item->font(NameColumn);
        italic.setItalic(true);
        for (int c = 0; c < ColumnCount; ++c) {
            item->setFont(c, italic);
        }
    }
}

/// Updates `parent`'s children to `nodes` in place, matching by name, so expanded branches stay
/// expanded while a slider moves.
void syncChildren(QTreeWidgetItem* parent, const std::vector<core::ParamNode>& nodes, std::uint64_t total, bool counted,
                  int depth) {
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const QString name = qs(nodes[i].name);
        QTreeWidgetItem* item = nullptr;
        for (int j = int(i); j < parent->childCount(); ++j) {
            if (parent->child(j)->text(NameColumn) == name) {
                item = parent->child(j);
                if (j != int(i)) {
                    const bool expanded = item->isExpanded();
                    parent->takeChild(j);
                    parent->insertChild(int(i), item);
                    item->setExpanded(expanded);
                }
                break;
            }
        }
        const bool created = item == nullptr;
        if (created) {
            item = new QTreeWidgetItem;
            parent->insertChild(int(i), item);
        }
        setRow(item, nodes[i], total, counted);
        syncChildren(item, nodes[i].children, total, counted, depth + 1);
        if (created) {
            item->setExpanded(depth == 0);
        }
    }
    while (parent->childCount() > int(nodes.size())) {
        delete parent->takeChild(parent->childCount() - 1);
    }
}

} // namespace

std::vector<BreakdownRow> breakdownRows(const core::ParamReport& params) {
    std::vector<BreakdownRow> rows;
    fillRows(params.breakdown, 0, params.total, true, rows);
    if (params.extras.params > 0) {
        fillRows(params.extras, 0, params.total, false, rows);
    }
    return rows;
}

BreakdownTableView::BreakdownTableView(QWidget* parent)
    : AnalysisView(parent)
    , m_tree(new QTreeWidget(this)) {
    m_tree->setObjectName(QStringLiteral("breakdown.tree"));
    m_tree->setColumnCount(ColumnCount);
    m_tree->setHeaderLabels({tr("Component"), tr("Parameters"), tr("Per layer"), tr("Share of total"), tr("Shape")});
    m_tree->headerItem()->setTextAlignment(ParamsColumn, Qt::AlignRight | Qt::AlignVCenter);
    m_tree->headerItem()->setTextAlignment(PerLayerColumn, Qt::AlignRight | Qt::AlignVCenter);
    m_tree->headerItem()->setTextAlignment(ShareColumn, Qt::AlignRight | Qt::AlignVCenter);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_tree->setItemDelegateForColumn(ShareColumn, new ShareBarDelegate(m_tree));
    m_tree->setAccessibleName(tr("Parameter breakdown"));
    QHeaderView* header = m_tree->header();
    // Numbers sit right after the names however wide the window; the shapes take what is left.
    header->setStretchLastSection(true);
    header->setSectionResizeMode(NameColumn, QHeaderView::Interactive);
    header->setSectionResizeMode(ParamsColumn, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(PerLayerColumn, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(ShareColumn, QHeaderView::Fixed);
    header->resizeSection(NameColumn, fontMetrics().horizontalAdvance(QLatin1Char('M')) * 26);
    header->resizeSection(ShareColumn, fontMetrics().horizontalAdvance(QStringLiteral("Share of total")) + 48);
    header->setMinimumSectionSize(60);

    auto* copy = new QAction(tr("Copy Rows"), m_tree);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    connect(copy, &QAction::triggered, this, &BreakdownTableView::copySelection);
    auto* copyAll = new QAction(tr("Copy Table as TSV"), m_tree);
    connect(copyAll, &QAction::triggered, this, [this] { QApplication::clipboard()->setText(toTsv()); });
    auto* expandAll = new QAction(tr("Expand All"), m_tree);
    connect(expandAll, &QAction::triggered, m_tree, &QTreeWidget::expandAll);
    auto* collapse = new QAction(tr("Collapse to Components"), m_tree);
    connect(collapse, &QAction::triggered, this, [this] { m_tree->expandToDepth(0); });
    m_tree->addActions({copy, copyAll, expandAll, collapse});
    m_tree->setContextMenuPolicy(Qt::ActionsContextMenu);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tree);
    connect(m_tree, &QTreeWidget::itemExpanded, this, &BreakdownTableView::fitNameColumn);
}

void BreakdownTableView::fitNameColumn() {
    // Grows to fit the names, never shrinks under the user's hand.
    const int current = m_tree->header()->sectionSize(NameColumn);
    m_tree->resizeColumnToContents(NameColumn);
    if (m_tree->header()->sectionSize(NameColumn) < current) {
        m_tree->header()->resizeSection(NameColumn, current);
    }
}

void BreakdownTableView::setSharedAnalysis(core::AnalysisPtr shared) {
    const core::Analysis& analysis = *shared;
    m_valid = analysis.valid;
    QTreeWidgetItem* root = m_tree->invisibleRootItem();
    if (!analysis.valid) {
        m_tree->clear();
        auto* item = new QTreeWidgetItem(m_tree, {tr("No breakdown: the config has errors (see Diagnostics).")});
        item->setFirstColumnSpanned(true);
        item->setFlags(Qt::ItemIsEnabled);
        return;
    }
    if (root->childCount() > 0 && root->child(0)->isFirstColumnSpanned()) {
        m_tree->clear();
    }
    std::vector<core::ParamNode> top{analysis.params.breakdown};
    if (analysis.params.extras.params > 0) {
        core::ParamNode extras = analysis.params.extras;
        top.push_back(std::move(extras));
    }
    syncChildren(root, {top.front()}, analysis.params.total, true, 0);
    if (top.size() > 1) {
        // The "not counted" branch is kept apart from the total.
        QTreeWidgetItem* extras = root->childCount() > 1 ? root->child(1) : nullptr;
        if (!extras) {
            extras = new QTreeWidgetItem;
            root->addChild(extras);
        }
        setRow(extras, top[1], analysis.params.total, false);
        syncChildren(extras, top[1].children, analysis.params.total, false, 1);
    } else {
        while (root->childCount() > 1) {
            delete root->takeChild(root->childCount() - 1);
        }
    }
    fitNameColumn();
}

std::vector<BreakdownRow> BreakdownTableView::visibleRows() const {
    std::vector<BreakdownRow> rows;
    if (!m_valid) {
        return rows;
    }
    std::function<void(const QTreeWidgetItem*, int)> visit = [&](const QTreeWidgetItem* item, int depth) {
        BreakdownRow row;
        row.depth = depth;
        row.name = item->text(NameColumn);
        row.params = item->data(ParamsColumn, kParamsRole).toULongLong();
        row.perLayer = item->text(PerLayerColumn);
        row.share = item->data(ShareColumn, kShareRole).toDouble();
        row.shape = item->text(ShapeColumn);
        rows.push_back(row);
        if (item->isExpanded()) {
            for (int i = 0; i < item->childCount(); ++i) {
                visit(item->child(i), depth + 1);
            }
        }
    };
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        visit(m_tree->topLevelItem(i), 0);
    }
    return rows;
}

QString BreakdownTableView::toTsv() const {
    QStringList lines{QStringLiteral("component\tparameters\tper layer\tshare\tshape")};
    for (const BreakdownRow& row : visibleRows()) {
        lines << QStringLiteral("%1%2\t%3\t%4\t%5\t%6")
                     .arg(QString(row.depth * 2, QLatin1Char(' ')), row.name, QString::number(row.params), row.perLayer,
                          row.share < 0 ? QStringLiteral("") : QString::number(row.share, 'f', 6), row.shape);
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void BreakdownTableView::copySelection() const {
    QStringList lines;
    for (QTreeWidgetItem* item : m_tree->selectedItems()) {
        lines << QStringLiteral("%1\t%2\t%3\t%4\t%5")
                     .arg(item->text(NameColumn), item->data(ParamsColumn, kParamsRole).toString(),
                          item->text(PerLayerColumn), item->text(ShareColumn), item->text(ShapeColumn));
    }
    if (!lines.isEmpty()) {
        QApplication::clipboard()->setText(lines.join(QLatin1Char('\n')) + QLatin1Char('\n'));
    }
}

void BreakdownTableView::render(QPainter& painter, const QRectF& target) const {
    const std::vector<BreakdownRow> rows = visibleRows();
    const QPalette& pal = palette();
    const QFont base = font();
    QFont bold = base;
    bold.setBold(true);
    const widgets::TextMetrics metrics(base);
    const qreal rowHeight = metrics.height() + 8;
    const qreal indent = metrics.horizontalAdvance(QStringLiteral("M")) * 1.5;
    const qreal pad = 8;

    // Measured in bold throughout: top-level rows and the header are drawn bold.
    const widgets::TextMetrics boldMetrics(bold);
    qreal nameWidth = boldMetrics.horizontalAdvance(tr("Component"));
    qreal paramsWidth = boldMetrics.horizontalAdvance(tr("Parameters"));
    qreal perLayerWidth = boldMetrics.horizontalAdvance(tr("Per layer"));
    qreal shapeWidth = boldMetrics.horizontalAdvance(tr("Shape"));
    for (const BreakdownRow& row : rows) {
        nameWidth = std::max(nameWidth, row.depth * indent + boldMetrics.horizontalAdvance(row.name));
        paramsWidth = std::max(paramsWidth, boldMetrics.horizontalAdvance(qs(core::withThousands(row.params))));
        perLayerWidth = std::max(perLayerWidth, boldMetrics.horizontalAdvance(row.perLayer));
        shapeWidth = std::max(shapeWidth, metrics.horizontalAdvance(row.shape));
    }
    const qreal shareWidth = metrics.horizontalAdvance(tr("Share of total")) + 48;
    const qreal naturalWidth = nameWidth + paramsWidth + perLayerWidth + shareWidth + shapeWidth + 10 * pad;
    const qreal naturalHeight = rowHeight * qreal(rows.size() + 1);
    const qreal scale = std::min({1.0, target.width() / naturalWidth, target.height() / naturalHeight});

    painter.save();
    painter.fillRect(target, pal.color(QPalette::Base));
    painter.translate(target.topLeft());
    painter.scale(scale, scale);
    const qreal width = target.width() / scale;
    // Numbers follow the names as in the tree; the shape column takes what is left.
    const qreal x1 = nameWidth + 4 * pad;
    const qreal xPerLayer = x1 + paramsWidth + 2 * pad;
    const qreal x2 = xPerLayer + perLayerWidth + 2 * pad;
    const qreal x3 = x2 + shareWidth;
    const qreal x4 = std::max(width, x3 + shapeWidth + 4 * pad);

    painter.fillRect(QRectF(0, 0, x4, rowHeight), pal.color(QPalette::Button));
    painter.setPen(pal.color(QPalette::ButtonText));
    painter.setFont(bold);
    painter.drawText(QRectF(pad, 0, x1 - 2 * pad, rowHeight), Qt::AlignLeft | Qt::AlignVCenter, tr("Component"));
    painter.drawText(QRectF(x1, 0, xPerLayer - x1 - pad, rowHeight), Qt::AlignRight | Qt::AlignVCenter,
                     tr("Parameters"));
    painter.drawText(QRectF(xPerLayer, 0, x2 - xPerLayer - pad, rowHeight), Qt::AlignRight | Qt::AlignVCenter,
                     tr("Per layer"));
    painter.drawText(QRectF(x2, 0, x3 - x2 - pad, rowHeight), Qt::AlignRight | Qt::AlignVCenter, tr("Share of total"));
    painter.drawText(QRectF(x3 + 2 * pad, 0, x4 - x3, rowHeight), Qt::AlignLeft | Qt::AlignVCenter, tr("Shape"));

    qreal y = rowHeight;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const BreakdownRow& row = rows[i];
        if (i % 2 == 1) {
            painter.fillRect(QRectF(0, y, x4, rowHeight), pal.color(QPalette::AlternateBase));
        }
        if (row.share > 0) {
            QRectF bar(x2 + 3, y + 4, (shareWidth - 6) * std::min(1.0, row.share), rowHeight - 8);
            painter.fillRect(bar, theme::shareBar(pal));
        }
        QFont rowFont = row.depth == 0 ? bold : base;
        rowFont.setItalic(row.share < 0);
        painter.setFont(rowFont);
        painter.setPen(pal.color(QPalette::Text));
        painter.drawText(QRectF(pad + row.depth * indent, y, x1 - pad - row.depth * indent, rowHeight),
                         Qt::AlignLeft | Qt::AlignVCenter, row.name);
        painter.drawText(QRectF(x1, y, xPerLayer - x1 - pad, rowHeight), Qt::AlignRight | Qt::AlignVCenter,
                         qs(core::withThousands(row.params)));
        painter.drawText(QRectF(xPerLayer, y, x2 - xPerLayer - pad, rowHeight), Qt::AlignRight | Qt::AlignVCenter,
                         row.perLayer);
        painter.drawText(QRectF(x2, y, x3 - x2 - pad, rowHeight), Qt::AlignRight | Qt::AlignVCenter,
                         shareText(row.share));
        painter.drawText(QRectF(x3 + 2 * pad, y, x4 - x3, rowHeight), Qt::AlignLeft | Qt::AlignVCenter, row.shape);
        y += rowHeight;
    }
    if (rows.empty()) {
        painter.setFont(base);
        painter.setPen(pal.color(QPalette::Text));
        painter.drawText(QRectF(pad, y, width - 2 * pad, rowHeight), Qt::AlignLeft | Qt::AlignVCenter,
                         tr("No breakdown: the config has errors."));
    }
    painter.restore();
}

} // namespace archplay::ui::views
