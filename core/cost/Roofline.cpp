// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cost/Roofline.h"

#include "core/util/Checked.h"
#include "core/util/Format.h"

#include <algorithm>
#include <cmath>

namespace archplay::core {
namespace {

/// Expected distinct experts `tokens` tokens hit among E when each picks k uniformly and
/// independently: E·(1 - (1 - k/E)^T) (a derived estimate, FORMULAS.md §7). Exactly k for one token.
double expectedExperts(const MixtureOfExperts& moe, std::uint64_t tokens) {
    const double experts = asDouble(static_cast<std::uint64_t>(std::max<std::int64_t>(moe.numExperts, 0)));
    const double k = std::min(experts, asDouble(static_cast<std::uint64_t>(std::max<std::int64_t>(moe.topK, 0))));
    if (experts <= 0 || tokens == 0) {
        return 0;
    }
    if (tokens == 1) {
        return k;
    }
    return experts * (1 - std::pow(1 - k / experts, asDouble(tokens)));
}

/// Most sequences whose caches fit beside the weights in `capacity` bytes; kSaturated (any number)
/// when no cache grows with the batch; 0 when the weights alone, or with one sequence, do not fit.
std::uint64_t largestBatch(std::uint64_t weights, std::uint64_t perSequence, std::uint64_t capacity) {
    if (weights == kSaturated || perSequence == kSaturated || weights > capacity) {
        return 0;
    }
    const std::uint64_t room = capacity - weights;
    return perSequence == 0 ? kSaturated : room / perSequence;
}

} // namespace

DecodeStep decodeStep(const RooflineInputs& in, const Gpu& gpu, std::uint64_t gpus, bool fp8, std::uint64_t batch) {
    DecodeStep step;
    step.batch = batch;
    const WeightMemory& w = *in.weights;
    // Every weight but the lookups is read once per step; routed experts only where a token of the
    // batch goes. Lookups read one row per token, which is left out.
    const double experts = asDouble(w.component(Component::Experts));
    double weights = asDouble(w.bytes) - asDouble(w.lookupBytes) - experts;
    if (in.config->outputHead && in.config->tieWordEmbeddings) {
        weights += asDouble(w.component(Component::Embedding)); // the tied head reads the whole table
    }
    const MixtureOfExperts& moe = in.config->moe;
    if (experts > 0 && moe.numExperts > 0) {
        step.expertsPerLayer = expectedExperts(moe, batch);
        weights += experts * step.expertsPerLayer / asDouble(static_cast<std::uint64_t>(moe.numExperts));
    }
    step.weightBytes = weights;
    step.cacheBytes = asDouble(in.cacheBytesPerSequence) * asDouble(batch);
    step.flops = asDouble(in.compute->perToken) * asDouble(batch);
    const double n = asDouble(std::max<std::uint64_t>(gpus, 1));
    const double memorySeconds = (step.weightBytes + step.cacheBytes) / (gpu.bandwidth * n);
    const double computeSeconds = step.flops / (gpu.peakFlops(fp8) * n);
    step.seconds = std::max(memorySeconds, computeSeconds);
    step.computeBound = computeSeconds > memorySeconds;
    step.tokensPerSecond = step.seconds > 0 ? asDouble(batch) / step.seconds : 0;
    step.perSequence = step.seconds > 0 ? 1 / step.seconds : 0;
    const double bytes = step.weightBytes + step.cacheBytes;
    step.intensity = bytes > 0 ? step.flops / bytes : 0;
    return step;
}

RooflineReport roofline(const RooflineInputs& in, const Gpu& gpu, std::uint64_t gpus, bool fp8) {
    RooflineReport r;
    r.gpu = gpu;
    r.gpus = std::max<std::uint64_t>(gpus, 1);
    r.fp8 = fp8 && gpu.fp8Flops > 0;
    r.peakFlops = gpu.peakFlops(r.fp8) * asDouble(r.gpus);
    r.bandwidth = gpu.bandwidth * asDouble(r.gpus);
    r.ridge = gpu.ridgePoint(r.fp8);
    r.context = in.compute->context;
    r.cacheBytesPerSequence = in.cacheBytesPerSequence;
    r.largestBatch = largestBatch(in.weights->bytes, in.cacheBytesPerSequence, in.capacityBytes);
    for (std::uint64_t batch = 1; batch <= std::min<std::uint64_t>(512, r.largestBatch); batch *= 2) {
        r.curve.push_back(decodeStep(in, gpu, r.gpus, r.fp8, batch));
    }
    if (r.largestBatch > 0 && r.largestBatch < 512 && r.curve.back().batch != r.largestBatch) {
        r.curve.push_back(decodeStep(in, gpu, r.gpus, r.fp8, r.largestBatch));
    }
    r.scenario = decodeStep(in, gpu, r.gpus, r.fp8, std::max<std::uint64_t>(in.batch, 1));
    r.fits = r.scenario.batch <= r.largestBatch;
    if (r.fits && !r.scenario.computeBound && gpu.measuredBandwidth && gpu.bandwidth > 0) {
        // A memory-bound step takes bytes / bandwidth: at the bandwidth kernels achieve, the bound
        // scales by achieved / peak (FORMULAS.md §7).
        r.expectedDecode = ExpectedRate{r.scenario.tokensPerSecond * gpu.measuredBandwidth->low / gpu.bandwidth,
                                        r.scenario.tokensPerSecond * gpu.measuredBandwidth->high / gpu.bandwidth,
                                        gpu.measuredBandwidth->source};
    }
    // The step turns compute-bound at some batch or never (when each sequence's cache reads outweigh
    // its FLOPs); bound doubling, then halve the interval.
    std::uint64_t high = 1;
    while (high < kMostSequences && !decodeStep(in, gpu, r.gpus, r.fp8, high).computeBound) {
        high *= 2;
    }
    if (decodeStep(in, gpu, r.gpus, r.fp8, high).computeBound) {
        std::uint64_t low = high / 2 + 1;
        while (low < high) {
            const std::uint64_t mid = low + (high - low) / 2;
            if (decodeStep(in, gpu, r.gpus, r.fp8, mid).computeBound) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        r.computeBoundBatch = high;
    }
    const double batch = asDouble(std::max<std::uint64_t>(in.batch, 1));
    r.prefillFlops = in.compute->prefill * batch;
    r.prefillBytes =
        asDouble(in.weights->bytes) - asDouble(in.weights->lookupBytes) + asDouble(in.cacheBytesPerSequence) * batch;
    r.prefillSeconds = std::max(r.prefillFlops / r.peakFlops, r.prefillBytes / r.bandwidth);
    r.prefillIntensity = r.prefillBytes > 0 ? r.prefillFlops / r.prefillBytes : 0;
    r.timeToFirstToken = r.prefillSeconds + r.scenario.seconds;
    return r;
}

double attainableFlops(const RooflineReport& report, double intensity) {
    return std::min(report.peakFlops, report.bandwidth * std::max(intensity, 0.0));
}

RooflinePoint rooflinePoint(const DecodeStep& step) {
    return {step.intensity, step.seconds > 0 ? step.flops / step.seconds : 0, step.computeBound};
}

RooflinePoint prefillPoint(const RooflineReport& report) {
    return {report.prefillIntensity, report.prefillSeconds > 0 ? report.prefillFlops / report.prefillSeconds : 0,
            report.prefillIntensity > report.ridge};
}

} // namespace archplay::core
