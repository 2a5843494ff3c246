// SPDX-License-Identifier: GPL-3.0-or-later
// KV-cache sizes against hand-derived figures (FORMULAS.md §4).
#include "tests/support/TestSupport.h"

namespace archplay::test {
namespace {

using core::DType;
using core::Scenario;

TEST(KvCache, GqaBytesPerToken) {
    // 2 (K,V) x 32 layers x 8 KV heads x 128 x 2 bytes.
    EXPECT_EQ(analyzePreset("llama-3-8b").kv.bytesPerToken, 131'072u);
    EXPECT_EQ(analyzePreset("llama-3.1-70b").kv.bytesPerToken, 327'680u);
    EXPECT_EQ(analyzePreset("qwen2.5-7b").kv.bytesPerToken, 57'344u);
    EXPECT_EQ(analyzePreset("qwen3-30b-a3b").kv.bytesPerToken, 98'304u);
    // Per layer: 2 x 8 x 128 x 2 bytes, and the layers add up to the whole.
    const auto llama = analyzePreset("llama-3-8b");
    std::uint64_t sum = 0;
    for (const core::KvLayerCache& layer : llama.kv.layers) {
        EXPECT_EQ(layer.selfBytesPerToken, 4096u);
        sum += layer.selfBytesPerToken;
    }
    EXPECT_EQ(sum, llama.kv.bytesPerToken);
}

TEST(KvCache, MhaBytesPerToken) {
    const core::Analysis llama2 = analyzePreset("llama-2-7b", scenarioAt(4096));
    EXPECT_EQ(llama2.kv.bytesPerToken, 524'288u);
    EXPECT_EQ(llama2.kv.totalBytes, 2ull << 30); // 2 GiB at 4k
}

TEST(KvCache, MqaCachesOneHead) {
    EXPECT_EQ(analyzePreset("falcon-7b").kv.bytesPerToken, 8'192u); // 2 x 32 x 1 x 64 x 2
}

TEST(KvCache, LatentAttentionCachesTheCompressedKv) {
    const core::Analysis v3 = analyzePreset("deepseek-v3");
    EXPECT_EQ(v3.kv.bytesPerToken, 70'272u);            // 61 x (512 + 64) x 2
    EXPECT_EQ(v3.kv.expandedBytesPerToken, 4'997'120u); // 61 x (128x192 + 128x128) x 2
    EXPECT_EQ(analyzePreset("deepseek-v2-lite").kv.bytesPerToken, 31'104u);
}

TEST(KvCache, SlidingWindowCapsEveryLayer) {
    // Mistral-7B-v0.1: every layer slides over 4096 tokens, so the cache stops at 512 MiB.
    const core::Analysis at4k = analyzePreset("mistral-7b-v0.1", scenarioAt(4096));
    const core::Analysis at32k = analyzePreset("mistral-7b-v0.1", scenarioAt(32768));
    EXPECT_EQ(at4k.kv.totalBytes, 512ull << 20);
    EXPECT_EQ(at32k.kv.totalBytes, 512ull << 20);
    EXPECT_EQ(at32k.kv.bytesPerToken, 131'072u);
}

TEST(KvCache, AlternatingLocalGlobal) {
    // Gemma-2-9B at 8192: 21 local layers hold 4096 tokens, 21 global hold 8192, 8192 B per layer-token.
    EXPECT_EQ(analyzePreset("gemma-2-9b", scenarioAt(8192)).kv.totalBytes, 2'113'929'216u);
}

TEST(KvCache, FiveLocalToOneGlobal) {
    // Gemma-3-1B: global layers 5, 11, 17, 23; the other 22 slide over 512 tokens; 1 KV head x 256.
    const core::Analysis gemma = analyzePreset("gemma-3-1b", scenarioAt(32768));
    int global = 0;
    for (const core::LayerPlan& layer : gemma.plan.layers) {
        global += layer.attention == core::LayerAttention::Global ? 1 : 0;
    }
    EXPECT_EQ(global, 4);
    EXPECT_EQ(gemma.kv.totalBytes, 4u * 32768u * 1024u + 22u * 512u * 1024u);
}

TEST(KvCache, EncoderDecoderAddsCrossAttention) {
    Scenario scenario = scenarioAt(100);
    scenario.encoderSequenceLength = 512;
    const core::Analysis t5 = analyzePreset("t5-base", scenario);
    EXPECT_EQ(t5.kv.crossBytesPerEncoderToken, 36'864u); // 2 x 12 x 768 x 2
    EXPECT_EQ(t5.kv.bytesPerToken, 36'864u);
    EXPECT_EQ(t5.kv.totalBytes, 36'864u * 100u + 36'864u * 512u);
}

TEST(KvCache, EncoderOnlyModelsHaveNoCache) {
    EXPECT_EQ(analyzePreset("bert-base-uncased").kv.totalBytes, 0u);
}

TEST(KvCache, LinearInSequenceAndBatchBelowTheWindow) {
    for (const char* id : {"llama-3-8b", "mistral-7b-v0.1", "gemma-2-9b", "deepseek-v3", "t5-small"}) {
        const std::uint64_t one = analyzePreset(id, scenarioAt(1000)).kv.totalBytes;
        EXPECT_EQ(analyzePreset(id, scenarioAt(2000)).kv.totalBytes, 2 * one) << id;
        EXPECT_EQ(analyzePreset(id, scenarioAt(1000, 3)).kv.totalBytes, 3 * one) << id;
    }
}

TEST(KvCache, PrecisionScalesBytes) {
    const std::uint64_t bf16 = analyzePreset("llama-3-8b", scenarioAt(4096, 1, DType::BF16)).kv.totalBytes;
    EXPECT_EQ(analyzePreset("llama-3-8b", scenarioAt(4096, 1, DType::FP32)).kv.totalBytes, 2 * bf16);
    EXPECT_EQ(analyzePreset("llama-3-8b", scenarioAt(4096, 1, DType::FP8)).kv.totalBytes, bf16 / 2);
    EXPECT_EQ(analyzePreset("llama-3-8b", scenarioAt(4096, 1, DType::INT4)).kv.totalBytes, bf16 / 4);
}

TEST(KvCache, PerLayerBytesAddUpToTheTotal) {
    const core::Analysis gemma = analyzePreset("gemma-3-1b", scenarioAt(10000, 2));
    std::uint64_t sum = 0;
    for (const core::KvLayerCache& layer : gemma.kv.layers) {
        sum += layer.bytes;
    }
    EXPECT_EQ(sum, gemma.kv.totalBytes);
}

TEST(KvCache, HugeScenariosReportOverflowInsteadOfWrapping) {
    const core::Analysis v3 = analyzePreset("llama-3.1-405b", scenarioAt(1ull << 40, 1ull << 30));
    EXPECT_TRUE(v3.kv.overflow);
    EXPECT_EQ(v3.kv.totalBytes, UINT64_MAX);
}

} // namespace
} // namespace archplay::test
