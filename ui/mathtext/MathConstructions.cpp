// SPDX-License-Identifier: GPL-3.0-or-later
// The typesetter's built-up constructions: radicals, sized delimiters, accents and cases.
#include "ui/mathtext/MathTypesetter.h"

#include <QTransform>

#include <algorithm>
#include <cmath>

namespace archplay::ui::mathtext {

MathBox MathTypesetter::layoutRoot(const Node& node, Style style) const {
    const MathBox radicand = layout(node.children[0], style);
    const qreal em = emAt(style.level);
    const qreal rule = std::max(0.8, em * 0.05);
    const qreal gap = (style.display ? 0.18 : 0.12) * em;
    const qreal top = -(radicand.ascent + gap + rule);
    const qreal bottom = radicand.descent + 0.04 * em;
    const qreal height = bottom - top;
    const qreal sign = std::min(0.62 * em + 0.06 * height, 1.1 * em);
    QPainterPath path;
    path.moveTo(0.02 * sign, bottom - 0.42 * height);
    path.lineTo(0.2 * sign, bottom - 0.5 * height);
    path.lineTo(0.5 * sign, bottom);
    path.lineTo(sign, top + rule / 2);
    MathBox box;
    box.strokes.push_back({path, rule * 1.15});
    box.rules.emplace_back(sign, top, radicand.width + 0.12 * em, rule);
    box.append(radicand, QPointF(sign + 0.06 * em, 0));
    box.width = sign + radicand.width + 0.16 * em;
    box.ascent = -top + 0.04 * em;
    box.descent = bottom;
    return box;
}

MathBox MathTypesetter::delimiter(const QString& text, qreal above, qreal below, Style style) const {
    MathBox box;
    if (text.isEmpty() || text == QLatin1String(".")) {
        box.width = 0.06 * emAt(style.level);
        return box;
    }
    const qreal em = emAt(style.level);
    const qreal height = above + below;
    if (height <= 1.3 * em) {
        box = layoutSymbol(text, Face::Roman, style);
        box.width += 0.04 * em;
        return box;
    }
    const qreal top = -above;
    const qreal bottom = below;
    const qreal middle = (top + bottom) / 2;
    const qreal width = std::min(0.3 * em + 0.05 * height, 0.7 * em);
    const qreal stroke = std::max(1.0, em * 0.065);
    const bool opening = text == QLatin1String("(") || text == QLatin1String("[") || text == QLatin1String("{") ||
                         text == QStringLiteral("⌈") || text == QStringLiteral("⌊");
    // Paths drawn for an opening delimiter, mirrored for a closing one.
    QPainterPath path;
    const QString shape = opening                       ? text
                          : text == QLatin1String(")")  ? QStringLiteral("(")
                          : text == QLatin1String("]")  ? QStringLiteral("[")
                          : text == QLatin1String("}")  ? QStringLiteral("{")
                          : text == QStringLiteral("⌉") ? QStringLiteral("⌈")
                          : text == QStringLiteral("⌋") ? QStringLiteral("⌊")
                                                        : text;
    const qreal w = width;
    if (shape == QLatin1String("(")) {
        path.moveTo(w * 0.85, top);
        path.cubicTo(w * 0.05, top + height * 0.22, w * 0.05, bottom - height * 0.22, w * 0.85, bottom);
    } else if (shape == QLatin1String("[") || shape == QStringLiteral("⌈") || shape == QStringLiteral("⌊")) {
        if (shape != QStringLiteral("⌊")) {
            path.moveTo(w * 0.85, top);
            path.lineTo(w * 0.3, top);
        } else {
            path.moveTo(w * 0.3, top);
        }
        path.lineTo(w * 0.3, bottom);
        if (shape != QStringLiteral("⌈")) {
            path.lineTo(w * 0.85, bottom);
        }
    } else if (shape == QLatin1String("{")) {
        const qreal q = std::min(0.22 * em, height / 8);
        path.moveTo(w * 0.9, top);
        path.quadTo(w * 0.45, top, w * 0.45, top + q);
        path.lineTo(w * 0.45, middle - q);
        path.quadTo(w * 0.45, middle, w * 0.05, middle);
        path.quadTo(w * 0.45, middle, w * 0.45, middle + q);
        path.lineTo(w * 0.45, bottom - q);
        path.quadTo(w * 0.45, bottom, w * 0.9, bottom);
    } else if (shape == QStringLiteral("‖")) {
        path.moveTo(w * 0.35, top);
        path.lineTo(w * 0.35, bottom);
        path.moveTo(w * 0.65, top);
        path.lineTo(w * 0.65, bottom);
    } else {
        path.moveTo(w * 0.5, top);
        path.lineTo(w * 0.5, bottom);
    }
    if (!opening && shape != text) {
        path = QTransform(-1, 0, 0, 1, w, 0).map(path);
    }
    box.strokes.push_back({path, stroke});
    box.width = w + 0.08 * em;
    box.ascent = above;
    box.descent = below;
    return box;
}

MathBox MathTypesetter::layoutDelimited(const Node& node, Style style) const {
    const MathBox content = layout(node.children[0], style);
    const qreal a = axis(style.level);
    // Delimiters are symmetric about the maths axis and cover the content on both sides of it.
    const qreal extent = std::max(content.ascent - a, content.descent + a) * 1.06;
    const MathBox left = delimiter(node.left, extent + a, extent - a, style);
    const MathBox right = delimiter(node.right, extent + a, extent - a, style);
    MathBox box;
    const qreal gap = 0.04 * emAt(style.level);
    box.append(left, QPointF(0, 0));
    box.append(content, QPointF(left.width + gap, 0));
    box.append(right, QPointF(left.width + gap + content.width + gap, 0));
    box.width = left.width + content.width + right.width + 2 * gap;
    box.ascent = std::max({left.ascent, content.ascent, right.ascent});
    box.descent = std::max({left.descent, content.descent, right.descent});
    return box;
}

MathBox MathTypesetter::layoutAccent(const Node& node, Style style) const {
    const MathBox base = layout(node.children[0], style);
    const qreal em = emAt(style.level);
    const qreal y = -(base.ascent + 0.1 * em);
    const qreal width = std::min(std::max(base.width * 0.8, 0.35 * em), 0.7 * em);
    const qreal left = (base.width - width) / 2 + 0.06 * em;
    QPainterPath path;
    if (node.text == QLatin1String("hat")) {
        path.moveTo(left, y);
        path.lineTo(left + width / 2, y - 0.2 * em);
        path.lineTo(left + width, y);
    } else if (node.text == QLatin1String("tilde")) {
        path.moveTo(left, y - 0.04 * em);
        path.cubicTo(left + width * 0.3, y - 0.24 * em, left + width * 0.6, y + 0.08 * em, left + width, y - 0.14 * em);
    } else {
        path.moveTo(left, y - 0.08 * em);
        path.lineTo(left + width, y - 0.08 * em);
    }
    MathBox box = base;
    box.strokes.push_back({path, std::max(0.8, em * 0.055)});
    box.ascent = -y + 0.24 * em;
    return box;
}

MathBox MathTypesetter::layoutCases(const Node& node, Style style) const {
    const Style inner{style.level, false};
    const qreal em = emAt(style.level);
    std::vector<MathBox> cells;
    qreal valueWidth = 0;
    qreal conditionWidth = 0;
    for (std::size_t i = 0; i < node.children.size(); ++i) {
        cells.push_back(layout(node.children[i], inner));
        (i % 2 == 0 ? valueWidth : conditionWidth) =
            std::max(i % 2 == 0 ? valueWidth : conditionWidth, cells.back().width);
    }
    MathBox rows;
    qreal y = 0;
    const std::size_t count = cells.size() / 2;
    for (std::size_t r = 0; r < count; ++r) {
        const MathBox& value = cells[2 * r];
        const MathBox& condition = cells[2 * r + 1];
        const qreal ascent = std::max({value.ascent, condition.ascent, 0.7 * em});
        const qreal descent = std::max({value.descent, condition.descent, 0.25 * em});
        y += (r == 0 ? 0 : 0.35 * em) + ascent;
        rows.append(value, QPointF(0, y));
        rows.append(condition, QPointF(valueWidth + 1.0 * em, y));
        y += descent;
    }
    // Centre the rows on the maths axis.
    const qreal shift = -y / 2 - axis(style.level);
    MathBox body;
    body.append(rows, QPointF(0, shift));
    const qreal above = -shift;
    const qreal below = y + shift;
    const MathBox brace = delimiter(QStringLiteral("{"), above + 0.1 * em, below + 0.1 * em, style);
    MathBox box;
    box.append(brace, QPointF(0, 0));
    box.append(body, QPointF(brace.width + 0.15 * em, 0));
    box.width = brace.width + 0.15 * em + valueWidth + 1.0 * em + conditionWidth;
    box.ascent = std::max(brace.ascent, above);
    box.descent = std::max(brace.descent, below);
    return box;
}

} // namespace archplay::ui::mathtext
