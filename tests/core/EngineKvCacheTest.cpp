// SPDX-License-Identifier: GPL-3.0-or-later
// The cache as vLLM and llama.cpp allocate it (FORMULAS.md §4.8), against the engines' published logs
// and against their rules worked by hand.
#include "core/report/Costs.h"
#include "core/report/Fit.h"
#include "core/report/KvFigure.h"
#include "core/report/ReportJson.h"
#include "core/util/Format.h"
#include "tests/support/TestSupport.h"

#include <fmt/format.h>

namespace archplay::test {
namespace {

using core::DType;
using core::KvAllocator;

core::KvCacheReport engineCache(const std::string& id, KvAllocator allocator, std::uint64_t sequence,
                                std::uint64_t batch = 1, DType dtype = DType::BF16,
                                std::uint64_t prefillChunk = core::kDefaultPrefillChunk) {
    const core::ModelConfig config = preset(id);
    return core::kvCache(config, core::planLayers(config), sequence, batch, dtype, 0, std::nullopt, allocator,
                         prefillChunk);
}

constexpr std::uint64_t kMiB = 1024 * 1024;
constexpr std::uint64_t kGiB = 1024 * kMiB;

TEST(EngineKvCache, VllmOnLlama31_8bReproducesItsPublishedBlocksAndTokens) {
    // vllm-project/vllm #10517, Llama-3.1-8B at bf16: 131,072 bytes per token, "# GPU blocks: 1952" of
    // 16 tokens, 3.81 GiB of cache = 31,232 tokens.
    const core::ModelConfig config = preset("llama-3.1-8b");
    const core::KvCacheReport one = engineCache("llama-3.1-8b", KvAllocator::Vllm, 131'072);
    ASSERT_TRUE(one.unsupported.empty());
    EXPECT_EQ(one.bytesPerToken, 131'072u);
    EXPECT_EQ(one.engine.blockTokens, 16u);
    EXPECT_EQ(one.engine.pageBytes, 16u * 2 * 8 * 128 * 2); // one layer's page
    EXPECT_EQ(one.engine.groupSize, 32u);
    EXPECT_EQ(one.engine.groups, 1u);
    // Any cache of at least 1,952 and under 1,953 blocks of 2 MiB (32 layers' pages) gives the log's figures.
    for (const std::uint64_t bytes : {1952 * 2 * kMiB, 1953 * 2 * kMiB - 1}) {
        const core::VllmCapacity capacity = core::vllmCapacity(config, one, bytes, 1);
        ASSERT_TRUE(capacity.unsupported.empty());
        EXPECT_EQ(capacity.blocks, 1952u);
        EXPECT_EQ(capacity.tokens, 31'232u);
        EXPECT_DOUBLE_EQ(capacity.maxConcurrency, 1952.0 / (131'072 / 16));
    }
    EXPECT_EQ(core::binaryBytes(1952 * 2 * kMiB), "3.81 GiB");
    // A request of S tokens reserves cdiv(S, 16) pages in every layer.
    EXPECT_EQ(engineCache("llama-3.1-8b", KvAllocator::Vllm, 1000).totalBytes, 63u * 16 * 131'072);
}

TEST(EngineKvCache, VllmSplitsKvHeadsOverTensorParallelRanksAndReplicatesMla) {
    const core::ModelConfig llama = preset("llama-3.1-8b");
    const core::KvCacheReport one = engineCache("llama-3.1-8b", KvAllocator::Vllm, 8192);
    // 8 KV heads over 2 ranks: half a page each; over 16 ranks: one head each (replicated).
    EXPECT_EQ(core::vllmCapacity(llama, one, kGiB, 2).pageBytes, one.engine.pageBytes / 2);
    EXPECT_EQ(core::vllmCapacity(llama, one, kGiB, 16).pageBytes, one.engine.pageBytes / 8);
    EXPECT_FALSE(core::vllmCapacity(llama, one, kGiB, 3).unsupported.empty());
    // DeepSeek-V3's latent (512 + 64) is whole on every rank, in pages of FlashMLA's 64 tokens.
    const core::ModelConfig v3 = preset("deepseek-v3");
    const core::KvCacheReport latent = engineCache("deepseek-v3", KvAllocator::Vllm, 8192);
    EXPECT_EQ(latent.engine.blockTokens, 64u);
    EXPECT_EQ(latent.engine.pageBytes, 64u * 576 * 2);
    EXPECT_EQ(core::vllmCapacity(v3, latent, kGiB, 8).pageBytes, latent.engine.pageBytes);
}

TEST(EngineKvCache, VllmReservesASlidingLayersWindowPlusAStepsTokensInGroups) {
    // gpt-oss-20b: 12 sliding (W = 128) and 12 full layers of 2 x 8 x 64 values: two groups of 12.
    const std::uint64_t perToken = 2 * 8 * 64 * 2;
    const core::KvCacheReport at32k = engineCache("gpt-oss-20b", KvAllocator::Vllm, 32'768, 1, DType::BF16, 2048);
    EXPECT_EQ(at32k.engine.groupSize, 12u);
    EXPECT_EQ(at32k.engine.groups, 2u);
    EXPECT_EQ(at32k.engine.paddingLayers, 0u);
    const std::uint64_t fullPages = 32'768 / 16;
    const std::uint64_t slidingPages = (127 + 2048 + 15) / 16 + 1; // cdiv(W - 1 + 2,048, 16) + 1
    EXPECT_EQ(at32k.engine.pagesPerSequence, fullPages + slidingPages);
    EXPECT_EQ(at32k.totalBytes, 12 * (fullPages + slidingPages) * 16 * perToken);
    // With vLLM's default 8,192 batched tokens at 8,192 tokens, a sliding layer reserves the whole
    // request plus a page: the reservation behind hf-mem PR #70's 12.00 GiB for 32 sequences.
    const core::KvCacheReport at8k = engineCache("gpt-oss-20b", KvAllocator::Vllm, 8192, 32);
    EXPECT_EQ(at8k.totalBytes, 32u * 12 * (512 + 513) * 16 * perToken);
    EXPECT_EQ(core::binaryBytes(32u * 24 * 8192 * perToken), "12.0 GiB");
}

TEST(EngineKvCache, VllmPadsAHybridModelsStateToAnAttentionPageOfMoreTokens) {
    // Qwen3-Next: 12 attention layers of 2 x 2 x 256 values and 36 Gated DeltaNet layers, each
    // holding 3 x 8,192 convolution columns and a 32 x 128 x 128 state in bf16.
    const std::uint64_t attention = 2 * 2 * 256 * 2;
    const std::uint64_t state = (3 * 8192 + 32 * 128 * 128) * 2;
    const std::uint64_t block = 16 * ((state + 16 * attention - 1) / (16 * attention));
    ASSERT_EQ(block, 544u);
    const core::KvCacheReport one = engineCache("qwen3-next-80b-a3b", KvAllocator::Vllm, 8192);
    ASSERT_TRUE(one.unsupported.empty());
    EXPECT_EQ(one.engine.blockTokens, block);
    EXPECT_EQ(one.engine.pageBytes, block * attention);
    EXPECT_EQ(one.engine.groupSize, 12u);
    EXPECT_EQ(one.engine.groups, 4u);
    EXPECT_EQ(one.engine.pagesPerSequence, (8192 + block - 1) / block + 3);
    EXPECT_EQ(one.fixedStateBytesPerSequence, 36 * block * attention);
    EXPECT_EQ(one.totalBytes, (12 * ((8192 + block - 1) / block) + 36) * block * attention);
}

TEST(EngineKvCache, LlamaCppOnDeepSeekR1WithAQ8_0LatentReproducesIkLlamaCppsLog) {
    // ikawrakow/ik_llama.cpp PR #259: DeepSeek-R1, q8_0 MLA cache, n_ctx 32,768: 1,166.62 MiB of K =
    // 61 layers x 576 x 32,768 x 34/32 bytes, and no V.
    const core::KvCacheReport cache = engineCache("deepseek-v3", KvAllocator::LlamaCpp, 32'768, 1, DType::INT8);
    ASSERT_TRUE(cache.unsupported.empty());
    EXPECT_EQ(cache.engine.cells, 32'768u);
    EXPECT_EQ(cache.engine.keyBytes, std::uint64_t{61} * 576 * 32'768 * 34 / 32);
    EXPECT_EQ(cache.engine.valueBytes, 0u);
    EXPECT_EQ(fmt::format("{:.2f} MiB", static_cast<double>(cache.engine.keyBytes) / kMiB), "1166.62 MiB");
    EXPECT_EQ(cache.totalBytes, cache.engine.keyBytes);
}

TEST(EngineKvCache, LlamaCppPadsEachSequencesStreamTo256CellsAndQuantisesRowsInBlocks) {
    // Llama-3.1-8B: K and V rows of 8 x 128 values in 32 layers.
    const core::KvCacheReport f16 = engineCache("llama-3.1-8b", KvAllocator::LlamaCpp, 1000, 1, DType::FP16);
    EXPECT_EQ(f16.engine.cells, 1024u);
    EXPECT_EQ(f16.totalBytes, 32u * 2 * 1024 * 1024 * 2);
    // -c 3,300 -np 3: n_ctx 3,328, 1,109 per sequence padded to 1,280 cells.
    EXPECT_EQ(engineCache("llama-3.1-8b", KvAllocator::LlamaCpp, 1100, 3).engine.cells, 1280u);
    const core::KvCacheReport q8 = engineCache("llama-3.1-8b", KvAllocator::LlamaCpp, 1024, 1, DType::INT8);
    EXPECT_EQ(q8.engine.keyBytes, 32u * 1024 / 32 * 34 * 1024);
    EXPECT_EQ(q8.bytesPerToken, 32u * 2 * 1024 / 32 * 34);
    const core::KvCacheReport q4 = engineCache("llama-3.1-8b", KvAllocator::LlamaCpp, 1024, 1, DType::INT4);
    EXPECT_EQ(q4.engine.valueBytes, 32u * 1024 / 32 * 18 * 1024);
}

TEST(EngineKvCache, LlamaCppKeepsAWindowPlusAMicroBatchOfCellsOnSlidingLayers) {
    // gpt-oss-20b at 32,768 tokens: full layers hold 32,768 cells, sliding ones 128 + 512 padded to 768.
    const core::KvCacheReport cache = engineCache("gpt-oss-20b", KvAllocator::LlamaCpp, 32'768, 1, DType::FP16);
    EXPECT_EQ(cache.engine.slidingCells, 768u);
    const std::uint64_t row = 8 * 64 * 2;
    EXPECT_EQ(cache.totalBytes, 2 * row * (12u * 32'768 + 12u * 768));
    // Mistral 7B v0.1 slides on every layer; llama.cpp runs it without a window's cache.
    EXPECT_EQ(engineCache("mistral-7b-v0.1", KvAllocator::LlamaCpp, 32'768, 1, DType::FP16).layers[0].cachedTokens,
              32'768u);
}

TEST(EngineKvCache, LlamaCppKeepsRecurrentStatesInF32WithKMinusOneConvolutionColumns) {
    // Qwen3-Next's Gated DeltaNet: r = (4 - 1) x 8,192, s = 128 x 32 x 128, both f32, per sequence.
    const core::KvCacheReport cache = engineCache("qwen3-next-80b-a3b", KvAllocator::LlamaCpp, 4096, 2);
    const std::uint64_t state = (3 * 8192 + 128 * 32 * 128) * 4;
    EXPECT_EQ(cache.fixedStateBytesPerSequence, 36 * state);
    EXPECT_EQ(cache.engine.recurrentBytes, 2 * 36 * state);
    EXPECT_FALSE(cache.stateDType) << "nothing was forced: llama.cpp's own f32";
}

TEST(EngineKvCache, AnEngineWithoutARuleRefusesAndNamesWhy) {
    EXPECT_TRUE(contains(engineCache("llama-3.1-8b", KvAllocator::Vllm, 4096, 1, DType::INT8).unsupported, "int8"));
    EXPECT_TRUE(contains(engineCache("llama-3.1-8b", KvAllocator::LlamaCpp, 4096, 1, DType::FP8).unsupported, "fp8"));
    EXPECT_TRUE(contains(engineCache("t5-small", KvAllocator::Vllm, 512).unsupported, "encoder-decoder"));
    EXPECT_TRUE(contains(engineCache("deepseek-v3.2-exp", KvAllocator::Vllm, 4096).unsupported, "sparse"));
    EXPECT_TRUE(contains(engineCache("minimax-text-01", KvAllocator::LlamaCpp, 4096).unsupported, "lightning"));
    EXPECT_TRUE(contains(engineCache("deepseek-v3.2-exp", KvAllocator::LlamaCpp, 4096).unsupported, "llama.cpp rule"));
    // llama.cpp quantises each head's row: Phi-2's heads of 80 values cannot be q8_0 (its own refusal:
    // "block size 32 does not divide n_embd_head_k=80"), though a whole K row of 2,560 could.
    EXPECT_TRUE(contains(engineCache("phi-2", KvAllocator::LlamaCpp, 4096, 1, DType::INT8).unsupported, "of 80"));
    // The analysis shows no cost figure rather than another rule's, and says why on the allocator.
    core::Scenario scenario = scenarioAt(4096);
    scenario.kvAllocator = KvAllocator::LlamaCpp;
    scenario.kvDType = DType::FP8;
    const core::Analysis analysis = analyzePreset("llama-3.1-8b", scenario);
    EXPECT_TRUE(analysis.valid);
    EXPECT_FALSE(analysis.costsValid);
    const auto named = std::find_if(analysis.diagnostics.begin(), analysis.diagnostics.end(),
                                    [](const core::Diagnostic& d) { return d.target == core::Field::KvAllocator; });
    ASSERT_NE(named, analysis.diagnostics.end());
    EXPECT_TRUE(contains(named->message, "no fp8"));
    // Nor a fit, a speed or a zoo row's figures computed without the cache.
    EXPECT_FALSE(analysis.devices.fits);
    EXPECT_TRUE(analysis.speed.curve.empty());
    EXPECT_TRUE(core::servingStack(analysis).segments.empty());
    EXPECT_TRUE(core::kvJson(analysis).at("gpu_fit").is_null());
    scenario.kvDType = DType::BF16;
    scenario.kvAllocator = KvAllocator::Vllm;
    const core::ModelZoo zoo = core::modelZoo(scenario);
    const core::ZooRow& t5 = rowOf(zoo, "t5-small");
    EXPECT_TRUE(contains(t5.reason, "encoder-decoder")) << t5.reason;
    EXPECT_TRUE(t5.fit.empty());
}

TEST(EngineKvCache, VllmsConcurrencyIsCautionBelowTheBatchAndItsRefusalsReachTheOverviewRows) {
    core::Scenario scenario = scenarioAt(32'768, 8);
    scenario.kvAllocator = KvAllocator::Vllm;
    scenario.kvCacheMemoryBytes = 4 * kGiB; // 8 GiB of requests in 4 GiB
    const core::Analysis tight = analyzePreset("llama-3.1-8b", scenario);
    const std::vector<core::SummaryRow> vllm = core::vllmRows(tight);
    const core::SummaryRow* concurrency = core::findRow(vllm, "vllm_max_concurrency");
    ASSERT_NE(concurrency, nullptr);
    EXPECT_EQ(concurrency->value, "1.00x");
    EXPECT_EQ(concurrency->tone, core::Tone::Caution) << "it starts, but not 8 requests at once";
    scenario.gpuCount = 3; // 8 KV heads over 3 ranks
    const auto rows = core::willItRunRows(analyzePreset("llama-3.1-8b", scenario));
    const core::SummaryRow* refused = core::findRow(rows, "vllm_tokens");
    ASSERT_NE(refused, nullptr);
    EXPECT_EQ(refused->tone, core::Tone::Bad);
}

TEST(EngineKvCache, TheKvViewSharesAnEnginesOwnBytesAndDrawsOnlyTheFormatsItOffers) {
    core::Scenario scenario = scenarioAt(32'768, 4, DType::INT8);
    scenario.kvAllocator = KvAllocator::LlamaCpp;
    const core::Analysis deepseek = analyzePreset("deepseek-v3", scenario);
    const core::KvFigure figure = core::kvFigure(deepseek);
    std::uint64_t shared = 0;
    for (const core::KvKindShare& share : figure.shares) {
        shared += share.bytes;
    }
    EXPECT_EQ(shared, deepseek.kv.totalBytes) << "q8_0 rows, not int8 elements";
    EXPECT_EQ(figure.shares.front().bytesPerTokenPerLayer, 576u / 32 * 34);
    EXPECT_TRUE(figure.comparisons.empty()) << "llama.cpp has no per-head rule to compare with";
    EXPECT_TRUE(std::any_of(figure.notes.begin(), figure.notes.end(),
                            [](const std::string& note) { return contains(note, "K (q8_0): 4666.50 MiB"); }));
    for (const core::KvCurve& curve : figure.curves) {
        EXPECT_NE(curve.dtype, DType::FP8) << "llama.cpp offers no fp8 cache";
    }
    scenario.kvAllocator = KvAllocator::Vllm;
    scenario.kvDType = DType::BF16;
    for (const core::KvCurve& curve : core::kvFigure(analyzePreset("gpt-oss-20b", scenario)).curves) {
        EXPECT_NE(curve.dtype, DType::INT4) << "vLLM offers no int4 cache";
    }
    scenario.kvDType = DType::INT4;
    EXPECT_TRUE(contains(core::kvFigure(analyzePreset("gpt-oss-20b", scenario)).noCache, "no int8 or int4"));
}

TEST(EngineKvCache, EveryPresetHasAFigureOrAReasonUnderEachEngine) {
    for (const core::Preset& builtin : core::builtinPresets()) {
        const std::string id(builtin.info.id);
        const core::ModelConfig config = preset(id);
        for (const KvAllocator allocator : {KvAllocator::Vllm, KvAllocator::LlamaCpp}) {
            const core::KvCacheReport cache =
                core::kvCache(config, core::planLayers(config), 4096, 4, DType::BF16, 512, std::nullopt, allocator);
            SCOPED_TRACE(id + " " + std::string(core::toString(allocator)));
            EXPECT_FALSE(cache.overflow);
            if (cache.unsupported.empty() && config.hasAttentionLayers() &&
                config.architecture != core::ArchitectureKind::EncoderOnly) {
                EXPECT_GT(cache.totalBytes, 0u);
                // An engine never holds less than the architecture's own cache.
                const core::KvCacheReport own = core::kvCache(config, core::planLayers(config), 4096, 4, DType::BF16,
                                                              512, DType::BF16, KvAllocator::Architecture);
                if (allocator == KvAllocator::Vllm) {
                    EXPECT_GE(cache.totalBytes + cache.fixedStateBytes, own.totalBytes - own.fixedStateBytes);
                }
            }
        }
    }
}

} // namespace
} // namespace archplay::test
