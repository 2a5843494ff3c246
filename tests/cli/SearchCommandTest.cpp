// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/Analysis.h"
#include "core/cost/Gpus.h"
#include "core/io/ConfigJson.h"
#include "tests/support/CliRunner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace archplay::test {
namespace {

/// analyze() of a config.json the command printed, read back like any other file.
core::Analysis analyzeWritten(const nlohmann::json& config, const core::Scenario& scenario) {
    const core::ImportResult imported = core::importConfig(config);
    EXPECT_TRUE(imported.config);
    return imported.config ? core::analyze(*imported.config, scenario) : core::Analysis{};
}

TEST(CliSearch, EachResultCarriesExactFiguresPenaltiesAndItsConfig) {
    const CliResult r = runCli({"search", "--target-params", "7B", "--limit", "4", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto json = nlohmann::json::parse(r.out);
    ASSERT_EQ(json["candidates"].size(), 4u);
    for (const auto& c : json["candidates"]) {
        const core::Analysis analysis = analyzeWritten(c["config"], core::Scenario{});
        ASSERT_TRUE(analysis.valid);
        EXPECT_EQ(c["total"], analysis.params.total);
        EXPECT_EQ(c["active"], analysis.params.active);
        EXPECT_EQ(c["kv_bytes_per_token"], analysis.kv.bytesPerToken);
        EXPECT_LE(c["distance"].get<std::uint64_t>(), 350'000'000u);
        EXPECT_TRUE(c["penalties"].is_array());
        EXPECT_EQ(c["config"]["num_attention_heads"].get<int>() % 8, 0);
    }
    // The seed heuristic's design is shown with its exact count.
    EXPECT_EQ(json["seed"]["total"], analyzeWritten(json["seed"]["config"], core::Scenario{}).params.total);
}

TEST(CliSearch, MoeTargetsWithABudgetAndAFitAreMet) {
    const CliResult r = runCli({"search",
                                "--target-params",
                                "20B",
                                "--active",
                                "3B",
                                "--mla",
                                "--tolerance",
                                "10%",
                                "--kv-budget-bytes",
                                "4000000000",
                                "--seq",
                                "32768",
                                "--gpu",
                                "h100-sxm",
                                "--gpus",
                                "1",
                                "--max-flops-per-token",
                                "20G",
                                "--hidden",
                                "1536:3072",
                                "--limit",
                                "3",
                                "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto json = nlohmann::json::parse(r.out);
    ASSERT_FALSE(json["candidates"].empty());
    core::Scenario scenario;
    scenario.sequenceLength = 32768;
    for (const auto& c : json["candidates"]) {
        EXPECT_EQ(c["config"]["model_type"], "deepseek_v3");
        const core::Analysis analysis = analyzeWritten(c["config"], scenario);
        ASSERT_TRUE(analysis.valid);
        EXPECT_EQ(c["total"], analysis.params.total);
        EXPECT_EQ(c["active"], analysis.params.active);
        EXPECT_LE(analysis.kv.totalBytes, 4'000'000'000u);
        EXPECT_LE(analysis.compute.perToken, 20'000'000'000u);
        EXPECT_TRUE(analysis.devices.fits);
        EXPECT_LE(std::llabs(c["active"].get<long long>() - 3'000'000'000LL), 300'000'000LL);
    }
}

TEST(CliSearch, PrintsATableWithTheSeedAndThePenalties) {
    const CliResult r = runCli({"search", "--target-params", "1B", "--limit", "3"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("seed heuristic"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Pareto front on Distance to the target and KV cache per token"), std::string::npos) << r.out;
}

TEST(CliSearch, BadUsageExitsTwoNamingTheFlag) {
    auto fails = [](std::vector<std::string> args, const std::string& message) {
        const CliResult r = runCli(std::move(args));
        EXPECT_EQ(r.exitCode, 2) << message;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    };
    fails({"search"}, "--target-params is required");
    fails({"search", "--target-params", "7B", "--active", "1B"}, "--active:");
    fails({"search", "--target-params", "7B", "--fit", "training"}, "--fit needs --gpu or --gpus");
    fails({"search", "--target-params", "7B", "--pareto", "distance"}, "--pareto takes two figures");
    fails({"search", "--target-params", "7B", "--max-flops-per-token", "lots"}, "--max-flops-per-token");
    fails({"search", "--target-params", "7B", "--head-dim", "0"}, "--head-dim");
}

} // namespace
} // namespace archplay::test
