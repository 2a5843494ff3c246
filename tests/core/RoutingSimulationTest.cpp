// SPDX-License-Identifier: GPL-3.0-or-later
// The illustrative router simulation: deterministic, well-formed, following the config's routing rule.
#include "core/routing/RoutingSimulation.h"

#include "tests/support/TestSupport.h"

#include <algorithm>
#include <numeric>
#include <set>

namespace archplay::test {
namespace {

using core::RouterScoring;

core::RoutingSimulation simulate(const core::Analysis& analysis) {
    return core::simulateRouting(analysis.config, analysis.plan, core::firstMoeLayer(analysis.plan));
}

TEST(RoutingSimulation, DenseModelsRouteNothing) {
    const auto llama = analyzePreset("llama-3-8b");
    EXPECT_EQ(core::firstMoeLayer(llama.plan), -1);
    EXPECT_FALSE(simulate(llama).moe);
    const auto v3 = analyzePreset("deepseek-v3");
    EXPECT_EQ(core::firstMoeLayer(v3.plan), 3);
    EXPECT_FALSE(core::simulateRouting(v3.config, v3.plan, 0).moe); // a dense first layer
}

TEST(RoutingSimulation, IsDeterministic) {
    const auto mixtral = analyzePreset("mixtral-8x7b-v0.1");
    const auto a = simulate(mixtral);
    const auto b = simulate(mixtral);
    ASSERT_TRUE(a.moe);
    EXPECT_EQ(a.seed, b.seed);
    for (std::size_t t = 0; t < a.tokens.size(); ++t) {
        EXPECT_EQ(a.tokens[t].scores, b.tokens[t].scores);
        EXPECT_EQ(a.tokens[t].chosen, b.tokens[t].chosen);
    }
    // Perfect balance: every token's k choices spread evenly over the E experts.
    std::int64_t sent = 0;
    for (std::int64_t load : a.expertLoad) {
        sent += load;
    }
    EXPECT_DOUBLE_EQ(a.balancedLoad() * double(a.numExperts), double(sent));
}

TEST(RoutingSimulation, SoftmaxRowsSumToOneAndTopKIsTheLargest) {
    const auto mixtral = analyzePreset("mixtral-8x7b-v0.1");
    const auto sim = simulate(mixtral);
    ASSERT_EQ(sim.tokens.size(), core::routingSampleTokens().size());
    EXPECT_EQ(sim.settings.scoring, RouterScoring::Softmax);
    EXPECT_TRUE(sim.settings.normaliseTopK);
    EXPECT_TRUE(sim.groupStarts().empty()) << "no group limit";
    std::int64_t load = 0;
    for (const auto& token : sim.tokens) {
        ASSERT_EQ(token.scores.size(), 8u);
        EXPECT_NEAR(std::accumulate(token.scores.begin(), token.scores.end(), 0.0), 1.0, 1e-9);
        ASSERT_EQ(token.chosen.size(), 2u);
        std::vector<double> sorted = token.scores;
        std::sort(sorted.begin(), sorted.end(), std::greater<>());
        EXPECT_EQ(token.scores[static_cast<std::size_t>(token.chosen[0])], sorted[0]);
        EXPECT_EQ(token.scores[static_cast<std::size_t>(token.chosen[1])], sorted[1]);
        // Mixtral renormalises the two gate weights.
        EXPECT_NEAR(token.weights[0] + token.weights[1], 1.0, 1e-9);
    }
    for (std::int64_t count : sim.expertLoad) {
        load += count;
    }
    EXPECT_EQ(load, static_cast<std::int64_t>(sim.tokens.size()) * 2);
}

TEST(RoutingSimulation, RepeatedWordsRouteAlike) {
    const auto sim = simulate(analyzePreset("qwen3-30b-a3b"));
    const auto& tokens = sim.tokens;
    // "The" (first) and " the" (later) are the same word.
    auto first = std::find_if(tokens.begin(), tokens.end(), [](const auto& t) { return t.text == "The"; });
    auto second = std::find_if(tokens.begin(), tokens.end(), [](const auto& t) { return t.text == " the"; });
    ASSERT_NE(first, tokens.end());
    ASSERT_NE(second, tokens.end());
    EXPECT_EQ(first->chosen, second->chosen);
}

TEST(RoutingSimulation, DeepSeekUsesSigmoidScoresAndGroupLimits) {
    const auto v3 = analyzePreset("deepseek-v3");
    const auto sim = simulate(v3);
    ASSERT_TRUE(sim.moe);
    EXPECT_EQ(sim.settings.scoring, RouterScoring::Sigmoid);
    EXPECT_EQ(sim.settings.groups, 8);
    EXPECT_EQ(sim.settings.topKGroups, 4);
    EXPECT_DOUBLE_EQ(sim.settings.routedScaling, 2.5);
    EXPECT_EQ(sim.sharedExperts, 1);
    // 256 experts in 8 groups of 32, as DeepSeek-V3's router splits them.
    EXPECT_EQ(sim.groupStarts(), (std::vector<std::int64_t>{32, 64, 96, 128, 160, 192, 224}));
    for (const auto& token : sim.tokens) {
        ASSERT_EQ(token.chosen.size(), 8u);
        std::set<int> groups;
        for (int expert : token.chosen) {
            groups.insert(expert / 32);
        }
        EXPECT_LE(groups.size(), 4u);
        for (double score : token.scores) {
            EXPECT_GT(score, 0.0);
            EXPECT_LT(score, 1.0);
        }
        double weights = 0.0;
        for (double w : token.weights) {
            weights += w;
        }
        EXPECT_NEAR(weights, 2.5, 1e-9); // renormalised, then scaled by routed_scaling_factor
    }
}

TEST(RoutingSimulation, SharedSimulationsAreTheSimulationOfTheirInputs) {
    const auto v3 = analyzePreset("deepseek-v3");
    const core::RoutingInputs inputs = core::routingInputs(v3.config, v3.plan, core::firstMoeLayer(v3.plan));
    const auto shared = core::sharedRouting(inputs);
    EXPECT_EQ(core::sharedRouting(inputs), shared) << "kept: a second view gets the same simulation";
    const core::RoutingSimulation fresh = core::simulateRouting(inputs);
    ASSERT_EQ(shared->tokens.size(), fresh.tokens.size());
    for (std::size_t t = 0; t < fresh.tokens.size(); ++t) {
        EXPECT_EQ(shared->tokens[t].scores, fresh.tokens[t].scores);
        EXPECT_EQ(shared->tokens[t].chosen, fresh.tokens[t].chosen);
    }
    core::RoutingInputs other = inputs;
    other.topK = 4;
    other.seed ^= 1;
    const auto different = core::sharedRouting(other);
    EXPECT_NE(different, shared);
    EXPECT_EQ(different->topK, 4);
    EXPECT_EQ(different->tokens.front().chosen.size(), 4u);
}

TEST(RoutingSimulation, ChangesWithExpertsAndTopK) {
    auto config = preset("mixtral-8x7b-v0.1");
    const auto base = core::analyze(config, {});
    const auto original = simulate(base);
    config.moe.topK = 3;
    const auto moreK = simulate(core::analyze(config, {}));
    EXPECT_NE(moreK.seed, original.seed);
    EXPECT_EQ(moreK.tokens[0].chosen.size(), 3u);
    config.moe.topK = 2;
    config.moe.numExperts = 16;
    const auto moreExperts = simulate(core::analyze(config, {}));
    EXPECT_EQ(moreExperts.tokens[0].scores.size(), 16u);
    EXPECT_NE(moreExperts.seed, original.seed);
}

TEST(RoutingSimulation, KeepsItsPictureWhenTheHiddenSizeOrExpertWidthMoves) {
    // The simulated router does not model them: dragging them must not draw a new random picture.
    auto config = preset("deepseek-v3");
    const auto original = simulate(core::analyze(config, {}));
    config.hiddenSize = 4096;
    config.moe.expertIntermediateSize = 1024;
    const auto resized = simulate(core::analyze(config, {}));
    EXPECT_EQ(resized.seed, original.seed);
    ASSERT_EQ(resized.tokens.size(), original.tokens.size());
    for (std::size_t t = 0; t < original.tokens.size(); ++t) {
        EXPECT_EQ(resized.tokens[t].chosen, original.tokens[t].chosen);
    }
    config.moe.numSharedExperts = 2;
    EXPECT_NE(simulate(core::analyze(config, {})).seed, original.seed) << "shared experts are modelled";
}

} // namespace
} // namespace archplay::test
