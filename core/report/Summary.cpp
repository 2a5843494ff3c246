// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/Summary.h"

#include "core/report/Tables.h"
#include "core/util/Format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace archplay::core {

std::string devicesLabel(const Scenario& scenario) {
    return fmt::format("{} x {} ({} GiB)", scenario.gpuCount, scenario.gpu.name, scenario.gpu.memoryGiB);
}

std::string deviceUseText(std::uint64_t requiredBytes, std::uint64_t capacityBytes) {
    if (requiredBytes > capacityBytes) {
        const double times = double(requiredBytes) / double(std::max<std::uint64_t>(capacityBytes, 1));
        // Never "1.0×" for what does not fit (beside "needs 2 x"): two decimals there, at least 1.01.
        if (times < 1.05) {
            return fmt::format("{:.2f}×", std::max(1.01, std::round(times * 100.0) / 100.0));
        }
        return fmt::format("{:.1f}×", times);
    }
    // Floored, so a fit never reads as "100%".
    const double used = std::floor(100.0 * double(requiredBytes) / double(std::max<std::uint64_t>(capacityBytes, 1)));
    return used < 1.0 ? std::string("<1%") : fmt::format("{:.0f}%", used);
}

namespace {

std::string needsText(const DeviceFit& fit) {
    if (fit.beyond) {
        return "no number of devices: weights + cache are beyond 2^64 - 1 bytes";
    }
    return fmt::format("needs {} x {}", fit.devicesNeeded, fit.gpu.label);
}

} // namespace

std::string fitVerdict(const DeviceFit& fit) {
    if (fit.fits) {
        return fmt::format("fits, {} used", deviceUseText(fit.requiredBytes, fit.capacityBytes));
    }
    return needsText(fit);
}

std::string devicesLabel(const DeviceFit& fit) {
    return fmt::format("{} x {}", fit.devices, fit.gpu.label);
}

GpuFitText gpuFitText(const GpuFit& fit, const ModelPlan& plan) {
    GpuFitText text;
    text.label = devicesLabel(fit.devices);
    const std::string needs = needsText(fit.devices);
    if (fit.devices.fits && fit.unbounded) {
        const bool windows = std::any_of(plan.layers.begin(), plan.layers.end(),
                                         [](const LayerPlan& layer) { return layer.window > 0; });
        const bool states = std::any_of(plan.layers.begin(), plan.layers.end(), [](const LayerPlan& layer) {
            return layer.mixer != TokenMixer::Attention && layer.mixer != TokenMixer::AttentionWithMamba2;
        });
        text.verdict = windows && states ? "fits at any length: windows and fixed states cap the cache"
                       : windows         ? "fits at any length: windows cap the cache"
                                         : "fits at any length: the state does not grow";
        text.tone = Tone::Good;
    } else if (fit.devices.fits) {
        text.verdict = fmt::format("fits · up to {} tokens", tokenCount(fit.maxSequenceLength));
        text.tone = Tone::Good;
    } else if (fit.roomBytes > 0) {
        text.verdict = fmt::format("{}: cache fits up to {} tokens", needs, tokenCount(fit.maxSequenceLength));
        text.tone = Tone::Caution;
    } else {
        text.verdict = needs + ": the weights alone exceed it";
        text.tone = Tone::Bad;
    }
    const std::string use = deviceUseText(fit.devices.requiredBytes, fit.devices.capacityBytes);
    text.detail = fmt::format("weights {} + cache {} = {} {} {}", binaryBytes(fit.weightBytes),
                              binaryBytes(fit.kvBytes), use, fit.devices.fits ? "of" : "the", text.label);
    return text;
}

std::string noKvCacheNote(const ModelConfig& config) {
    return config.hasDecoder() ? std::string()
                               : "Encoder-only: every token attends over the whole input at once and nothing is "
                                 "generated token by token, so there is no KV cache.";
}

std::string estimateLabel(const ModelConfig& config) {
    return config.exact() ? std::string() : fmt::format("estimate: ignores {}", fmt::join(config.ignoredFields, ", "));
}

std::string uncountedLabel(const ModelConfig& config) {
    return config.uncountedParts.empty()
               ? std::string()
               : fmt::format("counts the language model only; not counted: {}", fmt::join(config.uncountedParts, ", "));
}

std::string mixerLabel(const ModelConfig& config) {
    if (!config.hybrid()) {
        return {};
    }
    const ModelPlan plan = planLayers(config);
    std::vector<std::pair<TokenMixer, std::int64_t>> counts;
    for (const LayerPlan& layer : plan.layers) {
        auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == layer.mixer; });
        if (it == counts.end()) {
            counts.emplace_back(layer.mixer, 1);
        } else {
            ++it->second;
        }
    }
    std::string text;
    for (const auto& [mixer, count] : counts) {
        text += fmt::format("{}{} {}", text.empty() ? "" : " + ", mixerName(mixer), count);
    }
    return text;
}

std::string layerKindsLabel(const ModelConfig& config, const ModelPlan& plan) {
    if (config.architecture == ArchitectureKind::EncoderDecoder) {
        return fmt::format("{} encoder + {} decoder", config.numEncoderLayers, config.numLayers);
    }
    const std::vector<LayerRun> runs = plan.runs();
    if (runs.empty()) {
        return {};
    }
    // Name only the part that tells the kinds apart: the mixing ("52 sliding 1024 + 10 global"), the
    // feed-forward ("58 MoE + 3 gated"), or both when both differ.
    auto attentionOf = [](const LayerPlan& layer) {
        return attentionKindName(layer) + (layer.crossAttention ? " + cross" : "");
    };
    auto ffnOf = [&](const LayerPlan& layer) {
        return layer.ffn == FfnKind::Moe ? std::string("MoE") : ffnKindName(config, layer.ffn);
    };
    bool sameAttention = true;
    bool sameFfn = true;
    for (const LayerRun& run : runs) {
        sameAttention = sameAttention && attentionOf(run.kind) == attentionOf(runs.front().kind);
        sameFfn = sameFfn && run.kind.ffn == runs.front().kind.ffn;
    }
    if (sameAttention && sameFfn) {
        return layerKindName(config, runs.front().kind);
    }
    std::vector<std::pair<std::string, std::int64_t>> counts;
    for (const LayerRun& run : runs) {
        const std::string name = sameFfn         ? attentionOf(run.kind)
                                 : sameAttention ? ffnOf(run.kind)
                                                 : attentionOf(run.kind) + " · " + ffnOf(run.kind);
        auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& entry) { return entry.first == name; });
        if (it == counts.end()) {
            counts.emplace_back(name, run.count);
        } else {
            it->second += run.count;
        }
    }
    std::stable_sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string text;
    for (const auto& [name, count] : counts) {
        text += fmt::format("{}{} {}", text.empty() ? "" : " + ", count, name);
    }
    return text;
}

PublishedVerdict publishedActiveVerdict(const ParamReport& params, const PublishedActive& published) {
    // The figure counted by the vendor's convention, rounded as the vendor rounds.
    const std::uint64_t figure = published.withoutEmbedding ? params.activeCompute : params.active;
    const double scale = std::pow(10.0, published.decimals);
    const double rounded = std::round(static_cast<double>(figure) / 1e9 * scale) / scale;
    const bool matches = std::abs(rounded - published.billions) < 0.5 / scale;
    const std::string value = fmt::format("{:.{}f}B", published.billions, published.decimals);
    const std::string convention = published.withoutEmbedding ? " without the embedding lookup" : "";
    PublishedVerdict verdict;
    verdict.matches = matches;
    verdict.detail = fmt::format("{} published {}{}", matches ? "✓" : "≠", value,
                                 published.withoutEmbedding ? " w/o embedding" : "");
    verdict.note =
        fmt::format("Published: {} active{} ({}); archplay's active{}: {}{}", value, convention, published.source,
                    convention, withThousands(figure), matches ? ", a match at the published precision" : "");
    return verdict;
}

namespace {

constexpr const char* kNone = "—";

std::string signedPercent(double fraction) {
    return (fraction >= 0 ? "+" : "") + percentText(fraction);
}

SummaryRow totalRow(const Analysis& analysis, const SummaryContext& context) {
    const ParamReport& params = analysis.params;
    SummaryRow row{"total_params", "Total parameters", shortCount(params.total), withThousands(params.total)};
    row.notes.push_back(
        fmt::format("{} parameters (unique and trainable; tied weights once)", withThousands(params.total)));
    if (params.extras.params > 0) {
        row.notes.push_back(fmt::format("Not counted: {} stored beside the model ({})",
                                        withThousands(params.extras.params), params.extras.name));
    }
    if (params.overflow) {
        row.detail = "overflow: saturated";
        row.tone = Tone::Bad;
    } else if (context.publishedParams) {
        const std::uint64_t published = *context.publishedParams;
        const bool match = published == params.total;
        row.notes.push_back(fmt::format("Published: {}{}", withThousands(published), match ? ", an exact match" : ""));
        if (match) {
            row.detail = "✓ published count";
            row.tone = Tone::Good;
        } else {
            const double delta =
                (double(params.total) - double(published)) / double(std::max<std::uint64_t>(published, 1));
            row.detail = fmt::format("published {} · Δ {}", shortCount(published), signedPercent(delta));
            row.tone = Tone::Caution;
        }
    } else if (!context.modifiedFrom.empty()) {
        row.detail = "modified from " + context.modifiedFrom;
    } else {
        row.detail = "unique, tied once";
    }
    return row;
}

SummaryRow activeRow(const ParamReport& params, const SummaryContext& context) {
    SummaryRow row{"active_params", "Active parameters", shortCount(params.active), withThousands(params.active)};
    row.notes.push_back(fmt::format("{} parameters used per token", withThousands(params.active)));
    row.detail = params.active == params.total
                     ? std::string("dense: all used per token")
                     : "per token · " + percentText(fractionOf(params.active, params.total)) + " of total";
    if (context.publishedActive) {
        const PublishedVerdict verdict = publishedActiveVerdict(params, *context.publishedActive);
        row.notes.push_back(verdict.note);
        row.detail = verdict.detail;
        row.tone = verdict.matches ? Tone::Good : Tone::Caution;
    }
    return row;
}

SummaryRow headDimRow(const ModelConfig& config) {
    const std::string label = headDimLabel(config);
    SummaryRow row{"head_dim", "d_head", label, label};
    if (label == "—") {
        row.detail = "no attention heads";
    } else if (config.latent) {
        row.detail = fmt::format("MLA q/k · v {}", config.latent->vHeadDim);
        row.notes.push_back(fmt::format("qk_nope_head_dim + qk_rope_head_dim; v_head_dim {}", config.latent->vHeadDim));
    } else {
        row.detail = config.headDim ? "set by head_dim" : "hidden / heads";
    }
    return row;
}

SummaryRow kvRow(const Analysis& analysis) {
    const KvCacheReport& kv = analysis.kv;
    SummaryRow row{"kv_bytes_per_token", fmt::format("KV per token ({})", toString(kv.dtype)),
                   binaryBytes(kv.bytesPerToken), withThousands(kv.bytesPerToken) + " bytes"};
    if (!analysis.config.hasDecoder()) {
        row.value = "none";
        row.detail = "encoder-only: nothing cached";
        row.notes.push_back(noKvCacheNote(analysis.config));
        return row;
    }
    row.detail = kv.batch == 1
                     ? fmt::format("{} for {} tokens", binaryBytes(kv.totalBytes), withThousands(kv.sequenceLength))
                     : fmt::format("{} for {} × {} tokens", binaryBytes(kv.totalBytes), kv.batch,
                                   withThousands(kv.sequenceLength));
    row.notes.push_back(
        fmt::format("{} bytes per token at {}, all layers", withThousands(kv.bytesPerToken), toString(kv.dtype)));
    row.notes.push_back(fmt::format("{} bytes for {} tokens × batch {} (windows applied)", withThousands(kv.totalBytes),
                                    withThousands(kv.sequenceLength), kv.batch));
    if (kv.fixedStateBytes > 0) {
        // Linear-attention and state-space layers keep a fixed state instead of a per-token cache.
        row.detail = "+ " + binaryBytes(kv.fixedStateBytesPerSequence) + " fixed state";
        row.notes.push_back(fmt::format("of which {} bytes are the fixed convolution and recurrent state of the "
                                        "linear-attention / state-space layers ({} bytes per sequence), which "
                                        "does not grow with the sequence",
                                        withThousands(kv.fixedStateBytes),
                                        withThousands(kv.fixedStateBytesPerSequence)));
    }
    if (kv.expandedBytesPerToken != kv.bytesPerToken) {
        row.notes.push_back(
            fmt::format("If MLA cached per-head K and V: {} bytes per token", withThousands(kv.expandedBytesPerToken)));
    }
    // Whose cache it is: the architecture's own, or what an engine allocates.
    row.notes.push_back(fmt::format("Cache as: {} ({})", allocatorLabel(kv.allocator), allocatorSource(kv.allocator)));
    if (kv.allocator != KvAllocator::Architecture) {
        row.label = fmt::format("KV per token ({}, {})", toString(kv.dtype), toString(kv.allocator));
        row.detail = std::string(toString(kv.allocator)) + " · " + row.detail;
    }
    if (kv.overflow) {
        // The saturated figures above are not sizes: say so instead of showing them.
        row.detail = "overflow: the cache exceeds 2^64 - 1 bytes";
        row.tone = Tone::Bad;
        row.notes = {fmt::format("The cache for {} tokens × batch {} exceeds 2^64 - 1 bytes, more than can be "
                                 "represented",
                                 withThousands(kv.sequenceLength), kv.batch)};
    }
    return row;
}

SummaryRow ffnRow(const ModelConfig& config) {
    SummaryRow row{"ffn", "FFN", ffnKindLabel(config), ffnLabel(config)};
    if (config.ffnKind == FfnKind::Moe) {
        row.detail = fmt::format("{} wide", withThousands(static_cast<std::uint64_t>(
                                                std::max<std::int64_t>(0, config.moe.expertIntermediateSize))));
        if (config.moe.numSharedExperts > 0) {
            row.detail += fmt::format(" · +{} shared", config.moe.numSharedExperts);
        }
        row.notes.push_back(fmt::format("top-{} of {} routed experts", config.moe.topK, config.moe.numExperts));
    } else if (config.ffnKind == FfnKind::None) {
        row.detail = "the mixer is the whole layer";
    } else {
        row.detail =
            "width " + withThousands(static_cast<std::uint64_t>(std::max<std::int64_t>(0, config.intermediateSize)));
    }
    return row;
}

SummaryRow weightsRow(const Analysis& analysis) {
    const DeviceFit& fit = analysis.devices;
    const std::string dtype = weightFormatLabel(analysis.config, analysis.scenario.weightFormat);
    const std::string devices = devicesLabel(analysis.scenario);
    SummaryRow row{"weight_bytes", fmt::format("Weights ({})", formatInfo(analysis.scenario.weightFormat).id),
                   binaryBytes(analysis.weightBytes), withThousands(analysis.weightBytes) + " bytes"};
    row.detail =
        fit.fits ? fmt::format("{} · fits on {}", dtype, devices) : fmt::format("{} · {}", dtype, fitVerdict(fit));
    row.tone = fit.fits ? Tone::Good : Tone::Caution;
    row.notes.push_back(fmt::format("{} bytes of weights at {}", withThousands(analysis.weightBytes), dtype));
    if (const std::string shipped = shippedWeightsNote(analysis.config); !shipped.empty()) {
        row.notes.push_back(shipped);
    }
    row.notes.push_back(fmt::format("weights + KV cache on {}: {} of {} bytes, {}", devices,
                                    withThousands(fit.requiredBytes), withThousands(fit.capacityBytes),
                                    fitVerdict(fit)));
    return row;
}

SummaryRow text(std::string key, std::string label, const std::string& value) {
    return {std::move(key), std::move(label), value, value};
}

SummaryRow missing(std::string key, std::string label) {
    return {std::move(key), std::move(label), kNone, kNone};
}

} // namespace

std::vector<SummaryRow> summaryRows(const Analysis& analysis, const SummaryContext& context) {
    const ModelConfig& config = analysis.config;
    const bool valid = analysis.valid;
    std::vector<SummaryRow> rows;
    if (!config.exact()) {
        rows.push_back(text("estimate", "Estimate", estimateLabel(config)));
    }
    if (!config.uncountedParts.empty()) {
        rows.push_back(text("counted", "Counted", uncountedLabel(config)));
    }
    if (valid) {
        rows.push_back(totalRow(analysis, context));
        rows.push_back(activeRow(analysis.params, context));
    } else {
        SummaryRow total = missing("total_params", "Total parameters");
        total.detail = "fix the errors below";
        total.tone = Tone::Bad;
        rows.push_back(std::move(total));
        rows.push_back(missing("active_params", "Active parameters"));
    }
    SummaryRow layers = text("layers", "Layers", layersLabel(config));
    if (valid) {
        layers.detail = layerKindsLabel(config, analysis.plan);
    }
    if (config.architecture == ArchitectureKind::EncoderDecoder) {
        layers.notes.push_back("encoder + decoder");
    }
    rows.push_back(std::move(layers));
    rows.push_back(headDimRow(config));
    SummaryRow attention = text("attention", "Attention", attentionLabel(config));
    attention.detail = attentionDetail(config);
    if (config.hasAttentionLayers()) {
        attention.notes.push_back(
            fmt::format("{} query heads, {} key/value heads", config.numHeads, config.numKvHeads));
    }
    rows.push_back(std::move(attention));
    if (config.hybrid()) {
        rows.push_back(text("token_mixers", "Token mixers", mixerLabel(config)));
    }
    if (!valid) {
        rows.push_back(missing("kv_bytes_per_token", "KV per token"));
        rows.push_back(ffnRow(config));
        rows.push_back(missing("weight_bytes", "Weights"));
        return rows;
    }
    const KvCacheReport& kv = analysis.kv;
    rows.push_back(kvRow(analysis));
    rows.push_back({"kv_total_bytes",
                    fmt::format("KV cache ({} tokens x {}{})", withThousands(kv.sequenceLength), kv.batch,
                                kv.allocator == KvAllocator::Architecture
                                    ? std::string()
                                    : ", as " + std::string(toString(kv.allocator)) + " allocates it"),
                    binaryBytes(kv.totalBytes), withThousands(kv.totalBytes) + " bytes",
                    kv.overflow ? "the cache exceeds 2^64 - 1 bytes" : ""});
    if (kv.fixedStateBytes > 0) {
        rows.push_back(
            {"fixed_state_bytes",
             fmt::format("Fixed state ({} sequence{}, {})", kv.batch, kv.batch == 1 ? "" : "s",
                         kv.stateDType ? std::string(toString(*kv.stateDType)) : std::string("as implemented")),
             binaryBytes(kv.fixedStateBytes), withThousands(kv.fixedStateBytes) + " bytes"});
    }
    rows.push_back(ffnRow(config));
    rows.push_back(weightsRow(analysis));
    const DeviceFit& fit = analysis.devices;
    rows.push_back({"gpu_fit",
                    fmt::format("Weights + KV on {}", devicesLabel(analysis.scenario)),
                    fitVerdict(fit),
                    fmt::format("{} of {} bytes", withThousands(fit.requiredBytes), withThousands(fit.capacityBytes)),
                    {},
                    fit.fits ? Tone::Good : Tone::Caution});
    return rows;
}

const std::vector<SummaryCardSpec>& summaryCardSpecs() {
    static const std::vector<SummaryCardSpec> specs = {
        {"total_params", "Total parameters"},
        {"active_params", "Active parameters"},
        {"layers", "Layers"},
        {"head_dim", "d_head"},
        {"attention", "Attention"},
        {"kv_bytes_per_token", "KV cache / token"},
        {"ffn", "FFN"},
        {"weight_bytes", "Weights"},
    };
    return specs;
}

const SummaryRow* findRow(const std::vector<SummaryRow>& rows, std::string_view key) {
    const auto it = std::find_if(rows.begin(), rows.end(), [&](const SummaryRow& row) { return row.key == key; });
    return it == rows.end() ? nullptr : &*it;
}

std::string summaryCsv(const std::vector<SummaryRow>& rows) {
    std::string out = "key,label,value,exact,detail\n";
    for (const SummaryRow& row : rows) {
        out += fmt::format("{},{},{},{},{}\n", row.key, csvField(row.label), csvField(row.value), csvField(row.exact),
                           csvField(row.detail));
    }
    return out;
}

std::string summaryMarkdown(const std::vector<SummaryRow>& rows) {
    std::string out = markdownHeader({{"Quantity"}, {"Value", true}, {"Exact", true}, {"Detail"}});
    for (const SummaryRow& row : rows) {
        out += markdownRow({row.label, row.value, row.exact, row.detail});
    }
    return out;
}

} // namespace archplay::core
