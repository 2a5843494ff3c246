// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QLineEdit;
class QModelIndex;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTreeView;

namespace archplay::ui::panels {

/// The built-in presets grouped by family, with their parameter counts and sources, filtered as
/// you type ("mix" finds Mixtral). One click or Enter loads a preset.
class PresetPicker : public QWidget {
    Q_OBJECT

public:
    explicit PresetPicker(QWidget* parent = nullptr);

    QLineEdit* searchField() const { return m_search; }
    QTreeView* view() const { return m_view; }
    /// Rows shown under the current filter (presets only, not family headings).
    int visiblePresetCount() const;
    /// Marks the current preset (bold), or none for an empty id.
    void setCurrentPreset(const QString& id);
    void setFilterText(const QString& text);
    void focusSearch();

signals:
    void presetChosen(const QString& id);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void populate();
    void choose(const QModelIndex& proxyIndex);
    QModelIndex firstVisiblePreset() const;

    QLineEdit* m_search;
    QTreeView* m_view;
    QStandardItemModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QString m_current;
};

} // namespace archplay::ui::panels
