// SPDX-License-Identifier: GPL-3.0-or-later
// The module paths of each family's tensors, as its transformers modeling file names them
// (ModelConfig::tensorNaming). Used by Tensors.cpp; internal to core/params.
#pragma once

#include "core/config/LayerPlan.h"
#include "core/config/ModelConfig.h"

#include <string>

namespace archplay::core::tensornames {

/// The projections of one attention block, each a module path within the layer; the `.weight` and
/// `.bias` suffixes are added by the caller.
struct AttentionNames {
    std::string q, k, v;
    std::string qkv; ///< the fused projection when ModelConfig::fusedQkv
    std::string o;
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

} // namespace archplay::core::tensornames
