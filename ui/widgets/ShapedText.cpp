// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/ShapedText.h"

#include "ui/widgets/PaintRecorder.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QGlyphRun>
#include <QHash>
#include <QPaintDevice>
#include <QTextLayout>
#include <QThread>

#include <memory>
#include <optional>

namespace archplay::ui::widgets {
namespace {

/// One font and text at one resolution (0 for measuring with the screen's metrics). The font is
/// a number from fontId(): hashing and comparing a QFont on every lookup cost more than the rest.
struct Key {
    int font = 0;
    QString text;
    int dpiX = 0;
    int dpiY = 0;

    bool operator==(const Key&) const = default;
};

size_t qHash(const Key& key, size_t seed = 0) {
    return qHashMulti(seed, key.font, key.text, key.dpiX, key.dpiY);
}

struct Shaped {
    std::optional<qreal> advance; ///< QFontMetricsF's, for measuring
    QList<QGlyphRun> runs;        ///< glyph positions relative to the start of the baseline
    qreal width = 0;              ///< the line's natural width, for aligning it
    qreal ascent = 0;
    qreal height = 0;
    bool laidOut = false;
};

/// A line width no text reaches (QTextLayout keeps widths in 26.6 fixed point).
constexpr qreal kUnbounded = 1e6;

/// Beyond this many entries the cache starts again: numbers change as sliders move.
constexpr qsizetype kMaxEntries = 20000;
constexpr qsizetype kMaxFonts = 1000;

struct Cache {
    QHash<Key, Shaped> entries;
    QHash<QFont, int> fonts; ///< each font seen, numbered
    QFont lastFont;          ///< the last font numbered, and its number: painters set a font once
    int lastId = -1;         ///< and draw many texts with it

    int fontId(const QFont& font) {
        if (lastId < 0 || !font.isCopyOf(lastFont)) {
            const auto found = fonts.constFind(font);
            lastId = found != fonts.cend() ? *found : *fonts.insert(font, int(fonts.size()));
            lastFont = font;
        }
        return lastId;
    }
};

Cache* g_cache = nullptr;
/// A worker's own cache, once it asked for one (keepShapedTextOnThisThread()).
thread_local std::unique_ptr<Cache> t_cache;

/// The calling thread's cache: glyph runs hold fonts, which belong to the thread that made them.
/// The GUI thread's is emptied before the application object goes; other threads have none unless
/// they asked for one.
Cache* cache() {
    const QCoreApplication* app = QCoreApplication::instance();
    if (app == nullptr) {
        return nullptr;
    }
    Cache* shapes = t_cache.get();
    if (QThread::currentThread() == app->thread()) {
        if (g_cache == nullptr) {
            g_cache = new Cache;
            qAddPostRoutine([] { *g_cache = Cache{}; });
        }
        shapes = g_cache;
    }
    if (shapes != nullptr && (shapes->entries.size() > kMaxEntries || shapes->fonts.size() > kMaxFonts)) {
        *shapes = Cache{};
    }
    return shapes;
}

bool multiline(const QString& text) {
    return text.contains(QLatin1Char('\n'));
}

/// Where a line of `size` starts in `rect`, placed by `alignment` as QPainter::drawText places it.
QPointF aligned(const QRectF& rect, Qt::Alignment alignment, QSizeF size) {
    qreal x = rect.left();
    if (alignment & Qt::AlignRight) {
        x = rect.right() - size.width();
    } else if (alignment & Qt::AlignHCenter) {
        x = rect.left() + (rect.width() - size.width()) / 2;
    }
    qreal top = rect.top();
    if (alignment & Qt::AlignBottom) {
        top = rect.bottom() - size.height();
    } else if (alignment & Qt::AlignVCenter) {
        top = rect.top() + (rect.height() - size.height()) / 2;
    }
    return {x, top};
}

/// Raster devices only: a PDF or SVG keeps the characters of what QPainter::drawText writes, so
/// that its text can be searched and copied; glyph runs would drop them.
bool rasterDevice(const QPainter& painter) {
    const QPaintDevice* device = painter.device();
    if (device == nullptr) {
        return false;
    }
    const int type = device->devType();
    return type == QInternal::Widget || type == QInternal::Image || type == QInternal::Pixmap ||
           PaintRecorder::of(painter) != nullptr; // recording what the screen shows
}

const Shaped* laidOut(QPainter& painter, const QString& text) {
    Cache* shapes = cache();
    const QPaintDevice* device = painter.device();
    if (shapes == nullptr || !rasterDevice(painter) || multiline(text)) {
        return nullptr;
    }
    const QFont& font = painter.font();
    Shaped& shaped = shapes->entries[Key{shapes->fontId(font), text, device->logicalDpiX(), device->logicalDpiY()}];
    if (!shaped.laidOut) {
        QTextLayout layout(text, font, device);
        QTextOption option;
        option.setWrapMode(QTextOption::NoWrap);
        option.setFlags(QTextOption::IncludeTrailingSpaces); // as QPainter::drawText() aligns one line
        layout.setTextOption(option);
        layout.beginLayout();
        QTextLine line = layout.createLine();
        if (line.isValid()) {
            line.setLineWidth(kUnbounded); // lays the line out; NoWrap keeps it one line
            line.setPosition(QPointF(0, 0));
        }
        layout.endLayout();
        if (line.isValid()) {
            shaped.width = line.naturalTextWidth();
            shaped.ascent = line.ascent();
            shaped.height = line.ascent() + line.descent(); // as QPainter centres it: not rounded up
        }
        shaped.runs = layout.glyphRuns();
        shaped.laidOut = true;
    }
    return &shaped;
}

void draw(QPainter& painter, const Shaped& shaped, QPointF baseline, const QString& text) {
    const QPointF origin = baseline - QPointF(0, shaped.ascent);
    if (PaintRecorder* recorder = PaintRecorder::of(painter)) {
        recorder->addText(painter, QRectF(origin, QSizeF(shaped.width, shaped.height)), text);
        return;
    }
    for (const QGlyphRun& run : shaped.runs) {
        painter.drawGlyphRun(origin, run);
    }
}

} // namespace

qreal textAdvance(const QFont& font, const QString& text) {
    Cache* shapes = cache();
    if (shapes == nullptr) {
        return QFontMetricsF(font).horizontalAdvance(text);
    }
    Shaped& shaped = shapes->entries[Key{shapes->fontId(font), text, 0, 0}];
    if (!shaped.advance) {
        shaped.advance = QFontMetricsF(font).horizontalAdvance(text);
    }
    return *shaped.advance;
}

void drawShaped(QPainter& painter, QPointF baseline, const QString& text) {
    if (const Shaped* shaped = laidOut(painter, text)) {
        draw(painter, *shaped, baseline, text);
    } else {
        painter.drawText(baseline, text);
    }
}

void drawShaped(QPainter& painter, const QRectF& rect, Qt::Alignment alignment, const QString& text) {
    const Shaped* shaped = laidOut(painter, text);
    if (shaped == nullptr) {
        painter.drawText(rect, static_cast<int>(alignment) | Qt::TextDontClip, text);
        return;
    }
    const QPointF topLeft = aligned(rect, alignment, QSizeF(shaped->width, shaped->height));
    draw(painter, *shaped, QPointF(topLeft.x(), topLeft.y() + shaped->ascent), text);
}

void keepShapedTextOnThisThread() {
    const QCoreApplication* app = QCoreApplication::instance();
    if (!t_cache && app != nullptr && QThread::currentThread() != app->thread()) {
        t_cache = std::make_unique<Cache>();
    }
}

qsizetype shapedTextCacheSize() {
    const Cache* shapes = cache();
    return shapes == nullptr ? 0 : shapes->entries.size();
}

} // namespace archplay::ui::widgets
