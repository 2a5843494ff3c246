// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/design/DesignWindow.h"

#include "ui/design/ComparePage.h"
#include "ui/design/HeadsPage.h"
#include "ui/design/SearchPage.h"
#include "ui/design/SweepPage.h"
#include "ui/design/ZooPage.h"
#include "ui/session/ModelBridge.h"

#include <QScreen>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace archplay::ui::design {

DesignWindow::DesignWindow(session::ModelBridge* bridge, QWidget* parent)
    : QWidget(parent, Qt::Window)
    , m_bridge(bridge)
    , m_tabs(new QTabWidget(this))
    , m_compare(new ComparePage(bridge, this))
    , m_sweep(new SweepPage(bridge, this))
    , m_search(new SearchPage(bridge, this))
    , m_heads(new HeadsPage(bridge, this))
    , m_zoo(new ZooPage(bridge, m_compare, this)) {
    setObjectName(QStringLiteral("design"));
    setWindowTitle(tr("Design — archplay"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_compare, tr("Compare"));
    m_tabs->addTab(m_sweep, tr("Sweep"));
    m_tabs->addTab(m_search, tr("Search"));
    m_tabs->addTab(m_heads, tr("Heads"));
    m_tabs->addTab(m_zoo, tr("Zoo"));
    m_tabs->setTabToolTip(0, tr("Up to four configs side by side against a baseline"));
    m_tabs->setTabToolTip(1, tr("One field over a range, or two as a heat map"));
    m_tabs->setTabToolTip(2, tr("Shapes that meet a target, ranked by plausibility"));
    m_tabs->setTabToolTip(3, tr("Every head configuration of the current hidden size"));
    m_tabs->setTabToolTip(4, tr("Every published model and the configs you add, their shapes plotted"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);
    connect(m_compare, &ComparePage::message, this, &DesignWindow::message);
    connect(m_sweep, &SweepPage::message, this, &DesignWindow::message);
    connect(m_search, &SearchPage::message, this, &DesignWindow::message);
    connect(m_heads, &HeadsPage::message, this, &DesignWindow::message);
    connect(m_zoo, &ZooPage::message, this, &DesignWindow::message);
    // Pages recompute only while shown: a hidden page takes the change when it is next shown.
    connect(m_bridge, &session::ModelBridge::analysisChanged, this, &DesignWindow::refresh);
    connect(m_tabs, &QTabWidget::currentChanged, this, &DesignWindow::refresh);
    // As large as the main window's default, within the screen (1280 x 720 included).
    const QRect screen = parent && parent->screen() ? parent->screen()->availableGeometry() : QRect(0, 0, 1280, 800);
    resize(std::min(1280, screen.width()), std::min(800, screen.height()));
}

void DesignWindow::showPage(Page page) {
    m_tabs->setCurrentIndex(static_cast<int>(page));
}

void DesignWindow::setChooseFile(ChooseFile chooseFile) {
    m_compare->setChooseFile(chooseFile);
    m_sweep->setChooseFile(chooseFile);
    m_search->setChooseFile(chooseFile);
    m_zoo->setChooseFile(chooseFile);
}

void DesignWindow::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    refresh();
}

void DesignWindow::refresh() {
    if (!isVisible()) {
        return;
    }
    const core::AnalysisPtr& analysis = m_bridge->sharedAnalysis();
    switch (static_cast<Page>(m_tabs->currentIndex())) {
    case Page::Compare:
        m_compare->setCurrent(analysis);
        break;
    case Page::Sweep:
        m_sweep->setCurrent(analysis);
        break;
    case Page::Search:
        m_search->setCurrent(analysis);
        break;
    case Page::Heads:
        m_heads->setCurrent(analysis);
        break;
    case Page::Zoo:
        m_zoo->setCurrent(analysis);
        break;
    }
}

} // namespace archplay::ui::design
