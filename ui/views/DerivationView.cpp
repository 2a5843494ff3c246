// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/DerivationView.h"

#include "ui/views/DerivationPanel.h"
#include "ui/views/ViewColors.h"

#include <QAction>
#include <QPainter>
#include <QVBoxLayout>

#include <utility>

namespace archplay::ui::views {
namespace {

QString nothingToDerive() {
    return DerivationView::tr("Nothing to derive: the configuration has errors.");
}

} // namespace

DerivationView::DerivationView(QWidget* parent)
    : AnalysisView(parent)
    , m_panel(new DerivationPanel(
          this, tr("The forward pass of the current config, every shape substituted; one section per layer kind."))) {
    m_panel->copyLatexAction()->setToolTip(tr("The whole derivation as LaTeX (amsmath, amssymb)"));
    m_panel->copyMarkdownAction()->setToolTip(tr("The whole derivation as Markdown with $…$ and $$…$$ maths"));
    addAction(m_panel->copyLatexAction());
    addAction(m_panel->copyMarkdownAction());
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_panel);
    setMinimumSize(320, 240);
}

DerivationView::~DerivationView() = default;

void DerivationView::setSharedAnalysis(core::AnalysisPtr analysis) {
    m_analysis = std::move(analysis);
    m_dirty = true;
    if (isVisible()) {
        ensureBuilt();
    }
}

QString DerivationView::latex() const {
    ensureBuilt();
    return m_panel->latex();
}

QString DerivationView::markdown() const {
    ensureBuilt();
    return m_panel->markdown();
}

QAction* DerivationView::copyLatexAction() const {
    ensureBuilt();
    return m_panel->copyLatexAction();
}

QAction* DerivationView::copyMarkdownAction() const {
    ensureBuilt();
    return m_panel->copyMarkdownAction();
}

const layout::DerivationDocument* DerivationView::document() const {
    ensureBuilt();
    return &m_panel->document();
}

void DerivationView::ensureBuilt() const {
    if (!std::exchange(m_dirty, false)) {
        return;
    }
    // The panel is a cache of the analysis: handing it the derivation does not change what the view shows.
    if (m_analysis->valid) {
        m_panel->setDerivation(core::deriveForwardPass(m_analysis->config, m_analysis->plan));
    } else {
        m_panel->showNothing(nothingToDerive());
    }
}

void DerivationView::render(QPainter& painter, const QRectF& target) const {
    ensureBuilt();
    painter.save();
    painter.setClipRect(target, Qt::IntersectClip);
    painter.fillRect(target, palette().color(QPalette::Base));
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    if (m_analysis->valid) {
        m_panel->document().paintFitted(
            painter, target.adjusted(DerivationPanel::kMargin, 14, -DerivationPanel::kMargin, -14), palette());
    } else {
        painter.setPen(colors::muted(palette()));
        painter.drawText(target.adjusted(24, 24, -24, -24), Qt::AlignCenter | Qt::TextWordWrap, nothingToDerive());
    }
    painter.restore();
}

void DerivationView::showEvent(QShowEvent* event) {
    AnalysisView::showEvent(event);
    ensureBuilt();
}

} // namespace archplay::ui::views
