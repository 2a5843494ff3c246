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

/// How a token uses a tensor: what its FLOPs are and which weight formats quantise it.
enum class TensorUse {
    Vector,         ///< 1-D, applied elementwise: norms, biases, decay rates, sink logits
    Lookup,         ///< a table a token reads one row of: token, type and position embeddings, relative-position biases
    Matrix,         ///< a Linear weight each token multiplies once (2 FLOPs per weight)
    SourceMatrix,   ///< a cross-attention key or value weight: each encoder token multiplies it once per decoder layer
    SequenceMatrix, ///< multiplied once per sequence, not per token (BERT's pooler)
    Convolution,    ///< a depthwise causal convolution kernel: each weight multiplies once per token
};

/// Projections that llama.cpp's K-quant mixes give more bits (llama-quant.cpp, llama_tensor_get_type).
enum class Projection { Other, Value, FusedQkv, FfnDown };

/// One parameter tensor (or `copies` identical tensors, e.g. one per routed expert) with its
/// Hugging Face shape as the checkpoint stores it: `[out, in]` for `nn.Linear`, `[in, out]` for
/// GPT-2's `Conv1D` (`inFirst`).
struct TensorSpec {
    /// The family's Hugging Face module path (ModelConfig::tensorNaming) within its scope: the layer
    /// for layer tensors ("self_attn.q_proj.weight", BERT's "attention.self.query.weight"), the base
    /// model for outer tensors ("embed_tokens.weight"), the whole model for the output head ("lm_head.weight").
    std::string name;
    Component component = Component::Attention;
    Dims shape;                  ///< dimensions in elements, each overflow-checked
    std::int64_t copies = 1;     ///< identical tensors (routed experts: E)
    bool inFirst = false;        ///< a weight stored [in, out] (GPT-2's Conv1D), not nn.Linear's [out, in]
    bool crossAttention = false; ///< part of a decoder layer's cross-attention block
    TensorUse use = TensorUse::Vector;
    Projection projection = Projection::Other;

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

/// The key of a tensor in the state dict of the class archplay counts (LlamaForCausalLM, BertModel,
/// GPT2LMHeadModel, T5ForConditionalGeneration, ...): the base model's prefix, the layer's path when
/// `layer` is given, then the tensor's name; the output head sits outside the base model.
/// E.g. "model.layers.0.self_attn.q_proj.weight", "encoder.layer.0.attention.self.query.weight".
[[nodiscard]] std::string checkpointKey(const ModelConfig& config, const TensorSpec& tensor,
                                        const LayerPlan* layer = nullptr);

/// How a state dict lays the tensors out.
enum class TensorLayout {
    Checkpoint,   ///< the family's checkpoint names, one tensor per routed expert ("mlp.experts.#.gate_proj.weight")
    Transformers, ///< transformers 5.x's modules: routed experts fused, "mlp.experts.gate_up_proj" [E, 2I, H]
};

/// One tensor of the state dict with the layer and expert numbers folded to '#' and the tensors that
/// share a key summed: `count` tensors of `shape`, `elements` in all.
struct FoldedTensor {
    std::string key;
    std::uint64_t count = 0;
    Dims shape;
    Checked elements;
};

/// Every tensor of the counted class (the keys of checkpointKey()), folded, in key order. Tied weights
/// appear once. Under TensorLayout::Transformers a routed expert's gate and up projections are one
/// tensor [E, 2 x width, hidden] (gate rows first) and its down projection [E, hidden, width], their
/// biases "gate_up_proj_bias" [E, 2 x width] and "down_proj_bias" [E, hidden], as transformers 5.x's
/// MoE experts modules hold them.
[[nodiscard]] std::vector<FoldedTensor> foldedTensors(const ModelConfig& config, const ModelPlan& plan,
                                                      TensorLayout layout);

/// Tensors a checkpoint stores beside the model but that are not counted in the total
/// (DeepSeek-V3's multi-token-prediction module). Reported apart.
[[nodiscard]] std::vector<TensorSpec> extraTensors(const ModelConfig& config);

} // namespace archplay::core
