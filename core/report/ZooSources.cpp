// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/ZooSources.h"

#include "core/io/ConfigJson.h"
#include "core/io/Files.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <system_error>
#include <utility>
#include <vector>

namespace archplay::core {
namespace {

namespace fs = std::filesystem;

/// Reads one config.json as the zoo reads every file: bounded, best effort, invalid configs refused.
ImportResult readZooConfig(const fs::path& path, const ZooScanLimits& limits) {
    const FileRead read = readRegularFile(path.string(), limits.maxFileBytes);
    if (!read.bytes) {
        ImportResult result;
        result.diagnostics.push_back(
            {Severity::Error, "", fmt::format("cannot read {}: {}", path.string(), read.error)});
        return result;
    }
    ImportResult imported = importConfigText(*read.bytes, ImportOptions{.bestEffort = true, .refuseInvalid = true});
    if (imported.config) {
        // A zoo row needs the architecture and the recorded name, not the fields kept for a round trip
        // (a 65,000-entry id2label would otherwise stay in memory for every row).
        nlohmann::json kept = nlohmann::json::object();
        if (const std::optional<std::string> name = recordedModelName(*imported.config)) {
            kept["_name_or_path"] = *name;
        }
        imported.config->passthrough = std::move(kept);
    }
    return imported;
}

/// The snapshot folder of one hub cache repository: refs/main's commit when that snapshot has a
/// config.json, else the most recently modified snapshot with one; empty when there is none.
fs::path chooseSnapshot(const fs::path& repository, const ZooScanLimits& limits) {
    std::error_code error;
    const fs::path snapshots = repository / "snapshots";
    const FileRead ref = readRegularFile((repository / "refs" / "main").string(), 256);
    if (ref.bytes) {
        std::string commit = *ref.bytes;
        commit.erase(commit.find_last_not_of(" \t\r\n") + 1);
        if (!commit.empty() && commit.find('/') == std::string::npos &&
            fs::exists(snapshots / commit / "config.json", error)) {
            return snapshots / commit;
        }
    }
    fs::path newest;
    fs::file_time_type newestTime{};
    std::size_t seen = 0;
    for (fs::directory_iterator it(snapshots, error), end; !error && it != end && seen < limits.maxFiles;
         it.increment(error), ++seen) {
        std::error_code statError;
        if (!fs::exists(it->path() / "config.json", statError)) {
            continue;
        }
        const fs::file_time_type time = fs::last_write_time(it->path(), statError);
        if (!statError && (newest.empty() || time > newestTime || (time == newestTime && it->path() > newest))) {
            newest = it->path();
            newestTime = time;
        }
    }
    return newest;
}

/// Reads the files a folder search found into `scan`, within the total budget, asking `cancelled`
/// before each and telling `progress` after.
void readFound(const std::vector<fs::path>& found, const ZooScanLimits& limits, ZooScan& scan) {
    std::uint64_t readBytes = 0;
    bool overBudget = false;
    for (std::size_t i = 0; i < found.size(); ++i) {
        if (limits.cancelled && limits.cancelled()) {
            scan.notes.push_back(
                {Severity::Warning, "", fmt::format("cancelled after {} of {} config.json files", i, found.size())});
            return;
        }
        ZooInput input;
        input.origin = ZooOrigin::File;
        input.source = found[i].string();
        input.path = found[i].string();
        std::error_code sizeError;
        const std::uint64_t size = fs::file_size(found[i], sizeError);
        if (!sizeError && readBytes + std::min(size, limits.maxFileBytes) > limits.maxTotalBytes) {
            // Listed with its reason, not read: the search holds at most maxTotalBytes of files.
            input.imported.diagnostics.push_back(
                {Severity::Error, "",
                 fmt::format("not read: the search read {} MiB of config.json files, its limit",
                             limits.maxTotalBytes >> 20)});
            overBudget = true;
        } else {
            readBytes += sizeError ? 0 : std::min(size, limits.maxFileBytes);
            input.imported = readZooConfig(found[i], limits);
        }
        scan.inputs.push_back(std::move(input));
        if (limits.progress) {
            limits.progress(i + 1, found.size());
        }
    }
    if (overBudget) {
        scan.notes.push_back({Severity::Warning, "",
                              fmt::format("stopped reading after {} MiB of config.json files (the limit); the rest "
                                          "are listed, not read",
                                          limits.maxTotalBytes >> 20)});
    }
}

} // namespace

ZooScan zooFromFolder(const fs::path& root, const ZooScanLimits& limits) {
    ZooScan scan;
    std::error_code error;
    if (!fs::is_directory(root, error)) {
        scan.notes.push_back({Severity::Error, "", fmt::format("{} is not a folder", root.string())});
        return scan;
    }
    auto skipped = [&scan](const fs::path& path, const std::string& why) {
        scan.notes.push_back({Severity::Warning, "", fmt::format("{}: not searched, {}", path.string(), why)});
    };
    // Depth first, one folder listed at a time, so that a folder that cannot be listed is named and
    // the search goes on beside it.
    std::vector<fs::path> found;
    std::vector<std::pair<fs::path, int>> pending{{root, 0}};
    bool full = false;
    while (!pending.empty() && !full) {
        const auto [folder, depth] = pending.back();
        pending.pop_back();
        std::vector<fs::directory_entry> entries;
        std::error_code listError;
        for (fs::directory_iterator it(folder, listError), end; !listError && it != end; it.increment(listError)) {
            entries.push_back(*it);
        }
        if (listError) {
            skipped(folder, listError.message());
        }
        std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.path() > b.path(); });
        for (const fs::directory_entry& entry : entries) {
            std::error_code statError;
            const fs::file_status status = entry.symlink_status(statError);
            if (fs::is_symlink(status) && fs::is_directory(entry.path(), statError)) {
                skipped(entry.path(), "a link to a folder is not followed");
            } else if (fs::is_directory(status)) {
                if (depth < limits.maxDepth) {
                    pending.emplace_back(entry.path(), depth + 1);
                } else {
                    skipped(entry.path(), fmt::format("deeper than {} folders", limits.maxDepth));
                }
            } else if (entry.path().filename() == "config.json") {
                if (found.size() >= limits.maxFiles) {
                    scan.notes.push_back(
                        {Severity::Warning, "",
                         fmt::format("stopped after {} config.json files (the limit)", limits.maxFiles)});
                    full = true;
                    break;
                }
                found.push_back(entry.path());
            }
        }
    }
    std::sort(found.begin(), found.end());
    readFound(found, limits, scan);
    return scan;
}

ZooScan zooFromHfCache(const fs::path& root, const ZooScanLimits& limits) {
    ZooScan scan;
    std::error_code error;
    if (!fs::is_directory(root, error)) {
        scan.notes.push_back({Severity::Error, "", fmt::format("{} is not a folder", root.string())});
        return scan;
    }
    std::vector<fs::path> repositories;
    for (fs::directory_iterator it(root, error), end; !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        std::error_code statError;
        if (name.starts_with("models--") && fs::is_directory(it->path(), statError)) {
            repositories.push_back(it->path());
        }
    }
    std::sort(repositories.begin(), repositories.end());
    if (repositories.size() > limits.maxFiles) {
        repositories.resize(limits.maxFiles);
        scan.notes.push_back(
            {Severity::Warning, "", fmt::format("stopped after {} repositories (the limit)", limits.maxFiles)});
    }
    for (std::size_t i = 0; i < repositories.size(); ++i) {
        if (limits.cancelled && limits.cancelled()) {
            scan.notes.push_back(
                {Severity::Warning, "", fmt::format("cancelled after {} of {} repositories", i, repositories.size())});
            break;
        }
        const fs::path& repository = repositories[i];
        const std::string name = repository.filename().string().substr(std::string_view("models--").size());
        const std::size_t split = name.find("--");
        const std::string id = split == std::string::npos ? name : name.substr(0, split) + "/" + name.substr(split + 2);
        ZooInput input;
        input.origin = ZooOrigin::HfCache;
        input.source = id;
        const fs::path snapshot = chooseSnapshot(repository, limits);
        if (snapshot.empty()) {
            input.imported.diagnostics.push_back(
                {Severity::Error, "", fmt::format("no snapshot with a config.json in {}", repository.string())});
        } else {
            input.snapshot = snapshot.filename().string();
            input.path = (snapshot / "config.json").string();
            input.imported = readZooConfig(snapshot / "config.json", limits);
        }
        scan.inputs.push_back(std::move(input));
        if (limits.progress) {
            limits.progress(i + 1, repositories.size());
        }
    }
    return scan;
}

std::optional<fs::path> defaultHfCacheRoot(const EnvironmentLookup& environment) {
    const auto value = [&](std::string_view name) {
        std::optional<std::string> text = environment(name);
        return text && !text->empty() ? text : std::nullopt;
    };
    if (const auto hubCache = value("HF_HUB_CACHE")) {
        return fs::path(*hubCache);
    }
    if (const auto home = value("HF_HOME")) {
        return fs::path(*home) / "hub";
    }
    if (const auto cache = value("XDG_CACHE_HOME")) {
        return fs::path(*cache) / "huggingface" / "hub";
    }
    if (const auto home = value("HOME")) {
        return fs::path(*home) / ".cache" / "huggingface" / "hub";
    }
    return std::nullopt;
}

std::optional<fs::path> defaultHfCacheRoot() {
    return defaultHfCacheRoot([](std::string_view name) -> std::optional<std::string> {
        const char* text = std::getenv(std::string(name).c_str()); // NOLINT(concurrency-mt-unsafe): read once
        return text ? std::optional<std::string>(text) : std::nullopt;
    });
}

} // namespace archplay::core
