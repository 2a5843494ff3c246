// SPDX-License-Identifier: GPL-3.0-or-later
// Attention masks: which pairs attend, their closed-form counts, the coarse grids the mask view draws.
#include "core/mask/AttentionMask.h"

#include "tests/support/TestSupport.h"

namespace archplay::test {
namespace {

using core::MaskKind;
using core::MaskSpec;

std::uint64_t countByBruteForce(const MaskSpec& mask, std::uint64_t queries, std::uint64_t keys) {
    std::uint64_t count = 0;
    for (std::uint64_t q = 0; q < queries; ++q) {
        for (std::uint64_t k = 0; k < keys; ++k) {
            count += core::attends(mask, q, k, keys) ? 1 : 0;
        }
    }
    return count;
}

std::vector<core::MaskUse> masksOf(const char* preset) {
    const core::Analysis analysis = analyzePreset(preset);
    return core::modelMasks(analysis.config, analysis.plan);
}

const std::vector<MaskSpec>& everyKind() {
    static const std::vector<MaskSpec> masks = {
        {MaskKind::Causal, 0},        {MaskKind::Bidirectional, 0}, {MaskKind::SlidingWindow, 5},
        {MaskKind::SlidingWindow, 1}, {MaskKind::LocalWindow, 6},   {MaskKind::Chunked, 4},
        {MaskKind::PrefixLm, 7},      {MaskKind::Cross, 0},         {MaskKind::SlidingWindow, 100},
    };
    return masks;
}

TEST(AttentionMask, PairsFollowTheDefinitions) {
    const std::uint64_t n = 16;
    EXPECT_TRUE(core::attends({MaskKind::Causal, 0}, 5, 5, n));
    EXPECT_FALSE(core::attends({MaskKind::Causal, 0}, 5, 6, n));
    EXPECT_TRUE(core::attends({MaskKind::Bidirectional, 0}, 5, 15, n));
    // W = 4: query 10 sees 7, 8, 9, 10.
    EXPECT_FALSE(core::attends({MaskKind::SlidingWindow, 4}, 10, 6, n));
    EXPECT_TRUE(core::attends({MaskKind::SlidingWindow, 4}, 10, 7, n));
    EXPECT_FALSE(core::attends({MaskKind::SlidingWindow, 4}, 10, 11, n));
    // C = 4: query 10 sees 8, 9, 10.
    EXPECT_FALSE(core::attends({MaskKind::Chunked, 4}, 10, 7, n));
    EXPECT_TRUE(core::attends({MaskKind::Chunked, 4}, 10, 8, n));
    // P = 6: the prefix is bidirectional, the rest causal.
    EXPECT_TRUE(core::attends({MaskKind::PrefixLm, 6}, 1, 5, n));
    EXPECT_FALSE(core::attends({MaskKind::PrefixLm, 6}, 1, 6, n));
    EXPECT_TRUE(core::attends({MaskKind::PrefixLm, 6}, 9, 9, n));
    EXPECT_FALSE(core::attends({MaskKind::PrefixLm, 6}, 9, 10, n));
    // Local W = 6: |i - j| <= 3.
    EXPECT_TRUE(core::attends({MaskKind::LocalWindow, 6}, 8, 11, n));
    EXPECT_FALSE(core::attends({MaskKind::LocalWindow, 6}, 8, 12, n));
}

TEST(AttentionMask, ClosedFormPairCountsMatchBruteForce) {
    for (const MaskSpec& mask : everyKind()) {
        for (std::uint64_t n : {1u, 2u, 7u, 16u, 33u}) {
            EXPECT_EQ(core::attendedPairs(mask, n, n), countByBruteForce(mask, n, n))
                << core::toString(mask.kind) << " span " << mask.span << " n " << n;
        }
    }
    EXPECT_EQ(core::attendedPairs({MaskKind::Cross, 0}, 3, 11), 33u);
}

TEST(AttentionMask, CausalPairsAtLongContextsDoNotOverflow) {
    const std::uint64_t s = 1u << 20;
    EXPECT_EQ(core::attendedPairs({MaskKind::Causal, 0}, s, s), s * (s + 1) / 2);
    // A 4096 window at 1M tokens computes about 4096 pairs per query.
    const std::uint64_t sliding = core::attendedPairs({MaskKind::SlidingWindow, 4096}, s, s);
    EXPECT_EQ(sliding, 4096ull * 4097 / 2 + (s - 4096) * 4096);
}

TEST(AttentionMask, GridAtOneTokenPerCellIsTheMaskItself) {
    for (const MaskSpec& mask : everyKind()) {
        const core::MaskGrid grid = core::maskGrid(mask, 20, 1);
        ASSERT_EQ(grid.coverage.size(), 400u);
        for (int q = 0; q < 20; ++q) {
            for (int k = 0; k < 20; ++k) {
                EXPECT_EQ(grid.at(q, k), core::attends(mask, q, k, 20) ? 1.0F : 0.0F) << core::toString(mask.kind);
            }
        }
    }
}

TEST(AttentionMask, CoarseGridCoverageIsTheExactShareOfPairs) {
    for (const MaskSpec& mask : everyKind()) {
        const core::MaskGrid grid = core::maskGrid(mask, 8, 5);
        double covered = 0.0;
        for (float cell : grid.coverage) {
            EXPECT_GE(cell, 0.0F);
            EXPECT_LE(cell, 1.0F);
            covered += cell * 25.0;
        }
        EXPECT_NEAR(covered, static_cast<double>(core::attendedPairs(mask, 40, 40)), 1e-3)
            << core::toString(mask.kind) << " " << mask.span;
    }
}

TEST(AttentionMask, ModelMasksListEveryDistinctKind) {
    const auto gemma = analyzePreset("gemma-3-1b");
    const auto masks = core::modelMasks(gemma.config, gemma.plan);
    ASSERT_EQ(masks.size(), 2u);
    EXPECT_EQ(masks[0].mask, (MaskSpec{MaskKind::SlidingWindow, 512}));
    EXPECT_EQ(masks[0].layers.size(), 22u);
    EXPECT_EQ(masks[1].mask, (MaskSpec{MaskKind::Causal, 0}));
    EXPECT_EQ(masks[1].layers, (std::vector<std::int64_t>{5, 11, 17, 23}));

    const auto t5 = masksOf("t5-small");
    ASSERT_EQ(t5.size(), 3u);
    EXPECT_EQ(t5[0].mask.kind, MaskKind::Bidirectional);
    EXPECT_EQ(t5[0].stack, core::Stack::Encoder);
    EXPECT_EQ(t5[1].mask.kind, MaskKind::Causal);
    EXPECT_TRUE(t5[2].cross);
    EXPECT_EQ(t5[2].layers.size(), 6u);

    const auto llama = masksOf("llama-3-8b");
    ASSERT_EQ(llama.size(), 1u);
    EXPECT_EQ(llama[0].layers.size(), 32u);
}

TEST(AttentionMask, LinearAttentionAndConvolutionLayersSeeThroughTheirStateNotAScoreMatrix) {
    // Qwen3-Next: three Gated DeltaNet layers, then one attention layer, twelve times.
    const auto next = masksOf("qwen3-next-80b-a3b");
    ASSERT_EQ(next.size(), 2u);
    EXPECT_EQ(next[0].mask.kind, MaskKind::Recurrent);
    EXPECT_EQ(next[0].layers.size(), 36u);
    EXPECT_EQ(next[1].mask.kind, MaskKind::Causal);
    EXPECT_EQ(next[1].layers, (std::vector<std::int64_t>{3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 47}));
    EXPECT_EQ(core::attendedPairs(next[0].mask, 100, 100), 0u);
    EXPECT_TRUE(core::attends(next[0].mask, 99, 0, 100));
    EXPECT_FALSE(core::attends(next[0].mask, 0, 1, 100));

    // LFM2: gated short convolutions of kernel conv_L_cache see the last L tokens.
    const auto lfm = masksOf("lfm2-2.6b");
    const auto conv = std::find_if(lfm.begin(), lfm.end(),
                                   [](const core::MaskUse& use) { return use.mask.kind == MaskKind::Convolution; });
    ASSERT_NE(conv, lfm.end());
    EXPECT_EQ(conv->mask.span, 3u);
    EXPECT_TRUE(core::attends(conv->mask, 10, 8, 20));
    EXPECT_FALSE(core::attends(conv->mask, 10, 7, 20));
    EXPECT_EQ(core::attendedPairs(conv->mask, 100, 100), 0u);
    // The kernel does not set the scale: LFM2's attention is global, so one cell is one token.
    EXPECT_EQ(core::maskScale(lfm, 32), 1u);
}

TEST(AttentionMask, ScaleShowsTheNarrowestWindowOverAQuarterOfTheGrid) {
    EXPECT_EQ(core::maskScale(masksOf("llama-3-8b"), 32), 1u);
    EXPECT_EQ(core::maskScale(masksOf("gemma-3-1b"), 32), 64u);       // 512 / 8
    EXPECT_EQ(core::maskScale(masksOf("mistral-7b-v0.1"), 32), 512u); // 4096 / 8
}

TEST(AttentionMask, ReferenceMasksCoverEveryKind) {
    const auto reference = core::referenceMasks(masksOf("gemma-3-1b"), 32 * 64);
    ASSERT_EQ(reference.size(), 6u);
    EXPECT_EQ(reference[2].mask, (MaskSpec{MaskKind::SlidingWindow, 512}));
    EXPECT_EQ(reference[4].mask.kind, MaskKind::PrefixLm);
    EXPECT_GT(reference[4].mask.span, 0u);
}

} // namespace
} // namespace archplay::test
