// SPDX-License-Identifier: GPL-3.0-or-later
// Text fits where it is drawn: wrapped, never cut, at every window size from 1280x720 up.
#include "ui/widgets/TextLines.h"

#include <QApplication>

#include <gtest/gtest.h>

namespace archplay::ui {
namespace {

TEST(TextLines, WrapsWithinTheWidthAndKeepsEveryWord) {
    const QFont font = QApplication::font();
    const QFontMetricsF metrics(font);
    const QString text =
        QStringLiteral("weights 15.0 GiB + cache 512 MiB = 15.5 GiB (19% of 80 GiB) on 1 x 80 GiB: fits, 19% used");
    const qreal width = metrics.horizontalAdvance(text) / 2.6;
    const std::uint64_t before = widgets::elisionCount();
    const QStringList lines = widgets::wrapLines(text, font, width, 4);
    ASSERT_EQ(lines.size(), 3);
    for (const QString& line : lines) {
        EXPECT_LE(metrics.horizontalAdvance(line), width + 0.5) << line.toStdString();
    }
    QString joined = lines.join(QLatin1Char(' '));
    joined.replace(QChar(0x00a0), QLatin1Char(' '));
    EXPECT_EQ(joined, text);
    EXPECT_EQ(widgets::elisionCount(), before) << "three lines were enough";
    // A number stays with its unit: no line ends in a bare number.
    for (const QString& line : lines) {
        EXPECT_FALSE(line.back().isDigit()) << line.toStdString();
    }
}

TEST(TextLines, CutsOnlyTheLastAllowedLineAndCountsTheCut) {
    const QFont font = QApplication::font();
    const QString text = QStringLiteral("one two three four five six seven eight nine ten eleven twelve");
    const qreal width = QFontMetricsF(font).horizontalAdvance(QStringLiteral("three four"));
    const std::uint64_t before = widgets::elisionCount();
    const QStringList lines = widgets::wrapLines(text, font, width, 2);
    ASSERT_EQ(lines.size(), 2);
    EXPECT_TRUE(lines.back().endsWith(QChar(0x2026))) << lines.back().toStdString();
    EXPECT_EQ(widgets::elisionCount(), before + 1);
    EXPECT_TRUE(widgets::wrapLines({}, font, width, 2).isEmpty());
}

} // namespace
} // namespace archplay::ui
