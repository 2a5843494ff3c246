// SPDX-License-Identifier: GPL-3.0-or-later
// archplay-cli never prints a saturated figure as a count, never replaces what it should not (devices,
// pipes, directories, symbolic links, read-only files), and never ends in success after a failed write.
#include "core/io/ConfigJson.h"
#include "core/io/Presets.h"
#include "core/io/Session.h"
#include "tests/support/CliRunner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <vector>

namespace archplay::test {
namespace {

namespace fs = std::filesystem;
constexpr auto npos = std::string::npos;

TEST(CliOverflow, KvBeyond2To64IsMarkedAndFails) {
    const CliResult text = runCli({"kv", "llama-3-8b", "--seq", "4611686018427387904"});
    EXPECT_EQ(text.exitCode, 1);
    EXPECT_EQ(text.out.find("18,446,744,073,709,551,615"), npos) << text.out;
    EXPECT_NE(text.out.find("exceeds 2^64 - 1"), npos) << text.out;
    EXPECT_NE(text.err.find("exceeds 2^64 - 1"), npos) << text.err;

    const CliResult json = runCli({"kv", "llama-3-8b", "--seq", "4611686018427387904", "--json"});
    EXPECT_EQ(json.exitCode, 1);
    const nlohmann::json parsed = nlohmann::json::parse(json.out);
    EXPECT_EQ(parsed.value("overflow", false), true);
    EXPECT_TRUE(parsed.at("total_bytes").is_null());

    const CliResult fine = runCli({"kv", "llama-3-8b", "--seq", "8192", "--json"});
    EXPECT_EQ(fine.exitCode, 0);
    EXPECT_EQ(nlohmann::json::parse(fine.out).value("overflow", true), false);
}

TEST(CliOverflow, HugeProductsAreInvalidAndPrintNoCount) {
    // 2^40 heads of head_dim 2^40: each value is within the cap, their product is not.
    const std::string path = writeTempFile("huge-heads.json", R"({"model_type": "llama",
        "num_attention_heads": 1099511627776, "num_key_value_heads": 1099511627776, "head_dim": 1099511627776})");
    const CliResult validate = runCli({"validate", path});
    EXPECT_EQ(validate.exitCode, 1);
    EXPECT_NE(validate.out.find("invalid"), npos) << validate.out;
    EXPECT_NE(validate.err.find("num_attention_heads"), npos) << validate.err;
    const CliResult params = runCli({"params", path});
    EXPECT_EQ(params.exitCode, 1);
    EXPECT_TRUE(params.out.empty()) << params.out;
}

/// Standard output on a full disk: bytes go into the buffer and fail only when it is flushed.
class FullDisk : public std::streambuf {
public:
    FullDisk() { setp(m_buffer, m_buffer + sizeof m_buffer); }

protected:
    int_type overflow(int_type) override { return traits_type::eof(); }
    int sync() override { return -1; }

private:
    char m_buffer[1 << 20];
};

TEST(CliOutput, AFailedWriteToStandardOutputIsAnError) {
    const std::vector<std::vector<std::string>> commands = {
        {"params", "llama-3-8b"},
        {"params", "llama-3-8b", "--json"},
        {"validate", "llama-3-8b"},
        {"presets"},
        {"export", "llama-3-8b", "--what", "summary", "--format", "csv", "-o", "-"},
    };
    for (const std::vector<std::string>& args : commands) {
        auto full = std::make_unique<FullDisk>();
        std::ostream out(full.get());
        std::ostringstream err;
        EXPECT_EQ(cli::run(args, out, err), 1) << args.front();
        EXPECT_NE(err.str().find("cannot write to standard output"), npos) << args.front() << ": " << err.str();
    }
}

CliResult exportSummaryTo(const fs::path& target, bool force = false) {
    std::vector<std::string> args = {"export",   "llama-3-8b", "--what", "summary",
                                     "--format", "csv",        "-o",     target.string()};
    if (force) {
        args.push_back("--force");
    }
    return runCli(args);
}

TEST(CliWrites, DevicesPipesAndDirectoriesAreRefusedAndStayWhatTheyAre) {
    const fs::path dir = scratchDirectory("targets");
    const fs::path fifo = dir / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
    std::vector<fs::path> targets = {fifo, dir / "folder"};
    fs::create_directory(dir / "folder");
    // A device node of our own (a copy of /dev/null), so that a regression cannot replace the real one.
    const fs::path device = dir / "null";
    const bool haveDevice = ::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0;
    if (haveDevice) {
        targets.push_back(device);
    }
    for (const fs::path& target : targets) {
        const CliResult r = exportSummaryTo(target);
        EXPECT_EQ(r.exitCode, 1) << target;
        EXPECT_NE(r.err.find(target.string()), npos) << r.err;
        EXPECT_TRUE(r.err.find("not a regular file") != npos || r.err.find("directory") != npos) << r.err;
    }
    EXPECT_TRUE(fs::is_fifo(fifo));
    EXPECT_TRUE(fs::is_directory(dir / "folder"));
    if (haveDevice) {
        EXPECT_TRUE(fs::is_character_file(device));
    }
}

TEST(CliWrites, SymbolicLinksAreWrittenThroughAndStayLinks) {
    const fs::path dir = scratchDirectory("links");
    std::ofstream(dir / "real.csv") << "old";
    fs::create_symlink("real.csv", dir / "link.csv");
    EXPECT_EQ(exportSummaryTo(dir / "link.csv").exitCode, 0);
    EXPECT_TRUE(fs::is_symlink(dir / "link.csv"));
    EXPECT_NE(readFile(dir / "real.csv").find("total_params"), npos);

    // A link to a file that does not exist yet creates the file it names.
    fs::create_symlink(dir / "new.csv", dir / "dangling.csv");
    EXPECT_EQ(exportSummaryTo(dir / "dangling.csv").exitCode, 0);
    EXPECT_TRUE(fs::is_symlink(dir / "dangling.csv"));
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(dir / "new.csv")));
}

TEST(CliWrites, ReadOnlyFilesAreRefusedUnlessForced) {
    const fs::path dir = scratchDirectory("read-only");
    const fs::path file = dir / "summary.csv";
    std::ofstream(file) << "old";
    fs::permissions(file, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    const CliResult refused = exportSummaryTo(file);
    EXPECT_EQ(refused.exitCode, 1);
    EXPECT_NE(refused.err.find("read-only"), npos) << refused.err;
    EXPECT_EQ(readFile(file), "old");

    EXPECT_EQ(exportSummaryTo(file, true).exitCode, 0);
    EXPECT_NE(readFile(file).find("total_params"), npos);
    EXPECT_EQ(fs::status(file).permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read)
        << "still read-only";
}

TEST(CliOverflow, ASummaryBeyond2To64SaysSoAndDerivesNoDeviceCount) {
    // 2^62 tokens x 2^40 sequences: the cache is beyond 2^64 - 1 bytes.
    const std::vector<std::string> scenario = {"--seq", "4611686018427387904", "--batch", "1099511627776"};
    std::vector<std::string> json = {"export", "llama-3-8b", "--what", "summary", "--format", "json", "-o", "-"};
    json.insert(json.end(), scenario.begin(), scenario.end());
    const CliResult r = runCli(json);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const nlohmann::json summary = nlohmann::json::parse(r.out);
    EXPECT_TRUE(summary["kv_total_bytes"].is_null());
    EXPECT_TRUE(summary["kv_overflow"].get<bool>());
    EXPECT_TRUE(summary["gpu_fit"]["required_bytes"].is_null());
    EXPECT_TRUE(summary["gpu_fit"]["devices_needed"].is_null());
    EXPECT_TRUE(summary["gpu_fit"]["beyond"].get<bool>());
    EXPECT_FALSE(summary["gpu_fit"]["fits"].get<bool>());
    std::vector<std::string> csv = {"export", "llama-3-8b", "--what", "summary", "--format", "csv", "-o", "-"};
    csv.insert(csv.end(), scenario.begin(), scenario.end());
    const CliResult table = runCli(csv);
    ASSERT_EQ(table.exitCode, 0) << table.err;
    EXPECT_EQ(table.out.find("18,446,744,073,709,551,615"), npos) << table.out;
    EXPECT_EQ(table.out.find("16.0 EiB"), npos) << table.out;
    EXPECT_EQ(table.out.find("needs 2"), npos) << table.out;
    EXPECT_NE(table.out.find("beyond 2^64 - 1"), npos) << table.out;
    // The zoo's CSV and table say the same.
    std::vector<std::string> zoo = {"zoo", "--csv"};
    zoo.insert(zoo.end(), scenario.begin(), scenario.end());
    const CliResult rows = runCli(zoo);
    ASSERT_EQ(rows.exitCode, 0) << rows.err;
    EXPECT_EQ(rows.out.find("18446744073709551615"), npos);
    EXPECT_NE(rows.out.find("beyond 2^64 - 1"), npos);
    std::vector<std::string> text = {"zoo"};
    text.insert(text.end(), scenario.begin(), scenario.end());
    const CliResult shown = runCli(text);
    ASSERT_EQ(shown.exitCode, 0) << shown.err;
    EXPECT_NE(shown.out.find("beyond 16 EiB"), npos);
}

TEST(CliInputs, ASessionFileIsReadForItsConfig) {
    // A session the window saved, given where a config is expected: its config, not "vocab_size is missing".
    core::Session session;
    session.config = *core::importConfigText(core::findPreset("qwen3-8b")->json).config;
    const std::filesystem::path path = scratchDirectory("session-input") / "work.archplay.json";
    std::ofstream(path) << core::sessionToJson(session, "test");
    const CliResult params = runCli({"params", path.string(), "--json"});
    ASSERT_EQ(params.exitCode, 0) << params.err;
    const CliResult preset = runCli({"params", "qwen3-8b", "--json"});
    EXPECT_EQ(nlohmann::json::parse(params.out)["total"], nlohmann::json::parse(preset.out)["total"]);
}

TEST(CliInputs, AZooFolderThatIsNotOneIsAnErrorNotAnEmptyTable) {
    const CliResult missing = runCli({"zoo", "--dir", "/nonexistent/archplay/zoo"});
    EXPECT_NE(missing.exitCode, 0);
    EXPECT_NE(missing.err.find("/nonexistent/archplay/zoo is not a folder"), std::string::npos) << missing.err;
    EXPECT_TRUE(missing.out.empty()) << missing.out;
}

} // namespace
} // namespace archplay::test
