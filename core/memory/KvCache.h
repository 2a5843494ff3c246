// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "config/LayerPlan.h"
#include "config/ModelConfig.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace archplay::core {

/// Number formats for weights and caches.
enum class DType { FP32, FP16, BF16, FP8, INT8, INT4 };

/// Bits one element occupies.
int bitsOf(DType dtype);
std::string_view toString(DType dtype);
/// Parses "fp32", "fp16", "bf16", "fp8", "int8", "int4" (case-insensitive).
std::optional<DType> parseDType(std::string_view name);
inline constexpr DType kAllDTypes[] = {DType::FP32, DType::FP16, DType::BF16, DType::FP8, DType::INT8, DType::INT4};

/// Cache of one layer. Elements are per token; bytes are for the whole scenario.
struct KvLayerCache {
    std::uint64_t selfElementsPerToken = 0;     ///< cached K and V (or MLA latent) elements per token
    std::uint64_t expandedElementsPerToken = 0; ///< what Hugging Face's eager MLA caches (= self for non-MLA)
    std::uint64_t cachedTokens = 0;             ///< tokens held: min(sequence, window)
    std::uint64_t crossElementsPerToken = 0;    ///< cross-attention K/V per encoder token
    std::uint64_t bytes = 0;                    ///< self + cross, times batch
};

/// The architecture's own KV cache for one scenario (FORMULAS.md §4).
struct KvCacheReport {
    DType dtype = DType::BF16;
    std::uint64_t sequenceLength = 0;
    std::uint64_t encoderSequenceLength = 0;
    std::uint64_t batch = 1;

    /// Bytes one more token of self-attention context costs (all decoder layers, no window cap).
    /// Units: bytes. Llama-3-8B at bf16: 131,072.
    std::uint64_t bytesPerToken = 0;
    /// The same for the expanded per-head cache Hugging Face's MLA implementation keeps.
    std::uint64_t expandedBytesPerToken = 0;
    /// Cross-attention bytes per encoder token (encoder-decoder models).
    std::uint64_t crossBytesPerEncoderToken = 0;
    /// Whole cache for the scenario: windows applied, cross-attention included, times batch. Units: bytes.
    std::uint64_t totalBytes = 0;
    /// The same if every MLA layer cached expanded per-head K and V.
    std::uint64_t expandedTotalBytes = 0;
    std::vector<KvLayerCache> layers; ///< aligned with ModelPlan::layers (encoder layers hold 0)
    bool overflow = false;
};

/// The KV cache for `sequenceLength` generated/context tokens per sequence, `batch` sequences,
/// `encoderSequenceLength` source tokens (encoder-decoder only) at `dtype`.
/// Formulas: FORMULAS.md §4.1 (MHA/GQA/MQA: 2·nkv·d per layer), §4.2 (sliding windows cap at W),
/// §4.3 (MLA: kv_lora_rank + qk_rope_head_dim), §4.4 (encoder-decoder cross-attention).
KvCacheReport kvCache(const ModelConfig& config, const ModelPlan& plan, std::uint64_t sequenceLength,
                      std::uint64_t batch, DType dtype, std::uint64_t encoderSequenceLength = 0);

/// Bytes of `elements` values at `dtype`, rounded up to whole bytes; saturates at 2^64 - 1.
std::uint64_t bytesFor(std::uint64_t elements, DType dtype);

} // namespace archplay::core
