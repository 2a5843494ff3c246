// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/params/ParamCount.h"

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
    Checked perLayer;
    std::erase_if(node.children, [](const ParamNode& child) { return child.params == 0 && child.children.empty(); });
    for (const ParamNode& child : node.children) {
        sum += child.params;
        perLayer += child.perLayer;
    }
    overflow = overflow || sum.overflowed() || perLayer.overflowed();
    node.params = sum.value();
    if (node.repeated()) {
        node.perLayer = perLayer.value();
    }
    return std::move(node);
}

ParamNode groupNode(std::string name) {
    ParamNode node{std::move(name), 0, {}, {}};
    node.children.reserve(8); // most groups hold a handful of tensors: one allocation
    return node;
}

/// The three parts of a layer that the breakdown and LayerParams split it into.
enum class SubBlock { Mixer, Ffn, Norms };

SubBlock subBlockOf(Component c) {
    switch (c) {
    case Component::Norm:
        return SubBlock::Norms;
    case Component::Ffn:
    case Component::Router:
    case Component::Experts:
    case Component::SharedExperts:
        return SubBlock::Ffn;
    default:
        return SubBlock::Mixer;
    }
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

/// The running sums of a count, every figure checked.
struct Tally {
    std::array<Checked, kComponentCount> byComponent{};
    Checked total;
    Checked inactive; ///< routed experts a token is not sent to, over all layers
    bool overflow = false;

    void add(Component component, Checked params) { byComponent[static_cast<std::size_t>(component)] += params; }
};

/// The breakdown's groups outside the layers.
struct OuterGroups {
    ParamNode embeddings = groupNode("Embeddings");
    ParamNode norms = groupNode("Final norms");
    ParamNode head = groupNode("Output head");
    ParamNode pooler = groupNode("Pooler");

    ParamNode& groupOf(Component component) {
        switch (component) {
        case Component::Norm:
            return norms;
        case Component::OutputHead:
            return head;
        case Component::Pooler:
            return pooler;
        default:
            return embeddings;
        }
    }
};

/// Counts the embeddings, positions, final norms, output head and pooler into `tally`.
OuterGroups countOuterTensors(const ModelConfig& config, Tally& tally) {
    OuterGroups outer;
    for (TensorSpec& tensor : outerTensors(config)) {
        const Checked params = tensor.total();
        tally.add(tensor.component, params);
        tally.total += params;
        outer.groupOf(tensor.component).children.push_back(leaf(tensor, params, tally.overflow));
    }
    return outer;
}

/// Layers of one kind: they share their tensors, so each kind is counted once and multiplied.
struct KindGroup {
    LayerPlan kind;
    std::vector<std::int64_t> indices;
    LayerParams params; ///< one layer
    std::vector<TensorSpec> tensors;
};

/// The figures of one layer from its tensors; `unused` experts are the routed experts a token skips.
LayerParams layerParams(const ModelConfig& config, const std::vector<TensorSpec>& tensors, bool& overflow) {
    Checked layerTotal, mixer, ffn, norms, unused;
    for (const TensorSpec& tensor : tensors) {
        const Checked params = tensor.total();
        layerTotal += params;
        switch (subBlockOf(tensor.component)) {
        case SubBlock::Norms:
            norms += params;
            break;
        case SubBlock::Ffn:
            ffn += params;
            break;
        case SubBlock::Mixer:
            mixer += params;
            break;
        }
        if (tensor.component == Component::Experts && config.moe.numExperts > config.moe.topK) {
            unused += tensor.elements() * dim(config.moe.numExperts - config.moe.topK);
        }
    }
    overflow = overflow || layerTotal.overflowed() || unused.overflowed();
    return {layerTotal.value(), (layerTotal - unused).value(), mixer.value(), ffn.value(), norms.value()};
}

/// Groups the planned layers by kind, in order of first appearance; fills report.layers and adds
/// every layer to the tally's total and inactive sums.
std::vector<KindGroup> groupLayersByKind(const ModelConfig& config, const ModelPlan& plan, ParamReport& report,
                                         Tally& tally) {
    std::vector<KindGroup> groups;
    report.layers.reserve(plan.layers.size());
    for (const LayerPlan& layer : plan.layers) {
        auto found =
            std::find_if(groups.begin(), groups.end(), [&](const KindGroup& g) { return sameKind(g.kind, layer); });
        if (found == groups.end()) {
            KindGroup group{layer, {}, {}, layerTensors(config, layer)};
            group.params = layerParams(config, group.tensors, tally.overflow);
            groups.push_back(std::move(group));
            found = std::prev(groups.end());
        }
        found->indices.push_back(layer.index);
        report.layers.push_back(found->params);
        tally.total += found->params.total;
        tally.inactive += found->params.total - found->params.active;
    }
    return groups;
}

/// The breakdown node of one layer kind, its tensors times its layers, split into the token mixer,
/// the FFN and the norms; adds the tensors to the tally's components.
ParamNode kindNode(const ModelConfig& config, KindGroup& group, Tally& tally) {
    const auto layerCount = static_cast<std::int64_t>(group.indices.size());
    const Checked layers = static_cast<std::uint64_t>(layerCount);
    ParamNode node = groupNode(fmt::format("{} ({}, x{})", layerKindName(config, group.kind), layerRange(group.indices),
                                           group.indices.size()));
    ParamNode mixer = groupNode(!group.kind.attends() ? std::string(mixerName(group.kind.mixer))
                                : group.kind.latent   ? std::string("Latent attention")
                                                      : std::string("Attention"));
    ParamNode ffn = groupNode(group.kind.ffn == FfnKind::Moe ? "Mixture of experts" : "Feed-forward");
    ParamNode norms = groupNode("Norms");
    for (ParamNode* part : {&node, &mixer, &ffn, &norms}) {
        part->layers = layerCount;
    }
    for (TensorSpec& tensor : group.tensors) {
        const Checked perLayer = tensor.total();
        const Checked params = perLayer * layers;
        tally.add(tensor.component, params);
        const SubBlock block = subBlockOf(tensor.component);
        ParamNode& parent = block == SubBlock::Norms ? norms : block == SubBlock::Ffn ? ffn : mixer;
        ParamNode& added = parent.children.emplace_back(leaf(tensor, params, tally.overflow));
        added.perLayer = perLayer.value();
        added.layers = layerCount;
    }
    node.children.reserve(3);
    node.children.push_back(finish(mixer, tally.overflow));
    node.children.push_back(finish(ffn, tally.overflow));
    node.children.push_back(finish(norms, tally.overflow));
    return node;
}

/// One node per stack (encoder before decoder) holding its layer kinds.
std::map<Stack, ParamNode> stackNodes(const ModelConfig& config, std::vector<KindGroup>& groups, Tally& tally) {
    std::map<Stack, ParamNode> stacks;
    for (KindGroup& group : groups) {
        ParamNode node = kindNode(config, group, tally);
        auto [it, inserted] = stacks.try_emplace(group.kind.stack, groupNode(stackName(config, group.kind.stack)));
        it->second.children.push_back(finish(node, tally.overflow));
    }
    return stacks;
}

/// Total, active and active-compute parameters from the tally.
void setTotals(const ModelConfig& config, Tally& tally, ParamReport& report) {
    // Every token runs the LM head (even when tied) but only gathers one embedding row (FORMULAS.md §2.24).
    const Checked active = tally.total - tally.inactive;
    const Checked embedding =
        dim(config.vocabSize) *
        dim(config.embeddingProjectionDim > 0 ? config.embeddingProjectionDim : config.hiddenSize);
    Checked activeCompute = active - embedding;
    if (config.outputHead && config.tieWordEmbeddings) {
        activeCompute += embedding;
    }
    tally.overflow = tally.overflow || tally.total.overflowed() || active.overflowed() || activeCompute.overflowed();
    report.total = tally.total.value();
    report.active = active.value();
    report.activeCompute = activeCompute.value();
}

/// What a checkpoint stores beside the model (DeepSeek-V3's MTP module); params 0 when nothing.
ParamNode extrasNode(const ModelConfig& config, bool& overflow) {
    ParamNode extras = groupNode("Stored apart (not in the total)");
    std::vector<TensorSpec> tensors = extraTensors(config);
    if (tensors.empty()) {
        return extras;
    }
    ParamNode mtp = groupNode("Multi-token prediction module");
    mtp.children.reserve(tensors.size());
    for (TensorSpec& tensor : tensors) {
        mtp.children.push_back(leaf(tensor, tensor.total(), overflow));
    }
    extras.children.push_back(finish(mtp, overflow));
    finish(extras, overflow);
    return extras;
}

/// Records in `report` the first tensor whose own size overflows: the outer tensors, then one layer of
/// each kind. Run only after an overflow, so it may rebuild the tensor lists.
void findOverflowingTensor(const ModelConfig& config, const std::vector<KindGroup>& groups, ParamReport& report) {
    auto first = [&](const std::vector<TensorSpec>& tensors) {
        for (const TensorSpec& tensor : tensors) {
            if (tensor.total().overflowed()) {
                report.overflowTensor = tensor.name;
                report.overflowComponent = tensor.component;
                return true;
            }
        }
        return false;
    };
    if (first(outerTensors(config))) {
        return;
    }
    for (const KindGroup& group : groups) {
        if (first(layerTensors(config, group.kind))) {
            return;
        }
    }
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
        const Checked d = shape.dims[i];
        if (d.overflowed()) {
            text.append(std::string_view("more than 2^64 - 1"));
        } else {
            fmt::format_to(std::back_inserter(text), "{}", d.value());
        }
    }
    text.push_back(']');
    return fmt::to_string(text);
}

ParamReport countParameters(const ModelConfig& config, const ModelPlan& plan) {
    ParamReport report;
    Tally tally;
    report.breakdown.name = "Model";
    OuterGroups outer = countOuterTensors(config, tally);
    std::vector<KindGroup> groups = groupLayersByKind(config, plan, report, tally);
    std::map<Stack, ParamNode> stacks = stackNodes(config, groups, tally);

    report.breakdown.children.push_back(finish(outer.embeddings, tally.overflow));
    for (auto& [stack, node] : stacks) {
        report.breakdown.children.push_back(finish(node, tally.overflow));
    }
    report.breakdown.children.push_back(finish(outer.norms, tally.overflow));
    report.breakdown.children.push_back(finish(outer.head, tally.overflow));
    report.breakdown.children.push_back(finish(outer.pooler, tally.overflow));
    finish(report.breakdown, tally.overflow);

    for (std::size_t i = 0; i < tally.byComponent.size(); ++i) {
        report.byComponent[i] = tally.byComponent[i].value();
        tally.overflow = tally.overflow || tally.byComponent[i].overflowed();
    }
    setTotals(config, tally, report);
    report.extras = extrasNode(config, tally.overflow);
    report.overflow = tally.overflow || report.breakdown.params != report.total;
    if (report.overflow) {
        findOverflowingTensor(config, groups, report);
    }
    return report;
}

} // namespace archplay::core
