// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QFontMetricsF>
#include <QPainter>
#include <QPointF>
#include <QRectF>
#include <QString>

namespace archplay::ui::widgets {

/// Text shaped once and reused. Shaping (HarfBuzz, through QTextLayout) is the largest part of
/// painting a view, and from one slider step to the next the views draw mostly the same words:
/// "q_proj", "d_model", "4,096". On the GUI thread, and on a thread that asked for it
/// (keepShapedTextOnThisThread()), these functions keep each (font, text) shaped in a cache, so a
/// repaint draws glyphs that are ready; elsewhere (export threads) they shape as QPainter does.
/// What is drawn is the same either way: the glyphs QPainter::drawText would draw.

/// The width of `text` in `font`, as QFontMetricsF(font).horizontalAdvance(text) gives it.
qreal textAdvance(const QFont& font, const QString& text);

/// QFontMetricsF whose horizontalAdvance(text) comes from the cache: what layouts measure with.
class TextMetrics : public QFontMetricsF {
public:
    explicit TextMetrics(const QFont& font)
        : QFontMetricsF(font)
        , m_font(font) {}

    using QFontMetricsF::horizontalAdvance; // horizontalAdvance(QChar), and (QString, QTextOption)
    /// QFontMetricsF's own signature, so that no call is ambiguous: a whole string from the cache, a
    /// prefix of `length` characters measured directly.
    qreal horizontalAdvance(const QString& text, int length = -1) const {
        return length < 0 ? textAdvance(m_font, text) : QFontMetricsF::horizontalAdvance(text, length);
    }
    const QFont& font() const { return m_font; }

private:
    QFont m_font;
};

/// Draws one line of `text` in the painter's font with its left end of the baseline at `baseline`,
/// as QPainter::drawText(baseline, text) does.
void drawShaped(QPainter& painter, QPointF baseline, const QString& text);

/// Draws one line of `text` in the painter's font inside `rect`, placed by `alignment` (horizontal
/// and vertical flags), unclipped, as QPainter::drawText(rect, alignment | Qt::TextDontClip, text)
/// does for a text without line breaks.
void drawShaped(QPainter& painter, const QRectF& rect, Qt::Alignment alignment, const QString& text);

/// Gives the calling thread (not the GUI thread, which has one) a cache of its own. It goes with the
/// thread, which must end before the application object does: the frame workers of the overview.
void keepShapedTextOnThisThread();

/// How many (font, text) pairs are shaped and kept on this thread, for tests.
qsizetype shapedTextCacheSize();

} // namespace archplay::ui::widgets
