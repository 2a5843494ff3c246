// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/PresetPicker.h"

#include "core/analysis/Analysis.h"
#include "core/io/Presets.h"
#include "core/util/Format.h"
#include "ui/Strings.h"

#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTreeView>
#include <QVBoxLayout>

namespace archplay::ui::panels {

namespace {

constexpr int kPresetIdRole = Qt::UserRole + 1;
constexpr int kSearchRole = Qt::UserRole + 2;

} // namespace

PresetPicker::PresetPicker(QWidget* parent)
    : QWidget(parent)
    , m_search(new QLineEdit(this))
    , m_view(new QTreeView(this))
    , m_model(new QStandardItemModel(this))
    , m_proxy(new QSortFilterProxyModel(this)) {
    m_search->setObjectName(QStringLiteral("presets.search"));
    m_search->setPlaceholderText(tr("Search presets: name, family, size…"));
    m_search->setClearButtonEnabled(true);
    m_search->setAccessibleName(tr("Search presets"));
    m_search->installEventFilter(this);

    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterRole(kSearchRole);
    m_proxy->setFilterKeyColumn(0);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_proxy->setAutoAcceptChildRows(true);

    m_view->setObjectName(QStringLiteral("presets.view"));
    m_view->setModel(m_proxy);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAllColumnsShowFocus(true);
    m_view->setAccessibleName(tr("Presets"));
    m_view->installEventFilter(this);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addWidget(m_search);
    layout->addWidget(m_view);

    populate();

    connect(m_search, &QLineEdit::textChanged, this, &PresetPicker::setFilterText);
    connect(m_view, &QTreeView::clicked, this, &PresetPicker::choose);
    connect(m_view, &QTreeView::activated, this, &PresetPicker::choose);
}

void PresetPicker::populate() {
    m_model->setHorizontalHeaderLabels({tr("Preset"), tr("Parameters"), tr("Source")});
    QStandardItem* family = nullptr;
    QString familyName;
    for (const core::Preset& preset : core::builtinPresets()) {
        const core::PresetInfo& info = preset.info;
        if (!family || familyName != qs(info.family)) {
            familyName = qs(info.family);
            family = new QStandardItem(familyName);
            QFont bold = family->font();
            bold.setBold(true);
            family->setFont(bold);
            family->setFlags(Qt::ItemIsEnabled);
            family->setData(familyName, kSearchRole);
            auto* blank1 = new QStandardItem;
            auto* blank2 = new QStandardItem;
            blank1->setFlags(Qt::ItemIsEnabled);
            blank2->setFlags(Qt::ItemIsEnabled);
            m_model->appendRow({family, blank1, blank2});
        }
        auto* name = new QStandardItem(qs(info.name));
        name->setData(qs(info.id), kPresetIdRole);
        name->setData(
            QStringList{qs(info.name), qs(info.id), qs(info.family), qs(info.source), qs(info.publishedLabel)}.join(
                QLatin1Char(' ')),
            kSearchRole);
        QString count;
        QString countTip;
        if (info.publishedParams) {
            count = qs(core::presetSizeLabel(info));
            countTip = tr("Published: %1 parameters").arg(qs(core::withThousands(*info.publishedParams)));
            if (!info.paramsSource.empty()) {
                countTip += tr("<br>Source: %1").arg(qs(info.paramsSource).toHtmlEscaped());
            }
        } else if (auto config = core::presetConfig(preset)) {
            const core::Analysis analysis = core::analyze(*config, core::Scenario{});
            if (analysis.valid) {
                count = qs(core::shortCount(analysis.params.total));
                countTip = tr("Computed: %1 parameters (no published count)")
                               .arg(qs(core::withThousands(analysis.params.total)));
            }
        }
        auto* params = new QStandardItem(count);
        params->setData(QVariant(int(Qt::AlignRight | Qt::AlignVCenter)), Qt::TextAlignmentRole);
        params->setToolTip(countTip);
        params->setData(qs(info.id), kPresetIdRole);
        auto* source = new QStandardItem(qs(info.source));
        source->setData(qs(info.id), kPresetIdRole);
        QString tip =
            QStringLiteral("<b>%1</b><br>%2").arg(qs(info.name).toHtmlEscaped(), qs(info.source).toHtmlEscaped());
        if (!info.notes.empty()) {
            tip += QStringLiteral("<p>%1</p>").arg(qs(info.notes).toHtmlEscaped());
        }
        name->setToolTip(tip);
        source->setToolTip(tip);
        for (QStandardItem* item : {name, params, source}) {
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        }
        family->appendRow({name, params, source});
    }
    m_view->expandAll();
    m_view->header()->setStretchLastSection(true);
    m_view->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_view->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
}

void PresetPicker::setFilterText(const QString& text) {
    if (m_search->text() != text) {
        m_search->setText(text);
        return;
    }
    m_proxy->setFilterFixedString(text.trimmed());
    m_view->expandAll();
    const QModelIndex first = firstVisiblePreset();
    if (first.isValid() && !text.isEmpty()) {
        m_view->setCurrentIndex(first);
    }
}

void PresetPicker::setCurrentPreset(const QString& id) {
    m_current = id;
    for (int f = 0; f < m_model->rowCount(); ++f) {
        QStandardItem* family = m_model->item(f);
        for (int r = 0; r < family->rowCount(); ++r) {
            QStandardItem* item = family->child(r);
            QFont font = item->font();
            font.setBold(!id.isEmpty() && item->data(kPresetIdRole).toString() == id);
            item->setFont(font);
        }
    }
}

void PresetPicker::focusSearch() {
    m_search->setFocus(Qt::ShortcutFocusReason);
    m_search->selectAll();
}

int PresetPicker::visiblePresetCount() const {
    int count = 0;
    for (int f = 0; f < m_proxy->rowCount(); ++f) {
        count += m_proxy->rowCount(m_proxy->index(f, 0));
    }
    return count;
}

QModelIndex PresetPicker::firstVisiblePreset() const {
    for (int f = 0; f < m_proxy->rowCount(); ++f) {
        const QModelIndex family = m_proxy->index(f, 0);
        if (m_proxy->rowCount(family) > 0) {
            return m_proxy->index(0, 0, family);
        }
    }
    return {};
}

void PresetPicker::choose(const QModelIndex& proxyIndex) {
    const QString id = proxyIndex.siblingAtColumn(0).data(kPresetIdRole).toString();
    if (!id.isEmpty()) {
        emit presetChosen(id);
    }
}

bool PresetPicker::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() != QEvent::KeyPress) {
        return QWidget::eventFilter(watched, event);
    }
    auto* key = static_cast<QKeyEvent*>(event);
    if (watched == m_search) {
        if (key->key() == Qt::Key_Down || key->key() == Qt::Key_PageDown) {
            m_view->setFocus();
            if (!m_view->currentIndex().isValid()) {
                m_view->setCurrentIndex(firstVisiblePreset());
            }
            return true;
        }
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            const QModelIndex current = m_view->currentIndex();
            choose(current.isValid() ? current : firstVisiblePreset());
            return true;
        }
    } else if (watched == m_view && !key->text().isEmpty() && key->text().at(0).isPrint() &&
               key->modifiers() == Qt::NoModifier && key->key() != Qt::Key_Space) {
        // Typing in the list goes on in the search field.
        m_search->setFocus();
        m_search->setText(m_search->text() + key->text());
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace archplay::ui::panels
