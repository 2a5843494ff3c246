// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/config/Field.h"

#include <algorithm>
#include <array>
#include <utility>

namespace archplay::core {
namespace {

constexpr std::pair<Field, std::string_view> kKeys[] = {
    {Field::ModelType, "model_type"},
    {Field::Architecture, "architecture"},
    {Field::NumHiddenLayers, "num_hidden_layers"},
    {Field::NumEncoderLayers, "num_encoder_layers"},
    {Field::HiddenSize, "hidden_size"},
    {Field::NumAttentionHeads, "num_attention_heads"},
    {Field::EncoderAttentionHeads, "encoder_attention_heads"},
    {Field::NumKeyValueHeads, "num_key_value_heads"},
    {Field::HeadDim, "head_dim"},
    {Field::IntermediateSize, "intermediate_size"},
    {Field::EncoderFfnDim, "encoder_ffn_dim"},
    {Field::VocabSize, "vocab_size"},
    {Field::MaxPositionEmbeddings, "max_position_embeddings"},
    {Field::SequenceLength, "sequence_length"},
    {Field::EncoderSequenceLength, "encoder_sequence_length"},
    {Field::BatchSize, "batch_size"},
    {Field::WeightFormat, "weight_format"},
    {Field::KvDtype, "kv_dtype"},
    {Field::KvAllocator, "kv_allocator"},
    {Field::StateDtype, "state_dtype"},
    {Field::ActivationDtype, "activation_dtype"},
    {Field::PrefillChunk, "prefill_chunk"},
    {Field::Gpu, "gpu"},
    {Field::GpuCount, "gpu_count"},
    {Field::TrainingTokens, "training_tokens"},
    {Field::MicroBatch, "micro_batch"},
    {Field::TensorParallel, "tensor_parallel"},
    {Field::ZeroStage, "zero_stage"},
    {Field::Recompute, "recompute"},
    {Field::Optimizer, "optimizer"},
    {Field::Mfu, "mfu"},
    {Field::FlashAttention, "flash_attention"},
    {Field::Dropout, "dropout"},
    {Field::TokenMixers, "token_mixers"},
    {Field::LinearNumKeyHeads, "linear_num_key_heads"},
    {Field::LinearNumValueHeads, "linear_num_value_heads"},
    {Field::LinearKeyHeadDim, "linear_key_head_dim"},
    {Field::LinearValueHeadDim, "linear_value_head_dim"},
    {Field::LinearConvKernelDim, "linear_conv_kernel_dim"},
    {Field::MambaNHeads, "mamba_n_heads"},
    {Field::MambaDHead, "mamba_d_head"},
    {Field::MambaDState, "mamba_d_state"},
    {Field::MambaNGroups, "mamba_n_groups"},
    {Field::MambaDConv, "mamba_d_conv"},
    {Field::MambaInnerSize, "mamba_inner_size"},
    {Field::MambaStateSize, "mamba_state_size"},
    {Field::MambaTimeStepRank, "mamba_time_step_rank"},
    {Field::MambaConvKernel, "mamba_conv_kernel"},
    {Field::ConvLCache, "conv_L_cache"},
    {Field::PositionEmbeddingType, "position_embedding_type"},
    {Field::PartialRotaryFactor, "partial_rotary_factor"},
    {Field::NopeLayers, "nope_layers"},
    {Field::PositionOffset, "position_offset"},
    {Field::RelativeAttentionNumBuckets, "relative_attention_num_buckets"},
    {Field::NormType, "norm_type"},
    {Field::NormPlacement, "norm_placement"},
    {Field::FinalNorm, "final_norm"},
    {Field::EmbeddingNorm, "embedding_norm"},
    {Field::LmHead, "lm_head"},
    {Field::TieWordEmbeddings, "tie_word_embeddings"},
    {Field::LmHeadBias, "lm_head_bias"},
    {Field::WordEmbedProjDim, "word_embed_proj_dim"},
    {Field::TypeVocabSize, "type_vocab_size"},
    {Field::Pooler, "pooler"},
    {Field::NumNextnPredictLayers, "num_nextn_predict_layers"},
    {Field::AttentionFamily, "attention_family"},
    {Field::KvLoraRank, "kv_lora_rank"},
    {Field::QLoraRank, "q_lora_rank"},
    {Field::QkNopeHeadDim, "qk_nope_head_dim"},
    {Field::QkRopeHeadDim, "qk_rope_head_dim"},
    {Field::VHeadDim, "v_head_dim"},
    {Field::LayerTypes, "layer_types"},
    {Field::SlidingWindow, "sliding_window"},
    {Field::SlidingWindowPattern, "sliding_window_pattern"},
    {Field::MaxWindowLayers, "max_window_layers"},
    {Field::AttentionChunkSize, "attention_chunk_size"},
    {Field::QkNorm, "qk_norm"},
    {Field::QBias, "q_bias"},
    {Field::KBias, "k_bias"},
    {Field::VBias, "v_bias"},
    {Field::OBias, "o_bias"},
    {Field::FusedQkv, "fused_qkv"},
    {Field::AttentionSinks, "attention_sinks"},
    {Field::AttentionOutputGate, "attention_output_gate"},
    {Field::IndexNHeads, "index_n_heads"},
    {Field::IndexHeadDim, "index_head_dim"},
    {Field::IndexTopk, "index_topk"},
    {Field::FfnType, "ffn_type"},
    {Field::HiddenAct, "hidden_act"},
    {Field::MlpBias, "mlp_bias"},
    {Field::NumExperts, "num_experts"},
    {Field::NumExpertsPerTok, "num_experts_per_tok"},
    {Field::MoeIntermediateSize, "moe_intermediate_size"},
    {Field::NSharedExperts, "n_shared_experts"},
    {Field::SharedExpertIntermediateSize, "shared_expert_intermediate_size"},
    {Field::SharedExpertGate, "shared_expert_gate"},
    {Field::FirstKDenseReplace, "first_k_dense_replace"},
    {Field::DecoderSparseStep, "decoder_sparse_step"},
    {Field::MlpOnlyLayers, "mlp_only_layers"},
    {Field::MoeLayers, "moe_layers"},
    {Field::RouterBias, "router_bias"},
    {Field::ExpertBias, "expert_bias"},
    {Field::CorrectionBiasParameter, "correction_bias_parameter"},
};

constexpr std::array<Field, std::size(kKeys)> kFields = [] {
    std::array<Field, std::size(kKeys)> fields{};
    for (std::size_t i = 0; i < fields.size(); ++i) {
        fields[i] = kKeys[i].first;
    }
    return fields;
}();

// The table is in declaration order, so a field's key is found by its value.
constexpr bool inOrder() {
    for (std::size_t i = 0; i < std::size(kKeys); ++i) {
        if (static_cast<std::size_t>(kKeys[i].first) != i + 1) {
            return false;
        }
    }
    return true;
}
static_assert(inOrder(), "kKeys lists every Field but None, in declaration order");

} // namespace

std::string_view fieldKey(Field field) {
    const auto index = static_cast<std::size_t>(field);
    return index == 0 || index > std::size(kKeys) ? std::string_view() : kKeys[index - 1].second;
}

Field fieldForKey(std::string_view key) {
    const auto* it =
        std::find_if(std::begin(kKeys), std::end(kKeys), [key](const auto& entry) { return entry.second == key; });
    return it == std::end(kKeys) ? Field::None : it->first;
}

std::span<const Field> allFields() {
    return kFields;
}

} // namespace archplay::core
