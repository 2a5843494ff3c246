// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/ZooSources.h"

#include "tests/support/TestSupport.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sys/wait.h>
#include <unistd.h>

namespace archplay::test {
namespace {

namespace fs = std::filesystem;

fs::path freshDirectory(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("archplay-zoo-test-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

void writeText(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

void copyConfig(const fs::path& from, const fs::path& to) {
    fs::create_directories(to.parent_path());
    fs::copy_file(from, to);
}

const fs::path kReference = fs::path(kReferenceDir) / "configs";
const fs::path kPresetFolder = kPresetDir;

TEST(ZooSources, FolderSearchCountsRealConfigsAndListsBrokenOnesWithTheirReason) {
    const fs::path root = freshDirectory("folder");
    copyConfig(kReference / "llama-3-8b.json", root / "a" / "llama" / "config.json");
    copyConfig(kReference / "qwen2.5-7b.json", root / "a" / "qwen" / "config.json");
    copyConfig(kPresetFolder / "mixtral-8x7b-v0.1.json", root / "b" / "config.json");
    writeText(root / "broken" / "malformed" / "config.json", R"({"model_type": "llama", "hidden_size": )");
    nlohmann::json negative = readJson(kReference / "llama-3-8b.json");
    negative["hidden_size"] = -4096;
    writeText(root / "broken" / "negative" / "config.json", negative.dump());
    nlohmann::json unknown = readJson(kReference / "llama-3-8b.json");
    unknown["model_type"] = "zoo_test_type";
    unknown["zoo_mixer_pattern"] = "abab";
    writeText(root / "broken" / "unknown" / "config.json", unknown.dump());
    writeText(root / "other" / "config.json.bak", "{}");
    writeText(root / "other" / "notes.txt", "not a config");
    fs::create_directories(root / "other" / "config.json");                           // a folder named config.json
    copyConfig(kReference / "gpt-2.json", root / "d1" / "d2" / "d3" / "config.json"); // beyond the depth limit
    fs::create_directory_symlink(root, root / "a" / "loop");                          // not followed

    core::ZooScanLimits limits;
    limits.maxDepth = 2;
    const core::ZooScan scan = core::zooFromFolder(root, limits);
    std::vector<std::string> sources;
    for (const core::ZooInput& input : scan.inputs) {
        EXPECT_EQ(input.origin, core::ZooOrigin::File);
        EXPECT_EQ(input.path, input.source);
        sources.push_back(fs::relative(input.source, root).string());
    }
    EXPECT_EQ(sources, (std::vector<std::string>{"a/llama/config.json", "a/qwen/config.json", "b/config.json",
                                                 "broken/malformed/config.json", "broken/negative/config.json",
                                                 "broken/unknown/config.json"}));
    // Each folder left out is named: the one beyond the depth limit, the link (README: "with a note").
    ASSERT_EQ(scan.notes.size(), 2u);
    EXPECT_EQ(scan.notes[0].message,
              (root / "a" / "loop").string() + ": not searched, a link to a folder is not followed");
    EXPECT_EQ(scan.notes[1].message, (root / "d1" / "d2" / "d3").string() + ": not searched, deeper than 2 folders");

    const core::ModelZoo zoo = core::buildZoo(scan.inputs, {});
    const std::string base = root.string() + "/";
    const core::ZooRow& llama = rowOf(zoo, base + "a/llama/config.json");
    EXPECT_EQ(llama.status, core::ZooStatus::Exact);
    EXPECT_EQ(llama.totalParams, *core::findPreset("llama-3-8b")->info.publishedParams);
    EXPECT_EQ(llama.family, "llama"); // a file's family is its model_type
    EXPECT_EQ(rowOf(zoo, base + "a/qwen/config.json").totalParams,
              *core::findPreset("qwen2.5-7b")->info.publishedParams);
    EXPECT_EQ(rowOf(zoo, base + "b/config.json").totalParams,
              *core::findPreset("mixtral-8x7b-v0.1")->info.publishedParams);

    const core::ZooRow& estimate = rowOf(zoo, base + "broken/unknown/config.json");
    EXPECT_EQ(estimate.status, core::ZooStatus::Estimate);
    EXPECT_EQ(estimate.reason.rfind("estimate: ignored ", 0), 0u) << estimate.reason;
    EXPECT_NE(estimate.reason.find("zoo_mixer_pattern"), std::string::npos) << estimate.reason;

    const core::ZooRow& malformed = rowOf(zoo, base + "broken/malformed/config.json");
    EXPECT_EQ(malformed.status, core::ZooStatus::NotCounted);
    EXPECT_EQ(malformed.reason,
              core::importConfigText(R"({"model_type": "llama", "hidden_size": )").diagnostics.front().message);
    const core::ZooRow& negativeRow = rowOf(zoo, base + "broken/negative/config.json");
    EXPECT_EQ(negativeRow.status, core::ZooStatus::NotCounted);
    EXPECT_EQ(negativeRow.reasonField, "hidden_size");

    int counted = 0;
    for (const core::ZooRow& row : zoo.rows) {
        counted += row.counted() ? 1 : 0;
    }
    EXPECT_EQ(counted, 4);
    fs::remove_all(root);
}

TEST(ZooSources, AnUnreadableFolderIsNamedAndTheSearchGoesOn) {
    const fs::path root = freshDirectory("unreadable");
    copyConfig(kReference / "gpt-2.json", root / "open" / "config.json");
    copyConfig(kReference / "gpt-2.json", root / "closed" / "inner" / "config.json");
    fs::permissions(root / "closed", fs::perms::none);
    // Root lists every folder, so the search runs in a child as the unprivileged user nobody; it
    // answers with its inputs and whether its one note names the closed folder.
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) {
            ::_exit(100);
        }
        const core::ZooScan scan = core::zooFromFolder(root);
        const bool named = scan.notes.size() == 1 &&
                           scan.notes.front().message.rfind((root / "closed").string() + ": not searched, ", 0) == 0;
        ::_exit(static_cast<int>(scan.inputs.size()) * 10 + (named ? 1 : 0));
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    fs::permissions(root / "closed", fs::perms::owner_all);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 11) << "one config found, the closed folder named (100: could not drop to nobody)";
    fs::remove_all(root);
}

TEST(ZooSources, ARowKeepsOnlyWhatItNeedsOfItsFile) {
    const fs::path root = freshDirectory("lean");
    nlohmann::json config = readJson(kReference / "llama-3-8b.json");
    config["_name_or_path"] = "meta-llama/Meta-Llama-3-8B";
    for (int i = 0; i < 5000; ++i) {
        config["id2label"][std::to_string(i)] = "LABEL_" + std::to_string(i);
    }
    writeText(root / "config.json", config.dump());
    const core::ZooScan scan = core::zooFromFolder(root);
    ASSERT_EQ(scan.inputs.size(), 1u);
    const std::optional<core::ModelConfig>& read = scan.inputs.front().imported.config;
    ASSERT_TRUE(read);
    EXPECT_EQ(read->passthrough.json().size(), 1u) << "the id2label is not kept for a row";
    EXPECT_EQ(core::recordedModelName(*read), "meta-llama/Meta-Llama-3-8B");
    EXPECT_EQ(core::buildZoo(scan.inputs, {}).rows.front().totalParams,
              *core::findPreset("llama-3-8b")->info.publishedParams);
    fs::remove_all(root);
}

TEST(ZooSources, AMissingFolderIsANoteNotACrash) {
    const core::ZooScan scan = core::zooFromFolder("/nonexistent/archplay/zoo");
    EXPECT_TRUE(scan.inputs.empty());
    ASSERT_EQ(scan.notes.size(), 1u);
    EXPECT_EQ(scan.notes.front().message, "/nonexistent/archplay/zoo is not a folder");
}

TEST(ZooSources, FolderSearchStopsAtTheFileLimit) {
    const fs::path root = freshDirectory("limit");
    for (int i = 0; i < 3; ++i) {
        copyConfig(kReference / "gpt-2.json", root / std::to_string(i) / "config.json");
    }
    core::ZooScanLimits limits;
    limits.maxFiles = 2;
    const core::ZooScan scan = core::zooFromFolder(root, limits);
    EXPECT_EQ(scan.inputs.size(), 2u);
    ASSERT_EQ(scan.notes.size(), 1u);
    EXPECT_EQ(scan.notes.front().message, "stopped after 2 config.json files (the limit)");
    // A total budget: the files beyond it are listed with the reason, not read.
    limits = {};
    limits.maxTotalBytes = fs::file_size(root / "0" / "config.json") * 2;
    const core::ZooScan budget = core::zooFromFolder(root, limits);
    ASSERT_EQ(budget.inputs.size(), 3u);
    EXPECT_TRUE(budget.inputs[0].imported.config && budget.inputs[1].imported.config);
    EXPECT_FALSE(budget.inputs[2].imported.config);
    ASSERT_EQ(budget.notes.size(), 1u);
    EXPECT_EQ(budget.notes.front().message.rfind("stopped reading after", 0), 0u) << budget.notes.front().message;
    limits = {};
    limits.maxFileBytes = 100; // gpt-2's config.json is larger: listed, not read
    const core::ModelZoo zoo = core::buildZoo(core::zooFromFolder(root, limits).inputs, {});
    ASSERT_EQ(zoo.rows.size(), 3u);
    EXPECT_EQ(zoo.rows.front().status, core::ZooStatus::NotCounted);
    EXPECT_NE(zoo.rows.front().reason.find("cannot read"), std::string::npos) << zoo.rows.front().reason;
    fs::remove_all(root);
}

TEST(ZooSources, HfCachePicksTheSnapshotRefsMainNamesElseTheNewest) {
    const fs::path root = freshDirectory("hf");
    const fs::path llama = root / "models--meta-llama--Meta-Llama-3-8B";
    copyConfig(kReference / "llama-3-8b.json", llama / "blobs" / "0123abcd");
    fs::create_directories(llama / "snapshots" / "mainhash");
    fs::create_symlink("../../blobs/0123abcd", llama / "snapshots" / "mainhash" / "config.json"); // as the hub does
    copyConfig(kReference / "gpt-2.json", llama / "snapshots" / "otherhash" / "config.json");
    writeText(llama / "refs" / "main", "mainhash");

    const fs::path qwen = root / "models--Qwen--Qwen2.5-7B";
    writeText(qwen / "snapshots" / "older" / "config.json", "{ broken");
    copyConfig(kReference / "qwen2.5-7b.json", qwen / "snapshots" / "newer" / "config.json");
    const auto now = fs::last_write_time(qwen / "snapshots" / "newer");
    fs::last_write_time(qwen / "snapshots" / "older", now - std::chrono::hours(24));

    fs::create_directories(root / "models--gpt2" / "refs"); // no snapshot yet
    copyConfig(kReference / "gpt-2.json", root / "datasets--someone--data" / "snapshots" / "x" / "config.json");

    const core::ZooScan scan = core::zooFromHfCache(root);
    EXPECT_TRUE(scan.notes.empty());
    ASSERT_EQ(scan.inputs.size(), 3u);
    EXPECT_EQ(scan.inputs[0].source, "Qwen/Qwen2.5-7B");
    EXPECT_EQ(scan.inputs[0].snapshot, "newer");
    EXPECT_EQ(scan.inputs[1].source, "gpt2");
    EXPECT_EQ(scan.inputs[2].source, "meta-llama/Meta-Llama-3-8B");
    EXPECT_EQ(scan.inputs[2].snapshot, "mainhash");
    EXPECT_EQ(scan.inputs[2].origin, core::ZooOrigin::HfCache);

    const core::ModelZoo zoo = core::buildZoo(scan.inputs, {});
    EXPECT_EQ(rowOf(zoo, "meta-llama/Meta-Llama-3-8B").totalParams,
              *core::findPreset("llama-3-8b")->info.publishedParams);
    EXPECT_EQ(rowOf(zoo, "Qwen/Qwen2.5-7B").totalParams, *core::findPreset("qwen2.5-7b")->info.publishedParams);
    const core::ZooRow& gpt2 = rowOf(zoo, "gpt2");
    EXPECT_EQ(gpt2.status, core::ZooStatus::NotCounted);
    EXPECT_EQ(gpt2.reason, "no snapshot with a config.json in " + (root / "models--gpt2").string());
    fs::remove_all(root);
}

TEST(ZooSources, DefaultHfCacheRootFollowsTheHubsEnvironmentVariables) {
    auto rootWith = [](std::map<std::string, std::string> values) {
        return core::defaultHfCacheRoot([&](std::string_view name) -> std::optional<std::string> {
            const auto it = values.find(std::string(name));
            return it == values.end() ? std::nullopt : std::optional<std::string>(it->second);
        });
    };
    EXPECT_EQ(rootWith({{"HOME", "/home/me"}}), fs::path("/home/me/.cache/huggingface/hub"));
    EXPECT_EQ(rootWith({{"HOME", "/home/me"}, {"XDG_CACHE_HOME", "/cache"}}), fs::path("/cache/huggingface/hub"));
    EXPECT_EQ(rootWith({{"HOME", "/home/me"}, {"HF_HOME", "/hf"}, {"XDG_CACHE_HOME", "/cache"}}), fs::path("/hf/hub"));
    EXPECT_EQ(rootWith({{"HF_HOME", "/hf"}, {"HF_HUB_CACHE", "/hub"}}), fs::path("/hub"));
    EXPECT_EQ(rootWith({{"HF_HOME", ""}, {"HOME", "/home/me"}}), fs::path("/home/me/.cache/huggingface/hub"));
    EXPECT_EQ(rootWith({}), std::nullopt);
}

} // namespace
} // namespace archplay::test
