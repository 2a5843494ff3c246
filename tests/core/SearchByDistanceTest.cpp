// SPDX-License-Identifier: GPL-3.0-or-later
// The target search ranked by distance alone (SearchRank::Distance), as `archplay-cli design` runs
// it over dense Llama-style decoders, and the shape helpers the searches share (DesignShape.h).
#include "core/design/TargetSearch.h"
#include "tests/support/TestSupport.h"

#include <cmath>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace archplay::test {
namespace {

using core::DesignRange;

/// The design command's space: the target search's dense one without multi-head attention.
struct DesignSpace : core::TargetSpace {
    DesignSpace() { multiHead = false; }
};

/// The design command's targets: nearest the target first, then least KV per token.
struct DesignTargets : core::SearchTargets {
    DesignTargets() { rank = core::SearchRank::Distance; }
};

core::Scenario kvScenario(core::DType dtype) {
    core::Scenario scenario;
    scenario.kvDType = dtype;
    return scenario;
}

/// The composed figures of a candidate against analyze() of its full config.
void expectExact(const core::TargetCandidate& candidate, core::DType kvDType) {
    const core::Analysis analysis = core::analyze(core::designConfig(candidate.shape), kvScenario(kvDType));
    ASSERT_TRUE(analysis.valid) << candidate.shape.layers << " x " << candidate.shape.hiddenSize;
    EXPECT_EQ(candidate.params, analysis.params.total) << candidate.shape.layers << " x " << candidate.shape.hiddenSize;
    EXPECT_EQ(candidate.kvBytesPerToken, analysis.kv.bytesPerToken);
}

TEST(SearchByDistance, LlamaFfnWidthsMatchTheReleasedModels) {
    EXPECT_EQ(core::llamaFfnWidth(4096, 1.3, 1024), 14336);  // Llama 3 8B
    EXPECT_EQ(core::llamaFfnWidth(8192, 1.3, 4096), 28672);  // Llama 3 70B
    EXPECT_EQ(core::llamaFfnWidth(16384, 1.2, 4096), 53248); // Llama 3.1 405B
    EXPECT_EQ(core::llamaFfnWidth(4096, 1.0, 256), 11008);   // Llama 2 7B
    EXPECT_EQ(core::llamaFfnWidth(2048, 1.5, 256), 8192);    // Llama 3.2 1B
    EXPECT_EQ(core::llamaFfnWidth(0, 1.0, 256), 0);
    EXPECT_EQ(core::llamaFfnWidth(4096, -1.0, 256), 0);
    EXPECT_EQ(core::llamaFfnWidth(4096, 1e30, 256), 0);
}

TEST(SearchByDistance, ComposedCountsEqualAnalyzeOfTheFullConfig) {
    DesignSpace space;
    space.layers = DesignRange::span(1, 96, 5);
    space.hiddenSize = DesignRange::span(256, 8192, 256);
    space.headDims = {64, 96, 128};
    space.kvHeads = {1, 2, 3, 4, 8, 16};
    space.ffnMultipliers = {0.5, 1.0, 1.3, 2.0};
    space.ffnMultiple = 128;
    space.vocabSizes = {32000, 50257, 128256, 256000};
    std::set<std::int64_t> headDims, kvHeads, widths, vocabSizes, depths;
    std::set<bool> tied;
    for (const core::DType dtype : {core::DType::BF16, core::DType::FP32, core::DType::INT4}) {
        // The nearest few hundred to a target are, for most shapes, its depth that comes nearest, so
        // three targets three decades apart sample shapes from all over the space.
        for (const std::uint64_t target : {100'000'000ull, 3'000'000'000ull, 100'000'000'000ull}) {
            DesignTargets targets;
            targets.params = target;
            targets.tolerance = 1;
            targets.scenario.kvDType = dtype;
            targets.top = 300;
            const core::TargetSearchResult result = core::searchTargets(space, targets);
            ASSERT_FALSE(core::hasErrors(result.diagnostics));
            ASSERT_EQ(result.candidates.size(), 300u);
            for (const core::TargetCandidate& candidate : result.candidates) {
                expectExact(candidate, dtype);
                const core::DesignShape& shape = candidate.shape;
                headDims.insert(shape.headDim);
                kvHeads.insert(shape.numKvHeads);
                widths.insert(shape.intermediateSize);
                vocabSizes.insert(shape.vocabSize);
                tied.insert(shape.tiedEmbeddings);
                depths.insert(shape.layers);
            }
        }
    }
    EXPECT_EQ(headDims.size(), 3u);
    EXPECT_EQ(kvHeads.size(), 6u);
    EXPECT_EQ(vocabSizes.size(), 4u);
    EXPECT_EQ(tied.size(), 2u);
    EXPECT_GT(widths.size(), 30u);
    EXPECT_GT(depths.size(), 15u);
}

TEST(SearchByDistance, FindsSevenAndOneBillionParameterDesignsWithinTolerance) {
    for (const std::uint64_t target : {7'000'000'000ull, 1'000'000'000ull}) {
        DesignTargets targets;
        targets.params = target;
        targets.tolerance = 0.01;
        targets.minAspect = 64;
        targets.maxAspect = 192;
        const core::TargetSearchResult result = core::searchTargets(DesignSpace{}, targets);
        ASSERT_FALSE(core::hasErrors(result.diagnostics));
        ASSERT_EQ(result.candidates.size(), 10u) << target;
        EXPECT_GE(result.matched, result.candidates.size());
        EXPECT_LE(result.evaluated, result.spaceSize);
        for (const core::TargetCandidate& candidate : result.candidates) {
            EXPECT_LE(candidate.distance, target / 100);
            const double aspect = double(candidate.shape.hiddenSize) / double(candidate.shape.layers);
            EXPECT_GE(aspect, 64);
            EXPECT_LE(aspect, 192);
            expectExact(candidate, core::DType::BF16);
        }
        for (std::size_t i = 1; i < result.candidates.size(); ++i) {
            const core::TargetCandidate& before = result.candidates[i - 1];
            const core::TargetCandidate& after = result.candidates[i];
            EXPECT_TRUE(before.distance < after.distance ||
                        (before.distance == after.distance && before.kvBytesPerToken <= after.kvBytesPerToken));
        }
    }
}

TEST(SearchByDistance, RediscoversLlama3_8B) {
    DesignSpace space;
    space.layers = DesignRange::span(16, 48);
    space.hiddenSize = DesignRange::list({3072, 4096, 5120});
    space.headDims = {64, 128};
    space.kvHeads = {4, 8, 16};
    space.ffnMultipliers = {1.0, 1.3, 1.5};
    space.ffnMultiple = 1024;
    space.vocabSizes = {128256};
    space.tiedEmbeddings = {false, true};
    DesignTargets targets;
    targets.params = 8'030'261'248;
    targets.tolerance = 0;
    const core::TargetSearchResult result = core::searchTargets(space, targets);
    ASSERT_FALSE(core::hasErrors(result.diagnostics));
    // Llama 3 8B, and its twin with 64 heads of 64 and 16 KV heads, which has the same weights' sizes.
    ASSERT_EQ(result.candidates.size(), 2u);
    const auto llama = std::find_if(result.candidates.begin(), result.candidates.end(),
                                    [](const core::TargetCandidate& c) { return c.shape.headDim == 128; });
    ASSERT_NE(llama, result.candidates.end());
    const core::TargetCandidate& found = *llama;
    EXPECT_EQ(found.params, 8'030'261'248u);
    EXPECT_EQ(result.candidates.front().params, 8'030'261'248u);
    EXPECT_EQ(result.candidates.back().params, 8'030'261'248u);
    EXPECT_EQ(found.kvBytesPerToken, 131'072u);
    EXPECT_EQ(found.shape, (core::DesignShape{32, 4096, 128, 32, 8, 14336, 128256, false, 8192}));

    // The candidate's config is a whole model: it counts as the preset does and survives config.json.
    const core::ModelConfig config = core::designConfig(found.shape);
    EXPECT_EQ(core::analyze(config, {}).params.total, analyzePreset("llama-3-8b").params.total);
    const core::ImportResult reread = core::importConfigText(core::exportConfigText(config));
    ASSERT_TRUE(reread.config.has_value());
    EXPECT_EQ(core::analyze(*reread.config, {}).params.total, 8'030'261'248u);
}

TEST(SearchByDistance, EvaluatesEveryCandidateOfAValidSpace) {
    DesignSpace space;
    space.layers = DesignRange::span(1, 10);
    space.hiddenSize = DesignRange::span(1024, 4096, 1024);
    space.headDims = {64, 128};
    space.kvHeads = {1, 2, 4, 8};
    space.ffnMultipliers = {1.0, 1.5};
    space.vocabSizes = {32000, 50304};
    space.tiedEmbeddings = {false, true};
    DesignTargets targets;
    targets.params = 500'000'000;
    targets.tolerance = 1;
    const core::TargetSearchResult result = core::searchTargets(space, targets);
    EXPECT_TRUE(result.diagnostics.empty());
    EXPECT_EQ(result.spaceSize, 10u * 4 * 2 * 4 * 2 * 2 * 2);
    EXPECT_EQ(result.evaluated, result.spaceSize);
    EXPECT_GT(result.matched, 0u);
}

TEST(SearchByDistance, SkipsImpossibleShapesAndSaysWhy) {
    DesignSpace space;
    space.layers = DesignRange::span(10, 19);
    space.hiddenSize = DesignRange::list({1056, 1152, 2048}); // 1056 = 16.5 x 64; 1152 = 9 x 128 = 18 x 64
    space.headDims = {64, 128};
    space.kvHeads = {1, 2, 4, 8};
    space.ffnMultipliers = {1.3, 1.31, 1.0}; // 1.3 and 1.31 round to the same width for every hidden size here
    space.ffnMultiple = 1024;
    space.tiedEmbeddings = {false};
    DesignTargets targets;
    targets.params = 1'000'000'000;
    targets.tolerance = 1;
    const core::TargetSearchResult result = core::searchTargets(space, targets);
    ASSERT_FALSE(core::hasErrors(result.diagnostics));
    EXPECT_EQ(result.spaceSize, 3u * 2 * 4 * 3 * 10);
    // Evaluated: 1152/128 (kv 1), 1152/64 (kv 1, 2), 2048/64 and 2048/128 (kv 1, 2, 4, 8): 11 head layouts,
    // each with 2 FFN widths and 10 depths.
    EXPECT_EQ(result.evaluated, 11u * 2 * 10);
    auto warns = [&](const std::string& field) {
        return std::any_of(result.diagnostics.begin(), result.diagnostics.end(), [&](const core::Diagnostic& d) {
            return d.severity == core::Severity::Warning && d.field == field &&
                   d.message.find("skipped") != std::string::npos;
        });
    };
    EXPECT_TRUE(warns("head_dim"));
    EXPECT_TRUE(warns("num_key_value_heads"));
    EXPECT_TRUE(warns("ffn_dim_multiplier"));
}

TEST(SearchByDistance, KvBudgetAndAspectBoundsAreMet) {
    DesignTargets targets;
    targets.params = 3'000'000'000;
    targets.tolerance = 0.05;
    targets.maxKvBytesPerToken = 32 * 1024;
    targets.scenario.kvDType = core::DType::FP8;
    targets.minAspect = 80;
    targets.maxAspect = 160;
    targets.top = 50;
    const core::TargetSearchResult result = core::searchTargets(DesignSpace{}, targets);
    ASSERT_EQ(result.candidates.size(), 50u);
    for (const core::TargetCandidate& candidate : result.candidates) {
        EXPECT_LE(candidate.kvBytesPerToken, 32u * 1024);
        const double aspect = double(candidate.shape.hiddenSize) / double(candidate.shape.layers);
        EXPECT_TRUE(aspect >= 80 && aspect <= 160) << aspect;
        expectExact(candidate, core::DType::FP8);
    }
}

/// Searches a space that should be rejected and checks that an error names `field`.
void expectRejected(const DesignSpace& space, const DesignTargets& targets, const std::string& field) {
    const core::TargetSearchResult result = core::searchTargets(space, targets);
    EXPECT_TRUE(std::any_of(result.diagnostics.begin(), result.diagnostics.end(),
                            [&](const core::Diagnostic& d) {
                                return d.severity == core::Severity::Error && d.field == field && !d.message.empty();
                            }))
        << field << ": " << (result.diagnostics.empty() ? "no diagnostics" : result.diagnostics.front().message);
    EXPECT_EQ(result.evaluated, 0u) << field;
    EXPECT_TRUE(result.candidates.empty()) << field;
}

TEST(SearchByDistance, BadSpacesAreErrorsNamingTheField) {
    // Each edit of the default space or targets, and the field its error must name.
    const std::vector<std::pair<std::string, std::function<void(DesignSpace&)>>> badSpaces = {
        {"num_hidden_layers",
         [](DesignSpace& s) {
             s.layers = DesignRange::span(40, 20);
         }},
        {"num_hidden_layers",
         [](DesignSpace& s) {
             s.layers = DesignRange::span(0, 20);
         }},
        {"hidden_size",
         [](DesignSpace& s) {
             s.hiddenSize = DesignRange::span(512, 4096, 0);
         }},
        {"hidden_size",
         [](DesignSpace& s) {
             s.hiddenSize = DesignRange::list({4096, -128});
         }},
        {"head_dim",
         [](DesignSpace& s) {
             s.headDims = {};
         }},
        {"head_dim",
         [](DesignSpace& s) {
             s.headDims = {128, 128};
         }},
        {"num_key_value_heads",
         [](DesignSpace& s) {
             s.kvHeads = {0, 8};
         }},
        {"ffn_dim_multiplier",
         [](DesignSpace& s) {
             s.ffnMultipliers = {1.0, -2.0};
         }},
        {"ffn_dim_multiplier",
         [](DesignSpace& s) {
             s.ffnMultipliers = {std::nan("")};
         }},
        {"multiple_of",
         [](DesignSpace& s) {
             s.ffnMultiple = 0;
         }},
        {"vocab_size",
         [](DesignSpace& s) {
             s.vocabSizes = {-32000};
         }},
        {"vocab_size",
         [](DesignSpace& s) {
             s.vocabSizes = {std::int64_t{1} << 50};
         }},
        {"tie_word_embeddings",
         [](DesignSpace& s) {
             s.tiedEmbeddings = {};
         }},
        {"max_position_embeddings",
         [](DesignSpace& s) {
             s.maxPositions = -1;
         }},
        // 453 billion candidates.
        {"design_space",
         [](DesignSpace& s) {
             s.layers = DesignRange::span(1, 1'000'000);
         }},
        // 60 million shapes.
        {"design_space",
         [](DesignSpace& s) {
             s.layers = DesignRange::list({32});
             s.hiddenSize = DesignRange::span(128, 128 * 2'000'000, 128);
         }},
    };
    for (const auto& [field, edit] : badSpaces) {
        DesignSpace space;
        edit(space);
        expectRejected(space, DesignTargets{}, field);
    }

    const std::vector<std::pair<std::string, std::function<void(DesignTargets&)>>> badTargets = {
        {"target_params",
         [](DesignTargets& t) {
             t.params = 0;
         }},
        {"tolerance",
         [](DesignTargets& t) {
             t.tolerance = 1.5;
         }},
        {"tolerance",
         [](DesignTargets& t) {
             t.tolerance = -0.1;
         }},
        {"max_kv_bytes_per_token",
         [](DesignTargets& t) {
             t.maxKvBytesPerToken = 0;
         }},
        {"aspect",
         [](DesignTargets& t) {
             t.minAspect = 200;
             t.maxAspect = 100;
         }},
        {"aspect",
         [](DesignTargets& t) {
             t.minAspect = -1;
         }},
        {"top",
         [](DesignTargets& t) {
             t.top = 0;
         }},
    };
    for (const auto& [field, edit] : badTargets) {
        DesignTargets targets;
        edit(targets);
        expectRejected(DesignSpace{}, targets, field);
    }
}

TEST(SearchByDistance, NoMatchIsAnEmptyResultNotAnError) {
    DesignSpace space;
    space.layers = DesignRange::span(1, 4);
    space.hiddenSize = DesignRange::list({512});
    DesignTargets targets;
    targets.params = 1'000'000'000'000;
    const core::TargetSearchResult result = core::searchTargets(space, targets);
    EXPECT_FALSE(core::hasErrors(result.diagnostics));
    EXPECT_GT(result.evaluated, 0u);
    EXPECT_EQ(result.matched, 0u);
    EXPECT_TRUE(result.candidates.empty());
}

} // namespace
} // namespace archplay::test
