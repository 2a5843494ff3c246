// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/design/DesignExport.h"

#include <QWidget>

class QLabel;
class QTabWidget;

namespace archplay::ui::session {
class ModelBridge;
}

namespace archplay::ui::design {

class ComparePage;
class HeadsPage;
class SearchPage;
class SweepPage;
class ZooPage;

/// Tools > Design: choosing among designs. Five pages follow the current config live: Compare (up to
/// four configs against a baseline), Sweep (one field over a range, or two as a heat map), Search
/// (shapes meeting a target, ranked by plausibility), Heads (the head configurations of the current
/// width) and Zoo (every published model and the user's configs, the current one marked). Loading a
/// design into the editor is one undo step of the bridge.
class DesignWindow : public QWidget {
    Q_OBJECT

public:
    enum class Page { Compare, Sweep, Search, Heads, Zoo };

    explicit DesignWindow(session::ModelBridge* bridge, QWidget* parent = nullptr);

    void showPage(Page page);
    ComparePage* comparePage() const { return m_compare; }
    SweepPage* sweepPage() const { return m_sweep; }
    SearchPage* searchPage() const { return m_search; }
    HeadsPage* headsPage() const { return m_heads; }
    ZooPage* zooPage() const { return m_zoo; }
    /// Replaces the file dialog of every export (tests).
    void setChooseFile(ChooseFile chooseFile);

signals:
    /// A message for the main window's status bar (an export done or refused, a design loaded).
    void message(const QString& text);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void refresh();

    session::ModelBridge* m_bridge;
    QTabWidget* m_tabs;
    ComparePage* m_compare;
    SweepPage* m_sweep;
    SearchPage* m_search;
    HeadsPage* m_heads;
    ZooPage* m_zoo;
};

} // namespace archplay::ui::design
