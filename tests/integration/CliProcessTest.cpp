// SPDX-License-Identifier: GPL-3.0-or-later
// archplay-cli run as a process, as a user or a script runs it: exit status, streams, and the
// figures it prints.
#include "TestPaths.h"
#include "tests/support/Process.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace archplay::test {
namespace {

ProcessResult cli(const std::vector<std::string>& arguments) {
    return runProcess(ARCHPLAY_CLI_EXECUTABLE, arguments);
}

TEST(CliProcess, PrintsTheExactCountOfAPreset) {
    const ProcessResult result = cli({"params", "llama-3.1-8b"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("8,030,261,248"), std::string::npos) << result.out;
    EXPECT_TRUE(result.err.empty()) << result.err;
}

TEST(CliProcess, JsonOutputParsesAndAgreesWithTheText) {
    const ProcessResult result = cli({"params", "mixtral-8x7b-v0.1", "--json"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const nlohmann::json json = nlohmann::json::parse(result.out);
    const std::uint64_t total = json.at("total").get<std::uint64_t>();
    const std::uint64_t active = json.at("active").get<std::uint64_t>();
    EXPECT_LT(active, total) << "a mixture of experts is not read as dense";
    const ProcessResult text = cli({"params", "mixtral-8x7b-v0.1"});
    ASSERT_EQ(text.exitCode, 0);
    std::string grouped = std::to_string(total);
    for (int i = int(grouped.size()) - 3; i > 0; i -= 3) {
        grouped.insert(std::size_t(i), ",");
    }
    EXPECT_NE(text.out.find(grouped), std::string::npos) << grouped;
}

TEST(CliProcess, BadUsageExitsTwoWithTheUsageOnStandardError) {
    const ProcessResult result = cli({"frobnicate"});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_TRUE(result.out.empty());
    EXPECT_NE(result.err.find("unknown command 'frobnicate'"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("usage: archplay-cli"), std::string::npos);
}

TEST(CliProcess, EveryConfigTransformersBuiltCountsAndCachesAsTransformersDid) {
    // tests/reference/transformers/: every config's total and tensors, and its measured cache at 200
    // tokens, through the CLI as a script would read them (the core test checks every token count).
    const std::filesystem::path corpus = std::filesystem::path(kReferenceDir) / "transformers";
    std::ifstream in(corpus / "truth.json");
    const nlohmann::json truth = nlohmann::json::parse(in);
    int counted = 0;
    int refused = 0;
    for (const auto& [file, entry] : truth.items()) {
        const std::string config = (corpus / "configs" / file).string();
        const bool bert = file.starts_with("bert-");
        const char* key = bert                        ? "base"
                          : entry.contains("causal")  ? "causal"
                          : entry.contains("seq2seq") ? "seq2seq"
                                                      : "text_causal";
        if (!entry.contains(key) || file.starts_with("t5-")) {
            continue; // transformers refused it; T5's tie quirk is the core test's
        }
        const ProcessResult tensors = cli({"tensors", config, "--layout", "transformers", "--json"});
        if (tensors.exitCode != 0) {
            EXPECT_EQ(tensors.exitCode, 1) << file << tensors.err;
            EXPECT_NE(tensors.err.find(file), std::string::npos) << "the refusal names the file: " << tensors.err;
            ++refused;
            continue;
        }
        const nlohmann::json listed = nlohmann::json::parse(tensors.out);
        EXPECT_EQ(listed["total"], entry[key]["total"]) << file;
        EXPECT_EQ(listed["tensors"], entry[key]["tensors"]) << file;
        ++counted;
        if (entry.contains("cache_bf16")) {
            const ProcessResult kv = cli({"kv", config, "--seq", "200", "--allocator", "transformers", "--json"});
            ASSERT_EQ(kv.exitCode, 0) << file << kv.err;
            const nlohmann::json& measured = entry["cache_bf16"]["200"];
            const std::uint64_t bookkeeping = measured["by_name"].value("_sliding_window_tensor", std::uint64_t{0});
            EXPECT_EQ(nlohmann::json::parse(kv.out)["allocated_bytes"].get<std::uint64_t>(),
                      measured["bytes"].get<std::uint64_t>() - bookkeeping)
                << file;
        }
    }
    EXPECT_GE(counted, 300);
    EXPECT_LE(refused, 6); // LongCat-Flash
}

TEST(CliProcess, AnUnreadableConfigExitsOneNamingTheFile) {
    const ProcessResult result = cli({"params", "/nonexistent/config.json"});
    EXPECT_EQ(result.exitCode, 1);
    EXPECT_NE(result.err.find("/nonexistent/config.json"), std::string::npos) << result.err;
}

} // namespace
} // namespace archplay::test
