// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/Tables.h"

#include "core/util/Format.h"

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
    out += fmt::format("{},{},{},{},{},{}\n", csvField(path), node.params, share(node.params, total),
                       csvField(toString(node.shape)), node.repeated() ? std::to_string(node.perLayer) : "",
                       node.repeated() ? std::to_string(node.layers) : "");
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
    out += markdownRow({indent + node.name, withThousands(node.params), perLayerText(node),
                        percentText(fractionOf(node.params, total)), shape});
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

std::string markdownHeader(const std::vector<MarkdownColumn>& columns) {
    std::string titles = "|";
    std::string alignments = "|";
    for (const MarkdownColumn& column : columns) {
        titles += " " + markdownCell(column.title) + " |";
        alignments += column.right ? "---:|" : "---|";
    }
    return titles + "\n" + alignments + "\n";
}

std::string markdownRow(const std::vector<std::string>& cells) {
    std::string row = "|";
    for (const std::string& cell : cells) {
        row += " " + markdownCell(cell) + " |";
    }
    return row + "\n";
}

std::string layersLabel(const ModelConfig& config) {
    return config.architecture == ArchitectureKind::EncoderDecoder
               ? fmt::format("{} + {}", config.numEncoderLayers, config.numLayers)
               : std::to_string(config.numLayers);
}

std::string headDimLabel(const ModelConfig& config) {
    if (!config.hasAttentionLayers() && !config.usesMixer(TokenMixer::LightningAttention)) {
        return "—";
    }
    return config.latent ? fmt::format("{}+{}", config.latent->qkNopeHeadDim, config.latent->qkRopeHeadDim)
                         : std::to_string(config.effectiveHeadDim());
}

std::string attentionLabel(const ModelConfig& config) {
    if (!config.hasAttentionLayers()) {
        return "none";
    }
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
    if (!config.hasAttentionLayers()) {
        return "no softmax attention: " + mixerLabel(config);
    }
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
    if (config.ffnKind == FfnKind::None) {
        return "none";
    }
    if (config.ffnKind == FfnKind::Moe) {
        return fmt::format("MoE {}/{}", config.moe.topK, config.moe.numExperts);
    }
    return activationName(config.activation, config.ffnKind == FfnKind::Gated);
}

std::string ffnLabel(const ModelConfig& config) {
    if (config.ffnKind == FfnKind::None) {
        return "none";
    }
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

std::string perLayerText(const ParamNode& node) {
    if (!node.repeated()) {
        return {};
    }
    return fmt::format("{} × {} {}", withThousands(node.perLayer), node.layers, node.layers == 1 ? "layer" : "layers");
}

std::string perLayerEquation(const ParamNode& node) {
    if (!node.repeated()) {
        return {};
    }
    return perLayerText(node) + " = " + withThousands(node.params);
}

std::string breakdownCsv(const ParamReport& params) {
    std::string out = "component,parameters,share_percent,shape,per_layer,layers\n";
    csvRows(params.breakdown, "", params.total, out);
    if (params.extras.params > 0) {
        csvRows(params.extras, "", params.total, out);
    }
    return out;
}

std::string breakdownMarkdown(const ParamReport& params) {
    std::string out =
        markdownHeader({{"Component"}, {"Parameters", true}, {"Per layer", true}, {"Share", true}, {"Shape"}});
    markdownRows(params.breakdown, 0, params.total, out);
    if (params.extras.params > 0) {
        markdownRows(params.extras, 0, params.total, out);
    }
    return out;
}

} // namespace archplay::core
