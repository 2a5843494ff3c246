// SPDX-License-Identifier: GPL-3.0-or-later
// Every input that ever made a fuzz target fail (tests/fuzz/regressions/TARGET/), and every preset and
// reference config, through the same target functions, in every build.
#include "TestPaths.h"
#include "core/io/Presets.h"
#include "tests/fuzz/FuzzTargets.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace archplay::fuzz {
namespace {

namespace fs = std::filesystem;

std::string readBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

/// Runs `target` on every file under `directory`, if it exists; returns how many there were.
int replay(const fs::path& directory, void (*target)(std::string_view)) {
    int files = 0;
    if (!fs::is_directory(directory)) {
        return files;
    }
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(directory)) {
        if (!entry.is_regular_file() || entry.path().filename() == "README.md") {
            continue;
        }
        ++files;
        const std::string bytes = readBytes(entry.path());
        try {
            target(bytes);
        } catch (const std::exception& error) {
            ADD_FAILURE() << entry.path() << ": " << error.what();
        }
    }
    return files;
}

const fs::path kRegressions = fs::path(test::kFuzzDir) / "regressions";

TEST(FuzzReplay, ConfigRegressions) {
    EXPECT_GT(replay(kRegressions / "config", configTarget), 0);
}

TEST(FuzzReplay, SessionRegressions) {
    EXPECT_GT(replay(kRegressions / "session", sessionTarget), 0);
}

TEST(FuzzReplay, CommandLineSeedsAndRegressions) {
    EXPECT_GT(replay(fs::path(test::kFuzzDir) / "corpus" / "cli", commandLineTarget), 0);
    EXPECT_GT(replay(kRegressions / "cli", commandLineTarget), 0);
}

TEST(FuzzReplay, DeviceCatalogueRegressions) {
    EXPECT_GT(replay(kRegressions / "gpuCatalogue", gpuCatalogueTarget), 0);
}

TEST(FuzzReplay, ZooFolderRegressions) {
    EXPECT_GT(replay(kRegressions / "zooFolder", zooFolderTarget), 0);
}

TEST(FuzzReplay, EveryPresetAndReferenceConfigKeepsThePromises) {
    EXPECT_EQ(replay(test::kPresetDir, configTarget), static_cast<int>(core::builtinPresets().size()));
    EXPECT_GT(replay(test::kReferenceDir, configTarget), 50);
}

} // namespace
} // namespace archplay::fuzz
