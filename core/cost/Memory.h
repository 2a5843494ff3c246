// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/DType.h"
#include "core/config/LayerPlan.h"
#include "core/config/ModelConfig.h"
#include "core/cost/Compute.h"
#include "core/cost/WeightFormats.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace archplay::core {

/// What mixed-precision Adam keeps per parameter (FORMULAS.md §6.1, Rajbhandari et al. 2020).
enum class Optimizer {
    Adam16, ///< bf16 weights (2) + bf16 gradients (2) + fp32 master, m and v (12): 16 bytes
    Adam18, ///< bf16 weights (2) + fp32 gradients (4) + fp32 master, m and v (12): 18 bytes
};
std::string_view toString(Optimizer optimizer);
std::optional<Optimizer> parseOptimizer(std::string_view name);
int gradientBytesPerParam(Optimizer optimizer);
inline constexpr int kWeightBytesPerParam = 2;     ///< the 16-bit working copy
inline constexpr int kOptimizerBytesPerParam = 12; ///< fp32 master weights, Adam's m and v

/// How a model is trained: what sizes its activations and shards its state.
struct TrainingShape {
    std::uint64_t sequenceLength = 4096;
    std::uint64_t microBatch = 1;     ///< sequences per GPU per step
    std::uint64_t gpus = 1;           ///< all GPUs: tensor parallel x data parallel
    std::uint64_t tensorParallel = 1; ///< Megatron tensor parallelism (no sequence parallelism)
    int zeroStage = 0;                ///< 0-3: what ZeRO shards across the data-parallel GPUs
    Recompute recompute = Recompute::None;
    bool flashAttention = true; ///< scores never materialised; the softmax statistics kept in fp32
    bool dropout = false;       ///< dropout after attention probabilities, attention and FFN (1-byte masks)
    DType activations = DType::BF16;
    Optimizer optimizer = Optimizer::Adam16;
};

/// One kind of layer's stored activations for one micro-batch on one GPU (FORMULAS.md §6.2).
struct LayerActivations {
    LayerPlan kind;
    std::int64_t layers = 0;
    std::uint64_t replicated = 0; ///< norm inputs, block inputs and dropout masks: not split by TP. Units: bytes.
    std::uint64_t split = 0;      ///< Q, K, V, projections' inputs, FFN intermediates: divided by TP. Units: bytes.
    std::uint64_t scores = 0;     ///< softmax output (and dropout) without FlashAttention, divided by TP. Units: bytes.
    std::uint64_t perLayer = 0;   ///< what one layer keeps after recomputation. Units: bytes.
};

/// Weights, gradients, optimizer state and activations of training, per GPU (FORMULAS.md §6.1-6.2).
struct TrainingMemory {
    TrainingShape shape;
    std::uint64_t params = 0;
    std::uint64_t dataParallel = 1;
    int bytesPerParam = 16;        ///< 2 + gradient bytes + 12
    std::uint64_t weightBytes = 0; ///< whole model. Units: bytes.
    std::uint64_t gradientBytes = 0;
    std::uint64_t optimizerBytes = 0;
    // One GPU: sharded by TP and by the ZeRO stage across data-parallel GPUs.
    std::uint64_t gpuWeightBytes = 0;
    std::uint64_t gpuGradientBytes = 0;
    std::uint64_t gpuOptimizerBytes = 0;
    std::uint64_t gpuActivationBytes = 0; ///< every layer, plus the logits. Units: bytes.
    std::uint64_t logitBytes = 0;         ///< s·b·V fp32 logits for the loss, split by TP. Units: bytes.
    std::uint64_t gpuTotalBytes = 0;
    std::vector<LayerActivations> layers;
    bool overflow = false;
};

[[nodiscard]] TrainingMemory trainingMemory(const ModelConfig& config, const ModelPlan& plan, std::uint64_t params,
                                            const TrainingShape& shape);

/// The fewest GPUs of `gpuBytes` (a multiple of the tensor-parallel degree, up to 2^20) on which
/// training of `memory`'s shape fits, its activations as computed and its state sharded anew for each
/// count; 0 when none does (the activations of one GPU alone are too large).
[[nodiscard]] std::uint64_t trainingGpusNeeded(const TrainingMemory& memory, std::uint64_t gpuBytes);

/// Serving: weights in a format, the cache, and a prefill chunk's activation workspace (FORMULAS.md §6.4).
struct ServingMemory {
    std::uint64_t weightBytes = 0;
    std::uint64_t kvBytes = 0; ///< the scenario's cache and fixed states. Units: bytes.
    /// Live activations of one layer while a chunk of `chunkTokens` is prefilled, plus the last
    /// positions' fp32 logits: an estimate (FORMULAS.md §6.4 calls it modest). Units: bytes.
    std::uint64_t workspaceBytes = 0;
    std::uint64_t chunkTokens = 0;
    std::uint64_t totalBytes = 0;
    std::uint64_t gpus = 1;
    std::uint64_t perGpuBytes = 0; ///< total split evenly. Units: bytes.
    std::uint64_t gpusNeeded = 0;  ///< ceil(total / one GPU's memory)
    bool fits = false;
    bool overflow = false; ///< the total exceeds 2^64 - 1 bytes
};

[[nodiscard]] ServingMemory servingMemory(const ModelConfig& config, std::uint64_t weightBytes, std::uint64_t kvBytes,
                                          std::uint64_t batch, std::uint64_t chunkTokens, DType activations,
                                          std::uint64_t gpus, std::uint64_t gpuBytes);

} // namespace archplay::core
