// SPDX-License-Identifier: GPL-3.0-or-later
// archplay-cli sweep: tables, CSV and JSON of one- and two-field sweeps, and its usage errors.
#include "core/analysis/DesignFigures.h"
#include "tests/support/CliRunner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

namespace archplay::test {
namespace {

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> result;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        result.push_back(line);
    }
    return result;
}

TEST(CliSweep, CsvHasOneHeaderAndARowPerValue) {
    const CliResult r = runCli(
        {"sweep", "llama-3-8b", "--field", "num_hidden_layers", "--from", "8", "--to", "64", "--steps", "8", "--csv"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = lines(r.out);
    ASSERT_EQ(rows.size(), 9u) << r.out; // 8, 16, ..., 64
    EXPECT_EQ(rows[0].rfind("num_hidden_layers,total_params,active_params,", 0), 0u) << rows[0];
    EXPECT_EQ(std::count(rows[0].begin(), rows[0].end(), ','), std::ptrdiff_t(core::designFigures().size()) + 1);
    EXPECT_EQ(rows[4].rfind("32,8030261248,", 0), 0u) << rows[4]; // Llama 3 8B's published count
    EXPECT_EQ(rows[8].rfind("64,", 0), 0u) << rows[8];
}

TEST(CliSweep, JsonPointsCarryEveryFigureKey) {
    const CliResult r = runCli({"sweep", "llama-3-8b", "--field", "sequence_length", "--from", "1K", "--to", "128K",
                                "--steps", "8", "--log", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto json = nlohmann::json::parse(r.out);
    EXPECT_EQ(json["field"], "sequence_length");
    EXPECT_EQ(json["spacing"], "log");
    ASSERT_EQ(json["points"].size(), 8u);
    EXPECT_EQ(json["points"][0]["value"], 1024);
    EXPECT_EQ(json["points"][7]["value"], 131072);
    for (const core::DesignFigureInfo& info : core::designFigures()) {
        EXPECT_TRUE(json["points"][0].contains(std::string(info.key))) << info.key;
    }
    // 128 KiB of cache per token (32 layers x 8 KV heads x 128 x K and V x 2 bytes) times the tokens.
    EXPECT_EQ(json["points"][7]["kv_bytes"], 131072ull * 131072);
    EXPECT_EQ(json["current_value"], 4096);
    EXPECT_EQ(json["current_index"], 2);
    const auto& presets = json["presets"];
    EXPECT_TRUE(std::any_of(presets.begin(), presets.end(), [](const auto& p) { return p["id"] == "llama-3-8b"; }));
}

TEST(CliSweep, TableMarksTheCurrentValueAndInvalidPoints) {
    const CliResult r =
        runCli({"sweep", "llama-3-8b", "--field", "num_key_value_heads", "--from", "5", "--to", "8", "--steps", "4"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("<- current"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("invalid: num_key_value_heads: "), std::string::npos) << r.out; // 5, 6, 7 do not divide 32
    EXPECT_NE(r.out.find("8.03B"), std::string::npos) << r.out;
}

TEST(CliSweep, GridCsvIsLongForm) {
    const CliResult r =
        runCli({"sweep", "llama-3-8b", "--field", "num_hidden_layers", "--from", "16", "--to", "48", "--steps", "5",
                "--field2", "hidden_size", "--from2", "2048", "--to2", "8192", "--steps2", "4", "--csv"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = lines(r.out);
    ASSERT_EQ(rows.size(), 1u + 5 * 4) << r.out;
    EXPECT_EQ(rows[0], "num_hidden_layers,hidden_size,total_params");
    EXPECT_EQ(rows[1].rfind("16,2048,", 0), 0u) << rows[1];
    EXPECT_NE(std::find(rows.begin(), rows.end(), "32,4096,8030261248"), rows.end()) << r.out;
}

TEST(CliSweep, GridJsonHasIsoLinesAtTheLevelsAndPlacedPresets) {
    const CliResult r =
        runCli({"sweep",    "llama-3-8b", "--field",     "num_hidden_layers", "--from",   "8",      "--to",
                "80",       "--field2",   "hidden_size", "--from2",           "2048",     "--to2",  "8192",
                "--steps2", "13",         "--figure",    "total_params",      "--levels", "7B,13B", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto json = nlohmann::json::parse(r.out);
    ASSERT_EQ(json["iso_lines"].size(), 2u);
    EXPECT_EQ(json["iso_lines"][0]["level"], 7'000'000'000ull);
    EXPECT_EQ(json["iso_lines"][0]["label"], "7B");
    EXPECT_FALSE(json["iso_lines"][0]["polylines"].empty());
    EXPECT_EQ(json["values"].size(), json["y"]["values"].size());
    EXPECT_EQ(json["values"][0].size(), json["x"]["values"].size());
    const auto& presets = json["presets"];
    const auto llama =
        std::find_if(presets.begin(), presets.end(), [](const auto& p) { return p["id"] == "llama-3-70b"; });
    ASSERT_NE(llama, presets.end());
    EXPECT_EQ((*llama)["x"], 80);
    EXPECT_EQ((*llama)["y"], 8192);
    EXPECT_EQ((*llama)["value"], 70'553'706'496ull);
    EXPECT_TRUE((*llama)["in_range"]);
}

TEST(CliSweep, UsageErrorsExitTwoNamingTheFlag) {
    const auto expectUsage = [](const std::vector<std::string>& args, const std::string& needle) {
        const CliResult r = runCli(args);
        EXPECT_EQ(r.exitCode, 2) << r.err;
        EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    };
    expectUsage({"sweep", "llama-3-8b", "--from", "1", "--to", "8"}, "--field is required");
    expectUsage({"sweep", "llama-3-8b", "--field", "num_hidden_layers", "--from", "64", "--to", "8"},
                "--from: num_hidden_layers: from 64 is above to 8");
    expectUsage({"sweep", "llama-3-8b", "--field", "num_hidden_layers", "--from", "1", "--to", "8", "--steps", "5000"},
                "--steps: num_hidden_layers: steps must be 2 to 1000");
    expectUsage({"sweep", "llama-3-8b", "--field", "num_experts", "--from", "1", "--to", "8"},
                "--field: num_experts applies only to a mixture of experts");
    expectUsage({"sweep", "llama-3-8b", "--field", "num_hidden_layers", "--from", "abc", "--to", "8"}, "--from takes");
    expectUsage(
        {"sweep", "llama-3-8b", "--field", "num_hidden_layers", "--from", "1", "--to", "8", "--figure", "total_params"},
        "--figure needs --field2");
    expectUsage({"sweep", "llama-3-8b", "--field", "num_hidden_layers", "--from", "1", "--to", "8", "--field2",
                 "hidden_size", "--from2", "512", "--to2", "4096", "--figure", "nope"},
                "--figure takes one of total_params");
    expectUsage({"sweep", "llama-3-8b", "--field", "num_hidden_layers", "--from", "1", "--to", "8", "--field2",
                 "hidden_size", "--from2", "512", "--to2", "4096", "--levels", "7B,x"},
                "--levels takes");
    expectUsage({"sweep", "llama-3-8b", "--field", "num_hidden_layers", "--from", "1", "--to", "8", "--field2",
                 "hidden_size", "--from2", "512", "--to2", "4096", "--steps2", "300"},
                "--steps2: hidden_size");
    expectUsage({"sweep", "llama-3-8b", "--field", "num_hidden_layers", "--from", "1", "--to", "8", "--json", "--csv"},
                "choose one of --json and --csv");
}

TEST(CliSweep, AnEstimateIsLabelledInEveryFormat) {
    const std::string path = writeTempFile("sweep-estimate.json", R"({"model_type": "new_moe", "vocab_size": 1000,
        "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 128,
        "num_experts": 8})");
    const std::vector<std::string> args = {"sweep",  path, "--best-effort", "--field", "num_hidden_layers",
                                           "--from", "1",  "--to",          "4"};
    const CliResult table = runCli(args);
    ASSERT_EQ(table.exitCode, 0) << table.err;
    EXPECT_NE(table.out.find("estimate: ignores num_experts"), std::string::npos) << table.out;
    auto withFormat = args;
    withFormat.push_back("--csv");
    const CliResult csv = runCli(withFormat);
    ASSERT_EQ(csv.exitCode, 0) << csv.err;
    EXPECT_EQ(csv.out.rfind("num_hidden_layers,", 0), 0u) << csv.out;
    EXPECT_NE(csv.err.find("estimate: ignores num_experts"), std::string::npos) << csv.err;
    withFormat.back() = "--json";
    const CliResult json = runCli(withFormat);
    ASSERT_EQ(json.exitCode, 0) << json.err;
    EXPECT_TRUE(nlohmann::json::parse(json.out)["estimate"].get<bool>());
    EXPECT_EQ(runCli({"sweep", path, "--field", "num_hidden_layers", "--from", "1", "--to", "4"}).exitCode, 1);
}

TEST(CliSweep, InvalidConfigExitsOne) {
    const std::string path =
        writeTempFile("sweep-bad-heads.json", R"({"model_type": "llama", "num_key_value_heads": 5})");
    const CliResult r = runCli({"sweep", path, "--field", "num_hidden_layers", "--from", "1", "--to", "8"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("num_key_value_heads"), std::string::npos) << r.err;
}

} // namespace
} // namespace archplay::test
