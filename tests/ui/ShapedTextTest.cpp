// SPDX-License-Identifier: GPL-3.0-or-later
// Shaped text: drawn from the cache, the same pixels and the same widths as QPainter gives.
#include "ui/widgets/ShapedText.h"

#include "ui/widgets/TextLines.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QImage>
#include <QPainter>
#include <QPicture>
#include <QThread>

#include <gtest/gtest.h>

#include <functional>
#include <initializer_list>

namespace archplay::ui {
namespace {

QImage painted(const std::function<void(QPainter&)>& draw) {
    QImage image(360, 60, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::TextAntialiasing);
    QFont font = QApplication::font();
    font.setPointSizeF(11);
    painter.setFont(font);
    painter.setPen(Qt::black);
    draw(painter);
    return image;
}

const QStringList kSamples = {QStringLiteral("q_proj"), QStringLiteral("4,096 × 1,024 · 4.19M"),
                              QStringLiteral("MoE 256 × top-8 · 11.5B each"), QStringLiteral("∝ d_model ≤ 2¹⁷")};

TEST(ShapedText, DrawsTheSamePixelsAsQPainterInEveryAlignment) {
    const QRectF box(7.5, 5.25, 330, 41);
    for (const QString& text : kSamples) {
        for (const Qt::Alignment alignment :
             std::initializer_list<Qt::Alignment>{Qt::AlignLeft | Qt::AlignVCenter, Qt::AlignCenter,
                                                  Qt::AlignRight | Qt::AlignBottom, Qt::AlignHCenter | Qt::AlignTop}) {
            const QImage expected =
                painted([&](QPainter& p) { p.drawText(box, static_cast<int>(alignment) | Qt::TextDontClip, text); });
            // Twice: the first call shapes and keeps the text, the second draws it from the cache.
            for (int pass = 0; pass < 2; ++pass) {
                const QImage shaped = painted([&](QPainter& p) { widgets::drawShaped(p, box, alignment, text); });
                EXPECT_EQ(shaped, expected) << text.toStdString() << " alignment " << alignment << " pass " << pass;
            }
        }
        const QImage atBaseline = painted([&](QPainter& p) { p.drawText(QPointF(4.5, 30), text); });
        EXPECT_EQ(painted([&](QPainter& p) { widgets::drawShaped(p, QPointF(4.5, 30), text); }), atBaseline)
            << text.toStdString();
    }
}

TEST(ShapedText, MeasuresAsQFontMetricsAndReusesWhatItShaped) {
    QFont font = QApplication::font();
    font.setPointSizeF(9.5);
    const widgets::TextMetrics metrics(font);
    for (const QString& text : kSamples) {
        EXPECT_EQ(metrics.horizontalAdvance(text), QFontMetricsF(font).horizontalAdvance(text)) << text.toStdString();
    }
    const qsizetype before = widgets::shapedTextCacheSize();
    for (const QString& text : kSamples) {
        metrics.horizontalAdvance(text);
    }
    EXPECT_EQ(widgets::shapedTextCacheSize(), before) << "measured once, kept";
    font.setBold(true);
    EXPECT_EQ(widgets::TextMetrics(font).horizontalAdvance(kSamples.front()),
              QFontMetricsF(font).horizontalAdvance(kSamples.front()))
        << "another font is another entry";
    EXPECT_EQ(widgets::shapedTextCacheSize(), before + 1);
}

TEST(ShapedText, FittedTextIsWholeWhenItFitsAndCutOnlyWhenItDoesNot) {
    const QFont font = QApplication::font();
    const widgets::TextMetrics metrics(font);
    const QString text = kSamples[2];
    const qreal width = QFontMetricsF(font).horizontalAdvance(text);
    EXPECT_EQ(widgets::fitted(metrics, text, width), text);
    const std::uint64_t cuts = widgets::elisionCount();
    const QString cut = widgets::fitted(metrics, text, width - 1);
    EXPECT_NE(cut, text);
    EXPECT_EQ(cut, QFontMetricsF(font).elidedText(text, Qt::ElideRight, width - 1));
    EXPECT_EQ(widgets::elisionCount(), cuts + 1);
}

TEST(ShapedText, VectorDevicesAndOtherThreadsDrawAsQPainterDoes) {
    // A picture (as a PDF or an SVG) records the characters, not glyphs: it is drawn uncached.
    const qsizetype before = widgets::shapedTextCacheSize();
    const QString text = QStringLiteral("kept as characters");
    QPicture picture;
    {
        QPainter painter(&picture);
        painter.setFont(QApplication::font());
        widgets::drawShaped(painter, QRectF(0, 0, 200, 20), Qt::AlignLeft, text);
    }
    EXPECT_EQ(widgets::shapedTextCacheSize(), before);
    const QImage replayed = painted([&](QPainter& p) {
        p.setFont(QApplication::font());
        p.drawPicture(0, 0, picture);
    });
    const QImage direct = painted([&](QPainter& p) {
        p.setFont(QApplication::font());
        p.drawText(QRectF(0, 0, 200, 20), Qt::AlignLeft | Qt::TextDontClip, text);
    });
    EXPECT_EQ(replayed, direct);

    // Another thread neither reads nor fills the GUI thread's cache, and still measures right.
    qreal measured = 0;
    qsizetype seen = -1;
    QThread* worker = QThread::create([&] {
        measured = widgets::textAdvance(QApplication::font(), QStringLiteral("from a worker"));
        seen = widgets::shapedTextCacheSize();
    });
    worker->start();
    worker->wait();
    delete worker;
    EXPECT_EQ(measured, QFontMetricsF(QApplication::font()).horizontalAdvance(QStringLiteral("from a worker")));
    EXPECT_EQ(seen, 0);
    EXPECT_EQ(widgets::shapedTextCacheSize(), before);
}

} // namespace
} // namespace archplay::ui
