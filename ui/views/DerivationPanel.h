// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/derivation/Derivation.h"
#include "ui/views/layout/DerivationDocument.h"

#include <QWidget>

#include <memory>
#include <vector>

class QAction;
class QScrollArea;

namespace archplay::ui::views {

/// A derivation typeset and scrolled, laid out at the panel's width: the forward pass of the
/// Derivation view, the explanation the cost views open beside their figures. Copy as LaTeX and Copy
/// as Markdown (buttons, and the page's context menu) put the same derivation on the clipboard
/// (core::toLatex, core::toMarkdown).
class DerivationPanel : public QWidget {
    Q_OBJECT

public:
    /// The space around the typeset text, in pixels (the panel's and DerivationView's exports).
    static constexpr int kMargin = 14;

    /// `note`, when given, is a line of muted text left of the copy buttons.
    explicit DerivationPanel(QWidget* parent = nullptr, const QString& note = {});
    ~DerivationPanel() override;

    /// Shows `derivation`; typeset now when the panel is visible, else when it is shown.
    void setDerivation(core::Derivation derivation);
    /// Shows `why` instead of a derivation ("the configuration has errors"); setDerivation() ends it.
    void showNothing(const QString& why);
    const core::Derivation& derivation() const { return m_derivation; }

    QString latex() const;
    QString markdown() const;
    QAction* copyLatexAction() const { return m_copyLatex; }
    QAction* copyMarkdownAction() const { return m_copyMarkdown; }
    /// The typeset document (typeset on demand).
    const layout::DerivationDocument& document() const;

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    class Canvas;
    void relayout();
    void paintCanvas(QPainter& painter, const QRect& exposed) const;

    core::Derivation m_derivation;
    mutable std::shared_ptr<const mathtext::MathTypesetter> m_typesetter;
    mutable std::unique_ptr<layout::DerivationDocument> m_document;
    std::vector<layout::DocumentBlock> m_blocks;
    QString m_nothing; ///< shown instead of the derivation when set
    QScrollArea* m_scroll;
    Canvas* m_canvas;
    QAction* m_copyLatex;
    QAction* m_copyMarkdown;
};

} // namespace archplay::ui::views
