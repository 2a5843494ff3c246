// SPDX-License-Identifier: GPL-3.0-or-later
// Every input that ever made a fuzz target fail (tests/fuzz/regressions/TARGET/), and every preset and
// reference config, through the same target functions, in every build.
#include "TestPaths.h"
#include "core/io/ConfigJson.h"
#include "core/io/Presets.h"
#include "tests/fuzz/FuzzTargets.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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

// What the fuzzer found as finding 10, swept: every corpus config with each field deleted, set to
// 0, 1 or 3 (numbers) or flipped (switches) must read back from its export as the same model, inert
// fields included (a session holds the model it wrote).
TEST(FuzzReplay, EachFieldOfEveryCorpusConfigRedrawnReadsBackAsTheSameModel) {
    int checked = 0;
    for (const fs::directory_entry& entry :
         fs::directory_iterator(fs::path(test::kReferenceDir) / "transformers" / "configs")) {
        const nlohmann::json original = nlohmann::json::parse(readBytes(entry.path()));
        std::vector<nlohmann::json> variants;
        for (const auto& [key, value] : original.items()) {
            variants.push_back(original);
            variants.back().erase(key);
            if (value.is_boolean()) {
                variants.push_back(original);
                variants.back()[key] = !value.get<bool>();
            } else if (value.is_number_integer()) {
                for (int redrawn : {0, 1, 3}) {
                    variants.push_back(original);
                    variants.back()[key] = redrawn;
                }
            }
        }
        for (const nlohmann::json& variant : variants) {
            const core::ImportResult read = core::importConfig(variant);
            if (!read.config) {
                continue;
            }
            const core::ImportResult again = core::importConfig(core::exportConfig(*read.config));
            ASSERT_TRUE(again.config.has_value()) << variant.dump();
            core::ModelConfig model = *read.config;
            core::ModelConfig modelAgain = *again.config;
            model.passthrough = modelAgain.passthrough = {};
            EXPECT_TRUE(model == modelAgain) << entry.path().filename() << ": " << variant.dump();
            ++checked;
        }
    }
    EXPECT_GT(checked, 20000);
}

} // namespace
} // namespace archplay::fuzz
