// SPDX-License-Identifier: GPL-3.0-or-later
// widgets::PaintRecorder: what it lists covers every pixel the same paint code paints, and its
// digests tell apart what paints differently.
#include "ui/widgets/PaintRecorder.h"

#include "ui/widgets/ShapedText.h"

#include <QFont>
#include <QImage>
#include <QPainter>
#include <QPainterPath>

#include <gtest/gtest.h>

#include <functional>
#include <vector>

namespace {

using archplay::ui::widgets::PaintedItem;
using archplay::ui::widgets::PaintRecorder;
using Paint = std::function<void(QPainter&)>;

constexpr QSize kSize(320, 200);

QImage painted(const Paint& paint) {
    QImage image(kSize, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing, true);
    paint(painter);
    return image;
}

std::vector<PaintedItem> recorded(const Paint& paint) {
    const QImage like(1, 1, QImage::Format_ARGB32_Premultiplied);
    PaintRecorder recorder(kSize, like.logicalDpiX(), like.logicalDpiY(), 1);
    QPainter painter(&recorder);
    painter.setRenderHint(QPainter::Antialiasing, true);
    paint(painter);
    painter.end();
    return recorder.takeItems();
}

/// How many pixels `paint` changes outside the rects it is recorded to touch.
int paintedOutsideItems(const Paint& paint) {
    const QImage image = painted(paint);
    QRegion items;
    for (const PaintedItem& item : recorded(paint)) {
        items += item.rect;
    }
    int outside = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            outside += image.pixel(x, y) != qRgb(255, 255, 255) && !items.contains(QPoint(x, y)) ? 1 : 0;
        }
    }
    return outside;
}

QFont textFont() {
    QFont font;
    font.setPointSizeF(13);
    return font;
}

/// Every kind of call the views make, alone: fills, strokes of several widths, rounded rects,
/// lines and dashes, polygons, batched rects, images, shaped and laid-out text, under transforms.
std::vector<std::pair<const char*, Paint>> everyKindOfCall() {
    QImage image(7, 5, QImage::Format_RGB32);
    image.fill(Qt::darkBlue);
    return {
        {"fillRect",
         [](QPainter& p) {
             p.fillRect(QRectF(10.3, 20.6, 50.2, 11.1), Qt::red);
         }},
        {"stroked rect",
         [](QPainter& p) {
             p.setPen(QPen(Qt::black, 2.5));
             p.setBrush(Qt::NoBrush);
             p.drawRect(QRectF(30, 30, 80, 40));
         }},
        {"rounded rect",
         [](QPainter& p) {
             p.setPen(QPen(Qt::blue, 1));
             p.setBrush(Qt::yellow);
             p.drawRoundedRect(QRectF(40.5, 50.5, 90, 30), 4, 4);
         }},
        {"level line",
         [](QPainter& p) {
             p.setPen(QPen(Qt::black, 1.4));
             p.drawLine(QLineF(10, 100.5, 300, 100.5));
         }},
        {"dashed line",
         [](QPainter& p) {
             p.setPen(QPen(Qt::black, 1, Qt::DashLine));
             p.drawLine(QLineF(150.5, 10, 150.5, 190));
         }},
        {"polygon",
         [](QPainter& p) {
             p.setPen(Qt::NoPen);
             p.setBrush(Qt::green);
             p.drawPolygon(QPolygonF({QPointF(200, 20), QPointF(260, 60), QPointF(190, 80)}));
         }},
        {"rects in one call",
         [](QPainter& p) {
             const QRect rects[] = {QRect(5, 5, 3, 3), QRect(300, 180, 10, 10), QRect(100, 150, 1, 30)};
             p.setPen(Qt::NoPen);
             p.setBrush(Qt::magenta);
             p.drawRects(rects, 3);
         }},
        {"image",
         [image](QPainter& p) {
             p.drawImage(QRectF(60, 120, 70, 50), image);
         }},
        {"shaped text",
         [](QPainter& p) {
             p.setFont(textFont());
             archplay::ui::widgets::drawShaped(p, QRectF(20, 140, 150, 20), Qt::AlignRight | Qt::AlignVCenter,
                                               QStringLiteral("Wj q_proj 4,096 × 1,024"));
         }},
        {"text at a baseline",
         [](QPainter& p) {
             p.setFont(textFont());
             archplay::ui::widgets::drawShaped(p, QPointF(12, 60), QStringLiteral("gqy ÅÉ"));
         }},
        {"wrapped text",
         [](QPainter& p) {
             p.setFont(textFont());
             p.drawText(QRectF(170, 100, 120, 90), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                        QStringLiteral("Every token goes through the same feed-forward network"));
         }},
        {"scaled text and rule",
         [](QPainter& p) {
             p.translate(40.3, 20.7);
             p.scale(0.8, 0.8);
             p.setFont(textFont());
             archplay::ui::widgets::drawShaped(p, QPointF(0, 30), QStringLiteral("softmax(QKᵀ/√d)"));
             QPainterPath rule;
             rule.moveTo(0, 40);
             rule.lineTo(120, 40);
             p.strokePath(rule, QPen(Qt::black, 1.2));
         }},
    };
}

TEST(PaintRecorder, ItsItemsCoverEveryPixelThePaintCodePaints) {
    for (const auto& [name, paint] : everyKindOfCall()) {
        SCOPED_TRACE(name);
        EXPECT_FALSE(recorded(paint).empty());
        EXPECT_EQ(paintedOutsideItems(paint), 0);
    }
}

TEST(PaintRecorder, TheSameCallsGiveTheSameItemsAndAnyDifferenceShows) {
    const auto text = [](const QString& words, const QColor& color, qreal x) {
        return [=](QPainter& p) {
            p.setFont(textFont());
            p.setPen(color);
            archplay::ui::widgets::drawShaped(p, QRectF(x, 10, 200, 20), Qt::AlignLeft, words);
        };
    };
    const auto stroke = [](qreal width, Qt::PenStyle style) {
        return [=](QPainter& p) {
            p.setPen(QPen(Qt::black, width, style));
            p.drawLine(QLineF(10, 50, 200, 50));
        };
    };
    EXPECT_EQ(recorded(text(QStringLiteral("11.5B each"), Qt::black, 10)),
              recorded(text(QStringLiteral("11.5B each"), Qt::black, 10)));
    for (const Paint& other : {Paint(text(QStringLiteral("11.6B each"), Qt::black, 10)),
                               Paint(text(QStringLiteral("11.5B each"), Qt::red, 10)),
                               Paint(text(QStringLiteral("11.5B each"), Qt::black, 10.25))}) {
        EXPECT_NE(recorded(text(QStringLiteral("11.5B each"), Qt::black, 10)), recorded(other));
    }
    EXPECT_EQ(recorded(stroke(1, Qt::SolidLine)), recorded(stroke(1, Qt::SolidLine)));
    EXPECT_NE(recorded(stroke(1, Qt::SolidLine)), recorded(stroke(2, Qt::SolidLine)));
    EXPECT_NE(recorded(stroke(1, Qt::SolidLine)), recorded(stroke(1, Qt::DashLine)));
    const auto fill = [](const QColor& color, bool antialiased) {
        return [=](QPainter& p) {
            p.setRenderHint(QPainter::Antialiasing, antialiased);
            p.fillRect(QRectF(10.5, 10.5, 30, 30), color);
        };
    };
    EXPECT_NE(recorded(fill(Qt::red, true)), recorded(fill(Qt::blue, true)));
    EXPECT_NE(recorded(fill(Qt::red, true)), recorded(fill(Qt::red, false)));
}

TEST(PaintRecorder, ListsWhatDiffersWhereItIsOrWas) {
    const auto box = [](qreal x) {
        return [=](QPainter& p) {
            p.fillRect(QRectF(0, 0, 300, 20), Qt::gray);
            p.fillRect(QRectF(x, 40, 20, 20), Qt::red);
        };
    };
    const std::vector<QRect> places = archplay::ui::widgets::differingItems(recorded(box(10)), recorded(box(100)));
    ASSERT_EQ(places.size(), 2u); // where the box was, and where it is; not the bar above them
    EXPECT_TRUE(places[0].contains(QRect(10, 40, 20, 20)));
    EXPECT_TRUE(places[1].contains(QRect(100, 40, 20, 20)));
    EXPECT_FALSE(places[0].intersects(QRect(0, 0, 300, 20)) || places[1].intersects(QRect(0, 0, 300, 20)));
}

} // namespace
