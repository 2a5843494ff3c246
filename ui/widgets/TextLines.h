// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QFontMetricsF>
#include <QStringList>

#include <cstdint>

namespace archplay::ui::widgets {

/// `text` as it fits `width` in `metrics`: whole, or cut with an ellipsis as a last resort. Every
/// cut is counted (elisionCount()), so tests can assert that a layout fits its text.
QString fitted(const QFontMetricsF& metrics, const QString& text, qreal width);

/// `text` broken at word boundaries into lines no wider than `width` in `font`, at most
/// `maxLines` of them: when the text needs more, the last line holds the rest, fitted(). A number
/// stays on the line of the word after it ("128 KiB"), and a word wider than the line is broken
/// inside the word. An empty text gives no lines.
QStringList wrapLines(const QString& text, const QFont& font, qreal width, int maxLines);

/// How many texts fitted() has cut since the program started.
std::uint64_t elisionCount();

} // namespace archplay::ui::widgets
