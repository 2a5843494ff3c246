// SPDX-License-Identifier: GPL-3.0-or-later
// archplay-cli run as a process, as a user or a script runs it: exit status, streams, and the
// figures it prints.
#include "tests/support/Process.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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

TEST(CliProcess, AnUnreadableConfigExitsOneNamingTheFile) {
    const ProcessResult result = cli({"params", "/nonexistent/config.json"});
    EXPECT_EQ(result.exitCode, 1);
    EXPECT_NE(result.err.find("/nonexistent/config.json"), std::string::npos) << result.err;
}

} // namespace
} // namespace archplay::test
