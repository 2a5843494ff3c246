// SPDX-License-Identifier: GPL-3.0-or-later
// Text fits where it is drawn: wrapped, never cut, at every window size from 1280x720 up.
#include "core/io/ViewKind.h"
#include "ui/panels/SummaryCards.h"
#include "ui/session/ModelBridge.h"
#include "ui/views/AnalysisView.h"
#include "ui/widgets/TextLines.h"
#include "ui/window/MainWindow.h"

#include <QApplication>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>

#include <gtest/gtest.h>

namespace archplay::ui {
namespace {

TEST(TextLines, WrapsWithinTheWidthAndKeepsEveryWord) {
    const QFont font = QApplication::font();
    const ui::widgets::TextMetrics metrics(font);
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

/// Every view of the window, for models of each kind, at the sizes people use: no text is cut.
TEST(TextFit, NoViewCutsItsTextFrom1280x720Up) {
    const char* const presets[] = {"llama-3-8b",          "deepseek-v3",       "bert-base-uncased",
                                   "flan-t5-base",        "gpt-oss-120b",      "qwen3-next-80b-a3b",
                                   "granite-4.0-h-small", "mixtral-8x7b-v0.1", "gemma-3-27b"};
    const QSize sizes[] = {{1280, 720}, {1920, 1080}, {2560, 1440}};
    ui::window::MainWindow window{ui::window::MainWindowOptions{false}};
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    for (const QSize& size : sizes) {
        window.resize(size);
        window.applyDefaultLayout();
        QApplication::processEvents();
        // Nine tabs fit the width the views get: no scroll arrows.
        const QTabBar* tabs = window.findChild<QTabWidget*>(QStringLiteral("views"))->tabBar();
        EXPECT_LE(tabs->sizeHint().width(), tabs->width()) << size.width() << "x" << size.height();
        for (const char* preset : presets) {
            ASSERT_TRUE(window.bridge()->loadPreset(QString::fromLatin1(preset))) << preset;
            for (core::ViewKind kind : core::kAllViewKinds) {
                window.selectView(kind);
                QApplication::processEvents();
                const std::uint64_t before = widgets::elisionCount();
                (void)window.currentView()->grab();
                (void)window.summaryCards()->grab();
                EXPECT_EQ(widgets::elisionCount(), before)
                    << "cut: "
                    << widgets::recentCuts(widgets::elisionCount() - before).join(QStringLiteral(" | ")).toStdString()
                    << " in " << preset << " " << core::toString(kind) << " at " << size.width() << "x"
                    << size.height();
            }
        }
    }
}

} // namespace
} // namespace archplay::ui
