// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/mathtext/MathTypesetter.h"

#include "ui/widgets/ShapedText.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace archplay::ui::mathtext {
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
    case Node::Kind::Symbol:
        return node.atom;
    case Node::Kind::BigOp:
        return Atom::Op;
    case Node::Kind::Scripts:
        return node.children.empty() ? Atom::Ord : atomOf(node.children[0]);
    case Node::Kind::Fraction:
    case Node::Kind::Delimited:
    case Node::Kind::Cases:
        return Atom::Inner;
    default:
        return Atom::Ord;
    }
}

bool isEmptyList(const Node& node) {
    return node.kind == Node::Kind::List && node.children.empty();
}

} // namespace

void MathBox::append(MathBox&& other, QPointF offset) {
    if (runs.empty() && rules.empty() && strokes.empty() && offset.isNull()) {
        runs = std::move(other.runs);
        rules = std::move(other.rules);
        strokes = std::move(other.strokes);
        return;
    }
    runs.reserve(runs.size() + other.runs.size());
    for (Run& run : other.runs) {
        runs.push_back({run.origin + offset, std::move(run.text), run.font});
    }
    for (const QRectF& rule : other.rules) {
        rules.push_back(rule.translated(offset));
    }
    for (const Stroke& stroke : other.strokes) {
        strokes.push_back({stroke.path.translated(offset), stroke.width});
    }
}

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
        const widgets::TextMetrics& metrics = m_metrics[static_cast<std::size_t>(fontIndex(Face::Roman, level))];
        m_em[static_cast<std::size_t>(level)] = metrics.height() * 0.86;
        m_axis[static_cast<std::size_t>(level)] = metrics.xHeight() * 0.52;
    }
}

const MathTypesetter::Ink& MathTypesetter::ink(int font, const QString& text) const {
    const QPair<int, QString> key(font, text);
    const auto found = m_inks.constFind(key);
    if (found == m_inks.constEnd()) {
        if (m_inks.size() > 50000) {
            // Numbers change as sliders move; keep the cache from growing without bound.
            m_inks.clear();
        }
        const widgets::TextMetrics& metrics = m_metrics[static_cast<std::size_t>(font)];
        const QRectF tight = metrics.tightBoundingRect(text);
        Ink measured;
        measured.advance = std::max(metrics.horizontalAdvance(text), tight.right());
        measured.ascent = std::max(-tight.top(), metrics.xHeight());
        measured.descent = std::max(tight.bottom(), 0.0);
        return *m_inks.insert(key, measured);
    }
    return *found;
}

MathBox MathTypesetter::typeset(const QString& latex, bool display) const {
    return typeset(parse(latex).root, display);
}

std::shared_ptr<const MathBox> MathTypesetter::cached(const QString& latex, bool display, QStringList* unknown) const {
    const QString key = (display ? QStringLiteral("D") : QStringLiteral("T")) + latex;
    auto found = m_cache.find(key);
    if (found == m_cache.end()) {
        if (m_cache.size() > 20000) {
            // Documents hold their boxes by shared pointer, so dropping the cache never dangles.
            m_cache.clear();
        }
        const ParseResult parsed = parse(latex);
        found =
            m_cache.emplace(key, Cached{std::make_shared<const MathBox>(typeset(parsed.root, display)), parsed.unknown})
                .first;
    }
    if (unknown) {
        *unknown << found->second.unknown;
    }
    return found->second.box;
}

MathBox MathTypesetter::typeset(const Node& node, bool display) const {
    return layout(node, Style{0, display});
}

void MathTypesetter::paint(QPainter& painter, const MathBox& box, QPointF origin) const {
    const QColor color = painter.pen().color();
    int current = -1;
    for (const MathBox::Run& run : box.runs) {
        if (run.font != current) {
            painter.setFont(m_fonts[static_cast<std::size_t>(run.font)]);
            current = run.font;
        }
        widgets::drawShaped(painter, origin + run.origin, run.text);
    }
    for (const QRectF& rule : box.rules) {
        painter.fillRect(rule.translated(origin), color);
    }
    for (const MathBox::Stroke& stroke : box.strokes) {
        painter.strokePath(stroke.path.translated(origin),
                           QPen(color, stroke.width, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    }
}

MathBox MathTypesetter::layout(const Node& node, Style style) const {
    switch (node.kind) {
    case Node::Kind::Symbol:
        return layoutSymbol(node.text, node.face, style);
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
    case Node::Kind::List:
        return layoutList(node.children, style);
    case Node::Kind::Scripts:
        return layoutScripts(node, style);
    case Node::Kind::Fraction:
        return layoutFraction(node, style);
    case Node::Kind::Root:
        return layoutRoot(node, style);
    case Node::Kind::Delimited:
        return layoutDelimited(node, style);
    case Node::Kind::Accent:
        return layoutAccent(node, style);
    case Node::Kind::Cases:
        return layoutCases(node, style);
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
        MathBox child = layout(nodes[i], style);
        if (nodes[i].kind != Node::Kind::Space) {
            if (previous >= 0) {
                const double space =
                    kSpacing[static_cast<int>(atoms[static_cast<std::size_t>(previous)])][static_cast<int>(atoms[i])];
                // Script styles keep only the thin spaces around operators.
                const bool keep =
                    style.level == 0 ||
                    (space == kThin && (atoms[i] == Atom::Op || atoms[static_cast<std::size_t>(previous)] == Atom::Op));
                x += keep ? space * emAt(style.level) : 0;
            }
            previous = static_cast<int>(i);
        }
        const qreal width = child.width;
        box.ascent = std::max(box.ascent, child.ascent);
        box.descent = std::max(box.descent, child.descent);
        box.append(std::move(child), QPointF(x, 0));
        x += width;
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

} // namespace archplay::ui::mathtext
