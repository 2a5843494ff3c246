// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/params/ParamGroups.h"

#include "core/util/Checked.h"

#include <algorithm>

namespace archplay::core {

std::vector<LayerKindParams> paramsByLayerKind(const ModelConfig& config, const ModelPlan& plan,
                                               const ParamReport& report) {
    std::vector<LayerKindParams> groups;
    struct Sums {
        Checked mixer, ffn, ffnActive, norms, total, active;
    };
    std::vector<Sums> sums;
    const std::size_t count = std::min(plan.layers.size(), report.layers.size());
    for (std::size_t i = 0; i < count; ++i) {
        const LayerPlan& layer = plan.layers[i];
        const LayerParams& params = report.layers[i];
        auto found = std::find_if(groups.begin(), groups.end(),
                                  [&](const LayerKindParams& group) { return sameKind(group.kind, layer); });
        if (found == groups.end()) {
            LayerKindParams group;
            group.kind = layer;
            group.name = layerKindName(config, layer);
            if (config.architecture == ArchitectureKind::EncoderDecoder) {
                group.name = (layer.stack == Stack::Encoder ? "encoder " : "decoder ") + group.name;
            }
            group.perLayer = params.total;
            groups.push_back(std::move(group));
            sums.emplace_back();
            found = std::prev(groups.end());
        }
        found->layers.push_back(layer.index);
        Sums& sum = sums[static_cast<std::size_t>(found - groups.begin())];
        sum.mixer += params.mixer;
        sum.ffn += params.ffn;
        // What a token skips is routed experts, which sit in the FFN.
        sum.ffnActive += Checked(params.ffn) - (Checked(params.total) - Checked(params.active));
        sum.norms += params.norms;
        sum.total += params.total;
        sum.active += params.active;
    }
    for (std::size_t i = 0; i < groups.size(); ++i) {
        groups[i].mixer = sums[i].mixer.value();
        groups[i].ffn = sums[i].ffn.value();
        groups[i].ffnActive = sums[i].ffnActive.value();
        groups[i].norms = sums[i].norms.value();
        groups[i].total = sums[i].total.value();
        groups[i].active = sums[i].active.value();
    }
    return groups;
}

std::vector<ComponentParams> paramsByComponent(const ParamReport& report) {
    // Only routed experts are skipped by a token: everything a layer does not use is experts.
    Checked inactive;
    for (const LayerParams& layer : report.layers) {
        inactive += Checked(layer.total) - Checked(layer.active);
    }
    std::vector<ComponentParams> result;
    for (std::size_t i = 0; i < report.byComponent.size(); ++i) {
        const auto component = static_cast<Component>(i);
        const std::uint64_t total = report.byComponent[i];
        if (total == 0) {
            continue;
        }
        const std::uint64_t active = component == Component::Experts ? (Checked(total) - inactive).value() : total;
        result.push_back({component, total, active});
    }
    return result;
}

} // namespace archplay::core
