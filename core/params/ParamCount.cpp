// SPDX-License-Identifier: GPL-3.0-or-later
#include "params/ParamCount.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace archplay::core {
namespace {

/// A leaf for `tensor`, taking its name (the tensor is not used after).
ParamNode leaf(TensorSpec& tensor, Checked params, bool& overflow) {
    overflow = overflow || params.overflowed();
    return ParamNode{std::move(tensor.name), params.value(), {tensor.shape, tensor.copies}, {}};
}

/// Sums the children into the node and drops empty children; returns the node, ready to be moved
/// into its parent.
ParamNode&& finish(ParamNode& node, bool& overflow) {
    Checked sum;
    std::erase_if(node.children, [](const ParamNode& child) { return child.params == 0 && child.children.empty(); });
    for (const ParamNode& child : node.children) {
        sum += child.params;
    }
    overflow = overflow || sum.overflowed();
    node.params = sum.value();
    return std::move(node);
}

ParamNode groupNode(std::string name) {
    ParamNode node{std::move(name), 0, {}, {}};
    node.children.reserve(8); // most groups hold a handful of tensors: one allocation
    return node;
}

bool isFfnComponent(Component c) {
    return c == Component::Ffn || c == Component::Router || c == Component::Experts || c == Component::SharedExperts;
}

std::string stackName(const ModelConfig& config, Stack stack) {
    if (config.architecture != ArchitectureKind::EncoderDecoder) {
        return "Layers";
    }
    return stack == Stack::Encoder ? "Encoder layers" : "Decoder layers";
}

std::string layerRange(const std::vector<std::int64_t>& indices) {
    if (indices.size() == 1) {
        return fmt::format("layer {}", indices.front());
    }
    const bool contiguous = indices.back() - indices.front() + 1 == static_cast<std::int64_t>(indices.size());
    if (contiguous) {
        return fmt::format("layers {}-{}", indices.front(), indices.back());
    }
    return fmt::format("{} layers", indices.size());
}

} // namespace

std::string toString(const TensorShape& shape) {
    if (shape.empty()) {
        return {};
    }
    fmt::memory_buffer text;
    if (shape.copies > 1) {
        fmt::format_to(std::back_inserter(text), "{} x ", shape.copies);
    }
    text.push_back('[');
    for (std::size_t i = 0; i < shape.dims.size(); ++i) {
        if (i > 0) {
            text.append(std::string_view(", "));
        }
        fmt::format_to(std::back_inserter(text), "{}", shape.dims[i]);
    }
    text.push_back(']');
    return fmt::to_string(text);
}

ParamReport countParameters(const ModelConfig& config, const ModelPlan& plan) {
    ParamReport report;
    bool overflow = false;
    std::array<Checked, kComponentCount> byComponent{};
    Checked total;
    Checked inactive;

    report.breakdown.name = "Model";
    ParamNode embeddings = groupNode("Embeddings");
    ParamNode outerNorms = groupNode("Final norms");
    ParamNode head = groupNode("Output head");
    ParamNode pooler = groupNode("Pooler");
    for (TensorSpec& tensor : outerTensors(config)) {
        const Checked params = tensor.total();
        byComponent[static_cast<std::size_t>(tensor.component)] += params;
        total += params;
        switch (tensor.component) {
        case Component::Norm:
            outerNorms.children.push_back(leaf(tensor, params, overflow));
            break;
        case Component::OutputHead:
            head.children.push_back(leaf(tensor, params, overflow));
            break;
        case Component::Pooler:
            pooler.children.push_back(leaf(tensor, params, overflow));
            break;
        default:
            embeddings.children.push_back(leaf(tensor, params, overflow));
            break;
        }
    }

    // Layers of one kind share their tensors; count each kind once and multiply.
    struct KindGroup {
        LayerPlan kind;
        std::vector<std::int64_t> indices;
        LayerParams params;
        std::vector<TensorSpec> tensors;
    };
    std::vector<KindGroup> groups;
    report.layers.reserve(plan.layers.size());
    for (const LayerPlan& layer : plan.layers) {
        auto found =
            std::find_if(groups.begin(), groups.end(), [&](const KindGroup& g) { return sameKind(g.kind, layer); });
        if (found == groups.end()) {
            KindGroup group{layer, {}, {}, layerTensors(config, layer)};
            Checked layerTotal, mixer, ffn, norms, unused;
            for (const TensorSpec& tensor : group.tensors) {
                const Checked params = tensor.total();
                layerTotal += params;
                if (tensor.component == Component::Norm) {
                    norms += params;
                } else if (isFfnComponent(tensor.component)) {
                    ffn += params;
                } else {
                    mixer += params;
                }
                if (tensor.component == Component::Experts && config.moe.numExperts > config.moe.topK) {
                    unused += tensor.elements() * dim(config.moe.numExperts - config.moe.topK);
                }
            }
            overflow = overflow || layerTotal.overflowed() || unused.overflowed();
            group.params = {layerTotal.value(), (layerTotal - unused).value(), mixer.value(), ffn.value(),
                            norms.value()};
            groups.push_back(std::move(group));
            found = std::prev(groups.end());
        }
        found->indices.push_back(layer.index);
        report.layers.push_back(found->params);
        total += found->params.total;
        inactive += found->params.total - found->params.active;
    }

    std::map<Stack, ParamNode> stackNodes;
    for (KindGroup& group : groups) {
        const Checked layers = static_cast<std::uint64_t>(group.indices.size());
        ParamNode node = groupNode(
            fmt::format("{} ({}, x{})", layerKindName(config, group.kind), layerRange(group.indices), group.indices.size()));
        ParamNode attention = groupNode(!group.kind.attends() ? std::string(mixerName(group.kind.mixer))
                                        : group.kind.latent   ? std::string("Latent attention")
                                                              : std::string("Attention"));
        ParamNode ffn = groupNode(group.kind.ffn == FfnKind::Moe ? "Mixture of experts" : "Feed-forward");
        ParamNode norms = groupNode("Norms");
        for (TensorSpec& tensor : group.tensors) {
            const Checked params = tensor.total() * layers;
            byComponent[static_cast<std::size_t>(tensor.component)] += params;
            ParamNode item = leaf(tensor, params, overflow);
            if (tensor.component == Component::Norm) {
                norms.children.push_back(std::move(item));
            } else if (isFfnComponent(tensor.component)) {
                ffn.children.push_back(std::move(item));
            } else {
                attention.children.push_back(std::move(item));
            }
        }
        node.children.reserve(3);
        node.children.push_back(finish(attention, overflow));
        node.children.push_back(finish(ffn, overflow));
        node.children.push_back(finish(norms, overflow));
        auto [it, inserted] = stackNodes.try_emplace(group.kind.stack, groupNode(stackName(config, group.kind.stack)));
        it->second.children.push_back(finish(node, overflow));
    }

    report.breakdown.children.push_back(finish(embeddings, overflow));
    for (auto& [stack, node] : stackNodes) {
        report.breakdown.children.push_back(finish(node, overflow));
    }
    report.breakdown.children.push_back(finish(outerNorms, overflow));
    report.breakdown.children.push_back(finish(head, overflow));
    report.breakdown.children.push_back(finish(pooler, overflow));
    finish(report.breakdown, overflow);

    for (std::size_t i = 0; i < byComponent.size(); ++i) {
        report.byComponent[i] = byComponent[i].value();
        overflow = overflow || byComponent[i].overflowed();
    }

    // Every token runs the LM head (even when tied) but only gathers one embedding row (FORMULAS.md §2.24).
    const Checked active = total - inactive;
    const Checked embedding =
        dim(config.vocabSize) *
        dim(config.embeddingProjectionDim > 0 ? config.embeddingProjectionDim : config.hiddenSize);
    Checked activeCompute = active - embedding;
    if (config.outputHead && config.tieWordEmbeddings) {
        activeCompute += embedding;
    }
    overflow = overflow || total.overflowed() || active.overflowed() || activeCompute.overflowed();
    report.total = total.value();
    report.active = active.value();
    report.activeCompute = activeCompute.value();

    report.extras = groupNode("Stored apart (not in the total)");
    std::vector<TensorSpec> extras = extraTensors(config);
    if (!extras.empty()) {
        ParamNode mtp = groupNode("Multi-token prediction module");
        mtp.children.reserve(extras.size());
        for (TensorSpec& tensor : extras) {
            mtp.children.push_back(leaf(tensor, tensor.total(), overflow));
        }
        report.extras.children.push_back(finish(mtp, overflow));
        finish(report.extras, overflow);
    }
    report.overflow = overflow || report.breakdown.params != report.total;
    return report;
}

} // namespace archplay::core
