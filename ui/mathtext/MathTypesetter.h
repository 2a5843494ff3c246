// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/mathtext/MathParser.h"
#include "ui/widgets/ShapedText.h"

#include <QFont>
#include <QHash>
#include <QPainterPath>
#include <QPointF>
#include <QRectF>

#include <array>
#include <memory>
#include <unordered_map>
#include <vector>

class QPainter;

namespace archplay::ui::mathtext {

/// A typeset formula: glyph runs, rules and paths relative to the origin on its baseline.
struct MathBox {
    struct Run {
        QPointF origin; ///< baseline start
        QString text;
        int font = 0; ///< index into the typesetter's fonts
    };
    qreal width = 0;
    qreal ascent = 0;
    qreal descent = 0;
    std::vector<Run> runs;
    struct Stroke {
        QPainterPath path;
        qreal width = 1;
    };
    std::vector<QRectF> rules;   ///< fraction bars, radical overlines
    std::vector<Stroke> strokes; ///< radical signs, large delimiters, braces, accents

    qreal height() const { return ascent + descent; }
    /// Adds `other` with its origin at `offset`.
    void append(const MathBox& other, QPointF offset);
    void append(MathBox&& other, QPointF offset);
};

/// A small TeX-like typesetter for the LaTeX subset of the derivation: italic variables, upright
/// operators and numbers, TeX's spacing between atom classes, sub- and superscripts at script
/// sizes, built-up fractions on the maths axis, radicals, delimiters sized to their contents,
/// cases, and large operators with limits in display style. Fonts come from the widget's font
/// with a serif family; no TeX engine is needed.
class MathTypesetter {
public:
    explicit MathTypesetter(const QFont& base);

    /// Typesets `latex`; `display` gives display style (limits under sums, full-size fractions).
    MathBox typeset(const QString& latex, bool display) const;
    /// A formula typeset once and shared: a slider drag changes a few numbers, and every formula
    /// that did not change is reused. `unknown` (optional) receives the commands the parser did not know.
    std::shared_ptr<const MathBox> cached(const QString& latex, bool display, QStringList* unknown = nullptr) const;
    MathBox typeset(const Node& node, bool display) const;
    /// Paints a box with its origin at `origin` in the painter's pen colour.
    void paint(QPainter& painter, const MathBox& box, QPointF origin) const;
    /// Size of the maths font in pixels.
    qreal em() const { return m_em[0]; }

private:
    enum { Levels = 3, Faces = 4 };
    struct Style {
        int level = 0;
        bool display = false;
    };
    MathBox layout(const Node& node, Style style) const;
    MathBox layoutList(const std::vector<Node>& nodes, Style style) const;
    MathBox layoutSymbol(const QString& text, Face face, Style style) const;
    MathBox layoutScripts(const Node& node, Style style) const;
    MathBox layoutFraction(const Node& node, Style style) const;
    MathBox layoutRoot(const Node& node, Style style) const;
    MathBox layoutDelimited(const Node& node, Style style) const;
    MathBox layoutAccent(const Node& node, Style style) const;
    MathBox layoutCases(const Node& node, Style style) const;
    MathBox delimiter(const QString& text, qreal above, qreal below, Style style) const;
    qreal axis(int level) const { return m_axis[static_cast<std::size_t>(level)]; }
    qreal emAt(int level) const { return m_em[static_cast<std::size_t>(level)]; }
    int fontIndex(Face face, int level) const { return static_cast<int>(face) * Levels + level; }
    int bigFont() const { return Levels * Faces; }

    /// Ink extent of a run, measured once per font and text: tight bounds are slow to compute.
    struct Ink {
        qreal advance = 0;
        qreal ascent = 0;
        qreal descent = 0;
    };
    const Ink& ink(int font, const QString& text) const;

    struct Cached {
        std::shared_ptr<const MathBox> box;
        QStringList unknown;
    };
    mutable std::unordered_map<QString, Cached> m_cache;
    std::vector<QFont> m_fonts;
    std::vector<widgets::TextMetrics> m_metrics;
    mutable QHash<QPair<int, QString>, Ink> m_inks;
    std::array<qreal, Levels> m_em{};
    std::array<qreal, Levels> m_axis{};
};

} // namespace archplay::ui::mathtext
