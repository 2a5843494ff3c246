// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cost/Memory.h"

#include "core/util/Checked.h"

#include <algorithm>

namespace archplay::core {
namespace {

/// Per-token widths a layer's FFN keeps for its backward pass (FORMULAS.md §6.2): an MLP its
/// activation's input and output (2I), a gated FFN gate, up and their product (3I), a mixture of
/// experts each chosen expert's input copy and three widths, plus the fp32 router logits.
Checked ffnActivationBytes(const ModelConfig& c, FfnKind ffn, Checked p) {
    switch (ffn) {
    case FfnKind::Mlp:
        return Checked(2) * p * dim(c.intermediateSize);
    case FfnKind::Gated:
        return Checked(3) * p * dim(c.intermediateSize);
    case FfnKind::Moe: {
        const MixtureOfExperts& moe = c.moe;
        Checked bytes = dim(moe.topK) * p * (dim(c.hiddenSize) + Checked(3) * dim(moe.expertIntermediateSize)) +
                        Checked(4) * dim(moe.numExperts);
        if (moe.numSharedExperts > 0) {
            bytes += Checked(3) * p * dim(moe.numSharedExperts) * dim(moe.sharedWidth());
        }
        return bytes;
    }
    case FfnKind::None:
        return 0;
    }
    return 0;
}

/// Per-token bytes a layer's token mixer keeps, split by TP: Q, K, V and the output projection's
/// input for attention (MLA: its latents too); for a linear-attention or state-space mixer the
/// outputs of the projections from the hidden state and the inputs of the others.
Checked mixerActivationBytes(const ModelConfig& c, const LayerPlan& layer, Checked p) {
    const Checked heads = dim(c.numHeads);
    Checked bytes;
    if (layer.attends()) {
        if (layer.latent && c.latent) {
            const LatentAttention& mla = *c.latent;
            const Checked qk = heads * (dim(mla.qkNopeHeadDim) + dim(mla.qkRopeHeadDim));
            const Checked v = heads * dim(mla.vHeadDim);
            bytes += Checked(2) * qk + Checked(2) * v + dim(mla.kvLoraRank) + dim(mla.qLoraRank.value_or(0));
        } else {
            const Checked d = dim(c.effectiveHeadDim());
            bytes += Checked(2) * heads * d + Checked(2) * dim(c.numKvHeads) * d;
        }
        if (layer.crossAttention) {
            bytes += Checked(2) * heads * dim(c.effectiveHeadDim()) +
                     Checked(2) * dim(c.numKvHeads) * dim(c.effectiveHeadDim());
        }
    }
    if (!layer.attends() || layer.mixer == TokenMixer::AttentionWithMamba2) {
        const Checked hidden = dim(c.hiddenSize);
        for (const TensorSpec& t : layerTensors(c, layer)) {
            if (t.component != Component::Mixer || t.use != TensorUse::Matrix || t.shape.size() != 2) {
                continue;
            }
            const Checked in = t.inFirst ? t.shape[0] : t.shape[1];
            const Checked out = t.inFirst ? t.shape[1] : t.shape[0];
            bytes += in == hidden ? out : in;
        }
    }
    return bytes * p;
}

LayerActivations layerActivations(const ModelConfig& c, const LayerPlan& layer, const TrainingShape& shape,
                                  Checked& overflow) {
    const Checked p = Checked(static_cast<std::uint64_t>(bitsOf(shape.activations) / 8));
    const Checked sb = Checked(shape.sequenceLength) * Checked(shape.microBatch);
    const Checked sbh = sb * dim(c.hiddenSize);
    const Checked t = Checked(std::max<std::uint64_t>(shape.tensorParallel, 1));
    LayerActivations a;
    a.kind = layer;
    // Norm inputs (two, three with cross-attention), the mixer's and the FFN's inputs, dropout masks.
    const Checked norms = layer.crossAttention ? 3 : 2;
    Checked replicated = norms * p * sbh + Checked(2) * p * sbh;
    if (shape.dropout) {
        replicated += norms * sbh;
    }
    Checked split = sb * (mixerActivationBytes(c, layer, p) + ffnActivationBytes(c, layer.ffn, p));
    Checked scores;
    if (layer.attends()) {
        const Checked heads = dim(c.numHeads);
        const Checked s = Checked(shape.sequenceLength);
        if (shape.flashAttention) {
            split += Checked(4) * heads * sb; // the softmax log-sum-exp per query and head, fp32
        } else {
            // The softmax output (p·a·s²·b); with dropout its 1-byte mask and its output too.
            const Checked probabilities = heads * s * sb;
            scores = p * probabilities + (shape.dropout ? (Checked(1) + p) * probabilities : Checked(0));
        }
    }
    a.replicated = replicated.value();
    a.split = ceilDiv(split, t.value()).value();
    a.scores = ceilDiv(scores, t.value()).value();
    Checked perLayer;
    switch (shape.recompute) {
    case Recompute::None:
        perLayer = replicated + ceilDiv(split, t.value()) + ceilDiv(scores, t.value());
        break;
    case Recompute::Selective:
        perLayer = replicated + ceilDiv(split, t.value());
        break;
    case Recompute::Full:
        perLayer = p * sbh; // the layer's input only
        break;
    }
    a.perLayer = perLayer.value();
    overflow += perLayer + replicated + split + scores;
    return a;
}

/// One GPU's part of a model-state total: tensor parallelism splits every parameter; ZeRO shards it
/// across the data-parallel GPUs from `stage` on (1 the optimizer state, 2 the gradients, 3 the weights).
Checked shardOf(Checked bytes, const TrainingShape& shape, int stage, std::uint64_t dataParallel) {
    const Checked perTp = ceilDiv(bytes, std::max<std::uint64_t>(shape.tensorParallel, 1));
    return shape.zeroStage >= stage ? ceilDiv(perTp, dataParallel) : perTp;
}

} // namespace

std::string_view toString(Optimizer optimizer) {
    return optimizer == Optimizer::Adam18 ? "adam18" : "adam16";
}

std::optional<Optimizer> parseOptimizer(std::string_view name) {
    if (name == "adam16") {
        return Optimizer::Adam16;
    }
    if (name == "adam18") {
        return Optimizer::Adam18;
    }
    return std::nullopt;
}

int gradientBytesPerParam(Optimizer optimizer) {
    return optimizer == Optimizer::Adam18 ? 4 : 2;
}

TrainingMemory trainingMemory(const ModelConfig& config, const ModelPlan& plan, std::uint64_t params,
                              const TrainingShape& shape) {
    TrainingMemory m;
    m.shape = shape;
    m.params = params;
    const std::uint64_t tp = std::max<std::uint64_t>(shape.tensorParallel, 1);
    m.dataParallel = std::max<std::uint64_t>(shape.gpus / tp, 1);
    const int gradientBytes = gradientBytesPerParam(shape.optimizer);
    m.bytesPerParam = kWeightBytesPerParam + gradientBytes + kOptimizerBytesPerParam;
    const Checked P = params;
    const Checked weights = Checked(kWeightBytesPerParam) * P;
    const Checked gradients = Checked(static_cast<std::uint64_t>(gradientBytes)) * P;
    const Checked optimizer = Checked(kOptimizerBytesPerParam) * P;
    m.weightBytes = weights.value();
    m.gradientBytes = gradients.value();
    m.optimizerBytes = optimizer.value();
    // Tensor parallelism splits every parameter's state; ZeRO shards stage by stage across the
    // data-parallel GPUs: 1 the optimizer state, 2 the gradients too, 3 the weights too.
    const Checked gpuWeights = shardOf(weights, shape, 3, m.dataParallel);
    const Checked gpuGradients = shardOf(gradients, shape, 2, m.dataParallel);
    const Checked gpuOptimizer = shardOf(optimizer, shape, 1, m.dataParallel);

    Checked overflow;
    Checked activations;
    Checked largestFullLayer;
    for (const LayerPlan& layer : plan.layers) {
        auto found = std::find_if(m.layers.begin(), m.layers.end(),
                                  [&](const LayerActivations& a) { return sameKind(a.kind, layer); });
        if (found == m.layers.end()) {
            m.layers.push_back(layerActivations(config, layer, shape, overflow));
            found = std::prev(m.layers.end());
        }
        found->layers += 1;
    }
    for (const LayerActivations& a : m.layers) {
        activations += Checked(a.perLayer) * dim(a.layers);
        // Full recomputation rebuilds one layer's activations at a time during the backward pass.
        largestFullLayer = std::max(largestFullLayer.value(), a.replicated + a.split + a.scores);
    }
    if (shape.recompute == Recompute::Full) {
        activations += largestFullLayer;
    }
    const Checked p = Checked(static_cast<std::uint64_t>(bitsOf(shape.activations) / 8));
    const Checked sb = Checked(shape.sequenceLength) * Checked(shape.microBatch);
    // The final norm's and the LM head's inputs, and the fp32 logits of the loss, split by TP.
    const Checked logits = ceilDiv(Checked(4) * sb * dim(config.vocabSize), tp);
    activations += Checked(2) * p * sb * dim(config.hiddenSize) + logits;
    m.logitBytes = logits.value();
    m.gpuWeightBytes = gpuWeights.value();
    m.gpuGradientBytes = gpuGradients.value();
    m.gpuOptimizerBytes = gpuOptimizer.value();
    m.gpuActivationBytes = activations.value();
    const Checked total = gpuWeights + gpuGradients + gpuOptimizer + activations;
    m.gpuTotalBytes = total.value();
    m.overflow = overflow.overflowed() || total.overflowed() || weights.overflowed() || gradients.overflowed() ||
                 optimizer.overflowed();
    return m;
}

std::uint64_t trainingGpusNeeded(const TrainingMemory& memory, std::uint64_t gpuBytes) {
    const TrainingShape& shape = memory.shape;
    const std::uint64_t tp = std::max<std::uint64_t>(shape.tensorParallel, 1);
    constexpr std::uint64_t kMostGpus = 1u << 20;
    // Activations do not depend on the data-parallel degree: take them as computed, shard the state.
    const auto fits = [&](std::uint64_t dataParallel) {
        const Checked total = shardOf(memory.weightBytes, shape, 3, dataParallel) +
                              shardOf(memory.gradientBytes, shape, 2, dataParallel) +
                              shardOf(memory.optimizerBytes, shape, 1, dataParallel) +
                              Checked(memory.gpuActivationBytes);
        return !memory.overflow && !total.overflowed() && total.value() <= gpuBytes;
    };
    // Per-GPU memory never grows with the data-parallel degree: search it by halving.
    std::uint64_t low = 1, high = kMostGpus / tp;
    if (high == 0 || !fits(high)) {
        return 0;
    }
    while (low < high) {
        const std::uint64_t mid = low + (high - low) / 2;
        if (fits(mid)) {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    return low * tp;
}

ServingMemory servingMemory(const ModelConfig& config, std::uint64_t weightBytes, std::uint64_t kvBytes,
                            std::uint64_t batch, std::uint64_t chunkTokens, DType activations, std::uint64_t gpus,
                            std::uint64_t gpuBytes) {
    ServingMemory m;
    m.weightBytes = weightBytes;
    m.kvBytes = kvBytes;
    m.chunkTokens = chunkTokens;
    m.gpus = std::max<std::uint64_t>(gpus, 1);
    // One layer at a time: the residual stream and its normed copy, and the wider of attention's
    // Q, K, V and output or the FFN's intermediates; the batch's last-position logits in fp32.
    const Checked p = Checked(static_cast<std::uint64_t>(bitsOf(activations) / 8));
    const Checked hidden = dim(config.hiddenSize);
    const Checked d = dim(config.effectiveHeadDim());
    Checked attention = (Checked(2) * dim(config.numHeads) + Checked(2) * dim(config.numKvHeads)) * d;
    if (config.latent) {
        const LatentAttention& mla = *config.latent;
        attention =
            Checked(2) * dim(config.numHeads) * (dim(mla.qkNopeHeadDim) + dim(mla.qkRopeHeadDim) + dim(mla.vHeadDim));
    }
    Checked ffn = Checked(3) * dim(config.intermediateSize);
    if (config.ffnKind == FfnKind::Moe) {
        ffn = std::max(ffn.value(), (Checked(3) * dim(config.moe.topK) * dim(config.moe.expertIntermediateSize) +
                                     Checked(3) * dim(config.moe.numSharedExperts) * dim(config.moe.sharedWidth()))
                                        .value());
    }
    const Checked width = Checked(2) * hidden + Checked(std::max(attention.value(), ffn.value()));
    const Checked workspace = Checked(chunkTokens) * width * p + Checked(batch) * dim(config.vocabSize) * Checked(4);
    const Checked total = Checked(weightBytes) + Checked(kvBytes) + workspace;
    m.workspaceBytes = workspace.value();
    m.totalBytes = total.value();
    m.perGpuBytes = ceilDiv(total, m.gpus).value();
    m.gpusNeeded = gpuBytes > 0 ? ceilDiv(total, gpuBytes).value() : 0;
    m.fits = !total.overflowed() && m.perGpuBytes <= gpuBytes;
    m.overflow = total.overflowed();
    return m;
}

} // namespace archplay::core
