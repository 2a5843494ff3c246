// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scenario/KvCurve.h"

#include "core/util/Checked.h"

#include <algorithm>
#include <cmath>

namespace archplay::core {

std::vector<std::uint64_t> kvCurveLengths(const ModelPlan& plan, std::uint64_t maxLength, std::uint64_t current) {
    std::vector<std::uint64_t> lengths;
    maxLength = std::max<std::uint64_t>(maxLength, 1);
    constexpr int kPointsPerOctave = 4;
    for (int step = 0;; ++step) {
        const double value = std::round(std::exp2(static_cast<double>(step) / kPointsPerOctave));
        if (value > static_cast<double>(maxLength) || step > 64 * kPointsPerOctave) {
            break;
        }
        lengths.push_back(static_cast<std::uint64_t>(value));
    }
    lengths.push_back(maxLength);
    for (const LayerPlan& layer : plan.layers) {
        if (layer.window > 0 && static_cast<std::uint64_t>(layer.window) <= maxLength) {
            lengths.push_back(static_cast<std::uint64_t>(layer.window));
        }
    }
    if (current > 0) {
        lengths.push_back(current);
    }
    std::sort(lengths.begin(), lengths.end());
    lengths.erase(std::unique(lengths.begin(), lengths.end()), lengths.end());
    return lengths;
}

std::vector<DType> kvCurveDTypes(DType current) {
    std::vector<DType> result;
    for (DType dtype : {DType::FP32, DType::BF16, DType::FP8, DType::INT4}) {
        result.push_back(bitsOf(dtype) == bitsOf(current) ? current : dtype);
    }
    return result;
}

std::vector<KvCurve> kvCurves(const ModelConfig& config, const ModelPlan& plan,
                              const std::vector<std::uint64_t>& lengths, const Scenario& scenario,
                              const std::vector<DType>& dtypes) {
    std::vector<KvCurve> curves;
    curves.reserve(dtypes.size());
    for (DType dtype : dtypes) {
        KvCurve curve;
        curve.dtype = dtype;
        curve.lengths = lengths;
        curve.bytes.reserve(lengths.size());
        bool unsupported = false;
        for (std::uint64_t length : lengths) {
            const KvCacheReport report =
                kvCache(config, plan, length, scenario.batch, dtype, scenario.encoderSequenceLength,
                        scenario.stateDType, scenario.kvAllocator, scenario.prefillChunk);
            unsupported = unsupported || !report.unsupported.empty();
            curve.bytes.push_back(report.totalBytes);
        }
        // A precision the allocator does not offer (vLLM's int4, llama.cpp's fp8) has no curve.
        if (!unsupported) {
            curves.push_back(std::move(curve));
        }
    }
    return curves;
}

KvCurve kvAlternativeCurve(const ModelConfig& config, const ModelPlan& plan, const std::vector<std::uint64_t>& lengths,
                           const Scenario& scenario, DType dtype, KvAlternative alternative) {
    ModelPlan uncapped = plan;
    if (alternative == KvAlternative::Uncapped) {
        for (LayerPlan& layer : uncapped.layers) {
            layer.window = 0;
        }
    }
    KvCurve curve;
    curve.dtype = dtype;
    curve.lengths = lengths;
    curve.bytes.reserve(lengths.size());
    for (std::uint64_t length : lengths) {
        const KvCacheReport report =
            kvCache(config, uncapped, length, scenario.batch, dtype, scenario.encoderSequenceLength,
                    scenario.stateDType, scenario.kvAllocator, scenario.prefillChunk);
        curve.bytes.push_back(alternative == KvAlternative::Expanded ? report.expandedTotalBytes : report.totalBytes);
    }
    return curve;
}

std::vector<KvKindShare> kvByLayerKind(const ModelPlan& plan, const KvCacheReport& report) {
    std::vector<KvKindShare> shares;
    KvKindShare cross;
    cross.name = "cross-attention";
    cross.cross = true;
    Checked crossElements;
    std::vector<Checked> selfElements;
    const bool engine = report.allocator == KvAllocator::Vllm || report.allocator == KvAllocator::LlamaCpp;
    const std::size_t count = std::min(plan.layers.size(), report.layers.size());
    for (std::size_t i = 0; i < count; ++i) {
        const LayerPlan& layer = plan.layers[i];
        const KvLayerCache& cache = report.layers[i];
        if (layer.stack != Stack::Decoder) {
            continue;
        }
        if (cache.fixedStateBytes > 0) {
            auto state = std::find_if(shares.begin(), shares.end(), [&](const KvKindShare& share) {
                return share.fixedState && share.mixer == layer.mixer;
            });
            if (state == shares.end()) {
                KvKindShare share;
                share.name = std::string(mixerName(layer.mixer == TokenMixer::AttentionWithMamba2 ? TokenMixer::Mamba2
                                                                                                  : layer.mixer)) +
                             " state";
                share.fixedState = true;
                share.mixer = layer.mixer;
                shares.push_back(share);
                selfElements.emplace_back();
                state = std::prev(shares.end());
            }
            ++state->layers;
            state->bytes = (Checked(state->bytes) + Checked(cache.fixedStateBytes) * Checked(report.batch)).value();
        }
        if (!layer.attends()) {
            continue;
        }
        auto found = std::find_if(shares.begin(), shares.end(), [&](const KvKindShare& share) {
            return !share.fixedState && share.attention == layer.attention && share.latent == layer.latent &&
                   share.cachedTokens == cache.cachedTokens &&
                   share.elementsPerTokenPerLayer == cache.selfElementsPerToken;
        });
        if (found == shares.end()) {
            KvKindShare share;
            share.attention = layer.attention;
            share.latent = layer.latent;
            share.elementsPerTokenPerLayer = cache.selfElementsPerToken;
            share.bytesPerTokenPerLayer = cache.selfBytesPerToken;
            share.cachedTokens = cache.cachedTokens;
            if (layer.latent) {
                share.name = report.latentExpanded ? "MLA per-head K and V" : "latent";
            } else if (layer.attention == LayerAttention::Sliding) {
                share.name = "sliding " + std::to_string(layer.window);
            } else if (layer.attention == LayerAttention::Chunked) {
                share.name = "chunked " + std::to_string(layer.window);
            } else {
                share.name = "global";
            }
            shares.push_back(share);
            selfElements.emplace_back();
            found = std::prev(shares.end());
        }
        ++found->layers;
        if (engine) {
            // An engine's layer bytes are its own (pages, quantised rows), not elements at the precision.
            found->bytes =
                (Checked(found->bytes) + Checked(cache.bytes) - Checked(cache.fixedStateBytes) * Checked(report.batch))
                    .value();
        }
        selfElements[static_cast<std::size_t>(found - shares.begin())] +=
            Checked(cache.selfElementsPerToken) * Checked(cache.cachedTokens);
        if (layer.crossAttention) {
            ++cross.layers;
            cross.elementsPerTokenPerLayer = cache.crossElementsPerToken;
            crossElements += Checked(cache.crossElementsPerToken) * Checked(report.encoderSequenceLength);
        }
    }
    for (std::size_t i = 0; i < shares.size(); ++i) {
        if (shares[i].fixedState || engine) {
            continue;
        }
        shares[i].bytes = bytesFor((selfElements[i] * Checked(report.batch)).value(), report.dtype);
    }
    if (cross.layers > 0) {
        cross.bytesPerTokenPerLayer = bytesFor(cross.elementsPerTokenPerLayer, report.dtype);
        cross.cachedTokens = report.encoderSequenceLength;
        cross.bytes = bytesFor((crossElements * Checked(report.batch)).value(), report.dtype);
        shares.push_back(cross);
    }
    return shares;
}

KvSavings kvSavings(const ModelConfig& config, const ModelPlan& plan, const Scenario& scenario) {
    const auto cacheOf = [&](const ModelPlan& layers) {
        return kvCache(config, layers, scenario.sequenceLength, scenario.batch, scenario.kvDType,
                       scenario.encoderSequenceLength, scenario.stateDType, scenario.kvAllocator,
                       scenario.prefillChunk);
    };
    KvSavings savings;
    const KvCacheReport report = cacheOf(plan);
    savings.totalBytes = report.totalBytes;
    savings.expandedBytes = report.expandedTotalBytes;
    ModelPlan uncapped = plan;
    for (LayerPlan& layer : uncapped.layers) {
        savings.windowed = savings.windowed || (layer.window > 0 && layer.stack == Stack::Decoder);
        savings.latent = savings.latent || (layer.latent && layer.stack == Stack::Decoder);
        layer.window = 0;
    }
    // Nothing saved where the allocator expands the latent, nor compared where it has no per-head rule (engines).
    savings.latent = savings.latent && !report.latentExpanded && report.expandedTotalBytes != report.totalBytes;
    savings.uncappedBytes = savings.windowed ? cacheOf(uncapped).totalBytes : report.totalBytes;
    return savings;
}

} // namespace archplay::core
