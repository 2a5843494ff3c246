// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/design/TargetSearch.h"

#include "core/cost/Gpus.h"
#include "core/io/ConfigJson.h"
#include "core/io/Presets.h"
#include "tests/support/TestSupport.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace archplay::test {
namespace {

using core::DesignRange;
using core::SearchTargets;
using core::TargetCandidate;
using core::TargetSpace;

/// A dense space small enough for a test: 4 widths around 7B, every head layout.
TargetSpace smallDenseSpace() {
    TargetSpace space;
    space.layers = DesignRange::span(16, 48);
    space.hiddenSize = DesignRange::span(3584, 4608, 128);
    space.vocabSizes = {32000, 128256};
    return space;
}

TargetSpace smallMoeSpace(bool mla) {
    TargetSpace space;
    space.moe = true;
    space.mla = mla;
    space.layers = DesignRange::span(8, 64);
    space.hiddenSize = DesignRange::span(1536, 2560, 256);
    space.kvHeads = {4, 8};
    space.ffnMultipliers = {1.0, 1.5};
    space.experts = {8, 64, 128};
    space.topK = {2, 8};
    space.denseFirstLayers = {0, 1, 3};
    space.expertWidthRatios = {0.375, 1.0};
    space.vocabSizes = {151936};
    return space;
}

/// analyze() of the candidate's config, independently of the search's own analysis.
core::Analysis reanalyze(const TargetCandidate& candidate, const core::Scenario& scenario) {
    return core::analyze(core::designConfig(candidate.shape), scenario);
}

void expectExactAndWithin(const core::TargetSearchResult& result, const SearchTargets& targets) {
    ASSERT_FALSE(core::hasErrors(result.diagnostics)) << result.diagnostics.front().message;
    const double accepted = std::floor(static_cast<double>(targets.params) * targets.tolerance);
    for (const TargetCandidate& c : result.candidates) {
        const core::Analysis analysis = reanalyze(c, targets.scenario);
        ASSERT_TRUE(analysis.valid);
        EXPECT_TRUE(analysis.config.exact());
        EXPECT_EQ(c.params, analysis.params.total);
        EXPECT_EQ(c.activeParams, analysis.params.active);
        EXPECT_EQ(c.kvBytesPerToken, analysis.kv.bytesPerToken);
        EXPECT_EQ(c.kvBytesScenario, analysis.kv.totalBytes);
        EXPECT_EQ(c.weightBytes, analysis.weightBytes);
        EXPECT_EQ(c.flopsPerToken, analysis.compute.perToken);
        EXPECT_LE(std::abs(static_cast<double>(c.params) - static_cast<double>(targets.params)), accepted);
        if (targets.activeParams) {
            EXPECT_LE(std::abs(static_cast<double>(c.activeParams) - static_cast<double>(*targets.activeParams)),
                      std::floor(static_cast<double>(*targets.activeParams) * targets.tolerance));
        }
        if (targets.maxKvBytesPerToken) {
            EXPECT_LE(analysis.kv.bytesPerToken, *targets.maxKvBytesPerToken);
        }
        if (targets.maxKvBytesScenario) {
            EXPECT_LE(analysis.kv.totalBytes, *targets.maxKvBytesScenario);
        }
        if (targets.maxFlopsPerToken) {
            EXPECT_LE(analysis.compute.perToken, *targets.maxFlopsPerToken);
        }
        if (targets.fitServing) {
            EXPECT_TRUE(analysis.devices.fits); // the rule of the weights card, from a separate analysis
        }
        if (targets.fitTraining) {
            EXPECT_GE(analysis.trainingGpusNeeded, 1u);
            EXPECT_LE(analysis.trainingGpusNeeded, targets.scenario.gpuCount);
        }
    }
}

TEST(TargetSearch, ConfigsAreTheirFamilysAndRoundTrip) {
    core::DesignShape dense{32, 4096, 128, 32, 8, 14336, 128256, false, 8192};
    core::DesignShape moe = dense;
    moe.numExperts = 64;
    moe.topK = 8;
    moe.expertIntermediateSize = 1536;
    moe.denseFirstLayers = 2;
    core::DesignShape mla = moe;
    mla.numKvHeads = mla.numHeads;
    mla.kvLoraRank = 512;
    mla.qLoraRank = 1536;
    mla.sharedExperts = 1;
    const std::vector<std::pair<core::DesignShape, std::string>> shapes = {
        {dense, "llama"}, {moe, "qwen3_moe"}, {mla, "deepseek_v3"}};
    for (const auto& [shape, modelType] : shapes) {
        const core::ModelConfig config = core::designConfig(shape);
        EXPECT_EQ(config.modelType, modelType);
        const core::Analysis analysis = core::analyze(config, core::Scenario{});
        ASSERT_TRUE(analysis.valid) << modelType;
        EXPECT_TRUE(config.exact());
        // Written as its family's config.json and read back, it counts the same.
        const nlohmann::json written = core::exportConfig(config);
        EXPECT_EQ(written.at("model_type"), modelType);
        const core::ImportResult back = core::importConfig(written);
        ASSERT_TRUE(back.config) << modelType;
        const core::Analysis reread = core::analyze(*back.config, core::Scenario{});
        EXPECT_EQ(reread.params.total, analysis.params.total) << modelType;
        EXPECT_EQ(reread.params.active, analysis.params.active) << modelType;
        EXPECT_EQ(reread.kv.bytesPerToken, analysis.kv.bytesPerToken) << modelType;
    }
    // The dense-first layers are the first ones: 2 dense FFN layers, then MoE.
    const core::Analysis moeAnalysis = core::analyze(core::designConfig(moe), core::Scenario{});
    EXPECT_EQ(moeAnalysis.plan.layers[0].ffn, core::FfnKind::Gated);
    EXPECT_EQ(moeAnalysis.plan.layers[1].ffn, core::FfnKind::Gated);
    EXPECT_EQ(moeAnalysis.plan.layers[2].ffn, core::FfnKind::Moe);
}

TEST(TargetSearch, DenseResultsCountExactlyAndMeetTheTargets) {
    SearchTargets targets;
    targets.top = 40;
    const core::TargetSearchResult result = core::searchTargets(smallDenseSpace(), targets);
    ASSERT_EQ(result.candidates.size(), 40u);
    EXPECT_GT(result.matched, 40u);
    EXPECT_LE(result.matched, result.evaluated);
    EXPECT_LE(result.evaluated, result.spaceSize);
    expectExactAndWithin(result, targets);
    for (std::size_t i = 1; i < result.candidates.size(); ++i) {
        EXPECT_LE(result.candidates[i - 1].score, result.candidates[i].score);
    }
}

TEST(TargetSearch, MoeAndLatentResultsCountExactlyAndMeetTheTargets) {
    for (const bool mla : {false, true}) {
        SearchTargets targets;
        targets.params = 20'000'000'000;
        targets.activeParams = 3'000'000'000;
        targets.tolerance = 0.1;
        targets.top = 30;
        const core::TargetSearchResult result = core::searchTargets(smallMoeSpace(mla), targets);
        ASSERT_FALSE(result.candidates.empty()) << mla;
        expectExactAndWithin(result, targets);
        bool someDenseFirst = false;
        for (const TargetCandidate& c : result.candidates) {
            EXPECT_GT(c.shape.numExperts, 0);
            EXPECT_EQ(c.shape.kvLoraRank > 0, mla);
            EXPECT_LT(c.shape.denseFirstLayers, c.shape.layers);
            someDenseFirst = someDenseFirst || c.shape.denseFirstLayers > 0;
        }
        EXPECT_TRUE(someDenseFirst) << "the sample should exercise the dense-first composition";
    }
}

TEST(TargetSearch, BudgetsAndDeviceFitsAreMet) {
    SearchTargets targets;
    targets.params = 13'000'000'000;
    targets.maxKvBytesPerToken = 160 * 1024;
    targets.scenario.sequenceLength = 32768;
    targets.scenario.batch = 4;
    targets.maxKvBytesScenario = 20ull << 30;
    // 2 x 13B for the weights plus about 27 GFLOPs of attention at 32,768 tokens.
    targets.maxFlopsPerToken = 60'000'000'000;
    targets.fitServing = true;
    targets.scenario.gpu = *core::findGpu(core::builtinGpus(), "a100-40gb");
    targets.scenario.gpuCount = 1;
    targets.top = 20;
    TargetSpace space;
    space.layers = DesignRange::span(24, 60);
    space.hiddenSize = DesignRange::span(4096, 6144, 256);
    space.vocabSizes = {32000};
    // 13B in bf16 is 26 GB; with a 40 GiB device the cache has ~14 GiB.
    core::TargetSearchResult result = core::searchTargets(space, targets);
    ASSERT_FALSE(result.candidates.empty());
    expectExactAndWithin(result, targets);

    // Half the memory: 13B in bf16 no longer fits on one 24 GiB device.
    targets.scenario.gpu = *core::findGpu(core::builtinGpus(), "rtx-4090");
    result = core::searchTargets(space, targets);
    EXPECT_TRUE(result.candidates.empty());
    EXPECT_EQ(result.matched, 0u);
}

TEST(TargetSearch, TrainingFitIsCheckedOnTheResults) {
    SearchTargets targets;
    targets.params = 1'000'000'000;
    targets.fitTraining = true;
    targets.scenario.gpu = *core::findGpu(core::builtinGpus(), "h100-sxm");
    targets.scenario.gpuCount = 8;
    targets.top = 5;
    TargetSpace space;
    space.layers = DesignRange::span(12, 32);
    space.hiddenSize = DesignRange::span(1536, 2560, 128);
    space.vocabSizes = {32000};
    const core::TargetSearchResult result = core::searchTargets(space, targets);
    ASSERT_FALSE(result.candidates.empty());
    expectExactAndWithin(result, targets);
}

TEST(TargetSearch, SevenBillionDenseTopResultsFollowThePublishedRules) {
    SearchTargets targets;
    TargetSpace space; // the default space: 1 to 16 KV heads or MHA, every width 512 to 16384
    const core::TargetSearchResult result = core::searchTargets(space, targets);
    ASSERT_GE(result.candidates.size(), 5u);
    for (std::size_t i = 0; i < 5; ++i) {
        const core::DesignShape& s = result.candidates[i].shape;
        EXPECT_EQ(s.numHeads % 8, 0) << s.numHeads << " heads";
        EXPECT_TRUE(s.numKvHeads % 8 == 0 || 8 % s.numKvHeads == 0) << s.numKvHeads << " KV heads";
        const std::int64_t group = s.numHeads / s.numKvHeads;
        EXPECT_GE(group, 4) << s.numHeads << "/" << s.numKvHeads;
        EXPECT_LE(group, 8) << s.numHeads << "/" << s.numKvHeads;
        EXPECT_EQ(s.hiddenSize % 128, 0);
        EXPECT_FALSE(s.tiedEmbeddings);
    }
    // The penalties explain the rank: the score is their sum plus the distance's share.
    for (const TargetCandidate& c : result.candidates) {
        double sum = 0;
        for (const core::RulePenalty& p : c.penalties) {
            EXPECT_GT(p.penalty, 0);
            EXPECT_FALSE(p.text.empty());
            sum += p.penalty;
        }
        EXPECT_NEAR(sum, c.plausibility, 1e-9);
        EXPECT_NEAR(c.score - c.plausibility, static_cast<double>(c.distance) / (0.05 * 7e9), 1e-6);
    }
}

TEST(TargetSearch, PenaltiesNameTheBrokenRules) {
    // 27 heads of 128 with one KV head: exact but what nobody builds.
    core::DesignShape odd{34, 3456, 128, 27, 1, 9216, 128256, true, 8192};
    std::vector<std::string> keys;
    for (const core::RulePenalty& p : core::designPenalties(odd, 7'000'000'000, 7'000'000'000)) {
        keys.emplace_back(p.key);
    }
    for (const char* key : {"tensor_parallel", "gqa_group", "embeddings"}) {
        EXPECT_NE(std::find(keys.begin(), keys.end(), key), keys.end()) << key;
    }
    core::DesignShape narrow{32, 4000, 125, 32, 8, 10752, 128256, false, 8192}; // 4000 = 32 x 125
    EXPECT_EQ(core::designPenalties(narrow, 7'000'000'000, 7'000'000'000).front().key, "hidden_multiple");
    // The rule table is in DesignRule order and names each penalty's key.
    for (std::size_t i = 0; i < core::designRules().size(); ++i) {
        EXPECT_EQ(static_cast<std::size_t>(core::designRules()[i].rule), i);
    }
    for (const core::RulePenalty& p : core::designPenalties(odd, 7'000'000'000, 7'000'000'000)) {
        EXPECT_EQ(p.key, core::ruleInfo(p.rule).key);
    }
    // Llama 3 8B's shape breaks none of the head, width, FFN or embedding rules.
    core::DesignShape llama{32, 4096, 128, 32, 8, 14336, 128256, false, 8192};
    for (const core::RulePenalty& p : core::designPenalties(llama, 8'030'261'248, 8'030'261'248)) {
        EXPECT_EQ(p.rule, core::DesignRule::DepthWidth) << p.text;
    }
}

TEST(TargetSearch, TheDepthWidthCurveComesFromThePresets) {
    const core::DepthWidthCurve& curve = core::depthWidthReference();
    EXPECT_GE(curve.models, 20u);
    EXPECT_GT(curve.slope, 0); // larger models are wider per layer
    // Llama 3 8B (4096 / 32 = 128) and Llama 3.1 405B (16384 / 126 = 130) lie within a factor 2.
    EXPECT_NEAR(std::log(curve.aspect(8.03e9) / 128.0), 0, std::log(2.0));
    EXPECT_NEAR(std::log(curve.aspect(4.05e11) / 130.0), 0, std::log(2.0));
}

TEST(TargetSearch, ParetoFrontIsNonDominated) {
    SearchTargets targets;
    targets.top = 60;
    const core::TargetSearchResult result = core::searchTargets(smallDenseSpace(), targets);
    ASSERT_EQ(result.candidates.size(), 60u);
    auto dominates = [](const TargetCandidate& a, const TargetCandidate& b) {
        const double ad = static_cast<double>(a.distance), bd = static_cast<double>(b.distance);
        const double ak = static_cast<double>(a.kvBytesPerToken), bk = static_cast<double>(b.kvBytesPerToken);
        return ad <= bd && ak <= bk && (ad < bd || ak < bk);
    };
    std::size_t onFront = 0;
    for (const TargetCandidate& c : result.candidates) {
        const bool dominated = std::any_of(result.candidates.begin(), result.candidates.end(),
                                           [&](const TargetCandidate& other) { return dominates(other, c); });
        EXPECT_EQ(c.pareto, !dominated);
        onFront += c.pareto ? 1 : 0;
    }
    EXPECT_GE(onFront, 1u);

    // A hand-made set on (total params, decode speed): speed is higher-is-better.
    std::vector<TargetCandidate> four(4);
    const std::vector<std::pair<std::uint64_t, double>> points = {{10, 100}, {20, 200}, {30, 150}, {10, 50}};
    for (std::size_t i = 0; i < four.size(); ++i) {
        four[i].distance = points[i].first;
        four[i].plausibility = points[i].second;
    }
    // Both lower-is-better: (10, 50) dominates (10, 100), (20, 200) and (30, 150).
    EXPECT_EQ(core::paretoFront(four, core::CandidateFigure::Distance, core::CandidateFigure::Plausibility),
              (std::vector<bool>{false, false, false, true}));
}

TEST(TargetSearch, TheParetoAxesAreChosenByTheCaller) {
    SearchTargets targets;
    targets.top = 30;
    targets.paretoX = core::DesignFigure::TotalParams;
    targets.paretoY = core::DesignFigure::DecodeTokensPerSecond; // higher is better
    const core::TargetSearchResult result = core::searchTargets(smallDenseSpace(), targets);
    ASSERT_FALSE(result.candidates.empty());
    for (const TargetCandidate& c : result.candidates) {
        const double params = *core::axisValue(c, targets.paretoX);
        const double speed = *core::axisValue(c, targets.paretoY);
        const bool dominated = std::any_of(result.candidates.begin(), result.candidates.end(), [&](const auto& o) {
            const double op = *core::axisValue(o, targets.paretoX);
            const double os = *core::axisValue(o, targets.paretoY);
            return op <= params && os >= speed && (op < params || os > speed);
        });
        EXPECT_EQ(c.pareto, !dominated);
    }
    EXPECT_EQ(core::axisFromKey("distance"), std::optional<core::SearchAxis>(core::CandidateFigure::Distance));
    EXPECT_EQ(core::axisFromKey("kv_bytes_per_token"),
              std::optional<core::SearchAxis>(core::DesignFigure::KvBytesPerToken));
    EXPECT_FALSE(core::axisFromKey("nonsense"));
    for (const core::SearchAxis& axis : core::searchAxes()) {
        EXPECT_EQ(core::axisFromKey(core::axisKey(axis)), std::optional<core::SearchAxis>(axis));
    }
}

TEST(TargetSearch, TheSeedHeuristicIsCountedExactly) {
    SearchTargets targets; // 7B
    const core::SeedDesign seed = core::seedDesign(targets);
    // d = (100 x 7e9 / 12)^(1/3) = 3878 -> 3840 (30 x 128); L = round(3840 / 100) = 38; 30 heads < 32: MHA;
    // FFN 8/3 x 3840 = 10240, already a multiple of 256.
    EXPECT_EQ(seed.shape.hiddenSize, 3840);
    EXPECT_EQ(seed.shape.layers, 38);
    EXPECT_EQ(seed.shape.numHeads, 30);
    EXPECT_EQ(seed.shape.numKvHeads, 30);
    EXPECT_EQ(seed.shape.intermediateSize, 10240);
    ASSERT_TRUE(seed.analysis && seed.analysis->valid);
    // Its count equals a separate analyze() of its config.json read back, and the hand count:
    // per layer 4 x 3840^2 (q, k, v, o) + 3 x 3840 x 10240 (gate, up, down) + 2 x 3840 (norms);
    // outside: 2 x 128256 x 3840 (embeddings, untied head) + 3840 (final norm).
    const core::ImportResult back = core::importConfig(core::exportConfig(seed.analysis->config));
    ASSERT_TRUE(back.config);
    EXPECT_EQ(core::analyze(*back.config, targets.scenario).params.total, seed.analysis->params.total);
    const std::uint64_t perLayer = 4ull * 3840 * 3840 + 3ull * 3840 * 10240 + 2ull * 3840;
    EXPECT_EQ(seed.analysis->params.total, 38 * perLayer + 2ull * 128256 * 3840 + 3840);
}

TEST(TargetSearch, BadTargetsAreErrorsNamingTheField) {
    auto fieldsOf = [](const TargetSpace& space, const SearchTargets& targets) {
        std::vector<std::string> fields;
        for (const core::Diagnostic& d : core::validateTargetSearch(space, targets)) {
            if (d.severity == core::Severity::Error) {
                fields.push_back(d.field);
            }
        }
        return fields;
    };
    SearchTargets targets;
    targets.activeParams = 1'000'000'000;
    EXPECT_EQ(fieldsOf(TargetSpace{}, targets), std::vector<std::string>{"active_params"}); // dense space
    TargetSpace moe;
    moe.moe = true;
    moe.experts = {};
    EXPECT_EQ(fieldsOf(moe, targets), std::vector<std::string>{"n_routed_experts"});
    targets = {};
    targets.params = 0;
    targets.maxFlopsPerToken = 0;
    EXPECT_EQ(fieldsOf(TargetSpace{}, targets), (std::vector<std::string>{"target_params", "max_flops_per_token"}));
    targets = {};
    targets.scenario.weightFormat = core::WeightFormat::Q4_K_M;
    EXPECT_EQ(fieldsOf(TargetSpace{}, targets), std::vector<std::string>{"weight_format"});
    TargetSpace huge;
    huge.moe = true;
    huge.experts = {8, 16, 32, 64, 128, 256, 512};
    huge.expertWidthRatios = {0.125, 0.25, 0.375, 0.5, 0.75, 1.0, 2.0, 3.5};
    huge.topK = {1, 2, 4, 6, 8};
    huge.headDims = {64, 128, 256};
    // 125 widths x 3 head dims x 6 KV layouts x 3 FFN widths x 7 x 5 x 8 = 1,890,000 shapes.
    EXPECT_EQ(fieldsOf(huge, SearchTargets{}), std::vector<std::string>{"design_space"});
    const core::TargetSearchResult refused = core::searchTargets(TargetSpace{}, targets);
    EXPECT_TRUE(refused.candidates.empty());
    EXPECT_EQ(refused.evaluated, 0u);
}

TEST(TargetSearch, ProgressIsReportedPerWidthAndCanStopTheSearch) {
    SearchTargets targets;
    std::vector<double> fractions;
    targets.progress = [&](double fraction) {
        fractions.push_back(fraction);
        return true;
    };
    const TargetSpace space = smallDenseSpace(); // 9 widths
    const core::TargetSearchResult full = core::searchTargets(space, targets);
    ASSERT_EQ(fractions.size(), 9u);
    EXPECT_EQ(fractions.front(), 0.0);
    EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
    EXPECT_FALSE(full.candidates.empty());

    targets.progress = [](double fraction) {
        return fraction < 0.5;
    }; // stops before the 6th width
    const core::TargetSearchResult stopped = core::searchTargets(space, targets);
    EXPECT_LT(stopped.evaluated, full.evaluated);
    EXPECT_GT(stopped.evaluated, 0u);
    ASSERT_FALSE(stopped.diagnostics.empty());
    EXPECT_NE(stopped.diagnostics.front().message.find("stopped after 56%"), std::string::npos)
        << stopped.diagnostics.front().message;
}

TEST(TargetSearch, JsonListsEachResultWithItsPenaltiesAndConfig) {
    SearchTargets targets;
    targets.top = 3;
    const core::TargetSearchResult result = core::searchTargets(smallDenseSpace(), targets);
    const core::SeedDesign seed = core::seedDesign(targets);
    const nlohmann::json json = core::targetSearchJson(result, targets, &seed);
    ASSERT_EQ(json.at("candidates").size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        const nlohmann::json& c = json.at("candidates")[i];
        EXPECT_EQ(c.at("total"), result.candidates[i].params);
        EXPECT_EQ(c.at("active"), result.candidates[i].activeParams);
        EXPECT_EQ(c.at("kv_bytes_per_token"), result.candidates[i].kvBytesPerToken);
        EXPECT_EQ(c.at("penalties").size(), result.candidates[i].penalties.size());
        EXPECT_EQ(c.at("config").at("model_type"), "llama");
    }
    EXPECT_EQ(json.at("seed").at("total"), seed.analysis->params.total);
}

} // namespace
} // namespace archplay::test
