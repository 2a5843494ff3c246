// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/layout/DerivationDocument.h"

#include "ui/Strings.h"
#include "ui/views/ViewColors.h"
#include "ui/widgets/ShapedText.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace archplay::ui::views::layout {
namespace {

constexpr qreal kMinimumScale = 0.6;
constexpr qreal kDerivationColumnGap = 28;

QString fromUtf8(const std::string& text) {
    return qs(text);
}

/// Text and $maths$ segments of a prose string, alternating, text first.
QStringList segments(const QString& text) {
    return text.split(QLatin1Char('$'));
}

} // namespace

DerivationDocument::DerivationDocument(const core::Derivation& derivation, const QFont& base,
                                       std::shared_ptr<const mathtext::MathTypesetter> typesetter)
    : m_typesetter(typesetter ? std::move(typesetter) : std::make_shared<const mathtext::MathTypesetter>(base)) {
    QFont bold = base;
    bold.setBold(true);
    QFont heading = bold;
    heading.setPointSizeF(base.pointSizeF() * 1.12);
    QFont title = bold;
    title.setPointSizeF(base.pointSizeF() * 1.35);
    m_fonts = {base, bold, heading, title};
    for (const QFont& font : m_fonts) {
        m_metrics.emplace_back(font);
        const widgets::TextMetrics& metrics = m_metrics.back();
        m_lineMetrics.push_back({metrics.horizontalAdvance(QLatin1Char(' ')), metrics.ascent(), metrics.descent()});
    }

    auto addInline = [&](const QString& text) {
        const QStringList parts = segments(text);
        for (qsizetype i = 1; i < parts.size(); i += 2) {
            if (m_inline.find(parts[i]) == m_inline.end()) {
                m_inline.emplace(parts[i], m_typesetter->cached(parts[i], false, &m_unknown));
            }
        }
    };
    auto add = [&](Item::Kind kind, const QString& text, int font, DocumentBlock::Role role, qreal space,
                   const QString& lead = {}) {
        Item item;
        item.kind = kind;
        item.paragraph = {text, font, role, lead};
        item.spaceBefore = space;
        addInline(text);
        addInline(lead);
        m_items.push_back(std::move(item));
    };

    // A document of one section (the overview's layer step) has neither title nor notation.
    if (!derivation.title.empty()) {
        add(Item::Kind::Title, fromUtf8(derivation.title), 3, DocumentBlock::Role::Strong, 0);
    }
    if (!derivation.notation.empty()) {
        add(Item::Kind::Paragraph, fromUtf8(derivation.notation), 0, DocumentBlock::Role::Muted, 4);
    }
    int number = 1;
    for (const core::DerivationSection& section : derivation.sections) {
        add(Item::Kind::Heading, fromUtf8(section.title), 2, DocumentBlock::Role::Strong, 20);
        if (!section.text.empty()) {
            add(Item::Kind::Paragraph, fromUtf8(section.text), 0, DocumentBlock::Role::Muted, 2);
        }
        for (const core::DerivationStep& step : section.steps) {
            add(Item::Kind::Paragraph, fromUtf8(step.text), 0, DocumentBlock::Role::Text, 10,
                QStringLiteral("%1. %2.").arg(number++).arg(fromUtf8(step.title)));
            for (const std::string& latex : step.equations) {
                auto equation = std::make_unique<Equation>();
                equation->latex = fromUtf8(latex);
                equation->whole = m_typesetter->cached(equation->latex, true, &m_unknown);
                const QStringList parts = mathtext::splitAtQuads(equation->latex);
                if (parts.size() > 1) {
                    for (const QString& part : parts) {
                        equation->parts.push_back(m_typesetter->cached(part, true));
                    }
                }
                Item item;
                item.kind = Item::Kind::Equation;
                item.equation = static_cast<int>(m_equations.size());
                item.spaceBefore = 5;
                m_equations.push_back(std::move(equation));
                m_items.push_back(std::move(item));
            }
        }
    }
    for (Item& item : m_items) {
        if (item.kind != Item::Kind::Equation) {
            item.paragraph.tokens = tokenize(item.paragraph);
        }
    }
    m_unknown.removeDuplicates();
}

DerivationDocument::~DerivationDocument() = default;

size_t DocumentBlock::digest() const {
    auto point = [](QPointF p) {
        return qHashMulti(0, p.x(), p.y());
    };
    size_t seed = qHashMulti(0, rect.width(), rect.height());
    for (const Text& text : texts) {
        seed = qHashMulti(seed, point(text.baseline), text.text, text.font, int(text.role));
    }
    for (const QLineF& rule : rules) {
        seed = qHashMulti(seed, point(rule.p1()), point(rule.p2()));
    }
    for (const Maths& formula : maths) {
        seed = qHashMulti(seed, point(formula.origin), formula.scale, formula.box->width, formula.box->ascent,
                          formula.box->descent);
        for (const mathtext::MathBox::Run& run : formula.box->runs) {
            seed = qHashMulti(seed, point(run.origin), run.text, run.font);
        }
        for (const QRectF& bar : formula.box->rules) {
            seed = qHashMulti(seed, point(bar.topLeft()), point(bar.bottomRight()));
        }
        for (const mathtext::MathBox::Stroke& stroke : formula.box->strokes) {
            seed = qHashMulti(seed, stroke.width, stroke.path.elementCount());
            for (int i = 0; i < stroke.path.elementCount(); ++i) {
                const QPainterPath::Element element = stroke.path.elementAt(i);
                seed = qHashMulti(seed, element.x, element.y, int(element.type));
            }
        }
    }
    return seed;
}

std::vector<DerivationDocument::Token> DerivationDocument::tokenize(const Paragraph& paragraph) const {
    std::vector<Token> tokens;
    auto addText = [&](const QString& text, int font, bool leadingSpace) {
        const QStringList parts = segments(text);
        bool pendingSpace = leadingSpace;
        for (qsizetype i = 0; i < parts.size(); ++i) {
            const QString& part = parts[i];
            if (i % 2 == 1) {
                const mathtext::MathBox* box = m_inline.at(part).get();
                tokens.push_back({QString(), box, font, pendingSpace && !tokens.empty(), box->width});
                pendingSpace = false;
                continue;
            }
            qsizetype p = 0;
            while (p < part.size()) {
                if (part[p].isSpace()) {
                    pendingSpace = true;
                    ++p;
                    continue;
                }
                qsizetype q = p;
                while (q < part.size() && !part[q].isSpace()) {
                    ++q;
                }
                const QString word = part.mid(p, q - p);
                tokens.push_back({word, nullptr, font, pendingSpace && !tokens.empty(),
                                  widgets::textAdvance(m_fonts[static_cast<std::size_t>(font)], word)});
                pendingSpace = false;
                p = q;
            }
        }
    };
    if (!paragraph.lead.isEmpty()) {
        addText(paragraph.lead, 1, false);
    }
    addText(paragraph.text, paragraph.font, true);
    return tokens;
}

void DerivationDocument::layoutParagraph(const Paragraph& paragraph, qreal width, DocumentBlock& block) const {
    const std::vector<Token>& tokens = paragraph.tokens;
    qreal y = 0;
    std::size_t index = 0;
    while (index < tokens.size()) {
        // Fill one line.
        std::size_t end = index;
        qreal x = 0;
        while (end < tokens.size()) {
            const Token& token = tokens[end];
            const qreal space =
                token.spaceBefore && end > index ? m_lineMetrics[static_cast<std::size_t>(token.font)].space : 0;
            if (end > index && x + space + token.width > width) {
                break;
            }
            x += space + token.width;
            ++end;
        }
        qreal ascent = 0;
        qreal descent = 0;
        for (std::size_t i = index; i < end; ++i) {
            const LineMetrics& metrics = m_lineMetrics[static_cast<std::size_t>(tokens[i].font)];
            ascent = std::max(ascent, tokens[i].box ? std::max(tokens[i].box->ascent, metrics.ascent) : metrics.ascent);
            descent =
                std::max(descent, tokens[i].box ? std::max(tokens[i].box->descent, metrics.descent) : metrics.descent);
        }
        const qreal baseline = y + ascent;
        x = 0;
        for (std::size_t i = index; i < end; ++i) {
            const Token& token = tokens[i];
            if (token.spaceBefore && i > index) {
                x += m_lineMetrics[static_cast<std::size_t>(token.font)].space;
            }
            if (token.box) {
                block.maths.push_back({token.box, QPointF(x, baseline), 1});
            } else {
                const bool lead = token.font == 1 && !paragraph.lead.isEmpty() && paragraph.font != 1;
                block.texts.push_back({QPointF(x, baseline), token.text, token.font,
                                       lead ? DocumentBlock::Role::Strong : paragraph.role});
            }
            x += token.width;
        }
        y = baseline + descent + 3;
        index = end;
    }
    block.rect.setHeight(y);
}

std::vector<DocumentBlock> DerivationDocument::layout(qreal width) const {
    std::vector<DocumentBlock> blocks;
    const qreal em = m_metrics[0].height();
    qreal y = 0;
    for (const Item& item : m_items) {
        y += blocks.empty() ? 0 : item.spaceBefore;
        DocumentBlock block;
        if (item.kind == Item::Kind::Equation) {
            const Equation& equation = *m_equations[static_cast<std::size_t>(item.equation)];
            const qreal indent = 1.6 * em;
            const qreal available = std::max(width - indent, 1.0);
            std::vector<std::pair<const mathtext::MathBox*, qreal>> lines;
            if (equation.whole->width <= available || equation.parts.empty()) {
                lines.emplace_back(equation.whole.get(), indent);
            } else {
                for (std::size_t i = 0; i < equation.parts.size(); ++i) {
                    lines.emplace_back(equation.parts[i].get(), i == 0 ? indent : indent + 1.2 * em);
                }
            }
            qreal lineY = 0;
            for (const auto& [box, left] : lines) {
                const qreal scale = std::clamp((width - left) / std::max(box->width, 1.0), kMinimumScale, 1.0);
                lineY += box->ascent * scale;
                block.maths.push_back({box, QPointF(left, lineY), scale});
                lineY += box->descent * scale + 6;
            }
            block.rect = QRectF(0, y, width, lineY);
        } else {
            qreal top = 0;
            if (item.kind == Item::Kind::Heading) {
                block.rules.emplace_back(0, 0, width, 0);
                top = 8;
            }
            DocumentBlock text;
            layoutParagraph(item.paragraph, width, text);
            for (DocumentBlock::Text& run : text.texts) {
                run.baseline.ry() += top;
                block.texts.push_back(run);
            }
            for (DocumentBlock::Maths& maths : text.maths) {
                maths.origin.ry() += top;
                block.maths.push_back(maths);
            }
            block.rect = QRectF(0, y, width, top + text.rect.height());
        }
        y += block.rect.height();
        blocks.push_back(std::move(block));
    }
    return blocks;
}

qreal DerivationDocument::height(const std::vector<DocumentBlock>& blocks) {
    return blocks.empty() ? 0 : blocks.back().rect.bottom();
}

void DerivationDocument::paint(QPainter& painter, const std::vector<DocumentBlock>& blocks, QPointF offset,
                               const QRectF& visible, const QPalette& palette) const {
    const QColor text = palette.color(QPalette::Text);
    const QColor muted = colors::muted(palette);
    for (const DocumentBlock& block : blocks) {
        const QRectF rect = block.rect.translated(offset);
        if (!rect.adjusted(0, -8, 0, 8).intersects(visible)) {
            continue;
        }
        const QPointF origin = rect.topLeft();
        painter.setPen(QPen(colors::rule(palette), 1));
        for (const QLineF& rule : block.rules) {
            painter.drawLine(rule.translated(origin));
        }
        for (const DocumentBlock::Text& run : block.texts) {
            painter.setFont(m_fonts[static_cast<std::size_t>(run.font)]);
            painter.setPen(run.role == DocumentBlock::Role::Muted ? muted : text);
            widgets::drawShaped(painter, origin + run.baseline, run.text);
        }
        painter.setPen(text);
        for (const DocumentBlock::Maths& maths : block.maths) {
            if (maths.scale == 1) {
                m_typesetter->paint(painter, *maths.box, origin + maths.origin);
                continue;
            }
            painter.save();
            painter.translate(origin + maths.origin);
            painter.scale(maths.scale, maths.scale);
            m_typesetter->paint(painter, *maths.box, QPointF(0, 0));
            painter.restore();
        }
    }
}

FittedDocument DerivationDocument::fit(const QSizeF& target, qreal minScale) const {
    // Fewest columns that fit at full size, else the column count that needs the least shrinking.
    int bestColumns = 1;
    qreal bestScale = 0;
    std::vector<DocumentBlock> bestBlocks;
    std::vector<int> bestColumnOf;
    for (int columns = 1; columns <= 3; ++columns) {
        const qreal width = (target.width() - (columns - 1) * kDerivationColumnGap) / columns;
        if (width < 240 && columns > 1) {
            break;
        }
        std::vector<DocumentBlock> blocks = layout(width);
        const qreal total = height(blocks);
        qreal columnHeight = std::max(total / columns, 1.0);
        std::vector<int> columnOf(blocks.size(), 0);
        // Grow the column height until the blocks, never split, fit in `columns` columns.
        for (int attempt = 0; attempt < 200; ++attempt) {
            int column = 0;
            qreal used = 0;
            bool fits = true;
            for (std::size_t i = 0; i < blocks.size(); ++i) {
                const qreal h = blocks[i].rect.height() + (used > 0 ? 10 : 0);
                if (used > 0 && used + h > columnHeight) {
                    ++column;
                    used = 0;
                }
                used += blocks[i].rect.height() + (used > 0 ? 10 : 0);
                columnOf[i] = column;
                fits = fits && column < columns;
            }
            if (fits) {
                break;
            }
            columnHeight *= 1.03;
        }
        const qreal scale = std::min(1.0, target.height() / columnHeight);
        if (scale > bestScale + 1e-6) {
            bestScale = scale;
            bestColumns = columns;
            bestBlocks = std::move(blocks);
            bestColumnOf = columnOf;
        }
        if (scale >= 1.0) {
            break;
        }
    }
    // Scales in steps of 1/20: text drawn at a handful of sizes reuses the font engine's glyph cache
    // instead of rasterising every glyph again when the content grows by a line.
    bestScale = std::max(std::floor(bestScale * 20.0) / 20.0, std::min(minScale, 1.0));
    bestScale = std::max(bestScale, 0.05);
    const qreal width = (target.width() / bestScale - (bestColumns - 1) * kDerivationColumnGap) / bestColumns;
    // Lay out again at the width the scale leaves, so the scaled columns fill the target's width.
    std::vector<DocumentBlock> blocks = bestScale < 1.0 ? layout(width) : std::move(bestBlocks);
    FittedDocument fitted;
    fitted.scale = bestScale;
    int column = 0;
    qreal y = 0;
    const qreal columnHeight = target.height() / bestScale;
    for (DocumentBlock& block : blocks) {
        const qreal h = block.rect.height() + (y > 0 ? 10 : 0);
        if (y > 0 && y + h > columnHeight && column + 1 < bestColumns) {
            ++column;
            y = 0;
        }
        y += y > 0 ? 10 : 0;
        fitted.offsets.emplace_back(column * (width + kDerivationColumnGap) - block.rect.left(), y - block.rect.top());
        y += block.rect.height();
        fitted.cut = fitted.cut || y > columnHeight + 0.5;
    }
    fitted.blocks = std::move(blocks);
    return fitted;
}

void DerivationDocument::paintFitted(QPainter& painter, const FittedDocument& fitted, const QPointF& topLeft,
                                     const QPalette& palette) const {
    painter.save();
    painter.translate(topLeft);
    painter.scale(fitted.scale, fitted.scale);
    const QRectF everything(-1e6, -1e6, 2e6, 2e6);
    for (std::size_t i = 0; i < fitted.blocks.size(); ++i) {
        const std::vector<DocumentBlock> one{fitted.blocks[i]};
        paint(painter, one, fitted.offsets[i], everything, palette);
    }
    painter.restore();
}

void DerivationDocument::paintFitted(QPainter& painter, const QRectF& target, const QPalette& palette) const {
    paintFitted(painter, fit(target.size()), target.topLeft(), palette);
}

} // namespace archplay::ui::views::layout
