// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The per-layer rule every allocator starts from, shared by KvCache.cpp and EngineKvCache.cpp.

#include "core/memory/KvCache.h"
#include "core/util/Checked.h"

namespace archplay::core {

/// What one decoder layer caches per token, and for how many tokens at most, under an allocator.
struct LayerLedger {
    Checked selfPerToken;     ///< cached elements per token (K and V, MLA's latent, indexer keys)
    Checked expandedPerToken; ///< the same if MLA cached per-head K and V (= selfPerToken elsewhere)
    std::uint64_t tokenLimit = UINT64_MAX;
};

[[nodiscard]] LayerLedger cacheLedger(const ModelConfig& config, const LayerPlan& layer, KvAllocator allocator);

/// kvCache() under KvAllocator::Vllm or KvAllocator::LlamaCpp (EngineKvCache.cpp).
[[nodiscard]] KvCacheReport engineKvCache(const ModelConfig& config, const ModelPlan& plan,
                                          std::uint64_t sequenceLength, std::uint64_t batch, DType dtype,
                                          std::optional<DType> stateDType, KvAllocator allocator,
                                          std::uint64_t prefillChunk);

} // namespace archplay::core
