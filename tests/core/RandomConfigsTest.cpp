// SPDX-License-Identifier: GPL-3.0-or-later
// Randomized invariants: 100,000 seeded configs, valid and invalid, of every attention, FFN and mixer
// kind, sizes from 0 to 2^40 (and a few beyond), windows below and above the context. The analysis
// never crashes or wraps; a valid one adds up and its KV cache grows with sequence and batch; an
// invalid one carries an error naming a field. Deterministic: the same configs on every run.
#include "tests/support/TestSupport.h"

#include <random>

namespace archplay::test {
namespace {

class RandomConfigs {
public:
    explicit RandomConfigs(std::uint64_t seed)
        : m_random(seed) {}

    core::ModelConfig next() {
        core::ModelConfig c;
        c.architecture = pick<core::ArchitectureKind>(3);
        c.vocabSize = size();
        c.hiddenSize = size();
        c.numLayers = chance(0.97) ? between(0, 48) : between(49, 300);
        c.numEncoderLayers = between(0, 12);
        c.numHeads = size();
        c.numKvHeads = chance(0.5) ? c.numHeads : chance(0.4) ? 1 : size();
        if (chance(0.5)) {
            c.headDim = size();
        }
        if (chance(0.2)) {
            core::LatentAttention mla;
            if (chance(0.7)) {
                mla.qLoraRank = size();
            }
            mla.kvLoraRank = size();
            mla.qkNopeHeadDim = size();
            mla.qkRopeHeadDim = size();
            mla.vHeadDim = size();
            c.latent = mla;
            if (chance(0.3)) {
                c.indexer = core::SparseIndexer{size(), size(), size()};
            }
        }
        c.qBias = chance(0.3);
        c.kBias = c.qBias;
        c.vBias = c.qBias;
        c.oBias = chance(0.2);
        c.fusedQkv = chance(0.2);
        c.qkNorm = pick<core::QkNorm>(3);
        c.attentionSinks = chance(0.1);
        c.attentionOutputGate = chance(0.1);
        if (chance(0.3)) {
            c.mixers.resize(static_cast<std::size_t>(between(1, 4)));
            for (core::TokenMixer& mixer : c.mixers) {
                mixer = pick<core::TokenMixer>(6);
            }
            c.deltaNet = {size(), size(), size(), size(), size()};
            c.mamba.numHeads = size();
            c.mamba.headDim = size();
            c.mamba.stateSize = size();
            c.mamba.numGroups = chance(0.8) ? 1 : size();
            c.mamba.convKernel = size();
            c.shortConv.kernel = size();
        }
        c.slidingPattern = pick<core::SlidingPattern>(4); // Explicit needs layer types: left out
        c.maxPositions = size();
        // Windows below and above the context.
        c.slidingWindow = chance(0.5) ? between(1, std::max<std::int64_t>(1, c.maxPositions)) : size();
        c.globalEvery = size();
        c.firstSlidingLayer = between(0, 64);
        c.attentionChunkSize = chance(0.1) ? size() : 0;
        c.ffnKind = pick<core::FfnKind>(3);
        c.intermediateSize = size();
        c.ffnBias = chance(0.2);
        c.moe.numExperts = size();
        c.moe.topK = chance(0.7) ? between(1, 8) : size();
        c.moe.expertIntermediateSize = size();
        c.moe.numSharedExperts = chance(0.5) ? 0 : size();
        c.moe.sharedExpertIntermediateSize = chance(0.5) ? 0 : size();
        c.moe.firstDenseLayers = between(0, 3);
        c.moe.sparseStep = between(1, 3);
        c.normKind = pick<core::NormKind>(4);
        c.normPlacement = pick<core::NormPlacement>(6);
        c.positional = pick<core::PositionalKind>(6);
        c.positionOffset = between(0, 2);
        c.relativeBuckets = size();
        c.tieWordEmbeddings = chance(0.5);
        c.outputHeadBias = chance(0.1);
        c.embeddingProjectionDim = chance(0.1) ? size() : 0;
        c.tokenTypes = chance(0.1) ? size() : 0;
        c.pooler = chance(0.1);
        c.mtpLayers = between(0, 2);
        return c;
    }

    std::int64_t between(std::int64_t low, std::int64_t high) {
        return std::uniform_int_distribution<std::int64_t>(low, high)(m_random);
    }
    bool chance(double p) { return std::bernoulli_distribution(p)(m_random); }

private:
    template <typename Enum> Enum pick(int count) { return static_cast<Enum>(between(0, count - 1)); }
    /// Mostly everyday sizes, with zeros and negatives, powers of two up to 2^40 (whose products
    /// overflow) and now and then a value past the cap.
    std::int64_t size() {
        const double roll = std::uniform_real_distribution<double>(0.0, 1.0)(m_random);
        if (roll < 0.85) {
            return between(1, 4096);
        }
        if (roll < 0.89) {
            return between(-2, 0);
        }
        if (roll < 0.99) {
            return std::int64_t{1} << between(12, 40);
        }
        return between(core::kMaxDimension + 1, INT64_MAX);
    }

    std::mt19937_64 m_random;
};

/// The sum of the children of a breakdown node, checked.
core::Checked childSum(const core::ParamNode& node) {
    core::Checked sum;
    for (const core::ParamNode& child : node.children) {
        sum += child.params;
    }
    return sum;
}

TEST(RandomConfigs, AnalysisAddsUpOrNamesAField) {
    constexpr int kConfigs = 100000;
    RandomConfigs random(20261124);
    int valid = 0;
    for (int i = 0; i < kConfigs; ++i) {
        const core::ModelConfig config = random.next();
        core::Scenario scenario;
        scenario.sequenceLength = static_cast<std::uint64_t>(random.between(0, std::int64_t{1} << 41));
        scenario.batch = static_cast<std::uint64_t>(random.between(1, 1024));
        const core::Analysis analysis = core::analyze(config, scenario);
        SCOPED_TRACE("config " + std::to_string(i));
        if (!analysis.valid) {
            const bool named =
                std::any_of(analysis.diagnostics.begin(), analysis.diagnostics.end(), [](const core::Diagnostic& d) {
                    return d.severity == core::Severity::Error && !d.field.empty();
                });
            ASSERT_TRUE(named);
            continue;
        }
        ++valid;
        const core::ParamReport& params = analysis.params;
        ASSERT_FALSE(params.overflow);
        ASSERT_EQ(childSum(params.breakdown), core::Checked(params.total));
        core::Checked components;
        for (std::uint64_t part : params.byComponent) {
            components += part;
        }
        ASSERT_EQ(components, core::Checked(params.total));
        ASSERT_LE(params.active, params.total);

        // KV monotonic in sequence and batch (saturation keeps the order).
        const std::uint64_t longer = scenario.sequenceLength + static_cast<std::uint64_t>(random.between(1, 1 << 20));
        const core::KvCacheReport more = core::kvCache(config, analysis.plan, longer, scenario.batch, scenario.kvDType,
                                                       scenario.encoderSequenceLength);
        const core::KvCacheReport wider =
            core::kvCache(config, analysis.plan, scenario.sequenceLength, scenario.batch * 2, scenario.kvDType,
                          scenario.encoderSequenceLength);
        ASSERT_LE(analysis.kv.totalBytes, more.totalBytes);
        ASSERT_LE(analysis.kv.totalBytes, wider.totalBytes);
        ASSERT_TRUE(!analysis.kv.overflow || (more.overflow && wider.overflow));
    }
    // The generator must reach both sides, or the invariants above test little.
    EXPECT_GT(valid, kConfigs / 50);
    EXPECT_LT(valid, kConfigs);
    RecordProperty("valid", valid);
}

} // namespace
} // namespace archplay::test
