// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/derivation/Derivation.h"
#include "ui/views/AnalysisView.h"
#include "ui/views/layout/DerivationDocument.h"

#include <memory>
#include <vector>

class QAction;
class QScrollArea;

namespace archplay::ui::views {

/// The forward pass written out step by step for the current config (core::deriveForwardPass):
/// embedding, positions, every residual block per layer kind with its norms, attention shapes
/// (GQA or MLA as configured), scaled dot-product with d_head substituted, the FFN as configured,
/// output head and softmax, typeset as real maths by the program's own typesetter. "Copy as
/// LaTeX" and "Copy as Markdown" put the same derivation on the clipboard.
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
    QAction* copyLatexAction() const { return m_copyLatex; }
    QAction* copyMarkdownAction() const { return m_copyMarkdown; }
    /// The typeset document (after the first paint or render of a change).
    const layout::DerivationDocument* document() const;

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    class Canvas;
    void ensureBuilt() const;
    void rebuild();
    void relayout();
    void paintCanvas(QPainter& painter, const QRect& exposed) const;

    core::AnalysisPtr m_analysis = std::make_shared<const core::Analysis>();
    core::Derivation m_derivation;
    std::shared_ptr<const mathtext::MathTypesetter> m_typesetter;
    std::unique_ptr<layout::DerivationDocument> m_document;
    std::vector<layout::DocumentBlock> m_blocks;
    mutable bool m_dirty = true;
    QScrollArea* m_scroll;
    Canvas* m_canvas;
    QAction* m_copyLatex;
    QAction* m_copyMarkdown;
};

} // namespace archplay::ui::views
