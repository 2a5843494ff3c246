// SPDX-License-Identifier: GPL-3.0-or-later
// Parameters grouped by layer kind and by component: totals add up, active parameters only drop experts.
#include "core/params/ParamGroups.h"

#include "tests/support/TestSupport.h"

namespace archplay::test {
namespace {

using core::Component;

TEST(ParamGroups, KindGroupsSumToTheLayers) {
    for (const core::Preset& preset : core::builtinPresets()) {
        const core::Analysis analysis = analyzePreset(preset.info.id);
        const auto groups = core::paramsByLayerKind(analysis.config, analysis.plan, analysis.params);
        std::uint64_t total = 0;
        std::uint64_t layerSum = 0;
        std::size_t layers = 0;
        for (const auto& group : groups) {
            total += group.total;
            layers += group.layers.size();
            EXPECT_EQ(group.total, group.perLayer * group.layers.size()) << preset.info.id;
            EXPECT_EQ(group.mixer + group.ffn + group.norms, group.total) << preset.info.id;
            EXPECT_EQ(group.mixer + group.ffnActive + group.norms, group.active) << preset.info.id;
        }
        for (const auto& layer : analysis.params.layers) {
            layerSum += layer.total;
        }
        EXPECT_EQ(total, layerSum) << preset.info.id;
        EXPECT_EQ(layers, analysis.plan.layers.size()) << preset.info.id;
    }
}

TEST(ParamGroups, DeepSeekHasDenseAndMoeKinds) {
    const core::Analysis v3 = analyzePreset("deepseek-v3");
    const auto groups = core::paramsByLayerKind(v3.config, v3.plan, v3.params);
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_EQ(groups[0].layers, (std::vector<std::int64_t>{0, 1, 2}));
    EXPECT_EQ(groups[0].kind.ffn, core::FfnKind::Gated);
    EXPECT_EQ(groups[1].layers.size(), 58u);
    EXPECT_EQ(groups[1].kind.ffn, core::FfnKind::Moe);
    EXPECT_LT(groups[1].active, groups[1].total);
    EXPECT_EQ(groups[0].active, groups[0].total);
}

TEST(ParamGroups, ComponentsSumToTotalAndActive) {
    for (const char* id : {"llama-3-8b", "mixtral-8x7b-v0.1", "deepseek-v3", "qwen3-30b-a3b", "t5-small",
                           "bert-base-uncased", "gemma-3-1b"}) {
        const core::Analysis analysis = analyzePreset(id);
        std::uint64_t total = 0;
        std::uint64_t active = 0;
        for (const auto& component : core::paramsByComponent(analysis.params)) {
            EXPECT_GT(component.total, 0u);
            if (component.component != Component::Experts) {
                EXPECT_EQ(component.active, component.total) << id;
            }
            total += component.total;
            active += component.active;
        }
        EXPECT_EQ(total, analysis.params.total) << id;
        EXPECT_EQ(active, analysis.params.active) << id;
    }
}

TEST(ParamGroups, MixtralRoutedExpertsAreAQuarterActive) {
    const core::Analysis mixtral = analyzePreset("mixtral-8x7b-v0.1");
    for (const auto& component : core::paramsByComponent(mixtral.params)) {
        if (component.component == Component::Experts) {
            EXPECT_EQ(component.active * 4, component.total); // top-2 of 8
        }
    }
}

} // namespace
} // namespace archplay::test
