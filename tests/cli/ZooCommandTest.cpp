// SPDX-License-Identifier: GPL-3.0-or-later
// archplay-cli zoo over folders and the Hugging Face cache, with filters and sorting.

#include "TestPaths.h"
#include "core/io/Presets.h"
#include "tests/support/CliRunner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace archplay::test {
namespace {

namespace fs = std::filesystem;

/// A folder with two real configs and one that is not JSON.
fs::path zooFolder() {
    const fs::path root = scratchDirectory("zoo-dir");
    const fs::path reference = fs::path(kReferenceDir) / "configs";
    fs::create_directories(root / "llama");
    fs::copy_file(reference / "llama-3-8b.json", root / "llama" / "config.json");
    fs::create_directories(root / "qwen");
    fs::copy_file(reference / "qwen2.5-7b.json", root / "qwen" / "config.json");
    fs::create_directories(root / "broken");
    std::ofstream(root / "broken" / "config.json") << "{ not json";
    nlohmann::json unknown = nlohmann::json::parse(std::ifstream(reference / "llama-3.2-1b.json"));
    unknown["model_type"] = "zoo_test_type";
    unknown["zoo_mixer_pattern"] = "abab";
    fs::create_directories(root / "unknown");
    std::ofstream(root / "unknown" / "config.json") << unknown.dump();
    return root;
}

TEST(CliZooSources, DirListsCountedRowsAndTheReasonOfTheOthers) {
    const fs::path root = zooFolder();
    const CliResult text = runCli({"zoo", "--dir", root.string()});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    const std::size_t llama = text.out.find((root / "llama" / "config.json").string() + " ");
    ASSERT_NE(llama, std::string::npos) << text.out;
    const std::string llamaLine = text.out.substr(llama, text.out.find('\n', llama) - llama);
    EXPECT_NE(llamaLine.find(" dense "), std::string::npos) << llamaLine;
    EXPECT_NE(llamaLine.find(" exact "), std::string::npos) << llamaLine;
    EXPECT_NE(text.out.find("8,030,261,248"), std::string::npos);
    EXPECT_NE(text.out.find("7,615,616,512"), std::string::npos);
    const std::size_t section = text.out.find("\nnot counted:\n");
    ASSERT_NE(section, std::string::npos) << text.out;
    EXPECT_NE(text.out.find((root / "broken" / "config.json").string() + "  ", section), std::string::npos);
    EXPECT_EQ(text.out.find("llama-3-8b "), std::string::npos); // no presets unless --presets
    const std::size_t estimates = text.out.find("\nestimates (every figure of these rows is an estimate):\n");
    ASSERT_NE(estimates, std::string::npos) << text.out;
    EXPECT_NE(text.out.find((root / "unknown" / "config.json").string() + "  estimate: ignored ", estimates),
              std::string::npos)
        << text.out;

    const CliResult json = runCli({"zoo", "--dir", root.string(), "--json"});
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto zoo = nlohmann::json::parse(json.out);
    ASSERT_EQ(zoo["models"].size(), 4u);
    EXPECT_EQ(zoo["models"][3]["id"], (root / "broken" / "config.json").string()); // not counted: last
    EXPECT_EQ(zoo["models"][3]["status"], "not counted");
    EXPECT_EQ(zoo["models"][3]["total_params"], nullptr);
    EXPECT_FALSE(zoo["models"][3]["reason"].get<std::string>().empty());
    EXPECT_EQ(zoo["models"][0]["status"], "estimate"); // Llama 3.2 1B's shape: the smallest total
    EXPECT_EQ(zoo["models"][1]["reason"], nullptr);    // Qwen2.5-7B, exact
    EXPECT_EQ(zoo["models"][0]["origin"], "file");

    const CliResult both = runCli({"zoo", "--dir", root.string(), "--presets", "--csv"});
    ASSERT_EQ(both.exitCode, 0) << both.err;
    EXPECT_EQ(std::count(both.out.begin(), both.out.end(), '\n'),
              static_cast<long>(core::builtinPresets().size() + 4 + 1));
    fs::remove_all(root);
}

TEST(CliZooSources, FilterAndSort) {
    const CliResult csv = runCli({"zoo", "--csv", "--filter", "kind=moe,params>100B", "--sort", "-total_params"});
    ASSERT_EQ(csv.exitCode, 0) << csv.err;
    std::istringstream lines(csv.out);
    std::string line;
    std::getline(lines, line);
    const auto header = line;
    int rows = 0;
    double previous = 1e300;
    while (std::getline(lines, line)) {
        ++rows;
        EXPECT_TRUE(line.find(",moe,") != std::string::npos || line.find(",hybrid+moe,") != std::string::npos) << line;
        const auto row =
            nlohmann::json::parse(runCli({"zoo", "--json", "--filter", "id=" + line.substr(0, line.find(','))}).out);
        ASSERT_EQ(row["models"].size(), 1u) << line;
        const double total = row["models"][0]["total_params"].get<double>();
        EXPECT_GT(total, 100e9) << line;
        EXPECT_LE(total, previous) << line;
        previous = total;
    }
    EXPECT_GT(rows, 3);
}

TEST(CliZooSources, HfRootReadsTheCache) {
    const fs::path root = scratchDirectory("zoo-hf");
    const fs::path snapshot = root / "models--Qwen--Qwen2.5-7B" / "snapshots" / "abc123";
    fs::create_directories(snapshot);
    fs::copy_file(fs::path(kReferenceDir) / "configs" / "qwen2.5-7b.json", snapshot / "config.json");
    const CliResult json = runCli({"zoo", "--hf-root", root.string(), "--json"});
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto zoo = nlohmann::json::parse(json.out);
    ASSERT_EQ(zoo["models"].size(), 1u);
    EXPECT_EQ(zoo["models"][0]["id"], "Qwen/Qwen2.5-7B");
    EXPECT_EQ(zoo["models"][0]["origin"], "hf-cache");
    EXPECT_EQ(zoo["models"][0]["snapshot"], "abc123");
    EXPECT_EQ(zoo["models"][0]["total_params"], *core::findPreset("qwen2.5-7b")->info.publishedParams);
    fs::remove_all(root);
}

TEST(CliZooSources, BadFilterOrSortNamesItsClause) {
    const CliResult bad = runCli({"zoo", "--filter", "kind=moe,params>7Q"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("--filter: clause 'params>7Q': '7Q' is not a number"), std::string::npos) << bad.err;
    const CliResult sort = runCli({"zoo", "--sort", "colour"});
    EXPECT_EQ(sort.exitCode, 2);
    EXPECT_NE(sort.err.find("--sort: no column 'colour'"), std::string::npos) << sort.err;
    EXPECT_EQ(runCli({"zoo", "--dir"}).exitCode, 2);
}

TEST(CliZooPlot, FlagsAreCheckedBeforeAnythingIsRead) {
    const fs::path dir = scratchDirectory("zoo-plot-flags");
    auto refused = [&](std::vector<std::string> args, const std::string& message) {
        args.insert(args.begin(), "zoo");
        const CliResult r = runCli(args);
        EXPECT_EQ(r.exitCode, 2) << message;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    };
    refused({"--plot", "nope", "-o", (dir / "a.png").string()}, "--plot takes depth-width, ffn-ratio");
    refused({"--plot", "vocabulary"}, "--plot needs -o FILE");
    refused({"--plot", "vocabulary", "-o", (dir / "a.txt").string()}, "--plot writes png, svg or pdf");
    refused({"--plot", "vocabulary", "--csv", "-o", (dir / "a.png").string()}, "leave out --json, --csv and --md");
    refused({"-o", (dir / "a.png").string()}, "-o goes with --plot");
    refused({"--plot", "head-dim", "-o", (dir / "a.png").string(), "--theme", "blue"}, "--theme takes light or dark");
    EXPECT_FALSE(fs::exists(dir / "a.png"));
}

#ifdef ARCHPLAY_CLI_GRAPHICS
TEST(CliZooPlot, EveryPlotIsDrawnWithTheMarkedDesign) {
    const fs::path dir = scratchDirectory("zoo-plot");
    for (const char* plot : {"depth-width", "ffn-ratio", "head-dim", "gqa-group", "vocabulary", "layer-estimate"}) {
        const fs::path file = dir / (std::string(plot) + ".svg");
        const CliResult r = runCli({"zoo", "--plot", plot, "-o", file.string(), "--mark", "llama-3-8b"});
        ASSERT_EQ(r.exitCode, 0) << plot << ": " << r.err;
        const std::string svg = readFile(file);
        EXPECT_NE(svg.find("<svg"), std::string::npos) << plot;
        EXPECT_NE(svg.find("current config"), std::string::npos) << plot << " has no marked design";
        EXPECT_NE(svg.find("marked: llama-3-8b"), std::string::npos) << plot << " has no caption";
    }
    // A folder's configs have no release date: the time plot says how many it leaves out.
    const CliResult time =
        runCli({"zoo", "--dir", zooFolder().string(), "--plot", "vocabulary", "-o", (dir / "t.png").string()});
    ASSERT_EQ(time.exitCode, 0) << time.err;
    EXPECT_NE(time.err.find("rows are not on the plot: no release date"), std::string::npos) << time.err;
    // A mark that is not a config is refused naming it, and nothing is written.
    const CliResult bad = runCli(
        {"zoo", "--plot", "depth-width", "-o", (dir / "bad.png").string(), "--mark", (dir / "missing.json").string()});
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_FALSE(fs::exists(dir / "bad.png"));
}
#endif

} // namespace
} // namespace archplay::test
