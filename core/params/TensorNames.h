// SPDX-License-Identifier: GPL-3.0-or-later
// The module paths of each family's tensors, as its transformers modeling file names them
// (ModelConfig::tensorNaming). Used by Tensors.cpp; internal to core/params.
#pragma once

#include "core/config/LayerPlan.h"
#include "core/config/ModelConfig.h"

#include <array>
#include <string>

namespace archplay::core::tensornames {

/// The projections of one attention block, each a module path within the layer; the `.weight` and
/// `.bias` suffixes are added by the caller.
struct AttentionNames {
    std::string q, k, v;
    std::string qkv; ///< the fused projection when ModelConfig::fusedQkv
    std::string o;
};

/// How a checkpoint stores a layer's routed experts.
enum class ExpertStorage {
    PerExpert,    ///< one module per expert: experts.N.gate_proj.weight [I, H] (Mixtral, DeepSeek, Qwen)
    FusedInFirst, ///< experts.gate_up_proj [E, H, 2I], experts.down_proj [E, I, H] (gpt-oss, Llama 4)
    FusedLinear,  ///< input_linear.weight [E, 2I, H], output_linear.weight [E, H, I] (Granite 4.0 H)
};

/// The module paths of a mixture of experts within the layer.
struct MoeNames {
    std::string router = "mlp.gate"; ///< the router Linear [E, H]
    std::string correctionBias = "mlp.gate.e_score_correction_bias";
    bool correctionBiasRow = false;      ///< the correction bias stored [1, E] (ERNIE's moe_statics)
    std::string experts = "mlp.experts"; ///< the routed experts' module ("experts.gate_proj" per expert)
    ExpertStorage storage = ExpertStorage::PerExpert;
    std::string shared = "mlp.shared_experts"; ///< the shared experts' GLU
    /// Non-empty: the shared experts' gate and up are one tensor [2 x width, H] under this name, and
    /// `sharedDown` their down projection (Granite 4.0 H's shared_mlp.input_linear, output_linear).
    std::string sharedGateUp, sharedDown;
    std::string sharedGate = "mlp.shared_expert_gate"; ///< Qwen2-MoE's sigmoid gate Linear(H, 1)
};

/// The module paths of one layer of the family. Parts a family does not have (a gated FFN in BERT)
/// keep Llama's names.
struct LayerNames {
    AttentionNames self;
    AttentionNames cross;
    std::string qNorm, kNorm; ///< QK-norm
    std::string up, down;     ///< plain MLP: in and out
    std::string gate, gatedUp, gatedDown;
    std::string gateUp;  ///< non-empty: gate and up are one fused tensor [2 x width, hidden] (Phi-3)
    bool conv1d = false; ///< Conv1D storage, weight [in, out] (GPT-2), not nn.Linear's [out, in]
    /// The norms of Pre, Post and parallel placements: before or after the attention, after the
    /// cross-attention, before or after the FFN (Falcon's ln_attn, ln_mlp when there are two in parallel).
    std::string attentionNorm, crossNorm, ffnNorm;
    std::string parallelNorm; ///< the one norm of ParallelSingle
    /// The four norms of a Sandwich layer in module order: before and after the attention, before and
    /// after the FFN (Gemma 2/3; GLM-4 names them its own way).
    std::array<std::string, 4> sandwichNorms = {"input_layernorm", "post_attention_layernorm",
                                                "pre_feedforward_layernorm", "post_feedforward_layernorm"};
    MoeNames moe;
    /// Qwen3.5's Gated DeltaNet: in_proj_qkv, in_proj_z, in_proj_b and in_proj_a, where Qwen3-Next
    /// fuses them as in_proj_qkvz and in_proj_ba.
    bool splitDeltaNetProjections = false;
    std::string mamba2 = "mamba"; ///< the Mamba-2 mixer's module (Granite 4.0 H, Falcon-H1; Mamba2Block's "mixer")
};

/// The module paths of the tensors outside the layers, relative to the base model (`LlamaModel`,
/// `BertModel`), the output head relative to the whole model (`lm_head`, GPT-NeoX's `embed_out`).
struct OuterNames {
    std::string tokens, tokenTypes, projectIn, projectOut;
    std::string head, pooler;
};

/// The names per stack ("encoder." or "decoder." already prefixed where a model has two).
struct StackNames {
    std::string positions, relativeBias, embeddingNorm, finalNorm;
};

[[nodiscard]] LayerNames layerNames(const ModelConfig& config, const LayerPlan& layer);
[[nodiscard]] OuterNames outerNames(const ModelConfig& config);
[[nodiscard]] StackNames stackNames(const ModelConfig& config, Stack stack);

/// The module path of a layer in the base model: "layers.3." (Llama), "encoder.layer.3." (BERT),
/// "h.3." (GPT-2), "decoder.block.3." (T5).
[[nodiscard]] std::string layerPath(const ModelConfig& config, const LayerPlan& layer);
/// The base model's prefix in the counted class's state dict: "model." (LlamaForCausalLM),
/// "transformer." (GPT2LMHeadModel), "gpt_neox.", "" (BertModel, T5ForConditionalGeneration).
[[nodiscard]] std::string_view baseModelPrefix(const ModelConfig& config);

/// A folded state-dict key as transformers 5.x names the module, where the family's checkpoint names
/// it another way (transformers renames it on load): GPT-NeoX's embed_out is lm_head, Granite 4.0 H's
/// router.layer is router, ERNIE 4.5's moe_statics sits in the router. Other keys come back unchanged.
[[nodiscard]] std::string transformersKey(const ModelConfig& config, std::string key);

} // namespace archplay::core::tensornames
