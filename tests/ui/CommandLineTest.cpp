// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/CommandLine.h"

#include "core/io/Presets.h"

#include <gtest/gtest.h>

namespace archplay::app {
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
    EXPECT_EQ(result.options.view, archplay::core::ViewKind::Breakdown);
    EXPECT_EQ(result.options.size, QSize(1920, 1080));
    EXPECT_EQ(result.options.theme, ui::theme::ThemeMode::Dark);
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
             {"--view", "no-such-view"},
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

TEST(CommandLine, AnUnknownViewListsTheViews) {
    const CommandLineResult result = parse({"--view", "kv"});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_TRUE(result.error.contains(QStringLiteral("unknown view 'kv'"))) << result.error.toStdString();
    EXPECT_TRUE(result.error.contains(QStringLiteral("kv-cache, moe-routing"))) << result.error.toStdString();
}

TEST(CommandLine, HelpExitsZero) {
    const CommandLineResult result = parse({"--help"});
    EXPECT_EQ(result.action, CommandLineResult::Action::Exit);
    EXPECT_EQ(result.exitCode, 0);
    EXPECT_TRUE(result.output.contains(QStringLiteral("--screenshot")));
}

TEST(CommandLine, DetectsOffscreenRunsBeforeTheApplicationExists) {
    const char* screenshot[] = {"archplay", "--preset", "x", "--screenshot", "a.png"};
    const char* bench[] = {"archplay", "-bench", "--json"};
    const char* assigned[] = {"archplay", "--screenshot=a.png"};
    const char* window[] = {"archplay", "--preset", "x", "--benchmark"};
    EXPECT_TRUE(runsOffscreen(5, screenshot));
    EXPECT_TRUE(runsOffscreen(3, bench));
    EXPECT_TRUE(runsOffscreen(2, assigned));
    EXPECT_FALSE(runsOffscreen(4, window));
}

TEST(CommandLine, BenchTakesSeveralPresetsAndChecksItsOptions) {
    const CommandLineResult result = parse(
        {"--bench", "--preset", "llama-3-8b", "--preset", "t5-small,mixtral-8x7b-v0.1", "--json", "--steps", "2"});
    ASSERT_EQ(result.action, CommandLineResult::Action::Run) << result.error.toStdString();
    EXPECT_TRUE(result.options.bench);
    EXPECT_EQ(result.options.benchPresets, QStringList({QStringLiteral("llama-3-8b"), QStringLiteral("t5-small"),
                                                        QStringLiteral("mixtral-8x7b-v0.1")}));
    EXPECT_TRUE(result.options.benchJson);
    EXPECT_EQ(result.options.benchSteps, 2);
    EXPECT_EQ(result.options.size, QSize(1600, 1000));
    EXPECT_EQ(parse({"--bench", "--size", "1280x800"}).options.size, QSize(1280, 800));

    EXPECT_EQ(parse({"--bench", "--preset", "nope"}).exitCode, 2);
    EXPECT_EQ(parse({"--bench", "--steps", "0"}).exitCode, 2);
    EXPECT_EQ(parse({"--bench", "--screenshot", "a.png"}).exitCode, 2);
    EXPECT_EQ(parse({"--json"}).exitCode, 2);
    EXPECT_EQ(parse({"--preset", "llama-3-8b", "--preset", "t5-small"}).exitCode, 2);
}

} // namespace
} // namespace archplay::app
