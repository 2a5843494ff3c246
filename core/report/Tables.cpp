// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/Tables.h"

#include "util/Format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace archplay::core {
namespace {

/// The share as a plain number for CSV (a machine column, share_percent).
std::string share(std::uint64_t part, std::uint64_t whole) {
    return whole == 0 ? "0" : fmt::format("{:.4f}", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

void csvRows(const ParamNode& node, const std::string& parent, std::uint64_t total, std::string& out) {
    const std::string path = parent.empty() ? node.name : parent + " / " + node.name;
    out += fmt::format("{},{},{},{}\n", csvField(path), node.params, share(node.params, total),
                       csvField(toString(node.shape)));
    for (const ParamNode& child : node.children) {
        csvRows(child, path, total, out);
    }
}

void markdownRows(const ParamNode& node, int depth, std::uint64_t total, std::string& out) {
    // Non-breaking spaces keep the indentation visible in rendered Markdown.
    std::string indent;
    for (int i = 0; i < depth; ++i) {
        indent += "\u00a0\u00a0\u00a0\u00a0";
    }
    const std::string shape = node.shape.empty() ? "" : "`" + toString(node.shape) + "`";
    out += fmt::format("| {}{} | {} | {} | {} |\n", indent, markdownCell(node.name), withThousands(node.params),
                       percentText(fractionOf(node.params, total)), shape);
    for (const ParamNode& child : node.children) {
        markdownRows(child, depth + 1, total, out);
    }
}

std::string activationName(Activation activation, bool gated) {
    switch (activation) {
    case Activation::Silu:
        return gated ? "SwiGLU" : "SiLU MLP";
    case Activation::Gelu:
    case Activation::GeluTanh:
        return gated ? "GeGLU" : "GELU MLP";
    case Activation::Relu:
        return gated ? "ReGLU" : "ReLU MLP";
    case Activation::XIelu:
        return gated ? "xIELU GLU" : "xIELU MLP";
    case Activation::Other:
        return gated ? "gated MLP" : "MLP";
    }
    return "MLP";
}

} // namespace

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) {
        return text;
    }
    std::string quoted = "\"";
    for (char ch : text) {
        quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    }
    return quoted + "\"";
}

std::string markdownCell(const std::string& text) {
    std::string escaped;
    for (char ch : text) {
        if (ch == '|') {
            escaped += "\\|";
        } else if (ch == '\n' || ch == '\r') {
            escaped += ' ';
        } else {
            escaped += ch;
        }
    }
    return escaped;
}

std::string layersLabel(const ModelConfig& config) {
    return config.architecture == ArchitectureKind::EncoderDecoder
               ? fmt::format("{} + {}", config.numEncoderLayers, config.numLayers)
               : std::to_string(config.numLayers);
}

std::string headDimLabel(const ModelConfig& config) {
    return config.latent ? fmt::format("{}+{}", config.latent->qkNopeHeadDim, config.latent->qkRopeHeadDim)
                         : std::to_string(config.effectiveHeadDim());
}

std::string attentionLabel(const ModelConfig& config) {
    const AttentionFamily family = attentionFamily(config);
    switch (family) {
    case AttentionFamily::MLA:
    case AttentionFamily::MHA:
        return fmt::format("{} {}", toString(family), config.numHeads);
    case AttentionFamily::GQA:
    case AttentionFamily::MQA:
        return fmt::format("{} {}/{}", toString(family), config.numKvHeads, config.numHeads);
    }
    return {};
}

std::string attentionDetail(const ModelConfig& config) {
    const std::string window =
        withThousands(static_cast<std::uint64_t>(std::max<std::int64_t>(0, config.slidingWindow)));
    std::string text;
    switch (config.slidingPattern) {
    case SlidingPattern::None:
        text = "global on every layer";
        break;
    case SlidingPattern::All:
        text = "sliding window " + window;
        break;
    case SlidingPattern::GlobalEveryN:
        text = fmt::format("window {}, 1 global in {}", window, config.globalEvery);
        break;
    case SlidingPattern::FromLayer:
        text = fmt::format("window {} from layer {}", window, config.firstSlidingLayer);
        break;
    case SlidingPattern::Explicit:
        text = fmt::format("window {}, per-layer list", window);
        break;
    }
    if (config.attentionChunkSize > 0) {
        text += ", chunks " + withThousands(static_cast<std::uint64_t>(config.attentionChunkSize));
    }
    if (config.hybrid() && config.numLayers > 0) {
        // Linear-attention and state-space layers have no softmax attention: say how many layers do.
        const auto cycle = static_cast<std::int64_t>(config.mixers.size());
        const auto attends = [&](std::int64_t end) {
            return std::count_if(config.mixers.begin(), config.mixers.begin() + end,
                                 [](TokenMixer m) { return hasAttention(m); });
        };
        const std::int64_t count =
            config.numLayers / cycle * attends(cycle) + attends(std::min(cycle, config.numLayers % cycle));
        text = config.slidingPattern == SlidingPattern::None
                   ? fmt::format("global on {} of {} layers", count, config.numLayers)
                   : fmt::format("{} of {} layers: {}", count, config.numLayers, text);
    }
    if (config.latent) {
        // Global attention is the rule; an MLA card has no room for both.
        const bool global = config.slidingPattern == SlidingPattern::None && config.attentionChunkSize <= 0;
        text = global ? fmt::format("latent rank {}", config.latent->kvLoraRank)
                      : fmt::format("latent r{}, {}", config.latent->kvLoraRank, text);
    }
    return text;
}

std::string ffnKindLabel(const ModelConfig& config) {
    if (config.ffnKind == FfnKind::Moe) {
        return fmt::format("MoE {}/{}", config.moe.topK, config.moe.numExperts);
    }
    return activationName(config.activation, config.ffnKind == FfnKind::Gated);
}

std::string ffnLabel(const ModelConfig& config) {
    if (config.ffnKind == FfnKind::Moe) {
        std::string label =
            fmt::format("MoE {}x{} top-{}", config.moe.numExperts, config.moe.expertIntermediateSize, config.moe.topK);
        if (config.moe.numSharedExperts > 0) {
            label += fmt::format(" +{} shared", config.moe.numSharedExperts);
        }
        return label;
    }
    return fmt::format("{} {}", activationName(config.activation, config.ffnKind == FfnKind::Gated),
                       config.intermediateSize);
}

std::string devicesLabel(const Scenario& scenario) {
    return fmt::format("{} x {} GiB", scenario.gpuCount, scenario.gpuMemoryGiB);
}

std::string fitVerdict(const DeviceFit& fit) {
    if (fit.fits) {
        // Floored, so a fit never reads as "100% used".
        const double used =
            std::floor(100.0 * double(fit.requiredBytes) / double(std::max<std::uint64_t>(fit.capacityBytes, 1)));
        return used < 1.0 ? std::string("fits, <1% used") : fmt::format("fits, {:.0f}% used", used);
    }
    return fmt::format("needs {} x {}", fit.devicesNeeded, fit.gpu.label);
}

std::string joined(const std::vector<std::string>& items) {
    std::string text;
    for (const std::string& item : items) {
        text += (text.empty() ? "" : ", ") + item;
    }
    return text;
}

std::string estimateLabel(const ModelConfig& config) {
    return config.exact() ? std::string() : "estimate: ignores " + joined(config.ignoredFields);
}

std::string uncountedLabel(const ModelConfig& config) {
    return config.uncountedParts.empty()
               ? std::string()
               : "counts the language model only; not counted: " + joined(config.uncountedParts);
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

std::vector<SummaryRow> summaryRows(const Analysis& analysis) {
    const ModelConfig& config = analysis.config;
    const ParamReport& params = analysis.params;
    const KvCacheReport& kv = analysis.kv;
    std::vector<SummaryRow> rows;
    auto count = [&](std::string key, std::string label, std::uint64_t value) {
        rows.push_back({std::move(key), std::move(label), shortCount(value), withThousands(value)});
    };
    auto bytes = [&](std::string key, std::string label, std::uint64_t value) {
        rows.push_back({std::move(key), std::move(label), binaryBytes(value), withThousands(value) + " bytes"});
    };
    auto text = [&](std::string key, std::string label, std::string value) {
        rows.push_back({std::move(key), std::move(label), value, value});
    };
    if (!config.exact()) {
        text("estimate", "Estimate", estimateLabel(config));
    }
    if (!config.uncountedParts.empty()) {
        text("counted", "Counted", uncountedLabel(config));
    }
    count("total_params", "Total parameters", params.total);
    count("active_params", "Active parameters", params.active);
    text("layers", "Layers", layersLabel(config));
    text("head_dim", "d_head", headDimLabel(config));
    text("attention", "Attention", attentionLabel(config));
    if (config.hybrid()) {
        text("token_mixers", "Token mixers", mixerLabel(config));
    }
    bytes("kv_bytes_per_token", fmt::format("KV per token ({})", toString(kv.dtype)), kv.bytesPerToken);
    bytes("kv_total_bytes", fmt::format("KV cache ({} tokens x {})", withThousands(kv.sequenceLength), kv.batch),
          kv.totalBytes);
    if (kv.fixedStateBytes > 0) {
        bytes("fixed_state_bytes",
              fmt::format("Fixed state ({} sequence{}, {})", kv.batch, kv.batch == 1 ? "" : "s",
                          kv.stateDType ? std::string(toString(*kv.stateDType)) : std::string("as implemented")),
              kv.fixedStateBytes);
    }
    text("ffn", "FFN", ffnLabel(config));
    rows.push_back({"weight_bytes", fmt::format("Weights ({})", toString(analysis.scenario.weightDType)),
                    binaryBytes(analysis.weightBytes), withThousands(analysis.weightBytes) + " bytes"});
    const DeviceFit& fit = analysis.devices;
    rows.push_back({"gpu_fit", fmt::format("Weights + KV on {}", devicesLabel(analysis.scenario)), fitVerdict(fit),
                    fmt::format("{} of {} bytes", withThousands(fit.requiredBytes), withThousands(fit.capacityBytes))});
    return rows;
}

std::string breakdownCsv(const ParamReport& params) {
    std::string out = "component,parameters,share_percent,shape\n";
    csvRows(params.breakdown, "", params.total, out);
    if (params.extras.params > 0) {
        csvRows(params.extras, "", params.total, out);
    }
    return out;
}

std::string breakdownMarkdown(const ParamReport& params) {
    std::string out = "| Component | Parameters | Share | Shape |\n|---|---:|---:|---|\n";
    markdownRows(params.breakdown, 0, params.total, out);
    if (params.extras.params > 0) {
        markdownRows(params.extras, 0, params.total, out);
    }
    return out;
}

std::string summaryCsv(const Analysis& analysis) {
    std::string out = "key,label,value,exact\n";
    for (const SummaryRow& row : summaryRows(analysis)) {
        out += fmt::format("{},{},{},{}\n", row.key, csvField(row.label), csvField(row.value), csvField(row.exact));
    }
    return out;
}

std::string summaryMarkdown(const Analysis& analysis) {
    std::string out = "| Quantity | Value | Exact |\n|---|---:|---:|\n";
    for (const SummaryRow& row : summaryRows(analysis)) {
        out += fmt::format("| {} | {} | {} |\n", markdownCell(row.label), markdownCell(row.value),
                           markdownCell(row.exact));
    }
    return out;
}

} // namespace archplay::core
