// SPDX-License-Identifier: GPL-3.0-or-later
// archplay-cli compare and heads: outputs, formats, exit codes and messages.
#include "tests/support/CliRunner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace archplay::test {
namespace {

TEST(CliCompare, TableNamesEachConfigAndTheDifference) {
    const CliResult r = runCli({"compare", "llama-3-8b", "mixtral-8x7b-v0.1"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("Llama 3 8B"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Mixtral 8x7B v0.1 - Llama 3 8B"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("config: model_type"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("model_type differs"), std::string::npos) << r.out;
}

TEST(CliCompare, JsonCsvMarkdownAndLatex) {
    const CliResult json = runCli({"compare", "llama-3-8b", "llama-3.1-8b", "--json", "--seq", "8192"});
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto parsed = nlohmann::json::parse(json.out);
    EXPECT_EQ(parsed["configs"].size(), 2u);
    EXPECT_EQ(parsed["figures"][0]["key"], "total_params");
    EXPECT_EQ(parsed["figures"][0]["cells"][1]["difference"], 0.0);
    // KV at the scenario: 131,072 bytes per token x 8,192 tokens.
    EXPECT_EQ(parsed["figures"][3]["key"], "kv_bytes");
    EXPECT_EQ(parsed["figures"][3]["cells"][0]["value"], 131'072ull * 8192);

    const CliResult csv = runCli({"compare", "llama-3-8b", "llama-3.1-8b", "qwen3-8b", "gemma-3-1b", "--csv"});
    ASSERT_EQ(csv.exitCode, 0) << csv.err;
    EXPECT_EQ(csv.out.rfind("section,key,label,Llama 3 8B,", 0), 0u) << csv.out;
    EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n') > 20, true);

    const CliResult md = runCli({"compare", "llama-3-8b", "llama-3.1-8b", "--md"});
    ASSERT_EQ(md.exitCode, 0) << md.err;
    EXPECT_EQ(md.out.rfind("| Quantity |", 0), 0u) << md.out;

    const CliResult tex = runCli({"compare", "llama-3-8b", "llama-3.1-8b", "--latex"});
    ASSERT_EQ(tex.exitCode, 0) << tex.err;
    EXPECT_NE(tex.out.find("\\toprule"), std::string::npos) << tex.out;
}

TEST(CliCompare, UsageErrorsAndInvalidConfigs) {
    const CliResult one = runCli({"compare", "llama-3-8b"});
    EXPECT_EQ(one.exitCode, 2);
    EXPECT_NE(one.err.find("two to 4 configs"), std::string::npos) << one.err;
    EXPECT_EQ(runCli({"compare", "a", "b", "c", "d", "e"}).exitCode, 2);
    EXPECT_EQ(runCli({"compare", "llama-3-8b", "qwen3-8b", "--csv", "--md"}).exitCode, 2);
    EXPECT_EQ(runCli({"compare", "llama-3-8b", "qwen3-8b", "--seq", "0"}).exitCode, 2);

    const std::string path = writeTempFile("compare-bad.json", R"({"model_type": "llama", "num_key_value_heads": 5})");
    const CliResult bad = runCli({"compare", "llama-3-8b", path});
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_NE(bad.err.find(path), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("num_key_value_heads"), std::string::npos) << bad.err;
    const CliResult missing = runCli({"compare", "llama-3-8b", "no-such-preset"});
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_NE(missing.err.find("no-such-preset"), std::string::npos) << missing.err;
}

TEST(CliHeads, TableAndJson) {
    const CliResult table = runCli({"heads", "llama-3-8b"});
    ASSERT_EQ(table.exitCode, 0) << table.err;
    EXPECT_NE(table.out.find("current"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("8,030,261,248"), std::string::npos);

    const CliResult json = runCli({"heads", "llama-3-8b", "--json"});
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto parsed = nlohmann::json::parse(json.out);
    EXPECT_EQ(parsed["hidden_size"], 4096);
    const auto& configs = parsed["configs"];
    const auto own = std::find_if(configs.begin(), configs.end(), [](const auto& c) { return c["current"] == true; });
    ASSERT_NE(own, configs.end());
    EXPECT_EQ((*own)["num_key_value_heads"], 8);
    EXPECT_EQ((*own)["kv_bytes_per_token"], 131'072);

    const CliResult mla = runCli({"heads", "deepseek-v3"});
    EXPECT_EQ(mla.exitCode, 0) << mla.err;
    EXPECT_NE(mla.out.find("MLA"), std::string::npos) << mla.out;

    EXPECT_EQ(runCli({"heads"}).exitCode, 2);
    const std::string path = writeTempFile("heads-bad.json", R"({"model_type": "llama", "num_key_value_heads": 5})");
    const CliResult bad = runCli({"heads", path});
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_NE(bad.err.find("num_key_value_heads"), std::string::npos) << bad.err;
}

} // namespace
} // namespace archplay::test
