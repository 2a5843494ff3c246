// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <vector>

namespace archplay::ui::mathtext {

/// TeX's atom classes, which decide the spacing between neighbours.
enum class Atom { Ord, Op, Bin, Rel, Open, Close, Punct, Inner };

/// Typeface of a symbol.
enum class Face { Italic, Roman, Bold, Text };

/// A node of a parsed formula.
struct Node {
    enum class Kind {
        Symbol,    ///< `text` in `face`, classed `atom`
        List,      ///< `children` in a row (a {group})
        Scripts,   ///< children: base, subscript, superscript (empty Lists when absent)
        Fraction,  ///< children: numerator, denominator
        Root,      ///< children: radicand
        Delimited, ///< children: content, between `left` and `right` sized to it ("." = none)
        Accent,    ///< children: base, with `text` "hat", "tilde" or "bar" over it
        Space,     ///< `space` em of horizontal space (negative allowed)
        Cases,     ///< children: rows x 2 cells (value, condition), after a left brace
        BigOp,     ///< a large operator (sum) taking limits below and above in display style
    };
    Kind kind = Kind::List;
    QString text;
    Face face = Face::Italic;
    Atom atom = Atom::Ord;
    double space = 0;
    QString left;
    QString right;
    std::vector<Node> children;

    static Node symbol(const QString& text, Face face, Atom atom);
    static Node list(std::vector<Node> children = {});
};

struct ParseResult {
    Node root;           ///< a List
    QStringList unknown; ///< commands outside the supported subset, drawn as their names
};

/// Parses the LaTeX subset documented in core/derivation/Derivation.h. Never fails: unknown
/// commands are kept as text and listed, unbalanced braces are closed at the end.
ParseResult parse(const QString& latex);

/// Splits a formula at its top-level \quad and \qquad (outside every group), for breaking lines.
QStringList splitAtQuads(const QString& latex);

} // namespace archplay::ui::mathtext
