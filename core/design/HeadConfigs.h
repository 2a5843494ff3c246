// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The ways to split a config's attention into heads: every valid (num_attention_heads, head_dim,
// num_key_value_heads) for its hidden size, each with the exact count and cache the core gives the
// config with that split.

#include "core/config/ModelConfig.h"
#include "core/scenario/Scenario.h"

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace archplay::core {

/// The head dimensions offered: the widths published models use.
inline constexpr std::int64_t kHeadDims[] = {32, 48, 64, 80, 96, 112, 128, 160, 192, 256};
/// Most combinations listed; beyond it the ones whose query width is nearest the hidden size are kept.
/// A guard: under the rules below no hidden size has more (the most is 1932, at 10080).
inline constexpr std::size_t kMaxHeadConfigs = 2000;
/// Most query heads offered, as many as the largest published models have (Llama 3.1 405B: 128);
/// the current config's count is listed whatever it is.
inline constexpr std::int64_t kMaxHeads = 128;
/// Query widths (heads x head_dim) offered are multiples of this, as the widths of published models
/// are, or exactly the hidden size.
inline constexpr std::int64_t kQueryWidthMultiple = 128;

/// One split of the attention into heads.
struct HeadShape {
    std::int64_t numHeads = 0;   ///< num_attention_heads
    std::int64_t headDim = 0;    ///< head_dim. Units: elements.
    std::int64_t numKvHeads = 0; ///< num_key_value_heads, a divisor of numHeads

    bool operator==(const HeadShape&) const = default;
};

/// A combination with its figures, each from the core's counters run on the applied config.
struct HeadConfig {
    HeadShape shape;
    std::int64_t queryWidth = 0;                   ///< numHeads x headDim. Units: elements.
    std::uint64_t totalParams = 0;                 ///< unique parameters (FORMULAS.md §0) of the applied config
    std::uint64_t activeParams = 0;                ///< parameters one token uses
    std::uint64_t kvBytesPerToken = 0;             ///< at the scenario's KV precision, all layers. Units: bytes.
    std::int64_t totalParamsDelta = 0;             ///< totalParams minus the current config's
    std::int64_t activeParamsDelta = 0;            ///< activeParams minus the current config's
    std::int64_t kvBytesPerTokenDelta = 0;         ///< kvBytesPerToken minus the current config's. Units: bytes.
    AttentionFamily family = AttentionFamily::MHA; ///< MHA (kv = heads), MQA (kv = 1) or GQA
    bool usualHeadDim = false;                     ///< 64 <= head_dim <= 128, where most published models sit
    bool tensorParallel8 = false;                  ///< splits over 8 GPUs: see headConfigsTensorParallel8()
    bool exactWidth = false;                       ///< numHeads x headDim == hidden_size
    bool current = false;                          ///< the config's own combination
};

/// The combinations of a config, or why there are none.
struct HeadConfigList {
    std::vector<HeadConfig> configs; ///< nearest the hidden size first, then head_dim, heads, KV heads down
    std::string reason;              ///< why the list is empty: MLA, no attention layer, an invalid config
    std::string estimate;            ///< estimateLabel(): non-empty when every figure is an estimate
    std::size_t candidates = 0;      ///< combinations in the ranges (see listHeadConfigs())
    std::size_t invalid = 0;         ///< of those, refused by validate() (e.g. a partial RoPE that does not divide)
    std::size_t dropped =
        0; ///< of those, not evaluated: farther from the hidden size than the first kMaxHeadConfigs valid ones
};

/// The rule of HeadConfig::tensorParallel8: the query heads divide by 8, and the KV heads either
/// divide by 8 (each GPU holds its own) or divide 8 (each KV head is replicated on 8 / kv GPUs), as
/// vLLM and Megatron split them.
[[nodiscard]] bool headConfigsTensorParallel8(const HeadShape& shape);

/// The config with this split: num_attention_heads, num_key_value_heads and head_dim set (head_dim
/// left absent when the config had none and the width is hidden / heads, so config.json stays as
/// written). One change, for one undo step.
[[nodiscard]] ModelConfig applyHeadShape(const ModelConfig& config, const HeadShape& shape);

/// Every combination for the config's hidden size H: head_dim from kHeadDims, num_attention_heads
/// from 1 to kMaxHeads with H / 2 <= heads x head_dim <= 2 H and heads x head_dim a multiple of
/// kQueryWidthMultiple or exactly H (so every combination where heads x head_dim == H is included),
/// num_key_value_heads every divisor of the heads; plus the
/// config's own combination. They are evaluated nearest the hidden size first: each is applied
/// (applyHeadShape) and kept when validate() finds no error; its counts and cache are
/// countParameters() and kvCache() of the applied config (what analyze() runs), never a second
/// formula. Evaluation stops at kMaxHeadConfigs kept (the rest are `dropped`); the current one is
/// always kept.
/// Empty, with a reason, for an MLA config (its heads are set by the latent ranks, not chosen this
/// way), a stack without softmax attention, and an invalid config. Units of the cache: bytes at
/// `kvDType`.
[[nodiscard]] HeadConfigList listHeadConfigs(const ModelConfig& config, DType kvDType = DType::BF16);

/// {"hidden_size", "reason", "exact", "estimate", "candidates", "invalid", "dropped", "tp_rule", "configs":
/// [{"num_attention_heads", "head_dim", "num_key_value_heads", "query_width", "total_params", "active_params",
/// "kv_bytes_per_token", "total_params_delta", "active_params_delta", "kv_bytes_per_token_delta", "attention",
/// "usual_head_dim", "tp8", "exact_width", "current"}]}.
[[nodiscard]] nlohmann::json headConfigsJson(const HeadConfigList& list, const ModelConfig& config);

} // namespace archplay::core
