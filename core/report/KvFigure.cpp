// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/KvFigure.h"

#include "core/util/Format.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace archplay::core {
namespace {

/// The decoder's layers and the distinct windows of those with one.
struct Windows {
    std::int64_t decoderLayers = 0;
    std::int64_t windowedLayers = 0;
    std::set<std::int64_t> sizes;
};

Windows windowsOf(const ModelPlan& plan) {
    Windows windows;
    for (const LayerPlan& layer : plan.layers) {
        if (layer.stack != Stack::Decoder) {
            continue;
        }
        ++windows.decoderLayers;
        if (layer.window > 0) {
            ++windows.windowedLayers;
            windows.sizes.insert(layer.window);
        }
    }
    return windows;
}

std::string subtitleOf(const Analysis& analysis) {
    const std::string_view allocator = allocatorLabel(analysis.kv.allocator);
    if (!analysis.config.hasAttentionLayers()) {
        return fmt::format("No layer keeps keys and values: the fixed state of each layer, which does not grow with "
                           "the context: {}.",
                           allocator);
    }
    if (analysis.kv.fixedStateBytes > 0) {
        return fmt::format("Keys and values of the attention layers per token, plus the fixed state of the other "
                           "layers: {}.",
                           allocator);
    }
    return fmt::format("Keys and values (or MLA's latent) kept for every token of context: {}.", allocator);
}

std::vector<std::string> notesOf(const Analysis& analysis, const KvSavings& savings, const Windows& windows,
                                 const std::vector<KvKindShare>& shares) {
    const Scenario& s = analysis.scenario;
    const KvCacheReport& kv = analysis.kv;
    std::vector<std::string> notes;
    if (analysis.config.maxPositions > 0 &&
        s.sequenceLength > static_cast<std::uint64_t>(analysis.config.maxPositions)) {
        notes.push_back(fmt::format("S = {} is beyond the model's context length of {} tokens.",
                                    withThousands(s.sequenceLength),
                                    withThousands(static_cast<std::uint64_t>(analysis.config.maxPositions))));
    }
    if (savings.latent && kv.bytesPerToken > 0) {
        notes.push_back(fmt::format("MLA caches the latent: {} per token instead of {} for per-head K and V ({:.1f}× "
                                    "less); {} instead of {} at this scenario.",
                                    binaryBytes(kv.bytesPerToken), binaryBytes(kv.expandedBytesPerToken),
                                    double(kv.expandedBytesPerToken) / double(kv.bytesPerToken),
                                    binaryBytes(savings.totalBytes), binaryBytes(savings.expandedBytes)));
    }
    if (savings.windowed) {
        std::vector<std::string> sizes;
        for (const std::int64_t window : windows.sizes) {
            sizes.push_back(withThousands(static_cast<std::uint64_t>(window)));
        }
        const std::string sizeText = fmt::format("{}", fmt::join(sizes, ", "));
        if (savings.uncappedBytes > savings.totalBytes) {
            notes.push_back(fmt::format(
                "Windows hold {} of {} layers to {} tokens: {} instead of {} with every layer global ({} less).",
                windows.windowedLayers, windows.decoderLayers, sizeText, binaryBytes(savings.totalBytes),
                binaryBytes(savings.uncappedBytes),
                percentText(fractionOf(savings.uncappedBytes - savings.totalBytes, savings.uncappedBytes))));
        } else {
            notes.push_back(fmt::format("Windows of {} tokens on {} of {} layers do not bite at S = {}: the cache of "
                                        "those layers stops growing beyond the window.",
                                        sizeText, windows.windowedLayers, windows.decoderLayers,
                                        withThousands(s.sequenceLength)));
        }
    }
    for (const KvKindShare& share : shares) {
        if (share.cross) {
            notes.push_back(fmt::format("Cross-attention keeps K and V of the {} source tokens for every decoder "
                                        "layer, computed once per request: {}.",
                                        withThousands(share.cachedTokens), binaryBytes(share.bytes)));
        }
    }
    return notes;
}

} // namespace

std::vector<std::string> engineLayoutLines(const KvCacheReport& kv) {
    std::vector<std::string> lines;
    const KvEngineLayout& e = kv.engine;
    if (kv.allocator == KvAllocator::Vllm && e.pageBytes > 0) {
        lines.push_back(
            fmt::format("vLLM: pages of {} tokens, {} per layer; {} group{} of {} layers{}; a request "
                        "of {} tokens takes {} pages.",
                        e.blockTokens, binaryBytes(e.pageBytes), e.groups, e.groups == 1 ? "" : "s", e.groupSize,
                        e.paddingLayers == 0
                            ? std::string()
                            : fmt::format(" ({} padding layers, {})", e.paddingLayers, binaryBytes(kv.paddingBytes)),
                        withThousands(kv.sequenceLength), withThousands(e.pagesPerSequence)));
    } else if (kv.allocator == KvAllocator::LlamaCpp) {
        const auto mib = [](std::uint64_t bytes) {
            return static_cast<double>(bytes) / (1024.0 * 1024.0);
        };
        const std::string_view type = kvFormatName(kv.allocator, kv.dtype);
        lines.push_back(fmt::format("llama.cpp: {:.2f} MiB ({} cells per sequence, {}/{} seqs), K ({}): {:.2f} MiB, "
                                    "V ({}): {:.2f} MiB.",
                                    mib(e.keyBytes + e.valueBytes), withThousands(e.cells), kv.batch, kv.batch, type,
                                    mib(e.keyBytes), type, mib(e.valueBytes)));
        if (e.slidingCells > 0) {
            lines.push_back(
                fmt::format("llama.cpp: sliding layers hold {} cells per sequence.", withThousands(e.slidingCells)));
        }
        if (e.recurrentBytes > 0) {
            lines.push_back(fmt::format("llama.cpp: recurrent states in f32, {:.2f} MiB.", mib(e.recurrentBytes)));
        }
    }
    return lines;
}

KvFigure kvFigure(const Analysis& analysis) {
    KvFigure figure;
    if (!analysis.valid) {
        return figure;
    }
    figure.noCache = noKvCacheNote(analysis.config);
    if (figure.noCache.empty() && !analysis.kv.unsupported.empty()) {
        figure.noCache =
            fmt::format("No figure as {}: {}.", allocatorLabel(analysis.kv.allocator), analysis.kv.unsupported);
    }
    if (!figure.noCache.empty()) {
        return figure;
    }
    const Scenario& s = analysis.scenario;
    const KvCacheReport& kv = analysis.kv;
    const ModelPlan& plan = analysis.plan;
    figure.shares = kvByLayerKind(plan, kv);
    // Twice the longer of the model's context and the scenario's sequence: both marks sit inside.
    const std::uint64_t longest =
        2 *
        std::max<std::uint64_t>(
            {static_cast<std::uint64_t>(std::max<std::int64_t>(analysis.config.maxPositions, 1)), s.sequenceLength, 1});
    const std::vector<std::uint64_t> lengths = kvCurveLengths(plan, longest, s.sequenceLength);
    figure.curves = kvCurves(analysis.config, plan, lengths, s, kvCurveDTypes(s.kvDType));
    figure.fits = gpuFits(analysis.config, plan, analysis.weightBytes, s);
    for (const GpuFit& fit : figure.fits) {
        figure.fitTexts.push_back(gpuFitText(fit, plan));
    }
    const KvSavings savings = kvSavings(analysis.config, plan, s);
    const Windows windows = windowsOf(plan);

    figure.subtitle = subtitleOf(analysis);
    figure.headline = binaryBytes(kv.totalBytes);
    figure.headlineDetail =
        fmt::format("at S = {} tokens × batch {}, {} cache · {} per token of context", withThousands(s.sequenceLength),
                    withThousands(s.batch), toString(kv.dtype), binaryBytes(kv.bytesPerToken));
    if (figure.shares.size() == 1 && !figure.shares.front().cross) {
        figure.headlineDetail +=
            fmt::format(" ({} per layer)", binaryBytes(figure.shares.front().bytesPerTokenPerLayer));
    }
    figure.notes = notesOf(analysis, savings, windows, figure.shares);
    for (std::string& line : engineLayoutLines(kv)) {
        figure.notes.push_back(std::move(line));
    }

    figure.lengthMarkers.push_back({double(std::max<std::int64_t>(analysis.config.maxPositions, 1)),
                                    "context " + tokenCount(static_cast<std::uint64_t>(analysis.config.maxPositions))});
    for (const std::int64_t window : windows.sizes) {
        figure.lengthMarkers.push_back({double(window), "W " + tokenCount(static_cast<std::uint64_t>(window))});
    }
    if (savings.windowed) {
        figure.comparisons.push_back(
            {fmt::format("{} if every layer were global", toString(s.kvDType)),
             kvAlternativeCurve(analysis.config, plan, lengths, s, s.kvDType, KvAlternative::Uncapped)});
    }
    if (savings.latent) {
        figure.comparisons.push_back(
            {fmt::format("{} per-head K and V (MLA expanded)", toString(s.kvDType)),
             kvAlternativeCurve(analysis.config, plan, lengths, s, s.kvDType, KvAlternative::Expanded)});
    }
    // The room on a device where it meets the curves (up to 4 x their top); the rows beside the plot
    // have the others.
    std::uint64_t highest = 1;
    for (const KvCurve& curve : figure.curves) {
        highest = std::max(highest, curve.bytes.empty() ? 0 : curve.bytes.back());
    }
    for (const KvComparison& comparison : figure.comparisons) {
        highest = std::max(highest, comparison.curve.bytes.empty() ? 0 : comparison.curve.bytes.back());
    }
    for (std::size_t i = 0; i < figure.fits.size(); ++i) {
        const GpuFit& fit = figure.fits[i];
        if (fit.scenario && fit.roomBytes > 0 && double(fit.roomBytes) <= 4.0 * double(highest)) {
            figure.roomMarkers.push_back(
                {double(fit.roomBytes), "room beside the weights on " + figure.fitTexts[i].label});
        }
    }
    return figure;
}

} // namespace archplay::core
