// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/CommandLine.h"

#include "io/Presets.h"

#include <gtest/gtest.h>

namespace archplay::ui {
namespace {

CommandLineResult parse(std::initializer_list<const char*> args) {
    QStringList list{QStringLiteral("archplay")};
    for (const char* arg : args) {
        list << QString::fromUtf8(arg);
    }
    return parseCommandLine(list);
}

TEST(CommandLine, ScreenshotWithEverything) {
    ASSERT_FALSE(core::builtinPresets().empty());
    const std::string id = core::builtinPresets().front().info.id;
    const CommandLineResult result = parse({"--screenshot", "/tmp/x.png", "--preset", id.c_str(), "--view", "breakdown",
                                            "--size", "1920x1080", "--theme", "dark"});
    ASSERT_EQ(result.action, CommandLineResult::Action::Run) << result.error.toStdString();
    EXPECT_EQ(result.options.screenshotPath, QStringLiteral("/tmp/x.png"));
    EXPECT_EQ(result.options.presetId, QString::fromStdString(id));
    EXPECT_EQ(result.options.viewId, QStringLiteral("breakdown"));
    EXPECT_EQ(result.options.size, QSize(1920, 1080));
    EXPECT_EQ(result.options.theme, ThemeMode::Dark);
}

TEST(CommandLine, DefaultsAndPositionalFile) {
    const CommandLineResult result = parse({"config.json"});
    ASSERT_EQ(result.action, CommandLineResult::Action::Run);
    EXPECT_EQ(result.options.configPath, QStringLiteral("config.json"));
    EXPECT_EQ(result.options.size, QSize(1280, 800));
    EXPECT_FALSE(result.options.theme.has_value());
}

TEST(CommandLine, BadArgumentsExitTwoWithAMessage) {
    for (const auto& args : std::vector<std::vector<const char*>>{
             {"--size", "big"},
             {"--size", "10x10"},
             {"--theme", "purple"},
             {"--preset", "no-such-model"},
             {"--bogus"},
             {"--screenshot", "/tmp/x.jpg"},
             {"--preset", "x", "--config", "y.json"},
             {"a.json", "b.json"},
         }) {
        QStringList list{QStringLiteral("archplay")};
        for (const char* arg : args) {
            list << QString::fromUtf8(arg);
        }
        const CommandLineResult result = parseCommandLine(list);
        EXPECT_EQ(result.action, CommandLineResult::Action::Exit) << list.join(' ').toStdString();
        EXPECT_EQ(result.exitCode, 2) << list.join(' ').toStdString();
        EXPECT_FALSE(result.error.isEmpty());
    }
}

TEST(CommandLine, HelpExitsZero) {
    const CommandLineResult result = parse({"--help"});
    EXPECT_EQ(result.action, CommandLineResult::Action::Exit);
    EXPECT_EQ(result.exitCode, 0);
    EXPECT_TRUE(result.output.contains(QStringLiteral("--screenshot")));
}

TEST(CommandLine, DetectsScreenshotBeforeTheApplicationExists) {
    const char* with[] = {"archplay", "--preset", "x", "--screenshot", "a.png"};
    const char* without[] = {"archplay", "--preset", "x"};
    EXPECT_TRUE(wantsScreenshot(5, with));
    EXPECT_FALSE(wantsScreenshot(3, without));
}

} // namespace
} // namespace archplay::ui
