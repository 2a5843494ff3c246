// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/derivation/Derivation.h"
#include "ui/mathtext/MathTypesetter.h"
#include "ui/widgets/ShapedText.h"

#include <QFont>
#include <QLineF>
#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QString>

#include <map>
#include <memory>
#include <vector>

class QPainter;
class QPalette;

namespace archplay::ui::views::layout {

/// One laid-out piece of the derivation: a title, a paragraph or a display equation. Blocks are
/// never split across columns.
struct DocumentBlock {
    enum class Role { Text, Muted, Strong };
    struct Text {
        QPointF baseline;
        QString text;
        int font = 0; ///< 0 body, 1 bold, 2 section heading, 3 title
        Role role = Role::Text;
    };
    struct Maths {
        const mathtext::MathBox* box = nullptr;
        QPointF origin; ///< baseline start
        qreal scale = 1;
    };
    QRectF rect; ///< position in its column
    std::vector<Text> texts;
    std::vector<Maths> maths;
    std::vector<QLineF> rules;

    /// A digest of what the block draws (its size, texts, formulas' glyphs and strokes, rules),
    /// equal for blocks that draw alike wherever they are placed.
    size_t digest() const;
};

/// A document placed into a page: each block with the offset it is painted at, then scaled.
struct FittedDocument {
    std::vector<DocumentBlock> blocks;
    std::vector<QPointF> offsets; ///< one per block, in unscaled page coordinates
    qreal scale = 1;
    bool cut = false; ///< the blocks run past the page's bottom (a floor on the scale)
};

/// The whole derivation typeset once per analysis, then laid out for any width: prose wraps with
/// its inline maths, display equations break at their top-level \quad when too wide and shrink
/// (down to 60 %) when a part still does not fit. Multi-column layouts fit it into a fixed page.
class DerivationDocument {
public:
    /// `typesetter` is shared so that its measurements survive from one analysis to the next.
    DerivationDocument(const core::Derivation& derivation, const QFont& base,
                       std::shared_ptr<const mathtext::MathTypesetter> typesetter);
    ~DerivationDocument();

    /// Blocks laid out in one column of `width`, top to bottom from y = 0.
    std::vector<DocumentBlock> layout(qreal width) const;
    /// Height of layout(width).
    static qreal height(const std::vector<DocumentBlock>& blocks);

    /// Paints `blocks` at `offset`, skipping blocks outside `visible` (in the same coordinates).
    void paint(QPainter& painter, const std::vector<DocumentBlock>& blocks, QPointF offset, const QRectF& visible,
               const QPalette& palette) const;
    /// Paints the whole document into `target`, in up to three columns and scaled down if needed.
    void paintFitted(QPainter& painter, const QRectF& target, const QPalette& palette) const;
    /// The placement paintFitted() uses for a page of `size`, to keep while the size stays. Below
    /// `minScale` the text would not be legible: the page then shows what fits at that scale (cut).
    FittedDocument fit(const QSizeF& size, qreal minScale = 0) const;
    /// Paints a placement of fit() with its top-left corner at `topLeft`.
    void paintFitted(QPainter& painter, const FittedDocument& fitted, const QPointF& topLeft,
                     const QPalette& palette) const;

    /// Commands the typesetter did not know, across every formula (empty for core's derivations).
    const QStringList& unknownCommands() const { return m_unknown; }
    const mathtext::MathTypesetter& typesetter() const { return *m_typesetter; }

private:
    /// A word or an inline formula of a paragraph, measured once: layouts at any width only break lines.
    struct Token {
        QString text;
        const mathtext::MathBox* box = nullptr; ///< an inline formula instead of text
        int font = 0;
        bool spaceBefore = false;
        qreal width = 0;
    };
    struct Paragraph {
        QString text;
        int font = 0;
        DocumentBlock::Role role = DocumentBlock::Role::Text;
        QString lead;              ///< bold words before the text, e.g. "3. Token embedding."
        std::vector<Token> tokens; ///< lead then text, from tokenize()
    };
    struct Equation {
        QString latex;
        std::shared_ptr<const mathtext::MathBox> whole;
        std::vector<std::shared_ptr<const mathtext::MathBox>> parts; ///< split at top-level quads
    };
    struct Item {
        enum class Kind { Title, Heading, Paragraph, Equation } kind = Kind::Paragraph;
        Paragraph paragraph;
        int equation = -1;
        qreal spaceBefore = 0;
    };
    std::vector<Token> tokenize(const Paragraph& paragraph) const;
    void layoutParagraph(const Paragraph& paragraph, qreal width, DocumentBlock& block) const;

    std::shared_ptr<const mathtext::MathTypesetter> m_typesetter;
    std::vector<QFont> m_fonts;
    std::vector<widgets::TextMetrics> m_metrics;
    /// What breaking lines asks of each font, asked of it once.
    struct LineMetrics {
        qreal space = 0;
        qreal ascent = 0;
        qreal descent = 0;
    };
    std::vector<LineMetrics> m_lineMetrics;
    std::vector<Item> m_items;
    std::vector<std::unique_ptr<Equation>> m_equations;
    std::map<QString, std::shared_ptr<const mathtext::MathBox>> m_inline;
    QStringList m_unknown;
};

} // namespace archplay::ui::views::layout
