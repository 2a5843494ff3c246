// SPDX-License-Identifier: GPL-3.0-or-later
// Compute, memory and speed (core/cost) against figures derived by hand from the configs and the
// papers of FORMULAS.md §5-8.
#include "core/analysis/Capacity.h"
#include "core/analysis/DesignFigures.h"
#include "core/cost/Compute.h"
#include "core/cost/Memory.h"
#include "core/cost/Roofline.h"
#include "core/cost/WeightFormats.h"
#include "core/derivation/DerivationText.h"
#include "core/io/GpuJson.h"
#include "core/io/Presets.h"
#include "core/report/Costs.h"
#include "core/report/ReportJson.h"
#include "core/report/Summary.h"
#include "core/util/Format.h"
#include "tests/support/TestSupport.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace archplay::test {
namespace {

using core::WeightFormat;

core::Scenario withFormat(WeightFormat format) {
    core::Scenario scenario;
    scenario.weightFormat = format;
    return scenario;
}

TEST(Compute, LlamaTwoSevenBPerTokenIsTwiceItsMatricesPlusTheAttentionTerm) {
    // Llama-2-7B: per layer q, k, v, o 4 x 4096^2 and SwiGLU 3 x 4096 x 11008; the LM head 32000 x 4096.
    const core::Analysis a = analyzePreset("llama-2-7b", scenarioAt(4096));
    const std::uint64_t matrices = 32ull * (4ull * 4096 * 4096 + 3ull * 4096 * 11008) + 32000ull * 4096;
    EXPECT_EQ(matrices, a.params.total - 32000ull * 4096 - (2 * 32 + 1) * 4096ull); // minus lookup and norms
    EXPECT_EQ(a.compute.weights, 2 * matrices);
    EXPECT_EQ(a.compute.component(core::Component::OutputHead), 2ull * 32000 * 4096);
    EXPECT_EQ(a.compute.component(core::Component::Embedding), 0u);
    // The token at position 4,096 attends to 4,096 keys: 2 x 32 heads x (128 + 128) x 4096 per layer.
    EXPECT_EQ(a.compute.attention, 32ull * 2 * 32 * 256 * 4096);
    EXPECT_EQ(a.compute.perToken, a.compute.weights + a.compute.attention);
    // Prefill: every token's weights, and attention over p = 1..S keys: S(S + 1)/2 pairs.
    EXPECT_DOUBLE_EQ(a.compute.prefill, 4096.0 * double(a.compute.weights) + 32.0 * 16384 * (4096.0 * 4097 / 2));
    EXPECT_DOUBLE_EQ(a.compute.prefillAttention, 32.0 * 16384 * (4096.0 * 4097 / 2));
}

TEST(Compute, WindowsCapTheAttentionTermAndMoeCountsOnlyActiveExperts) {
    // Mistral 7B v0.1 slides a 4,096 window: at 32K a token sees 4,096 keys, as at 4K.
    const core::Analysis at4k = analyzePreset("mistral-7b-v0.1", scenarioAt(4096));
    const core::Analysis at32k = analyzePreset("mistral-7b-v0.1", scenarioAt(32768));
    EXPECT_EQ(at4k.compute.attention, at32k.compute.attention);
    EXPECT_EQ(at32k.compute.attention, 32ull * 2 * 32 * 256 * 4096);
    // Mixtral: two of eight experts per token, each 3 x 4096 x 14336, plus the router 4096 x 8.
    const core::Analysis mixtral = analyzePreset("mixtral-8x7b-v0.1");
    EXPECT_EQ(mixtral.compute.component(core::Component::Experts), 2ull * 32 * 2 * 3 * 4096 * 14336);
    EXPECT_EQ(mixtral.compute.component(core::Component::Router), 2ull * 32 * 4096 * 8);
    EXPECT_LT(mixtral.compute.weights, 2 * mixtral.params.active);
    // DeepSeek-V3 (MLA as transformers computes it): per key 2 x 128 heads x (128 + 64 + 128).
    const core::Analysis v3 = analyzePreset("deepseek-v3", scenarioAt(4096));
    EXPECT_EQ(v3.compute.attention, 61ull * 2 * 128 * 320 * 4096);
    // Gemma 3 1B: 5 of 6 layers see 512 keys at most.
    const core::Analysis gemma = analyzePreset("gemma-3-1b", scenarioAt(8192));
    std::uint64_t expected = 0;
    for (const core::LayerKindCompute& kind : gemma.compute.kinds) {
        expected += std::uint64_t(kind.layers) * kind.perKey * (kind.kind.window > 0 ? 512 : 8192);
    }
    EXPECT_EQ(gemma.compute.attention, expected);
}

TEST(Compute, TrainingIsThreeForwardPassesAndChinchillaTwentyTokensPerParameter) {
    core::Scenario scenario = scenarioAt(4096);
    scenario.trainingTokens = 2'000'000'000'000;
    scenario.recompute = core::Recompute::None;
    const core::Analysis a = analyzePreset("llama-2-7b", scenario);
    const double sequences = 2e12 / 4096;
    EXPECT_DOUBLE_EQ(a.compute.trainingFlops, sequences * 3 * a.compute.prefill);
    EXPECT_DOUBLE_EQ(a.compute.sixND, 6.0 * (double(a.compute.weights) / 2) * 2e12);
    // The attention term is what 6ND leaves out: 3 x the prefill attention per sequence.
    EXPECT_NEAR(a.compute.trainingFlops - a.compute.sixND, sequences * 3 * a.compute.prefillAttention,
                1e-9 * a.compute.trainingFlops);
    scenario.recompute = core::Recompute::Full;
    EXPECT_DOUBLE_EQ(analyzePreset("llama-2-7b", scenario).compute.trainingFlops, sequences * 4 * a.compute.prefill);
    scenario.recompute = core::Recompute::Selective;
    EXPECT_DOUBLE_EQ(analyzePreset("llama-2-7b", scenario).compute.trainingFlops,
                     sequences * (3 * a.compute.prefill + a.compute.prefillAttention));

    // Chinchilla (Hoffmann et al. 2022): 70B parameters -> 1.4T tokens.
    const core::ModelPlan plan = core::planLayers(a.config);
    const core::ComputeReport seventy = core::compute(a.config, plan, 4096, 0, 70'000'000'000, {});
    EXPECT_EQ(seventy.chinchillaTokens, 1'400'000'000'000u);
    EXPECT_EQ(analyzePreset("llama-2-70b").compute.chinchillaTokens, 20 * analyzePreset("llama-2-70b").params.total);
    // Training time: FLOPs over GPUs x peak x MFU.
    scenario.gpuCount = 1024;
    scenario.mfu = 0.5;
    const core::Analysis cluster = analyzePreset("llama-2-7b", scenario);
    EXPECT_DOUBLE_EQ(cluster.compute.trainingSeconds, cluster.compute.trainingFlops / (1024 * 989.4e12 * 0.5));
}

TEST(Compute, EncodersAverageTheirAttentionAndEncoderDecodersCountTheSourceOnce) {
    const core::Analysis bert = analyzePreset("bert-base-uncased", scenarioAt(512));
    // Bidirectional: every token sees all 512 keys; no LM head in BertModel, the pooler once per sequence.
    EXPECT_EQ(bert.compute.attention, 12ull * 2 * 12 * 128 * 512);
    EXPECT_EQ(bert.compute.component(core::Component::Pooler), 0u);
    EXPECT_DOUBLE_EQ(bert.compute.prefill,
                     512.0 * double(bert.compute.weights) + 12.0 * 2 * 12 * 128 * 512 * 512 + 2.0 * 768 * 768);
}

TEST(WeightFormats, EachFormatStoresItsRealBitsPerWeight) {
    core::TensorSpec square;
    square.use = core::TensorUse::Matrix;
    square.shape = core::Dims{4096, 4096};
    const auto bytes = [&](WeightFormat f) {
        return core::storedBytes(square, f, false).value();
    };
    EXPECT_EQ(bytes(WeightFormat::BF16), 2ull * 4096 * 4096);
    // GPTQ/AWQ g128: qweight 4096 x 4096 / 2, qzeros 32 x 512 int32, scales 32 x 4096 fp16: 4.15625 bits.
    EXPECT_EQ(bytes(WeightFormat::Int4G128), 8'388'608u + 65'536u + 262'144u);
    EXPECT_DOUBLE_EQ(8.0 * double(bytes(WeightFormat::Int4G128)) / (4096.0 * 4096),
                     core::formatInfo(WeightFormat::Int4G128).bitsPerWeight);
    EXPECT_DOUBLE_EQ(8.0 * double(bytes(WeightFormat::Int4G32)) / (4096.0 * 4096), 4.625);
    EXPECT_DOUBLE_EQ(8.0 * double(bytes(WeightFormat::MXFP4)) / (4096.0 * 4096), 4.25);
    EXPECT_DOUBLE_EQ(8.0 * double(bytes(WeightFormat::Q8_0)) / (4096.0 * 4096), 8.5);
    EXPECT_DOUBLE_EQ(8.0 * double(bytes(WeightFormat::Q6_K)) / (4096.0 * 4096), 6.5625);
    EXPECT_DOUBLE_EQ(8.0 * double(bytes(WeightFormat::Q4_0)) / (4096.0 * 4096), 4.5);
    // NF4 with double quantisation: 4 + 8/64 + 32/16384 bits.
    EXPECT_DOUBLE_EQ(8.0 * double(bytes(WeightFormat::NF4)) / (4096.0 * 4096), 4 + 8.0 / 64 + 32.0 / 16384);
    // FP8 blocks of 128 x 128 with an fp32 scale each: 32 x 32 scales.
    EXPECT_EQ(bytes(WeightFormat::FP8Block128), 4096ull * 4096 + 4 * 32 * 32);
    // A K-quant row that is not a multiple of 256 falls back: Q4_K -> Q5_0 (22 bytes per 32).
    core::TensorSpec odd = square;
    odd.shape = core::Dims{4096, 4000};
    EXPECT_EQ(core::storedBytes(odd, WeightFormat::Q4_K_M, false).value(), 4096ull * 125 * 22);
    // llama.cpp's use_more_bits: the first and last eighth, and every third layer between.
    EXPECT_TRUE(core::ggufMoreBits(0, 32));
    EXPECT_TRUE(core::ggufMoreBits(28, 32));
    EXPECT_FALSE(core::ggufMoreBits(4, 32));
    EXPECT_TRUE(core::ggufMoreBits(6, 32));
}

TEST(WeightFormats, QuantisedModelsKeepEmbeddingsAndHeadsInSixteenBits) {
    const core::Analysis bf16 = analyzePreset("llama-3-8b", withFormat(WeightFormat::BF16));
    EXPECT_EQ(bf16.weightBytes, 2 * bf16.params.total);
    EXPECT_EQ(analyzePreset("llama-3-8b", withFormat(WeightFormat::FP32)).weightBytes, 4 * bf16.params.total);
    const core::Analysis gptq = analyzePreset("llama-3-8b", withFormat(WeightFormat::Int4G128));
    // Embedding and head (2 x 128256 x 4096) stay bf16; every layer matrix is 4.15625 bits.
    EXPECT_EQ(gptq.weights.component(core::Component::Embedding), 2ull * 128256 * 4096);
    EXPECT_EQ(gptq.weights.component(core::Component::OutputHead), 2ull * 128256 * 4096);
    EXPECT_EQ(gptq.weights.component(core::Component::Norm), bf16.weights.component(core::Component::Norm));
    const std::uint64_t layerMatrices = 32ull * (4096ull * 4096 * 2 + 1024ull * 4096 * 2 + 3ull * 4096 * 14336);
    EXPECT_EQ(gptq.weights.quantisedParams, layerMatrices);
    EXPECT_LT(gptq.weightBytes, bf16.weightBytes * 2 / 5);
    // Q4_K_M is heavier than a plain Q4_K: Q6_K output and more bits for half of attn_v and ffn_down.
    const core::Analysis q4km = analyzePreset("llama-3-8b", withFormat(WeightFormat::Q4_K_M));
    EXPECT_EQ(q4km.weights.component(core::Component::OutputHead), 128256ull * 16 * 210);
    const double bits = 8.0 * double(q4km.weightBytes) / double(q4km.params.total);
    EXPECT_GT(bits, 4.5);
    EXPECT_LT(bits, 5.0);
}

TEST(WeightFormats, GgufSizesMatchLlamaCppsOwnReportForLlamaThreeEightB) {
    // llama.cpp prints "model size = 4.58 GiB (4.89 BPW)" loading Meta-Llama-3-8B Q4_K_M, and likewise
    // 5.33 GiB (5.70) for Q5_K_M, 6.14 GiB (6.56) for Q6_K, 7.95 GiB (8.50) for Q8_0, 4.33 GiB (4.64) for Q4_0.
    const struct {
        WeightFormat format;
        const char* gib;
        const char* bpw;
    } published[] = {{WeightFormat::Q4_K_M, "4.58", "4.89"},
                     {WeightFormat::Q5_K_M, "5.33", "5.70"},
                     {WeightFormat::Q6_K, "6.14", "6.56"},
                     {WeightFormat::Q8_0, "7.95", "8.50"},
                     {WeightFormat::Q4_0, "4.33", "4.64"}};
    for (const auto& row : published) {
        const core::Analysis a = analyzePreset("llama-3-8b", withFormat(row.format));
        EXPECT_EQ(fmt::format("{:.2f}", double(a.weightBytes) / (1 << 30)), row.gib) << core::formatInfo(row.format).id;
        EXPECT_EQ(fmt::format("{:.2f}", 8.0 * double(a.weightBytes) / double(a.params.total)), row.bpw)
            << core::formatInfo(row.format).id;
    }
}

TEST(TrainingMemory, SixteenBytesPerParameterAndZeroShardsAsThePaperSays) {
    // Llama-2-7B full fine-tune at 16 bytes per parameter: 107.8 GB before activations (FORMULAS.md §6.1).
    const core::Analysis a = analyzePreset("llama-2-7b");
    const core::TrainingMemory& t = a.training;
    EXPECT_EQ(t.bytesPerParam, 16);
    EXPECT_EQ(t.weightBytes + t.gradientBytes + t.optimizerBytes, 107'814'649'856u);
    core::TrainingShape shape;
    shape.optimizer = core::Optimizer::Adam18;
    EXPECT_EQ(core::trainingMemory(a.config, a.plan, a.params.total, shape).bytesPerParam, 18);

    // The ZeRO paper's own example: 7.5B parameters on 64 data-parallel GPUs.
    shape = {};
    shape.gpus = 64;
    const auto state = [&](int stage) {
        shape.zeroStage = stage;
        const core::TrainingMemory m = core::trainingMemory(a.config, a.plan, 7'500'000'000, shape);
        return m.gpuWeightBytes + m.gpuGradientBytes + m.gpuOptimizerBytes;
    };
    EXPECT_EQ(state(0), 120'000'000'000u);
    EXPECT_EQ(state(1), 31'406'250'000u);
    EXPECT_EQ(state(2), 16'640'625'000u);
    EXPECT_EQ(state(3), 1'875'000'000u); // ZeRO-3: the whole state / 64
}

TEST(TrainingMemory, ActivationsFollowKorthikantiForGptThree) {
    // A GPT-3-style layer (MHA, 4h GeLU MLP, dropout, no FlashAttention): s·b·h·(34 + 5as/h) bytes.
    core::ModelConfig gpt3 = preset("llama-2-7b");
    gpt3.hiddenSize = 12288;
    gpt3.numHeads = gpt3.numKvHeads = 96;
    gpt3.headDim.reset();
    gpt3.ffnKind = core::FfnKind::Mlp;
    gpt3.intermediateSize = 4 * 12288;
    gpt3.numLayers = 1;
    const core::ModelPlan plan = core::planLayers(gpt3);
    core::TrainingShape shape;
    shape.sequenceLength = 2048;
    shape.flashAttention = false;
    shape.dropout = true;
    const core::TrainingMemory m = core::trainingMemory(gpt3, plan, 1, shape);
    ASSERT_EQ(m.layers.size(), 1u);
    const std::uint64_t sbh = 2048ull * 12288;
    EXPECT_EQ(m.layers[0].perLayer, sbh * 34 + 5ull * 96 * 2048 * 2048); // 2.87 GB
    EXPECT_EQ(m.layers[0].perLayer, 2'868'903'936u);
    // Tensor parallel t = 8: sbh(10 + 24/t + 5as/(ht)).
    shape.tensorParallel = 8;
    shape.gpus = 8;
    EXPECT_EQ(core::trainingMemory(gpt3, plan, 1, shape).layers[0].perLayer,
              sbh * 10 + sbh * 24 / 8 + 5ull * 96 * 2048 * 2048 / 8);
    // Selective recomputation (or FlashAttention) drops the score terms; full keeps the input only.
    shape.tensorParallel = 1;
    shape.recompute = core::Recompute::Selective;
    EXPECT_EQ(core::trainingMemory(gpt3, plan, 1, shape).layers[0].perLayer, sbh * 34);
    shape.recompute = core::Recompute::Full;
    EXPECT_EQ(core::trainingMemory(gpt3, plan, 1, shape).layers[0].perLayer, 2 * sbh);
}

TEST(Memory, GrowsWithBatchAndSequenceAndTheFewestGpusFit) {
    std::uint64_t serving = 0, training = 0;
    for (std::uint64_t length : {512u, 2048u, 8192u, 32768u}) {
        core::Scenario s = scenarioAt(length);
        const core::Analysis a = analyzePreset("qwen3-8b", s);
        EXPECT_GT(a.serving.totalBytes, serving) << length;
        EXPECT_GT(a.training.gpuTotalBytes, training) << length;
        serving = a.serving.totalBytes;
        training = a.training.gpuTotalBytes;
    }
    serving = training = 0;
    for (std::uint64_t batch : {1u, 4u, 16u}) {
        core::Scenario s = scenarioAt(4096, batch);
        s.microBatch = batch;
        const core::Analysis a = analyzePreset("qwen3-8b", s);
        EXPECT_GT(a.serving.totalBytes, serving) << batch;
        EXPECT_GT(a.training.gpuTotalBytes, training) << batch;
        serving = a.serving.totalBytes;
        training = a.training.gpuTotalBytes;
    }
    // Llama 3 70B at 4K without tensor parallelism: 80 layers of activations exceed one 80 GiB GPU,
    // however many GPUs shard the state.
    EXPECT_EQ(analyzePreset("llama-3-70b").trainingGpusNeeded, 0u);
    // With TP 8 and ZeRO-3: training fits on the fewest GPUs and not on one TP group fewer.
    core::Scenario s;
    s.zeroStage = 3;
    s.tensorParallel = 8;
    s.gpuCount = 8;
    const core::Analysis a = analyzePreset("llama-3-70b", s);
    const std::uint64_t n = a.trainingGpusNeeded;
    ASSERT_GT(n, 1u);
    core::TrainingShape shape = s.trainingShape();
    shape.gpus = n;
    EXPECT_LE(core::trainingMemory(a.config, a.plan, a.params.total, shape).gpuTotalBytes, s.gpu.memoryBytes());
    shape.gpus = n - 8;
    EXPECT_GT(core::trainingMemory(a.config, a.plan, a.params.total, shape).gpuTotalBytes, s.gpu.memoryBytes());
    EXPECT_EQ(a.serving.gpusNeeded, (a.serving.totalBytes + s.gpu.memoryBytes() - 1) / s.gpu.memoryBytes());
}

TEST(Roofline, NoSpeedBeyondWhatFitsInTheDevicesMemory) {
    // Llama 3 8B on one H200 (141 GiB) at 8K: 1 GiB of bf16 cache a sequence beside 15 GiB of weights,
    // so 126 sequences fit. The issue's "which batch maximises tokens/s?" must not answer 512.
    core::Scenario scenario = scenarioAt(8192, 512);
    scenario.gpu = *core::findGpu(core::builtinGpus(), "h200");
    const core::Analysis a = analyzePreset("llama-3-8b", scenario);
    const core::RooflineReport& r = a.speed;
    EXPECT_EQ(r.cacheBytesPerSequence, 8192u * 131072);
    EXPECT_EQ(r.largestBatch, (a.devices.capacityBytes - a.weightBytes) / r.cacheBytesPerSequence);
    EXPECT_EQ(r.largestBatch, 126u);
    EXPECT_FALSE(r.fits);
    ASSERT_FALSE(r.curve.empty());
    EXPECT_EQ(r.curve.back().batch, r.largestBatch) << "the curve ends where memory does";
    EXPECT_EQ(r.curve[r.curve.size() - 2].batch, 64u);
    EXPECT_EQ(core::findRow(core::speedRows(a), "decode_tokens_per_s")->value, "does not fit");
    EXPECT_EQ(core::findRow(core::speedRows(a), "largest_batch")->value, "126");
    EXPECT_FALSE(core::figureValue(a, core::DesignFigure::DecodeTokensPerSecond).has_value());
    EXPECT_TRUE(core::rooflineJson(a).at("decode_tokens_per_s").is_null());

    // The same rule as the device fit of the weights card, at every preset and at either side of the
    // largest batch.
    for (const core::Preset& preset : core::builtinPresets()) {
        core::Scenario at = scenarioAt(4096);
        const core::Analysis first = core::analyze(*core::presetConfig(preset), at);
        if (!first.valid || !first.costsValid) {
            continue;
        }
        for (const std::uint64_t batch : {std::uint64_t{1}, first.speed.largestBatch, first.speed.largestBatch + 1}) {
            if (batch == 0 || batch > core::kMostSequences) {
                continue;
            }
            at.batch = batch;
            const core::Analysis each = core::analyze(*core::presetConfig(preset), at);
            EXPECT_EQ(each.speed.fits, each.devices.fits) << preset.info.id << " batch " << batch;
            EXPECT_EQ(each.speed.largestBatch, first.speed.largestBatch) << preset.info.id;
        }
    }
}

TEST(Roofline, ASetupWhoseWeightsDoNotFitHasNoSpeedButTheDevicesItNeeds) {
    // Qwen3-Next in BF16 on one H100 (the issue's "459 tok/s"): 159 GB of weights need two.
    core::Scenario scenario = scenarioAt(4096);
    scenario.gpu = *core::findGpu(core::builtinGpus(), "h100-sxm");
    const core::Analysis a = analyzePreset("qwen3-next-80b-a3b", scenario);
    EXPECT_EQ(a.speed.largestBatch, 0u);
    EXPECT_FALSE(a.speed.fits);
    EXPECT_TRUE(a.speed.curve.empty());
    const std::vector<core::SummaryRow> rows = core::speedRows(a);
    for (const char* key : {"decode_tokens_per_s", "decode_batch_1", "prefill_seconds", "time_to_first_token_s"}) {
        EXPECT_EQ(core::findRow(rows, key)->value, "does not fit") << key;
    }
    EXPECT_NE(core::findRow(rows, "decode_tokens_per_s")->detail.find("needs 2 x"), std::string::npos)
        << core::findRow(rows, "decode_tokens_per_s")->detail;
    scenario.gpuCount = 2;
    const core::Analysis two = analyzePreset("qwen3-next-80b-a3b", scenario);
    EXPECT_TRUE(two.speed.fits);
    EXPECT_GT(two.speed.scenario.tokensPerSecond, 0);
}

TEST(Capacity, AnswersTheInverseQuestionsByTheWeightsCardsRule) {
    // Mistral 7B v0.1 slides a 4,096-token window on every layer: its cache stops growing, any length fits.
    const core::Analysis mistral = analyzePreset("mistral-7b-v0.1", scenarioAt(4096));
    const core::Capacity sliding = core::capacity(mistral);
    EXPECT_EQ(sliding.lengthLimit, core::Capacity::Length::StopsGrowing);
    EXPECT_EQ(sliding.largestBatch, mistral.speed.largestBatch);
    EXPECT_EQ(sliding.fewestDevices, 1u);
    // Every format is judged with the same cache, and the widest that fits is the first that does.
    const core::Analysis llama = analyzePreset("llama-3.1-70b", scenarioAt(8192));
    const core::Capacity answers = core::capacity(llama);
    ASSERT_EQ(answers.formats.size(), core::weightFormats().size());
    const core::FormatFit* widest = answers.widestFitting();
    ASSERT_NE(widest, nullptr);
    EXPECT_TRUE(std::is_sorted(
        answers.formats.begin(), answers.formats.end(),
        [](const core::FormatFit& a, const core::FormatFit& b) { return a.weightBytes > b.weightBytes; }))
        << "most weight bytes first, GGUF mixes among the others";
    for (const core::FormatFit& each : answers.formats) {
        EXPECT_EQ(each.devices.requiredBytes, each.weightBytes + llama.kv.totalBytes);
        if (&each == widest) {
            break;
        }
        EXPECT_FALSE(each.devices.fits) << core::formatInfo(each.format).id;
    }
    EXPECT_TRUE(widest->devices.fits);
    // 70B on one 80 GiB device at 8K: not in 16 bits (141 GB); GGUF Q8_0 (8.5 bits a weight) is the
    // largest that fits beside 2.5 GiB of cache, FP8 (8 bits) fits too.
    EXPECT_EQ(widest->format, WeightFormat::Q8_0) << core::formatInfo(widest->format).id;
    const auto fp8 = std::find_if(answers.formats.begin(), answers.formats.end(),
                                  [](const core::FormatFit& f) { return f.format == WeightFormat::FP8; });
    ASSERT_NE(fp8, answers.formats.end());
    EXPECT_TRUE(fp8->devices.fits);
    // The longest sequence at batch 1 is the last whose cache fits beside the bf16 weights.
    EXPECT_EQ(answers.longestSequence, 0u) << "140 GB of bf16 weights leave no room on one 80 GiB device";
    EXPECT_EQ(answers.fewestDevices, llama.devices.devicesNeeded);
}

TEST(Roofline, LlamaThreeEightBDecodesAtBandwidthOverTheBytesItReads) {
    // FORMULAS.md §7: bf16 on an H100 SXM at 4K, batch 1: weights without the 1.05 GB embedding lookup
    // plus 0.54 GB of cache, read at 3.35 TB/s: about 215 tokens/s.
    const core::Analysis a = analyzePreset("llama-3-8b", scenarioAt(4096));
    const core::DecodeStep& one = a.speed.curve.front();
    EXPECT_DOUBLE_EQ(one.weightBytes, double(a.weightBytes) - 2.0 * 128256 * 4096);
    EXPECT_DOUBLE_EQ(one.cacheBytes, 4096.0 * 131072);
    EXPECT_NEAR(one.perSequence, 3.35e12 / (one.weightBytes + one.cacheBytes), 1e-9);
    EXPECT_NEAR(one.perSequence, 215.5, 0.5);
    EXPECT_FALSE(one.computeBound);
    // Never faster than bandwidth over the weights a step reads; aggregate rate grows with the batch.
    for (std::size_t i = 0; i < a.speed.curve.size(); ++i) {
        const core::DecodeStep& step = a.speed.curve[i];
        EXPECT_LE(step.perSequence, 3.35e12 / step.weightBytes * (1 + 1e-12));
        if (i > 0) {
            EXPECT_GT(step.tokensPerSecond, a.speed.curve[i - 1].tokensPerSecond);
        }
    }
    // The ridge of an H100 in BF16 is 989.4e12 / 3.35e12 = 295 FLOP/byte.
    EXPECT_NEAR(a.speed.ridge, 295.3, 0.1);
    // At 4K each sequence's 512 MiB of cache costs more time than its FLOPs: never compute-bound.
    EXPECT_EQ(a.speed.computeBoundBatch, 0u);
    // At 256 tokens it turns compute-bound at some batch, and not before.
    const core::Analysis shortContext = analyzePreset("llama-3-8b", scenarioAt(256));
    const std::uint64_t b = shortContext.speed.computeBoundBatch;
    ASSERT_GT(b, 1u);
    const core::RooflineInputs in{&shortContext.config, &shortContext.compute, &shortContext.weights, 256ull * 131072,
                                  1};
    EXPECT_TRUE(core::decodeStep(in, a.scenario.gpu, 1, false, b).computeBound);
    EXPECT_FALSE(core::decodeStep(in, a.scenario.gpu, 1, false, b - 1).computeBound);
    EXPECT_DOUBLE_EQ(a.speed.timeToFirstToken, a.speed.prefillSeconds + a.speed.scenario.seconds);
}

TEST(Roofline, MoeDecodeReadsTheExpertsItsBatchHits) {
    core::Scenario twoGpus; // 93 GB of bf16 weights: one 80 GiB device holds no batch
    twoGpus.gpuCount = 2;
    const core::Analysis mixtral = analyzePreset("mixtral-8x7b-v0.1", twoGpus);
    ASSERT_GE(mixtral.speed.curve.size(), 7u);
    const core::DecodeStep& one = mixtral.speed.curve.front();
    const core::DecodeStep& sixtyFour = mixtral.speed.curve[6];
    ASSERT_EQ(sixtyFour.batch, 64u);
    const double experts = double(mixtral.weights.component(core::Component::Experts));
    // One token reads exactly its 2 of 8 experts; 64 tokens almost all 8.
    EXPECT_DOUBLE_EQ(one.expertsPerLayer, 2);
    EXPECT_DOUBLE_EQ(one.weightBytes,
                     double(mixtral.weightBytes) - double(mixtral.weights.lookupBytes) - experts + experts * 2 / 8);
    EXPECT_LT(one.weightBytes, sixtyFour.weightBytes);
    EXPECT_NEAR(sixtyFour.expertsPerLayer, 8 * (1 - std::pow(0.75, 64)), 1e-9);
    // An FP8 format on an FP8 device runs at the FP8 peak.
    core::Scenario fp8;
    fp8.weightFormat = WeightFormat::FP8;
    EXPECT_TRUE(analyzePreset("mixtral-8x7b-v0.1", fp8).speed.fp8);
    EXPECT_DOUBLE_EQ(analyzePreset("mixtral-8x7b-v0.1", fp8).speed.peakFlops, 1978.9e12);
}

TEST(Gpus, TheCatalogueHasEveryDeviceWithItsSourceAndReadsBackUserDevices) {
    for (const char* id : {"rtx-3090", "rtx-4090", "l40s", "a100-40gb", "a100-80gb", "h100-sxm", "h100-pcie", "h200",
                           "b200", "mi300x", "mi325x", "m3-max", "m2-ultra"}) {
        const core::Gpu* gpu = core::findGpu(core::builtinGpus(), id);
        ASSERT_NE(gpu, nullptr) << id;
        EXPECT_TRUE(core::gpuProblem(*gpu).empty()) << id;
        EXPECT_FALSE(gpu->source.empty()) << id;
        EXPECT_TRUE(gpu->builtin);
    }
    core::Gpu lab = core::defaultGpu();
    lab.id = "lab";
    lab.builtin = false;
    const core::GpuCatalogueRead read = core::gpuCatalogueFromJson(core::gpuCatalogueToJson({lab}));
    ASSERT_TRUE(read.ok());
    ASSERT_EQ(read.gpus.size(), 1u);
    EXPECT_EQ(read.gpus[0], lab);
    // A built-in id, a missing bandwidth and hostile values are refused, naming the field.
    const core::GpuCatalogueRead bad = core::gpuCatalogueFromJson(
        R"({"gpus": [{"id": "h100-sxm", "memory_gib": 80, "bandwidth_gb_s": 1, "bf16_tflops": 1},
                     {"id": "x", "memory_gib": 80, "bf16_tflops": 1},
                     {"id": "y", "memory_gib": 1e300, "bandwidth_gb_s": 1, "bf16_tflops": 1},
                     {"id": "z", "memory_gib": 8, "bandwidth_gb_s": 100, "bf16_tflops": 10}]})");
    EXPECT_FALSE(bad.ok());
    ASSERT_EQ(bad.gpus.size(), 1u);
    EXPECT_EQ(bad.gpus[0].id, "z");
    std::vector<std::string> fields;
    for (const core::Diagnostic& d : bad.diagnostics) {
        fields.push_back(d.field);
    }
    EXPECT_EQ(fields, (std::vector<std::string>{"gpus[0].id", "gpus[1].bandwidth_gb_s", "gpus[2].memory_gib"}));
    EXPECT_FALSE(core::gpuCatalogueFromJson("{").ok());
}

TEST(Costs, EveryRowAndTheExplanationCarryTheFigures) {
    const core::Analysis a = analyzePreset("llama-3-8b");
    const auto compute = core::computeRows(a);
    EXPECT_EQ(core::findRow(compute, "flops_per_token")->exact, core::withThousands(a.compute.perToken) + " FLOP");
    EXPECT_EQ(core::findRow(core::servingMemoryRows(a), "total_bytes")->exact,
              core::withThousands(a.serving.totalBytes) + " bytes");
    for (const core::SummaryRow& row : core::speedRows(a)) {
        ASSERT_FALSE(row.notes.empty()) << row.key;
        EXPECT_EQ(row.notes.front(), core::speedBoundLabel()) << row.key;
    }
    const core::Derivation explained = core::explainCosts(a);
    ASSERT_EQ(explained.sections.size(), 3u);
    const std::string latex = core::toLatex(explained);
    EXPECT_NE(latex.find(core::derivation::num(static_cast<std::int64_t>(a.compute.perToken))), std::string::npos);
    EXPECT_NE(latex.find(core::derivation::num(static_cast<std::int64_t>(a.compute.weights / 2))), std::string::npos);
    EXPECT_TRUE(core::computeRows(core::analyze(preset("llama-3-8b"),
                                                [] {
                                                    core::Scenario s;
                                                    s.gpuCount = 0;
                                                    return s;
                                                }()))
                    .empty());
}

} // namespace
} // namespace archplay::test
