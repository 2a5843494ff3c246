// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/DType.h"
#include "core/config/ModelConfig.h"
#include "core/cost/Compute.h"
#include "core/cost/Gpus.h"
#include "core/cost/Memory.h"
#include "core/cost/WeightFormats.h"
#include "core/memory/KvCache.h"

#include <cstdint>
#include <optional>

namespace archplay::core {

/// The situation a model is looked at in: how much context, how many sequences, which precisions,
/// which devices, and how it is trained.
struct Scenario {
    std::uint64_t sequenceLength = 4096;       ///< tokens per sequence (decoder side)
    std::uint64_t encoderSequenceLength = 512; ///< source tokens (encoder-decoder only)
    std::uint64_t batch = 1;                   ///< sequences served at once
    WeightFormat weightFormat = WeightFormat::BF16;
    /// A model whose checkpoint ships in one of archplay's formats (quantization_config) is analysed in
    /// it rather than in weightFormat: the default of the command line and the zoo, off once a format
    /// is given (--weight-dtype). The window sets the format itself (startFromShippedFormat()).
    bool weightsAsShipped = true;
    DType kvDType = DType::BF16;
    /// Precision of the fixed states of linear-attention / state-space layers; absent: the KV precision.
    std::optional<DType> stateDType;
    /// Whose cache the KV figures are: the architecture's own (the default) or what an engine allocates.
    KvAllocator kvAllocator = KvAllocator::Architecture;
    DType activationDType = DType::BF16; ///< activations of training and of a prefill's workspace
    Gpu gpu = defaultGpu();              ///< the device, from the catalogue (builtinGpus() or the user's)
    std::uint64_t gpuCount = 1;          ///< devices sharing weights and cache evenly (tensor parallel)
    /// vLLM's --gpu-memory-utilization: the share of each GPU it takes, 0 < u <= 1.
    double gpuMemoryUtilization = 0.9;
    /// vLLM's --kv-cache-memory-bytes: the cache on each GPU; 0: what vLLM's profiling leaves, estimated.
    std::uint64_t kvCacheMemoryBytes = 0;
    /// Tokens prefilled at once: the serving workspace, and vLLM's max_num_batched_tokens.
    std::uint64_t prefillChunk = kDefaultPrefillChunk;

    // Training.
    std::uint64_t trainingTokens = 1'000'000'000'000; ///< tokens seen in training (D)
    std::uint64_t microBatch = 1;                     ///< sequences of sequenceLength per GPU per step
    std::uint64_t tensorParallel = 1;                 ///< Megatron tensor-parallel degree; divides gpuCount
    int zeroStage = 1;                                ///< 0-3: ZeRO sharding across the data-parallel GPUs
    Recompute recompute = Recompute::Selective;
    bool flashAttention = true;
    bool dropout = false; ///< dropout in training (1-byte masks kept); modern pretraining runs without
    Optimizer optimizer = Optimizer::Adam16;
    double mfu = 0.4; ///< model FLOPs utilisation assumed for training time, 0 < mfu <= 1

    bool operator==(const Scenario&) const = default;

    /// The training shape this scenario describes.
    TrainingShape trainingShape() const {
        return {sequenceLength, microBatch,     gpuCount, tensorParallel,  zeroStage,
                recompute,      flashAttention, dropout,  activationDType, optimizer};
    }
};

/// A model just loaded brings the scenario within its context: a sequence longer than
/// max_position_embeddings becomes that length (a 512-token BERT is not shown at 131,072 tokens).
/// Returns the sequence length it replaced, or nullopt when the scenario already fits.
std::optional<std::uint64_t> fitSequenceToContext(const ModelConfig& config, Scenario& scenario);

/// A model just loaded in place of `previous` starts from the format its checkpoint ships in; a model
/// that ships none goes back to BF16 when the scenario held `previous`'s shipped format. The format
/// is then the scenario's own (weightsAsShipped off). Returns the format it replaced, or nullopt.
std::optional<WeightFormat> startFromShippedFormat(const ModelConfig* previous, const ModelConfig& config,
                                                   Scenario& scenario);

} // namespace archplay::core
