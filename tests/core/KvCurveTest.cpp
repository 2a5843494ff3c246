// SPDX-License-Identifier: GPL-3.0-or-later
// Cache curves, the split by layer kind, window and MLA savings, and GPU fit (FORMULAS.md §4, §8).
#include "core/scenario/KvCurve.h"

#include "core/report/Summary.h"
#include "core/report/Tables.h"
#include "core/scenario/GpuFit.h"
#include "core/util/Format.h"
#include "tests/support/TestSupport.h"

#include <algorithm>
#include <numeric>

namespace archplay::test {
namespace {

using core::DType;

/// A bf16 scenario of `batch` sequences of `length` tokens (no encoder).
core::Scenario scenario(std::uint64_t batch, std::uint64_t length = 4096) {
    core::Scenario s;
    s.batch = batch;
    s.sequenceLength = length;
    s.encoderSequenceLength = 0;
    return s;
}

/// The default scenario with `length` decoder tokens (the encoder's length left at its default).
core::Scenario sequenceOf(std::uint64_t length) {
    core::Scenario s;
    s.sequenceLength = length;
    return s;
}

/// A preset's analysis and its KV cache by layer kind.
struct KindShares {
    core::Analysis analysis;
    std::vector<core::KvKindShare> shares;
};

KindShares kindShares(const std::string& id, const core::Scenario& scenario) {
    core::Analysis analysis = analyzePreset(id, scenario);
    std::vector<core::KvKindShare> shares = core::kvByLayerKind(analysis.plan, analysis.kv);
    return {std::move(analysis), std::move(shares)};
}

TEST(KvCurve, FixedStatePrecisionReachesTheCurvesAndTheDeviceFit) {
    // Qwen3-Next keeps its Gated DeltaNet recurrent state in fp32; at bf16 the flat part halves.
    const auto next = analyzePreset("qwen3-next-80b-a3b");
    core::Scenario asImplemented = scenario(1, 1);
    core::Scenario bf16 = asImplemented;
    bf16.stateDType = DType::BF16;
    const auto wide = core::kvCurves(next.config, next.plan, {1}, asImplemented, {DType::BF16});
    const auto narrow = core::kvCurves(next.config, next.plan, {1}, bf16, {DType::BF16});
    const core::KvCacheReport wideReport = core::kvCache(next.config, next.plan, 1, 1, DType::BF16, 0);
    const core::KvCacheReport narrowReport = core::kvCache(next.config, next.plan, 1, 1, DType::BF16, 0, DType::BF16);
    EXPECT_EQ(wide.front().bytes.front(), wideReport.totalBytes);
    EXPECT_EQ(narrow.front().bytes.front(), narrowReport.totalBytes);
    EXPECT_LT(narrowReport.fixedStateBytes, wideReport.fixedStateBytes);
    EXPECT_EQ(core::gpuFits(next.config, next.plan, next.weightBytes, bf16).front().kvBytes, narrowReport.totalBytes);
    EXPECT_EQ(core::kvSavings(next.config, next.plan, bf16).totalBytes, narrowReport.totalBytes);
}

TEST(KvCurve, LengthsAreSortedUniqueAndHoldWindowsAndTheCurrentLength) {
    const auto gemma = analyzePreset("gemma-3-1b");
    const auto lengths = core::kvCurveLengths(gemma.plan, 32768, 3000);
    EXPECT_TRUE(std::is_sorted(lengths.begin(), lengths.end()));
    EXPECT_EQ(std::adjacent_find(lengths.begin(), lengths.end()), lengths.end());
    EXPECT_EQ(lengths.front(), 1u);
    EXPECT_EQ(lengths.back(), 32768u);
    EXPECT_TRUE(std::binary_search(lengths.begin(), lengths.end(), 512u));
    EXPECT_TRUE(std::binary_search(lengths.begin(), lengths.end(), 3000u));
    EXPECT_GE(lengths.size(), 55u); // four per octave, fewer where rounding merges short lengths
}

TEST(KvCurve, EveryPointIsTheCoresCache) {
    const auto mistral = analyzePreset("mistral-7b-v0.1");
    const auto lengths = core::kvCurveLengths(mistral.plan, 1 << 16, 4096);
    const auto curves =
        core::kvCurves(mistral.config, mistral.plan, lengths, scenario(2), core::kvCurveDTypes(DType::FP16));
    ASSERT_EQ(curves.size(), 4u);
    EXPECT_EQ(curves[1].dtype, DType::FP16);
    for (const core::KvCurve& curve : curves) {
        ASSERT_EQ(curve.bytes.size(), lengths.size());
        for (std::size_t i = 0; i < lengths.size(); i += 7) {
            EXPECT_EQ(curve.bytes[i],
                      core::kvCache(mistral.config, mistral.plan, lengths[i], 2, curve.dtype).totalBytes);
        }
        EXPECT_TRUE(std::is_sorted(curve.bytes.begin(), curve.bytes.end()));
    }
    // Every Mistral-7B-v0.1 layer is capped at 4096 tokens: the curve is flat from there on.
    const auto at4096 = std::lower_bound(lengths.begin(), lengths.end(), 4096u) - lengths.begin();
    EXPECT_EQ(curves[1].bytes[static_cast<std::size_t>(at4096)], curves[1].bytes.back());
}

TEST(KvCurve, DTypesKeepTheCurrentOneForItsWidth) {
    EXPECT_EQ(core::kvCurveDTypes(DType::BF16),
              (std::vector<DType>{DType::FP32, DType::BF16, DType::FP8, DType::INT4}));
    EXPECT_EQ(core::kvCurveDTypes(DType::INT8),
              (std::vector<DType>{DType::FP32, DType::BF16, DType::INT8, DType::INT4}));
}

TEST(KvByLayerKind, SharesSumToTheTotal) {
    for (const char* id : {"gemma-3-1b", "llama-3-8b", "deepseek-v3", "t5-small", "gemma-2-9b", "mistral-7b-v0.1"}) {
        const KindShares kinds = kindShares(id, sequenceOf(8192));
        std::uint64_t sum = 0;
        for (const auto& share : kinds.shares) {
            sum += share.bytes;
        }
        EXPECT_EQ(sum, kinds.analysis.kv.totalBytes) << id;
    }
}

TEST(KvByLayerKind, GemmaSplitsSlidingAndGlobal) {
    const auto shares = kindShares("gemma-2-9b", sequenceOf(8192)).shares;
    ASSERT_EQ(shares.size(), 2u);
    EXPECT_EQ(shares[0].name, "sliding 4096");
    EXPECT_EQ(shares[0].layers, 21);
    EXPECT_EQ(shares[0].cachedTokens, 4096u);
    EXPECT_EQ(shares[1].name, "global");
    EXPECT_EQ(shares[1].cachedTokens, 8192u);
    // FORMULAS.md §4.2: 8,192 B per layer-token.
    EXPECT_EQ(shares[0].bytesPerTokenPerLayer, 8192u);
    EXPECT_EQ(shares[0].bytes + shares[1].bytes, 2'113'929'216u);
}

TEST(KvByLayerKind, EncoderDecoderHasACrossShare) {
    core::Scenario scenario;
    scenario.encoderSequenceLength = 512;
    const auto shares = kindShares("t5-small", scenario).shares;
    ASSERT_EQ(shares.size(), 2u);
    EXPECT_TRUE(shares[1].cross);
    EXPECT_EQ(shares[1].layers, 6);
    EXPECT_EQ(shares[1].cachedTokens, 512u);
}

TEST(KvSavings, WindowsAndLatentAreComparedWithTheirUncappedForms) {
    const auto gemma = analyzePreset("gemma-2-9b");
    const auto windowed = core::kvSavings(gemma.config, gemma.plan, scenario(1, 8192));
    EXPECT_TRUE(windowed.windowed);
    EXPECT_EQ(windowed.totalBytes, 2'113'929'216u);
    EXPECT_EQ(windowed.uncappedBytes, 42ull * 8192 * 8192);

    const auto v3 = analyzePreset("deepseek-v3");
    const auto latent = core::kvSavings(v3.config, v3.plan, scenario(1, 1));
    EXPECT_TRUE(latent.latent);
    EXPECT_EQ(latent.totalBytes, 70'272u);
    EXPECT_EQ(latent.expandedBytes, 4'997'120u);
}

TEST(KvCurve, AlternativesAreTheUncappedAndExpandedCaches) {
    const auto gemma = analyzePreset("gemma-2-9b");
    const std::vector<std::uint64_t> lengths = {1024, 8192};
    const auto uncapped = core::kvAlternativeCurve(gemma.config, gemma.plan, lengths, scenario(1), DType::BF16,
                                                   core::KvAlternative::Uncapped);
    EXPECT_EQ(uncapped.bytes[1], 42ull * 8192 * 8192);
    EXPECT_EQ(uncapped.bytes[0], core::kvCache(gemma.config, gemma.plan, 1024, 1, DType::BF16).totalBytes);
    const auto v3 = analyzePreset("deepseek-v3");
    const auto expanded =
        core::kvAlternativeCurve(v3.config, v3.plan, {1}, scenario(1), DType::BF16, core::KvAlternative::Expanded);
    EXPECT_EQ(expanded.bytes[0], 4'997'120u);
}

TEST(GpuFit, LlamaEightBFitsOnEveryListedSize) {
    const auto llama = analyzePreset("llama-3-8b");
    const auto fits = core::gpuFits(llama.config, llama.plan, llama.weightBytes, scenario(1, 4096));
    // One row per memory size of the device catalogue: 24 GiB (RTX 3090, 4090) to 256 GiB (MI325X).
    ASSERT_EQ(fits.size(), core::gpuMemorySizes(core::defaultGpu()).size());
    EXPECT_EQ(fits.front().devices.gpu.label, "24 GiB");
    EXPECT_EQ(fits.front().devices.gpu.examples, "RTX 3090, RTX 4090");
    EXPECT_EQ(fits.back().devices.gpu.label, "256 GiB");
    for (const auto& fit : fits) {
        EXPECT_TRUE(fit.devices.fits) << fit.devices.gpu.label;
        EXPECT_EQ(fit.devices.devices, 1u);
        EXPECT_EQ(fit.devices.devicesNeeded, 1u);
        EXPECT_EQ(fit.devices.requiredBytes, llama.weightBytes + llama.kv.totalBytes);
        EXPECT_EQ(fit.scenario, fit.devices.gpu.label == "80 GiB");
        // The longest sequence that fits is the last one whose cache fits beside the weights.
        const std::uint64_t room = fit.devices.gpu.bytes - fit.weightBytes;
        EXPECT_EQ(fit.roomBytes, room);
        EXPECT_LE(core::kvCache(llama.config, llama.plan, fit.maxSequenceLength, 1, DType::BF16).totalBytes, room);
        EXPECT_GT(core::kvCache(llama.config, llama.plan, fit.maxSequenceLength + 1, 1, DType::BF16).totalBytes, room);
    }
    // 24 GiB - 14.96 GiB of weights (16,060,522,496 bytes) leaves about 9.0 GiB: 74,000-odd tokens at 128 KiB each.
    EXPECT_EQ(fits.front().maxSequenceLength, (24ull * (1 << 30) - llama.weightBytes) / 131072);
    EXPECT_EQ(core::gpuFitText(fits.front(), llama.plan).verdict,
              "fits · up to " + core::withThousands(fits.front().maxSequenceLength) + " tokens");
}

TEST(GpuFit, DeepSeekNeedsSeveralDevicesAndWindowedModelsCanBeUnbounded) {
    core::Scenario bf16; // BF16 rather than the FP8 it ships in
    bf16.weightsAsShipped = false;
    const auto v3 = analyzePreset("deepseek-v3", bf16);
    const auto fits = core::gpuFits(v3.config, v3.plan, v3.weightBytes, scenario(1, 4096));
    EXPECT_FALSE(fits.back().devices.fits);
    EXPECT_EQ(fits.back().maxSequenceLength, 0u);
    EXPECT_EQ(fits.back().devices.devicesNeeded,
              (v3.weightBytes + v3.kv.totalBytes + fits.back().devices.gpu.bytes - 1) / fits.back().devices.gpu.bytes);
    EXPECT_EQ(core::gpuFitText(fits.back(), v3.plan).verdict, "needs 5 x 256 GiB: the weights alone exceed it");
    EXPECT_EQ(core::gpuFitText(fits.back(), v3.plan).tone, core::Tone::Bad);

    const auto mistral = analyzePreset("mistral-7b-v0.1");
    const auto capped = core::gpuFits(mistral.config, mistral.plan, mistral.weightBytes, scenario(1, 4096));
    EXPECT_TRUE(capped.front().unbounded);
    EXPECT_EQ(core::gpuFitText(capped.front(), mistral.plan).verdict, "fits at any length: windows cap the cache");
}

TEST(GpuFit, EveryRowUsesTheScenarioGpuCountAndTheRowOfItsSizeIsTheWeightsCard) {
    // DeepSeek-V3 at FP8 on 8 x 80 GiB: 671B of weights (625 GiB) fit in 640 GiB with a 4K cache.
    core::Scenario scenario;
    scenario.weightFormat = core::WeightFormat::FP8;
    scenario.weightsAsShipped = false;
    scenario.gpuCount = 8;
    const auto v3 = analyzePreset("deepseek-v3", scenario);
    ASSERT_TRUE(v3.devices.fits);
    const auto rows = core::summaryRows(v3);
    EXPECT_EQ(core::findRow(rows, "weight_bytes")->detail, "FP8 · fits on 8 x H100 SXM (80 GiB)");
    const auto fits = core::gpuFits(v3.config, v3.plan, v3.weightBytes, v3.scenario);
    ASSERT_EQ(std::count_if(fits.begin(), fits.end(), [](const core::GpuFit& fit) { return fit.scenario; }), 1);
    for (const auto& fit : fits) {
        EXPECT_EQ(fit.devices.devices, 8u);
        EXPECT_EQ(fit.devices.capacityBytes, 8 * fit.devices.gpu.bytes);
        EXPECT_EQ(fit.roomBytes, fit.devices.fits || fit.weightBytes < fit.devices.capacityBytes
                                     ? fit.devices.capacityBytes - fit.weightBytes
                                     : 0u);
        if (fit.scenario) {
            EXPECT_EQ(fit.devices.gpu.bytes, v3.devices.gpu.bytes);
            EXPECT_EQ(fit.devices.fits, v3.devices.fits);
            EXPECT_EQ(fit.devices.requiredBytes, v3.devices.requiredBytes);
            EXPECT_EQ(fit.devices.devicesNeeded, v3.devices.devicesNeeded);
            const core::GpuFitText text = core::gpuFitText(fit, v3.plan);
            EXPECT_EQ(text.label, "8 x 80 GiB");
            EXPECT_TRUE(text.verdict.starts_with("fits · up to ")) << text.verdict;
            EXPECT_EQ(text.tone, core::Tone::Good);
        }
    }
    // 8 x 24 GiB is too little for the weights: the row says how many it needs, as the card would.
    const core::GpuFitText small = core::gpuFitText(fits.front(), v3.plan);
    EXPECT_EQ(small.label, "8 x 24 GiB");
    EXPECT_EQ(small.verdict, "needs 27 x 24 GiB: the weights alone exceed it");
}

TEST(GpuFit, TheScenarioGpuSplitsWeightsAndCacheOverItsDevices) {
    // DeepSeek-V3 in BF16 is 1,342,052,808,704 bytes of weights: 8 x 141 GiB (1,211 GiB) is too
    // little, 8 x 192 GiB holds it with the 4K cache.
    core::Scenario scenario;
    scenario.gpu = *core::findGpu(core::builtinGpus(), "h200");
    scenario.gpuCount = 8;
    scenario.weightsAsShipped = false;
    const auto h200 = analyzePreset("deepseek-v3", scenario);
    EXPECT_EQ(h200.weightBytes, 1342052808704u);
    EXPECT_EQ(h200.devices.capacityBytes, 8 * 141ull << 30);
    EXPECT_EQ(h200.devices.requiredBytes, h200.weightBytes + h200.kv.totalBytes);
    EXPECT_FALSE(h200.devices.fits);
    EXPECT_EQ(h200.devices.devicesNeeded, 9u);
    EXPECT_EQ(core::fitVerdict(h200.devices), "needs 9 x 141 GiB");

    scenario.gpu = *core::findGpu(core::builtinGpus(), "mi300x");
    const auto mi300 = analyzePreset("deepseek-v3", scenario);
    EXPECT_TRUE(mi300.devices.fits);
    EXPECT_EQ(core::devicesLabel(mi300.scenario), "8 x MI300X (192 GiB)");
    // 1,342,340,642,816 of 1,649,267,441,664 bytes: 81.39%, floored.
    EXPECT_EQ(core::fitVerdict(mi300.devices), "fits, 81% used");

    // The default scenario is one 80 GiB device, and the summary table says whether the model fits.
    const auto llama = analyzePreset("llama-3-8b");
    EXPECT_TRUE(llama.devices.fits);
    EXPECT_EQ(llama.devices.devices, 1u);
    const auto rows = core::summaryRows(llama);
    ASSERT_EQ(rows.back().key, "gpu_fit");
    EXPECT_EQ(rows.back().label, "Weights + KV on 1 x H100 SXM (80 GiB)");
    EXPECT_EQ(rows.back().value, "fits, 19% used"); // 16,597,393,408 of 85,899,345,920 bytes
}

TEST(GpuFit, ADeviceWithoutMemoryOrNoDevicesIsAnErrorNamingTheField) {
    core::Scenario scenario;
    scenario.gpu.memoryGiB = 0;
    const core::Analysis odd = core::analyze(preset("llama-3-8b"), scenario);
    EXPECT_FALSE(odd.valid);
    ASSERT_TRUE(core::hasErrors(odd.diagnostics));
    EXPECT_EQ(odd.diagnostics.back().field, "gpu");
    EXPECT_EQ(odd.diagnostics.back().message, "memory_gib: h100-sxm has no memory");

    scenario = {};
    scenario.gpuCount = 0;
    const core::Analysis none = core::analyze(preset("llama-3-8b"), scenario);
    EXPECT_FALSE(none.valid);
    EXPECT_EQ(none.diagnostics.back().field, "gpu_count");
    // A device of a size the catalogue lacks gets a row of its own in the KV view.
    core::Gpu custom = core::defaultGpu();
    custom.id = "custom-100";
    custom.name = "Custom";
    custom.memoryGiB = 100;
    const auto sizes = core::gpuMemorySizes(custom);
    EXPECT_EQ(std::count_if(sizes.begin(), sizes.end(), [](const auto& s) { return s.label == "100 GiB"; }), 1);
    EXPECT_TRUE(
        std::is_sorted(sizes.begin(), sizes.end(), [](const auto& a, const auto& b) { return a.bytes < b.bytes; }));
}

// Issue 32: with devices of 2^30 GiB, 16 of them hold more than 2^64 - 1 bytes. The capacity
// saturates, and a fit must still be a fit, needing the devices its bytes need, not a count made
// from the saturated capacity.
TEST(DeviceFit, ASaturatedCapacityStillFitsAndNeedsWhatTheBytesNeed) {
    core::GpuMemorySize huge;
    huge.bytes = std::uint64_t{1} << 60;
    const std::uint64_t half = std::uint64_t{1} << 61;
    const core::DeviceFit fit = core::deviceFit(huge, 16, half, half);
    EXPECT_EQ(fit.capacityBytes, core::kSaturated);
    EXPECT_FALSE(fit.beyond);
    EXPECT_TRUE(fit.fits);
    EXPECT_EQ(fit.devicesNeeded, 4u);
    const core::DeviceFit one = core::deviceFit(huge, 1, half, half);
    EXPECT_FALSE(one.fits);
    EXPECT_EQ(one.devicesNeeded, 4u);
    // Past 2^64 - 1 bytes in all, no count is given.
    const core::DeviceFit over = core::deviceFit(huge, 16, core::kSaturated, half);
    EXPECT_TRUE(over.beyond);
    EXPECT_FALSE(over.fits);
    EXPECT_EQ(over.devicesNeeded, 0u);
}

} // namespace
} // namespace archplay::test
