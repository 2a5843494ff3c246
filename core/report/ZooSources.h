// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Finding configs for the model zoo: config.json files under a folder, and the Hugging Face hub cache.

#include "core/report/ModelZoo.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace archplay::core {

/// How far a folder search goes.
struct ZooScanLimits {
    int maxDepth = 8;                      ///< folders below the root searched (the root is depth 0)
    std::size_t maxFiles = 20000;          ///< config.json files read at most
    std::uint64_t maxFileBytes = 4u << 20; ///< a config.json larger than this is listed, not read. Units: bytes.
    /// The bytes of config.json files one search reads at most; the files beyond are listed, not read.
    std::uint64_t maxTotalBytes = std::uint64_t{256} << 20; ///< Units: bytes.
    /// Asked before each file is read: true stops the search (the window's Cancel), with a note.
    std::function<bool()> cancelled;
    /// Told after each file is read: how many of how many.
    std::function<void(std::size_t done, std::size_t total)> progress;
};

/// What a search found: one input per config.json (read or not), and notes about what was skipped
/// (a folder that cannot be listed, a limit reached), each naming the path.
struct ZooScan {
    std::vector<ZooInput> inputs;
    Diagnostics notes;
};

/// Every file named config.json under `root` (recursively, symbolic links to folders not followed, so
/// no loop), read with importConfigFile() as a ZooOrigin::File input, best effort (a config with
/// unknown architecture fields is read as a labelled estimate) and refusing invalid configs (the
/// validation error, naming its field, is the reason). Files in path order.
[[nodiscard]] ZooScan zooFromFolder(const std::filesystem::path& root, const ZooScanLimits& limits = {});

/// The Hugging Face hub cache below `root`: each folder models--ORG--NAME gives one ZooOrigin::HfCache
/// input with source "ORG/NAME", read from snapshots/HASH/config.json, HASH being the commit refs/main
/// names when that snapshot exists, else the most recently modified snapshot. A repository without a
/// snapshot config.json is listed as not counted. Repositories in name order.
[[nodiscard]] ZooScan zooFromHfCache(const std::filesystem::path& root, const ZooScanLimits& limits = {});

/// Reads an environment variable: its value, or nullopt when unset.
using EnvironmentLookup = std::function<std::optional<std::string>(std::string_view name)>;

/// The Hugging Face hub cache folder as huggingface_hub resolves it: $HF_HUB_CACHE, else $HF_HOME/hub,
/// else $XDG_CACHE_HOME/huggingface/hub, else $HOME/.cache/huggingface/hub; nullopt when none is set
/// (empty values count as unset).
[[nodiscard]] std::optional<std::filesystem::path> defaultHfCacheRoot(const EnvironmentLookup& environment);
/// defaultHfCacheRoot() of this process's environment.
[[nodiscard]] std::optional<std::filesystem::path> defaultHfCacheRoot();

} // namespace archplay::core
