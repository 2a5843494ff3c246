// SPDX-License-Identifier: GPL-3.0-or-later
// The archplay executable run as a process, without a display: --help, --screenshot and a short
// --bench. Nothing here asserts on time: the benchmark's figures are checked for shape only.
#include "tests/support/Process.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace archplay::test {
namespace {

ProcessResult gui(const std::vector<std::string>& arguments) {
    return runProcess(ARCHPLAY_GUI_EXECUTABLE, arguments);
}

/// A scratch directory removed with the test.
struct ScratchDir {
    ScratchDir()
        : path(std::filesystem::temp_directory_path() /
               ("archplay-gui-process-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
        std::filesystem::create_directories(path);
    }
    ~ScratchDir() { std::filesystem::remove_all(path); }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    std::filesystem::path path;
};

std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::uint32_t bigEndian32(const std::string& bytes, std::size_t at) {
    std::uint32_t value = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
    }
    return value;
}

TEST(GuiProcess, HelpNeedsNoDisplay) {
    const ProcessResult result = gui({"--help"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("--screenshot"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("--bench"), std::string::npos);
}

TEST(GuiProcess, AScreenshotIsAPngOfTheAskedSize) {
    const ScratchDir dir;
    const std::filesystem::path png = dir.path / "kv.png";
    const ProcessResult result = gui({"--screenshot", png.string(), "--preset", "llama-3.1-8b", "--view", "kv-cache",
                                      "--size", "1280x720", "--theme", "dark"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const std::string bytes = readFile(png);
    ASSERT_GE(bytes.size(), 24u);
    EXPECT_EQ(bytes.substr(1, 3), "PNG");
    EXPECT_EQ(bytes.substr(12, 4), "IHDR");
    EXPECT_EQ(bigEndian32(bytes, 16), 1280u);
    EXPECT_EQ(bigEndian32(bytes, 20), 720u);
}

TEST(GuiProcess, AShortBenchmarkReportsEveryFigureAndView) {
    const ScratchDir dir;
    const std::filesystem::path out = dir.path / "bench.json";
    const ProcessResult result = gui({"--bench", "--json", "--preset", "mixtral-8x7b-v0.1", "--steps", "1", "--size",
                                      "1280x800", "--out", out.string()});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(readFile(out), result.out) << "--out holds what was printed";

    const nlohmann::json json = nlohmann::json::parse(result.out);
    const nlohmann::json& update = json.at("update_ms");
    // Every view is shown in turn and each main slider moves one step out and back.
    EXPECT_GE(update.at("n").get<int>(), 8 * 4);
    EXPECT_LE(update.at("p50").get<double>(), update.at("p95").get<double>());
    EXPECT_LE(update.at("p95").get<double>(), update.at("p99").get<double>());
    EXPECT_LE(update.at("p99").get<double>(), update.at("max").get<double>());
    EXPECT_GT(update.at("p50").get<double>(), 0.0);
    EXPECT_GT(json.at("startup_ms").get<double>(), 0.0);
    EXPECT_GT(json.at("peak_rss_mb").get<double>(), 1.0);
    for (const char* view : {"breakdown", "param-chart", "layer-stack", "layer-weights", "attention-mask", "kv-cache",
                             "moe-routing", "derivation", "compute", "memory", "speed", "summary-cards"}) {
        ASSERT_TRUE(json.at("views").contains(view)) << view;
        EXPECT_GT(json.at("views").at(view).at("n").get<int>(), 0) << view;
        EXPECT_LE(json.at("views").at(view).at("p50").get<double>(), json.at("views").at(view).at("p99").get<double>());
    }
    EXPECT_EQ(json.at("presets").size(), 1u);
    EXPECT_EQ(json.at("presets").at("mixtral-8x7b-v0.1").at("n"), update.at("n"));
    EXPECT_EQ(json.at("setup").at("size"), "1280x800");
    // The overview's tiles draw on the cores beside the GUI thread's.
    EXPECT_EQ(json.at("setup").at("tile_workers").get<int>(), std::max(0, json.at("setup").at("cores").get<int>() - 1));
}

TEST(GuiProcess, TheOverviewBenchmarkChecksIssue12sTargets) {
    const ProcessResult result = gui(
        {"--bench", "--json", "--view", "overview", "--preset", "llama-3-8b", "--steps", "1", "--size", "1280x800"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const nlohmann::json json = nlohmann::json::parse(result.out);
    const nlohmann::json& update = json.at("update_ms");
    const nlohmann::json& budgets = json.at("budgets");
    EXPECT_EQ(budgets.at("overview_median_under_4_ms").get<bool>(), update.at("p50").get<double>() < 4.0);
    EXPECT_EQ(budgets.at("overview_p99_under_8_3_ms").get<bool>(), update.at("p99").get<double>() < 8.3);
    EXPECT_EQ(budgets.at("overview_p99_under_4_2_ms").get<bool>(), update.at("p99").get<double>() < 4.2);
    EXPECT_FALSE(json.at("views").contains("breakdown")) << "the overview alone";
    const ProcessResult text =
        gui({"--bench", "--view", "overview", "--preset", "llama-3-8b", "--steps", "1", "--size", "1280x800"});
    EXPECT_NE(text.out.find("overview (issue 12, meant at 2560x1440): median < 4 ms"), std::string::npos) << text.out;
}

TEST(GuiProcess, BadOptionsExitTwoBeforeAnyWindow) {
    const ProcessResult result = gui({"--bench", "--preset", "no-such-model"});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("unknown preset 'no-such-model'"), std::string::npos) << result.err;
}

} // namespace
} // namespace archplay::test
