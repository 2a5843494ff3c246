// SPDX-License-Identifier: GPL-3.0-or-later
// Deterministic mutation fuzzing of real configs: whatever the bytes, import and analysis return
// diagnostics and never crash or hang.
#include "tests/support/TestSupport.h"

#include <nlohmann/json.hpp>

#include <random>

namespace archplay::test {
namespace {

void importAndAnalyze(const std::string& text) {
    const core::ImportResult result = core::importConfigText(text);
    if (result.config) {
        const core::Analysis analysis = core::analyze(*result.config, core::Scenario{});
        (void)core::exportConfigText(*result.config);
        if (analysis.valid) {
            EXPECT_EQ(analysis.params.breakdown.params, analysis.params.total);
        }
    } else {
        EXPECT_TRUE(core::hasErrors(result.diagnostics));
    }
}

TEST(Fuzz, ByteMutationsOfEveryPreset) {
    std::mt19937 random(20261121);
    for (const core::Preset& preset : core::builtinPresets()) {
        for (int round = 0; round < 40; ++round) {
            std::string text(preset.json);
            const int edits = 1 + static_cast<int>(random() % 4);
            for (int e = 0; e < edits && !text.empty(); ++e) {
                const std::size_t at = random() % text.size();
                switch (random() % 3) {
                case 0:
                    text[at] = static_cast<char>(random() % 256);
                    break;
                case 1:
                    text.erase(at, 1 + random() % 8);
                    break;
                default:
                    text.resize(at);
                    break;
                }
            }
            importAndAnalyze(text);
        }
    }
}

TEST(Fuzz, ExtremeValuesInEveryNumericField) {
    const std::vector<nlohmann::json> extremes = {
        0,   -1,      1,   3,   -9223372036854775807LL, 9223372036854775807LL, 4611686018427387904LL, 1099511627776LL,
        0.5, nullptr, "7", true};
    for (const char* id : {"llama-3-8b", "deepseek-v3", "qwen1.5-moe-a2.7b", "gemma-3-1b", "t5-small", "falcon-40b",
                           "bert-base-uncased", "opt-350m"}) {
        const nlohmann::json base = nlohmann::json::parse(core::findPreset(id)->json);
        for (auto it = base.begin(); it != base.end(); ++it) {
            if (!it.value().is_number() && !it.value().is_null()) {
                continue;
            }
            for (const nlohmann::json& value : extremes) {
                nlohmann::json mutated = base;
                mutated[it.key()] = value;
                importAndAnalyze(mutated.dump());
            }
        }
    }
}

} // namespace
} // namespace archplay::test
