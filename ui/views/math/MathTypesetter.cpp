// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/math/MathTypesetter.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace archplay::ui::math {
namespace {

constexpr double kLevelScale[] = {1.0, 0.72, 0.56};
constexpr double kThin = 3.0 / 18;
constexpr double kMedium = 4.0 / 18;
constexpr double kThick = 5.0 / 18;

/// TeX's spacing between atom classes (The TeXbook, chapter 18), in em; negative = never happens
/// after the Bin reclassification. Rows: left atom; columns: right atom.
constexpr double kSpacing[8][8] = {
    //  Ord     Op      Bin      Rel     Open    Close   Punct   Inner
    {0, kThin, kMedium, kThick, 0, 0, 0, kThin},             // Ord
    {kThin, kThin, 0, kThick, 0, 0, 0, kThin},               // Op
    {kMedium, kMedium, 0, 0, kMedium, 0, 0, kMedium},        // Bin
    {kThick, kThick, 0, 0, kThick, 0, 0, kThick},            // Rel
    {0, 0, 0, 0, 0, 0, 0, 0},                                // Open
    {0, kThin, kMedium, kThick, 0, 0, 0, kThin},             // Close
    {kThin, kThin, 0, kThin, kThin, kThin, kThin, kThin},    // Punct
    {kThin, kThin, kMedium, kThick, kThin, 0, kThin, kThin}, // Inner
};

Atom atomOf(const Node& node) {
    switch (node.kind) {
    case Node::Kind::Symbol: return node.atom;
    case Node::Kind::BigOp: return Atom::Op;
    case Node::Kind::Scripts: return node.children.empty() ? Atom::Ord : atomOf(node.children[0]);
    case Node::Kind::Fraction:
    case Node::Kind::Delimited:
    case Node::Kind::Cases: return Atom::Inner;
    default: return Atom::Ord;
    }
}

bool isEmptyList(const Node& node) { return node.kind == Node::Kind::List && node.children.empty(); }

} // namespace

void MathBox::append(const MathBox& other, QPointF offset) {
    for (const Run& run : other.runs) {
        runs.push_back({run.origin + offset, run.text, run.font});
    }
    for (const QRectF& rule : other.rules) {
        rules.push_back(rule.translated(offset));
    }
    for (const Stroke& stroke : other.strokes) {
        strokes.push_back({stroke.path.translated(offset), stroke.width});
    }
}

MathTypesetter::MathTypesetter(const QFont& base) {
    QFont serif = base;
    serif.setFamily(QStringLiteral("serif"));
    serif.setStyleHint(QFont::Serif);
    const qreal size = (base.pointSizeF() > 0 ? base.pointSizeF() : 10.0) * 1.12;
    m_fonts.resize(Levels * Faces + 1);
    for (int face = 0; face < Faces; ++face) {
        for (int level = 0; level < Levels; ++level) {
            QFont font = serif;
            font.setPointSizeF(size * kLevelScale[level]);
            font.setItalic(face == static_cast<int>(Face::Italic));
            font.setBold(face == static_cast<int>(Face::Bold));
            m_fonts[static_cast<std::size_t>(face * Levels + level)] = font;
        }
    }
    QFont big = serif;
    big.setPointSizeF(size * 1.45);
    m_fonts[static_cast<std::size_t>(bigFont())] = big;
    for (const QFont& font : m_fonts) {
        m_metrics.emplace_back(font);
    }
    for (int level = 0; level < Levels; ++level) {
        const QFontMetricsF& metrics = m_metrics[static_cast<std::size_t>(fontIndex(Face::Roman, level))];
        m_em[static_cast<std::size_t>(level)] = metrics.height() * 0.86;
        m_axis[static_cast<std::size_t>(level)] = metrics.xHeight() * 0.52;
    }
}

const MathTypesetter::Ink& MathTypesetter::ink(int font, const QString& text) const {
    const QString key = QString::number(font) + QLatin1Char('\x1f') + text;
    auto found = m_inks.constFind(key);
    if (found == m_inks.constEnd()) {
        if (m_inks.size() > 50000) {
            // Numbers change as sliders move; keep the cache from growing without bound.
            m_inks.clear();
        }
        const QFontMetricsF& metrics = m_metrics[static_cast<std::size_t>(font)];
        const QRectF tight = metrics.tightBoundingRect(text);
        Ink measured;
        measured.advance = std::max(metrics.horizontalAdvance(text), tight.right());
        measured.ascent = std::max(-tight.top(), metrics.xHeight());
        measured.descent = std::max(tight.bottom(), 0.0);
        found = m_inks.insert(key, measured);
    }
    return *found;
}

MathBox MathTypesetter::typeset(const QString& latex, bool display) const { return typeset(parse(latex).root, display); }

MathBox MathTypesetter::typeset(const Node& node, bool display) const { return layout(node, Style{0, display}); }

void MathTypesetter::paint(QPainter& painter, const MathBox& box, QPointF origin) const {
    const QColor color = painter.pen().color();
    int current = -1;
    for (const MathBox::Run& run : box.runs) {
        if (run.font != current) {
            painter.setFont(m_fonts[static_cast<std::size_t>(run.font)]);
            current = run.font;
        }
        painter.drawText(origin + run.origin, run.text);
    }
    for (const QRectF& rule : box.rules) {
        painter.fillRect(rule.translated(origin), color);
    }
    for (const MathBox::Stroke& stroke : box.strokes) {
        painter.strokePath(stroke.path.translated(origin), QPen(color, stroke.width, Qt::SolidLine, Qt::RoundCap,
                                                                Qt::RoundJoin));
    }
}

MathBox MathTypesetter::layout(const Node& node, Style style) const {
    switch (node.kind) {
    case Node::Kind::Symbol: return layoutSymbol(node.text, node.face, style);
    case Node::Kind::BigOp:
        if (style.display && style.level == 0) {
            MathBox box;
            const Ink& measured = ink(bigFont(), node.text);
            // Centre the large operator on the maths axis.
            const qreal shift = (measured.ascent - measured.descent) / 2 - axis(0);
            box.runs.push_back({QPointF(0, shift), node.text, bigFont()});
            box.width = measured.advance;
            box.ascent = measured.ascent - shift;
            box.descent = measured.descent + shift;
            return box;
        }
        return layoutSymbol(node.text, Face::Roman, style);
    case Node::Kind::List: return layoutList(node.children, style);
    case Node::Kind::Scripts: return layoutScripts(node, style);
    case Node::Kind::Fraction: return layoutFraction(node, style);
    case Node::Kind::Root: return layoutRoot(node, style);
    case Node::Kind::Delimited: return layoutDelimited(node, style);
    case Node::Kind::Accent: return layoutAccent(node, style);
    case Node::Kind::Cases: return layoutCases(node, style);
    case Node::Kind::Space: {
        MathBox box;
        box.width = node.space * emAt(style.level);
        return box;
    }
    }
    return {};
}

MathBox MathTypesetter::layoutSymbol(const QString& text, Face face, Style style) const {
    MathBox box;
    const int font = fontIndex(face, style.level);
    const Ink& measured = ink(font, text);
    box.runs.push_back({QPointF(0, 0), text, font});
    box.width = measured.advance;
    box.ascent = measured.ascent;
    box.descent = measured.descent;
    return box;
}

MathBox MathTypesetter::layoutList(const std::vector<Node>& nodes, Style style) const {
    MathBox box;
    // Bin atoms become Ord where there is nothing to combine (a leading minus, after a relation).
    std::vector<Atom> atoms;
    for (const Node& node : nodes) {
        atoms.push_back(atomOf(node));
    }
    int previous = -1;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (nodes[i].kind == Node::Kind::Space) {
            continue;
        }
        if (atoms[i] == Atom::Bin) {
            const bool leftOk = previous >= 0 && atoms[static_cast<std::size_t>(previous)] != Atom::Bin &&
                                atoms[static_cast<std::size_t>(previous)] != Atom::Op &&
                                atoms[static_cast<std::size_t>(previous)] != Atom::Rel &&
                                atoms[static_cast<std::size_t>(previous)] != Atom::Open &&
                                atoms[static_cast<std::size_t>(previous)] != Atom::Punct;
            std::size_t next = i + 1;
            while (next < nodes.size() && nodes[next].kind == Node::Kind::Space) {
                ++next;
            }
            const bool rightOk = next < nodes.size() && atoms[next] != Atom::Rel && atoms[next] != Atom::Close &&
                                 atoms[next] != Atom::Punct;
            if (!leftOk || !rightOk) {
                atoms[i] = Atom::Ord;
            }
        }
        previous = static_cast<int>(i);
    }
    previous = -1;
    qreal x = 0;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const MathBox child = layout(nodes[i], style);
        if (nodes[i].kind != Node::Kind::Space) {
            if (previous >= 0) {
                const double space =
                    kSpacing[static_cast<int>(atoms[static_cast<std::size_t>(previous)])][static_cast<int>(atoms[i])];
                // Script styles keep only the thin spaces around operators.
                const bool keep = style.level == 0 || (space == kThin && (atoms[i] == Atom::Op ||
                                                                          atoms[static_cast<std::size_t>(previous)] == Atom::Op));
                x += keep ? space * emAt(style.level) : 0;
            }
            previous = static_cast<int>(i);
        }
        box.append(child, QPointF(x, 0));
        x += child.width;
        box.ascent = std::max(box.ascent, child.ascent);
        box.descent = std::max(box.descent, child.descent);
    }
    box.width = x;
    return box;
}

MathBox MathTypesetter::layoutScripts(const Node& node, Style style) const {
    const Node& baseNode = node.children[0];
    const MathBox base = layout(baseNode, style);
    const Style script{std::min(style.level + 1, Levels - 1), false};
    const bool hasSub = !isEmptyList(node.children[1]);
    const bool hasSup = !isEmptyList(node.children[2]);
    const MathBox sub = hasSub ? layout(node.children[1], script) : MathBox{};
    const MathBox sup = hasSup ? layout(node.children[2], script) : MathBox{};
    const qreal em = emAt(style.level);
    MathBox box;
    box.append(base, QPointF(0, 0));
    box.ascent = base.ascent;
    box.descent = base.descent;

    if (baseNode.kind == Node::Kind::BigOp && style.display && style.level == 0) {
        // Limits centred under and over a display-style operator.
        const qreal width = std::max({base.width, sub.width, sup.width});
        MathBox limits;
        limits.append(base, QPointF((width - base.width) / 2, 0));
        limits.ascent = base.ascent;
        limits.descent = base.descent;
        if (hasSup) {
            const qreal y = -(base.ascent + 0.12 * em + sup.descent);
            limits.append(sup, QPointF((width - sup.width) / 2, y));
            limits.ascent = -y + sup.ascent;
        }
        if (hasSub) {
            const qreal y = base.descent + 0.12 * em + sub.ascent;
            limits.append(sub, QPointF((width - sub.width) / 2, y));
            limits.descent = y + sub.descent;
        }
        limits.width = width;
        return limits;
    }
    const bool italic = baseNode.kind == Node::Kind::Symbol && baseNode.face == Face::Italic;
    const bool simple = baseNode.kind == Node::Kind::Symbol;
    qreal raise = std::max(simple ? 0.42 * em : base.ascent - 0.28 * em, sup.descent + 0.2 * em);
    qreal lower = std::max(simple ? 0.18 * em : base.descent + 0.16 * em, sub.ascent - 0.6 * em);
    if (hasSub && hasSup) {
        const qreal clearance = (raise - sup.descent) - (sub.ascent - lower);
        if (clearance < 0.16 * em) {
            lower += 0.16 * em - clearance;
        }
    }
    qreal width = base.width;
    if (hasSup) {
        box.append(sup, QPointF(base.width + (italic ? 0.04 * em : 0.02 * em), -raise));
        box.ascent = std::max(box.ascent, raise + sup.ascent);
        width = std::max(width, base.width + sup.width + (italic ? 0.04 * em : 0.02 * em));
    }
    if (hasSub) {
        box.append(sub, QPointF(base.width - (italic ? 0.02 * em : 0), lower));
        box.descent = std::max(box.descent, lower + sub.descent);
        width = std::max(width, base.width + sub.width);
    }
    box.width = width + 0.04 * em;
    return box;
}

MathBox MathTypesetter::layoutFraction(const Node& node, Style style) const {
    const Style inner{style.display ? style.level : std::min(style.level + 1, Levels - 1), false};
    const MathBox numerator = layout(node.children[0], inner);
    const MathBox denominator = layout(node.children[1], inner);
    const qreal em = emAt(style.level);
    const qreal rule = std::max(0.8, em * 0.05);
    const qreal gap = style.display ? 2.5 * rule : 1.6 * rule;
    const qreal pad = 0.12 * em;
    const qreal a = axis(style.level);
    const qreal width = std::max(numerator.width, denominator.width) + 2 * pad;
    MathBox box;
    const qreal numeratorBaseline = -(a + rule / 2 + gap + numerator.descent);
    const qreal denominatorBaseline = -a + rule / 2 + gap + denominator.ascent;
    box.append(numerator, QPointF((width - numerator.width) / 2, numeratorBaseline));
    box.append(denominator, QPointF((width - denominator.width) / 2, denominatorBaseline));
    box.rules.emplace_back(0.04 * em, -a - rule / 2, width - 0.08 * em, rule);
    box.width = width;
    box.ascent = -numeratorBaseline + numerator.ascent;
    box.descent = denominatorBaseline + denominator.descent;
    return box;
}

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
    const QString shape = opening ? text
                          : text == QLatin1String(")")   ? QStringLiteral("(")
                          : text == QLatin1String("]")   ? QStringLiteral("[")
                          : text == QLatin1String("}")   ? QStringLiteral("{")
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
        (i % 2 == 0 ? valueWidth : conditionWidth) = std::max(i % 2 == 0 ? valueWidth : conditionWidth, cells.back().width);
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

} // namespace archplay::ui::math
