// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/LayerPlan.h"
#include "core/config/ModelConfig.h"
#include "core/util/Checked.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace archplay::core {

/// What a tensor belongs to, for breakdowns and colouring.
enum class Component {
    Embedding,     ///< token, token-type embeddings, embedding projections
    Positional,    ///< learned position tables, relative-position biases
    Attention,     ///< q/k/v/o projections, MLA down/up projections, their biases
    Norm,          ///< every LayerNorm/RMSNorm weight and bias, including QK-norm
    Ffn,           ///< dense feed-forward
    Router,        ///< MoE router (and shared-expert gate)
    Experts,       ///< routed experts
    SharedExperts, ///< always-on shared experts
    OutputHead,    ///< untied LM head and its bias
    Pooler,        ///< BERT pooler
    Mixer,         ///< linear-attention, state-space and convolution mixers (norms apart)
};

inline constexpr std::size_t kComponentCount = 11;

std::string_view toString(Component component);

/// A tensor's dimensions, up to four, stored inline so that counting allocates no shape vectors.
/// Each dimension is overflow-checked: a width that is a product of config values (heads x head_dim)
/// may exceed 2^64 - 1, and then stays flagged.
class Dims {
public:
    static constexpr std::size_t kMaxRank = 4;

    Dims() = default;
    Dims(std::initializer_list<Checked> dims) {
        for (Checked d : dims) {
            if (m_size < kMaxRank) {
                m_dims[m_size++] = d;
            }
        }
    }

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    Checked operator[](std::size_t i) const { return m_dims[i]; }
    const Checked* begin() const { return m_dims.data(); }
    const Checked* end() const { return m_dims.data() + m_size; }
    bool operator==(const Dims& other) const { return std::equal(begin(), end(), other.begin(), other.end()); }

private:
    std::array<Checked, kMaxRank> m_dims{};
    std::size_t m_size = 0;
};

/// One parameter tensor (or `copies` identical tensors, e.g. one per routed expert) with its
/// Hugging Face shape `[out, in]`, following `nn.Linear`'s storage convention.
struct TensorSpec {
    std::string name; ///< Hugging Face module path within its scope, e.g. "self_attn.q_proj.weight"
    Component component = Component::Attention;
    Dims shape;              ///< dimensions in elements, each overflow-checked
    std::int64_t copies = 1; ///< identical tensors (routed experts: E)

    /// Elements of one copy.
    Checked elements() const;
    /// Elements of all copies.
    Checked total() const { return elements() * dim(copies); }
};

/// The tensors of one layer, per the family layouts in FORMULAS.md §2.
[[nodiscard]] std::vector<TensorSpec> layerTensors(const ModelConfig& config, const LayerPlan& layer);

/// The tensors outside the layers: embeddings, positions, final norms, output head, pooler.
/// Tied weights appear once. Names are prefixed by their stack where a model has two.
[[nodiscard]] std::vector<TensorSpec> outerTensors(const ModelConfig& config);

/// Tensors a checkpoint stores beside the model but that are not counted in the total
/// (DeepSeek-V3's multi-token-prediction module). Reported apart.
[[nodiscard]] std::vector<TensorSpec> extraTensors(const ModelConfig& config);

} // namespace archplay::core
