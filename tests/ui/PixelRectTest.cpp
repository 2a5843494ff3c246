// SPDX-License-Identifier: GPL-3.0-or-later
// pixelRect: the same pixels as QPainter's fill of the QRectF without antialiasing.
#include "ui/widgets/PixelRect.h"

#include <QImage>
#include <QPainter>

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <vector>

namespace archplay::ui {
namespace {

QImage filled(const std::function<void(QPainter&)>& fill) {
    QImage image(140, 140, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setPen(Qt::NoPen);
    painter.setBrush(Qt::black);
    fill(painter);
    return image;
}

TEST(PixelRect, CoversThePixelsQPainterFillsWithoutAntialiasing) {
    std::mt19937 random(7);
    std::uniform_real_distribution<double> place(0, 100);
    std::uniform_real_distribution<double> side(0.2, 30);
    // Random sides, and the edges a layout produces most: whole and half pixels.
    std::vector<QRectF> rects = {QRectF(10, 10, 5, 5), QRectF(10.5, 10.5, 5, 5), QRectF(3.49, 7.51, 0.5, 0.98),
                                 QRectF(10, 10, 5.5, 5.5)};
    for (int i = 0; i < 500; ++i) {
        rects.emplace_back(place(random), place(random), side(random), side(random));
    }
    for (const QRectF& rect : rects) {
        const QImage expected = filled([&](QPainter& p) { p.drawRects(&rect, 1); });
        const QRect pixels = widgets::pixelRect(rect);
        EXPECT_EQ(filled([&](QPainter& p) { p.drawRects(&pixels, 1); }), expected)
            << rect.x() << " " << rect.y() << " " << rect.width() << " " << rect.height();
    }
}

} // namespace
} // namespace archplay::ui
