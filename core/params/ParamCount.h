// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/LayerPlan.h"
#include "core/config/ModelConfig.h"
#include "core/params/Tensors.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace archplay::core {

/// A leaf tensor's shape, kept as numbers so that counting allocates no text; toString() writes it.
struct TensorShape {
    Dims dims;               ///< empty for a group node
    std::int64_t copies = 1; ///< identical tensors (routed experts)

    bool empty() const { return dims.empty(); }
};

/// "[4096, 4096]", or "64 x [1408, 2048]" for copies; empty for a group.
std::string toString(const TensorShape& shape);

/// A node of the parameter breakdown tree. `params` is the sum of its children (or its own size for a leaf).
/// Inside a layer kind (the kind's node and everything under it), `params` counts every layer of the
/// kind: `perLayer` x `layers`.
struct ParamNode {
    std::string name;
    std::uint64_t params = 0;
    TensorShape shape; ///< leaf tensors only
    std::vector<ParamNode> children;
    std::uint64_t perLayer = 0; ///< one layer's parameters, when `layers` > 0
    std::int64_t layers = 0;    ///< the layers `params` spans; 0 for a node outside the layers

    /// True for a node of one layer kind or a part of it, whose count is perLayer x layers.
    bool repeated() const { return layers > 0; }
};

/// Parameters of one planned layer.
struct LayerParams {
    std::uint64_t total = 0;
    std::uint64_t active = 0; ///< used by one token: routed experts count k of E
    std::uint64_t mixer = 0;  ///< the token mixer: attention, or linear attention / state-space / convolution
    std::uint64_t ffn = 0;    ///< dense FFN, or router + experts + shared experts
    std::uint64_t norms = 0;
};

/// Unique trainable parameters (tied weights once, buffers excluded), the convention of
/// `model.num_parameters()` in Hugging Face transformers (FORMULAS.md §0).
struct ParamReport {
    std::uint64_t total = 0;
    /// Parameters a token uses: total minus the routed experts it is not sent to (FORMULAS.md §2.24).
    std::uint64_t active = 0;
    /// Active matmul parameters per token for FLOPs: active minus the input-embedding lookup,
    /// plus the LM head even when tied (FORMULAS.md §2.24, §5.2).
    std::uint64_t activeCompute = 0;
    std::array<std::uint64_t, kComponentCount> byComponent{}; ///< indexed by Component
    ParamNode breakdown;                                      ///< root named "Model"
    std::vector<LayerParams> layers;                          ///< aligned with ModelPlan::layers
    ParamNode extras;      ///< stored but not counted (DeepSeek-V3 MTP); params 0 if none
    bool overflow = false; ///< a count exceeded 2^64 - 1; figures are saturated
    /// When overflow: the first tensor (in module order) whose own size exceeds 2^64 - 1, and its
    /// component; the name is empty when only a sum of tensors overflowed.
    std::string overflowTensor;
    Component overflowComponent = Component::Embedding;

    std::uint64_t component(Component c) const { return byComponent[static_cast<std::size_t>(c)]; }
};

/// Counts the parameters of a planned model. Formula source: FORMULAS.md §1-2 (Hugging Face modeling files).
[[nodiscard]] ParamReport countParameters(const ModelConfig& config, const ModelPlan& plan);

} // namespace archplay::core
