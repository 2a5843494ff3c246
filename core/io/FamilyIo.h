// SPDX-License-Identifier: GPL-3.0-or-later
// Building blocks shared by the per-family config.json readers and writers (Families.cpp,
// ModernFamilies.cpp). Internal to core/io.
#pragma once

#include "core/config/ModelConfig.h"
#include "core/io/Families.h"
#include "core/io/JsonFields.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string_view>
#include <vector>

namespace archplay::core::familyio {

/// The config.json key names of the common fields, where a family renames them.
struct Keys {
    std::string_view vocab = "vocab_size";
    std::string_view hidden = "hidden_size";
    std::string_view intermediate = "intermediate_size"; ///< empty: the family reads and writes it itself
    std::string_view layers = "num_hidden_layers";
    std::string_view heads = "num_attention_heads";
    std::string_view kvHeads = "num_key_value_heads"; ///< empty: the family has no KV-head field
    std::string_view headDim = "head_dim";            ///< empty: the family has no head_dim field
    std::string_view maxPositions = "max_position_embeddings";
    std::string_view activation = "hidden_act";
};

struct Defaults {
    std::int64_t vocab = 32000;
    std::int64_t hidden = 4096;
    std::int64_t intermediate = 11008;
    std::int64_t layers = 32;
    std::int64_t heads = 32;
    std::optional<std::int64_t> kvHeads; ///< absent: follows the number of heads
    std::optional<std::int64_t> headDim; ///< absent: hidden / heads
    std::int64_t maxPositions = 2048;
    bool tie = false;
    Activation activation = Activation::Silu;
};

/// Reads the common shape fields with the family's class defaults.
void readCommon(JsonFields& f, ModelConfig& c, const Defaults& d, const Keys& k = {});
/// Writes the keys readCommon() reads.
void writeCommon(const ModelConfig& c, nlohmann::json& out, const Defaults& d, const Keys& k = {});
void setAttentionBias(ModelConfig& c, bool bias);
bool uniformAttentionBias(const ModelConfig& c);
/// Marks `out` as unusable for its family when `expressible` is false; the exporter then falls back
/// to the native format.
void requireExpressible(nlohmann::json& out, bool expressible);
/// Hugging Face layer_types (attention kinds only), when present; true if read.
bool readLayerTypes(JsonFields& f, ModelConfig& c);
void writeLayerTypes(const ModelConfig& c, nlohmann::json& out);
/// Mistral-style: a non-null sliding_window makes every layer sliding.
void readUniformWindow(JsonFields& f, ModelConfig& c, std::optional<std::int64_t> fallback);
void writeUniformWindow(const ModelConfig& c, nlohmann::json& out);

/// Qwen-MoE experts (num_experts, num_experts_per_tok, moe_intermediate_size, decoder_sparse_step,
/// mlp_only_layers); num_experts 0 makes the model dense.
void readQwenMoe(JsonFields& f, ModelConfig& c, const MixtureOfExperts& d);
void writeQwenMoe(const ModelConfig& c, nlohmann::json& out);

/// Multi-head latent attention's five keys (q_lora_rank, kv_lora_rank, qk_nope_head_dim,
/// qk_rope_head_dim, v_head_dim), each absent key taking its value from `defaults`.
LatentAttention readLatent(JsonFields& f, const LatentAttention& defaults);
void writeLatent(const LatentAttention& mla, nlohmann::json& out);

/// DeepSeek-V2/V3 layout (MLA + DeepSeekMoE) with a family's class defaults.
void readDeepseekWith(JsonFields& f, ModelConfig& c, bool v3, const Defaults& d, const LatentAttention& mlaDefaults,
                      const MixtureOfExperts& moeDefaults);
void writeDeepseek(const ModelConfig& c, nlohmann::json& out, bool v3);

/// The readers of the 2025-2026 families (ModernFamilies.cpp).
const std::vector<Family>& modernFamilies();

} // namespace archplay::core::familyio
