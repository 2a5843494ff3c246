// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/widgets/ShapedText.h"

#include <QFont>
#include <QPainter>
#include <QStringList>

#include <cstdint>
#include <limits>

namespace archplay::ui::widgets {

/// `text` as it fits `width` in `metrics`: whole, or cut with an ellipsis as a last resort. Every
/// cut is counted (elisionCount()), so tests can assert that a layout fits its text.
QString fitted(const TextMetrics& metrics, const QString& text, qreal width);

/// The first of `candidates` (longest first, each a complete text) that fits `width`; the last one
/// fitted() when none does.
QString firstThatFits(const TextMetrics& metrics, const QStringList& candidates, qreal width);

/// `items` joined by ", " as far as they fit `width`, then "+N" for the ones left out, so a list is
/// shortened honestly ("e51, e62, e21 +7") instead of being cut mid-word.
QString listThatFits(const TextMetrics& metrics, const QStringList& items, qreal width);

/// For wrapLines(): as many lines as the text needs, so nothing is cut (the caller decides what to
/// do with a text that needs too many).
inline constexpr int kEveryLine = std::numeric_limits<int>::max();

/// `text` broken at word boundaries into lines no wider than `width` in `font`, at most
/// `maxLines` of them: when the text needs more, the last line holds the rest, fitted(). A number
/// stays on the line of the word after it ("128 KiB"), and a word wider than the line is broken
/// inside the word. An empty text gives no lines.
QStringList wrapLines(const QString& text, const QFont& font, qreal width, int maxLines);

/// Draws `lines` one under the other from (`left`, `top`), each `lineHeight` tall in a box `width`
/// wide, aligned by `alignment` (vertically centred); returns the y under the last line.
qreal drawLines(QPainter& painter, const QStringList& lines, qreal left, qreal top, qreal width, qreal lineHeight,
                Qt::Alignment alignment = Qt::AlignLeft);

/// How many texts fitted() has cut since the program started.
std::uint64_t elisionCount();

/// The whole texts of the last `count` cuts fitted() made (at most 64), oldest first, so a failing
/// test can say what did not fit.
QStringList recentCuts(std::uint64_t count);

} // namespace archplay::ui::widgets
