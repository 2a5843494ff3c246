// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/derivation/Derivation.h"
#include "ui/views/AnalysisView.h"
#include "ui/views/layout/DerivationDocument.h"

class QAction;

namespace archplay::ui::views {

class DerivationPanel;

/// The forward pass written out step by step for the current config (core::deriveForwardPass):
/// embedding, positions, every residual block per layer kind with its norms, attention shapes
/// (GQA or MLA as configured), scaled dot-product with d_head substituted, the FFN as configured,
/// output head and softmax, typeset as real maths by the program's own typesetter, on a
/// DerivationPanel. "Copy as LaTeX" and "Copy as Markdown" put the same derivation on the clipboard.
class DerivationView : public AnalysisView {
    Q_OBJECT

public:
    explicit DerivationView(QWidget* parent = nullptr);
    ~DerivationView() override;

    core::ViewKind kind() const override { return core::ViewKind::Derivation; }
    QString title() const override { return tr("Forward pass"); }
    QString tabTitle() const override { return tr("Forward"); }
    void setSharedAnalysis(core::AnalysisPtr analysis) override;
    /// Paints the whole derivation into `target`, in columns and scaled down when it is taller.
    void render(QPainter& painter, const QRectF& target) const override;

    QString latex() const;
    QString markdown() const;
    QAction* copyLatexAction() const;
    QAction* copyMarkdownAction() const;
    /// The typeset document of the current analysis.
    const layout::DerivationDocument* document() const;

protected:
    void showEvent(QShowEvent* event) override;

private:
    /// Hands the panel the derivation of the analysis when it changed since.
    void ensureBuilt() const;

    core::AnalysisPtr m_analysis = std::make_shared<const core::Analysis>();
    mutable bool m_dirty = true;
    DerivationPanel* m_panel;
};

} // namespace archplay::ui::views
