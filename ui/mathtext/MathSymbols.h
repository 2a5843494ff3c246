// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/mathtext/MathParser.h"

#include <QHash>
#include <QString>

namespace archplay::ui::mathtext {

/// A command of the LaTeX subset that stands for one symbol.
struct SymbolInfo {
    QString text;
    Atom atom;
    Face face = Face::Roman;
};

/// Greek letters, relations, binary operators, delimiters and named functions (\exp, \max) by command name.
const QHash<QString, SymbolInfo>& symbols();
/// Width of a spacing command in em (\quad 1, \, 3/18, \! -3/18), 0 when `command` is not one.
double spaceOf(const QString& command);
/// \mathbb letters as Unicode double-struck capitals (R -> ℝ).
QString blackboard(const QString& text);
/// \mathcal letters as Unicode mathematical script capitals (T -> 𝒯).
QString calligraphic(const QString& text);

} // namespace archplay::ui::mathtext
