// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/LayerPlan.h"
#include "core/params/ParamCount.h"
#include "core/params/Tensors.h"

#include <cstdint>
#include <string>
#include <vector>

namespace archplay::core {

/// Parameters of every layer of one kind, summed over those layers.
struct LayerKindParams {
    LayerPlan kind;                   ///< the first layer of the kind
    std::string name;                 ///< layerKindName(), prefixed by the stack for encoder-decoder models
    std::vector<std::int64_t> layers; ///< indices within the stack
    std::uint64_t perLayer = 0;       ///< total of one layer
    std::uint64_t mixer = 0;          ///< the token mixer: attention, or linear attention / state-space / convolution
    std::uint64_t ffn = 0;            ///< dense FFN, or router + experts + shared experts
    std::uint64_t ffnActive = 0;      ///< the FFN parameters one token uses (router, k experts, shared experts)
    std::uint64_t norms = 0;
    std::uint64_t total = 0;
    std::uint64_t active = 0; ///< used by one token (routed experts count k of E)
};

/// Groups the per-layer counts of `report` by layer kind (sameKind()), in order of first appearance.
/// The totals of the groups sum to the sum of the layers.
[[nodiscard]] std::vector<LayerKindParams> paramsByLayerKind(const ModelConfig& config, const ModelPlan& plan,
                                                             const ParamReport& report);

/// Total and active parameters of one component of the whole model.
struct ComponentParams {
    Component component = Component::Embedding;
    std::uint64_t total = 0;
    std::uint64_t active = 0; ///< differs from total only for routed experts: k of E per MoE layer
};

/// The non-empty components of `report`, in the order of the Component enum. Totals sum to
/// report.total and actives to report.active (FORMULAS.md §2.24).
[[nodiscard]] std::vector<ComponentParams> paramsByComponent(const ParamReport& report);

} // namespace archplay::core
