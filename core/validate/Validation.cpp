// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/validate/Validation.h"

#include "core/config/Snapping.h"
#include "core/scenario/GpuFit.h"
#include "core/util/Format.h"

#include <fmt/format.h>

#include <initializer_list>
#include <string>
#include <utility>

namespace archplay::core {
namespace {

/// A field and the config.json key a diagnostic names it by: its own key unless the file spells it
/// otherwise.
struct Named {
    Named(Field named)
        : field(named)
        , key(fieldKey(named)) {}
    Named(Field named, std::string_view spelled)
        : field(named)
        , key(spelled) {}
    Field field;
    std::string_view key;
};

class Checker {
public:
    void error(Named field, std::string message) { add(Severity::Error, field, std::move(message)); }
    void warning(Named field, std::string message) { add(Severity::Warning, field, std::move(message)); }
    void hint(Named field, std::string message) { add(Severity::Hint, field, std::move(message)); }

    /// A size that must be at least `minimum` and not absurd. Returns whether it is usable.
    bool size(Named field, std::int64_t value, std::int64_t minimum = 1) {
        if (value < minimum) {
            error(field, minimum == 1 ? fmt::format("must be positive, not {}", value)
                                      : fmt::format("must be at least {}, not {}", minimum, value));
            return false;
        }
        if (value > kMaxDimension) {
            error(field, fmt::format("{} is absurdly large (the limit is 2^40)", value));
            return false;
        }
        return true;
    }

    /// size() for each field in turn, every one at least 1.
    void sizes(std::initializer_list<std::pair<Named, std::int64_t>> fields) {
        for (const auto& [field, value] : fields) {
            size(field, value);
        }
    }

    /// An error on `field` when a positive `divisor` does not divide `value`.
    void divides(Named field, std::int64_t value, std::int64_t divisor, const char* message) {
        if (divisor > 0 && value % divisor != 0) {
            error(field, message);
        }
    }

    Diagnostics take() { return std::move(m_diagnostics); }

private:
    void add(Severity severity, Named field, std::string message) {
        m_diagnostics.push_back({severity, std::string(field.key), std::move(message), field.field});
    }
    Diagnostics m_diagnostics;
};

// Published MoE models route 1 in 4 (Mixtral) to 1 in 32 (DeepSeek-V3) of their experts; more than
// 1 in 2 saves little compute over a dense layer of the same parameters.
constexpr std::int64_t kMostActiveExperts = 2;

void checkShape(const ModelConfig& c, Checker& check) {
    check.size(Field::VocabSize, c.vocabSize);
    const bool hiddenOk = check.size(Field::HiddenSize, c.hiddenSize);
    check.size(Field::NumHiddenLayers, c.numLayers);
    if (c.architecture == ArchitectureKind::EncoderDecoder) {
        check.size(Field::NumEncoderLayers, c.numEncoderLayers);
    }
    // 0 means "as the decoder"; anything else must be a usable size.
    if (c.encoderHeads != 0) {
        check.size(Field::EncoderAttentionHeads, c.encoderHeads);
    }
    if (c.encoderIntermediateSize != 0) {
        check.size(Field::EncoderFfnDim, c.encoderIntermediateSize);
    }
    if (c.numLayers > 100000 || c.numEncoderLayers > 100000) {
        check.error(Field::NumHiddenLayers, "more than 100,000 layers is not supported");
    }
    const bool headsOk = check.size(Field::NumAttentionHeads, c.numHeads);
    const bool kvOk = check.size(Field::NumKeyValueHeads, c.numKvHeads);
    check.size(Field::MaxPositionEmbeddings, c.maxPositions);

    if (headsOk && kvOk && !c.latent) {
        if (c.numKvHeads > c.numHeads) {
            check.error(Field::NumKeyValueHeads,
                        fmt::format("{} is more than the {} query heads", c.numKvHeads, c.numHeads));
        } else if (c.numHeads % c.numKvHeads != 0) {
            check.error(Field::NumKeyValueHeads,
                        fmt::format("{} does not divide the {} query heads; each KV head serves a whole group of "
                                    "them",
                                    c.numKvHeads, c.numHeads));
        }
    }
    if (c.headDim) {
        check.size(Field::HeadDim, *c.headDim);
    } else if (hiddenOk && headsOk && c.readsHeadDim() && c.hiddenSize % c.numHeads != 0) {
        check.error(Field::NumAttentionHeads,
                    fmt::format("{} does not divide the hidden size {}, so head_dim cannot be derived; set head_dim "
                                "explicitly or choose a divisor",
                                c.numHeads, c.hiddenSize));
    }
}

void checkAttention(const ModelConfig& c, Checker& check) {
    if (c.latent) {
        const LatentAttention& mla = *c.latent;
        if (mla.qLoraRank) {
            check.size(Field::QLoraRank, *mla.qLoraRank);
        }
        check.size(Field::KvLoraRank, mla.kvLoraRank);
        const bool nopeOk = check.size(Field::QkNopeHeadDim, mla.qkNopeHeadDim, 0);
        const bool ropeOk = check.size(Field::QkRopeHeadDim, mla.qkRopeHeadDim, 0);
        check.size(Field::VHeadDim, mla.vHeadDim);
        if (nopeOk && ropeOk && mla.qkNopeHeadDim + mla.qkRopeHeadDim <= 0) {
            check.error(Field::QkNopeHeadDim, "the query/key head (this plus qk_rope_head_dim) must be wider than 0");
        }
        if (c.architecture != ArchitectureKind::DecoderOnly) {
            check.warning(Field::KvLoraRank, "latent attention is modelled for decoder stacks only; the encoder uses "
                                             "standard attention");
        }
    }
    if (c.slidingPattern != SlidingPattern::None) {
        if (check.size(Field::SlidingWindow, c.slidingWindow) && c.slidingWindow >= c.maxPositions) {
            check.warning(Field::SlidingWindow,
                          fmt::format("{} covers the whole context of {} tokens; the sliding layers act as global "
                                      "ones",
                                      c.slidingWindow, c.maxPositions));
        }
    }
    if (c.slidingPattern == SlidingPattern::GlobalEveryN) {
        check.size(Field::SlidingWindowPattern, c.globalEvery);
    }
    if (c.slidingPattern == SlidingPattern::FromLayer) {
        check.size(Field::MaxWindowLayers, c.firstSlidingLayer, 0);
    }
    if (c.slidingPattern == SlidingPattern::Explicit && !c.layerTypes.empty() &&
        static_cast<std::int64_t>(c.layerTypes.size()) != c.numLayers) {
        check.warning(Field::LayerTypes,
                      fmt::format("lists {} layers but there are {}; the list is repeated cyclically",
                                  c.layerTypes.size(), c.numLayers));
    }
    check.size(Field::AttentionChunkSize, c.attentionChunkSize, 0);
    if (c.rotaryFraction <= 0.0 || c.rotaryFraction > 1.0 || c.rotaryFraction != c.rotaryFraction) {
        check.error(Field::PartialRotaryFactor, "must be in (0, 1]");
    }
    if (c.positional == PositionalKind::RelativeBias) {
        check.size(Field::RelativeAttentionNumBuckets, c.relativeBuckets);
    }
    check.size(Field::PositionOffset, c.positionOffset, 0);
    check.size(Field::TypeVocabSize, c.tokenTypes, 0);
    check.size(Field::WordEmbedProjDim, c.embeddingProjectionDim, 0);
    check.size(Field::NumNextnPredictLayers, c.mtpLayers, 0);
}

// The dimensions of linear-attention, state-space and convolution layers, when the stack has them.
void checkMixers(const ModelConfig& c, Checker& check) {
    if (c.usesMixer(TokenMixer::GatedDeltaNet)) {
        const GatedDeltaNet& d = c.deltaNet;
        check.sizes({{Field::LinearNumKeyHeads, d.numKeyHeads},
                     {Field::LinearNumValueHeads, d.numValueHeads},
                     {Field::LinearKeyHeadDim, d.keyHeadDim},
                     {Field::LinearValueHeadDim, d.valueHeadDim},
                     {Field::LinearConvKernelDim, d.convKernel}});
        check.divides(Field::LinearNumValueHeads, d.numValueHeads, d.numKeyHeads,
                      "must be a multiple of the key heads (linear_num_key_heads)");
    }
    if (c.usesMixer(TokenMixer::Mamba2) || c.usesMixer(TokenMixer::AttentionWithMamba2)) {
        const Mamba2Mixer& m = c.mamba;
        check.sizes({{Field::MambaNHeads, m.numHeads},
                     {Field::MambaDHead, m.headDim},
                     {Field::MambaDState, m.stateSize},
                     {Field::MambaNGroups, m.numGroups},
                     {Field::MambaDConv, m.convKernel}});
        check.divides(Field::MambaNGroups, m.numHeads, m.numGroups, "must divide the heads (mamba_n_heads)");
    }
    if (c.usesMixer(TokenMixer::ShortConv)) {
        check.size(Field::ConvLCache, c.shortConv.kernel);
    }
    if (c.usesMixer(TokenMixer::Mamba)) {
        const Mamba1Mixer& m = c.mamba1;
        // Mamba-1's config.json keys are plain (intermediate_size, state_size); the panel's fields
        // are the Mamba ones.
        check.sizes({{{Field::MambaInnerSize, "intermediate_size"}, m.innerWidth},
                     {{Field::MambaStateSize, "state_size"}, m.stateSize},
                     {{Field::MambaConvKernel, "conv_kernel"}, m.convKernel},
                     {{Field::MambaTimeStepRank, "time_step_rank"}, m.timeStepRank}});
    }
    if (c.indexer) {
        check.sizes({{Field::IndexNHeads, c.indexer->numHeads},
                     {Field::IndexHeadDim, c.indexer->headDim},
                     {Field::IndexTopk, c.indexer->topK}});
        if (!c.latent) {
            check.error(Field::IndexNHeads, "the sparse-attention indexer needs latent attention (kv_lora_rank)");
        }
    }
}

void checkFfn(const ModelConfig& c, Checker& check) {
    if (c.hasDenseFfnLayers()) {
        check.size(Field::IntermediateSize, c.intermediateSize);
    }
    if (c.ffnKind != FfnKind::Moe) {
        return;
    }
    const MixtureOfExperts& moe = c.moe;
    const bool expertsOk = check.size(Field::NumExperts, moe.numExperts);
    const bool topKOk = check.size(Field::NumExpertsPerTok, moe.topK);
    if (expertsOk && topKOk) {
        if (moe.topK > moe.numExperts) {
            check.error(Field::NumExpertsPerTok, fmt::format("{} exceeds the {} experts", moe.topK, moe.numExperts));
        } else if (moe.topK == moe.numExperts) {
            check.warning(Field::NumExpertsPerTok, "every token is routed to every expert: the MoE layer is dense");
        } else if (moe.topK > moe.numExperts / kMostActiveExperts) {
            check.warning(Field::NumExpertsPerTok,
                          fmt::format("{} of {} experts per token is more than 1 in {}: the layer computes almost as "
                                      "much as a dense one (published MoE models route 1 in 4 to 1 in 32)",
                                      moe.topK, moe.numExperts, kMostActiveExperts));
        }
    }
    check.size(Field::MoeIntermediateSize, moe.expertIntermediateSize);
    check.size(Field::NSharedExperts, moe.numSharedExperts, 0);
    check.size(Field::SharedExpertIntermediateSize, moe.sharedExpertIntermediateSize, 0);
    check.size(Field::FirstKDenseReplace, moe.firstDenseLayers, 0);
    check.size(Field::DecoderSparseStep, moe.sparseStep);
    if (moe.firstDenseLayers >= c.numLayers && c.numLayers > 0) {
        check.warning(Field::FirstKDenseReplace, "covers every layer: no layer is MoE");
    }
    for (std::int64_t index : moe.denseLayers) {
        if (index < 0 || index >= c.numLayers) {
            check.warning(Field::MlpOnlyLayers, fmt::format("names layer {}, which does not exist", index));
        }
    }
}

void checkConventions(const ModelConfig& c, Checker& check) {
    const std::int64_t headDim = c.effectiveHeadDim();
    const bool heads = c.hasAttentionLayers() || c.usesMixer(TokenMixer::LightningAttention);
    if (!c.latent && heads && headDim > 0 && (headDim < 64 || headDim > 128)) {
        check.hint(Field::HeadDim, fmt::format("{} is outside the usual 64-128; attention kernels such as "
                                               "FlashAttention are tuned for 64, 128 (and 256)",
                                               headDim));
    }
    if (c.tensorNaming == TensorNaming::T5 && c.outputHead && !c.tieWordEmbeddings) {
        // transformers 5.17's T5ForConditionalGeneration ties lm_head to shared whatever the config says.
        check.hint(Field::TieWordEmbeddings,
                   "transformers 5.17 ties T5's head to the shared embedding anyway, so its num_parameters() is "
                   "vocab_size x d_model lower; archplay counts the separate lm_head the t5-v1.1 checkpoints store");
    }
    // The same rules the sliders snap to (config/Snapping.h), so a snapped value never draws a hint.
    if (c.hiddenSize > 0 && !isSnapped(c.hiddenSize, kHiddenSnap)) {
        check.hint(Field::HiddenSize, fmt::format("{} is not a multiple of {}; tensor cores prefer it", c.hiddenSize,
                                                  multipleOf(kHiddenSnap)));
    }
    // Only within the cap: above it the size is already an error, and rounding it up could overflow.
    if (c.vocabSize > 0 && c.vocabSize <= kMaxDimension && !isSnapped(c.vocabSize, kVocabSnap)) {
        const std::int64_t m = multipleOf(kVocabSnap);
        check.hint(Field::VocabSize, fmt::format("{} is not a multiple of {}; padding it (e.g. to {}) speeds up "
                                                 "the embedding and output matmuls",
                                                 c.vocabSize, m, (c.vocabSize + m - 1) / m * m));
    }
    if (c.hasDenseFfnLayers() && c.intermediateSize > 0 && !isSnapped(c.intermediateSize, kFfnSnap)) {
        check.hint(Field::IntermediateSize,
                   fmt::format("{} is not a multiple of {}", c.intermediateSize, multipleOf(kFfnSnap)));
    }
    if (c.hasDenseFfnLayers() && c.hiddenSize > 0 && c.intermediateSize > 0) {
        const double ratio = static_cast<double>(c.intermediateSize) / static_cast<double>(c.hiddenSize);
        const bool gated = c.ffnKind != FfnKind::Mlp;
        if (ratio < 1.0 || ratio > 8.0) {
            check.warning(Field::IntermediateSize,
                          fmt::format("{:.2f}x the hidden size; {} FFNs usually use about {}", ratio,
                                      gated ? "gated" : "plain", gated ? "2.7-3.5x" : "4x"));
        }
    }
}

/// Megatron's tensor parallelism splits the heads and the FFN width over the TP GPUs, and the data
/// parallel GPUs are the rest: each must divide evenly.
void checkTensorParallel(const ModelConfig& config, const Scenario& scenario, Checker& check) {
    const std::uint64_t tp = scenario.tensorParallel;
    if (tp <= 1) {
        return;
    }
    if (scenario.gpuCount % tp != 0) {
        check.error(Field::TensorParallel,
                    fmt::format("{} does not divide the {} GPUs into data-parallel groups", tp, scenario.gpuCount));
    }
    if (config.numHeads > 0 && static_cast<std::uint64_t>(config.numHeads) % tp != 0) {
        check.error(Field::TensorParallel,
                    fmt::format("{} does not divide the {} attention heads", tp, config.numHeads));
    }
    const std::int64_t width =
        config.ffnKind == FfnKind::Moe ? config.moe.expertIntermediateSize : config.intermediateSize;
    if (width > 0 && static_cast<std::uint64_t>(width) % tp != 0) {
        check.error(Field::TensorParallel, fmt::format("{} does not divide the FFN width {}", tp, width));
    }
}

} // namespace

Diagnostics validateScenario(const ModelConfig& config, const Scenario& scenario) {
    Checker check;
    if (const std::string problem = gpuProblem(scenario.gpu); !problem.empty()) {
        check.error(Field::Gpu, problem);
    }
    if (scenario.gpuCount == 0) {
        check.error(Field::GpuCount, "must be at least 1");
    }
    for (auto [field, value] :
         {std::pair{Field::SequenceLength, scenario.sequenceLength}, std::pair{Field::BatchSize, scenario.batch},
          std::pair{Field::PrefillChunk, scenario.prefillChunk}, std::pair{Field::MicroBatch, scenario.microBatch},
          std::pair{Field::TensorParallel, scenario.tensorParallel}}) {
        if (value == 0) {
            check.error(field, "must be at least 1");
        }
    }
    if (scenario.zeroStage < 0 || scenario.zeroStage > 3) {
        check.error(Field::ZeroStage, fmt::format("{} is not a ZeRO stage: 0, 1, 2 or 3", scenario.zeroStage));
    }
    if (!(scenario.mfu > 0) || scenario.mfu > 1) {
        check.error(Field::Mfu, "must be above 0 and at most 1");
    }
    checkTensorParallel(config, scenario, check);
    if (config.maxPositions > 0 && scenario.sequenceLength > static_cast<std::uint64_t>(config.maxPositions)) {
        check.warning(Field::SequenceLength,
                      fmt::format("{} tokens is beyond the model's context of {}: untrained positions",
                                  withThousands(scenario.sequenceLength),
                                  withThousands(static_cast<std::uint64_t>(config.maxPositions))));
    }
    // Tensor parallelism splits the heads over the devices; an uneven split idles some of them, and
    // KV heads that neither divide nor are divided by the device count cannot shard the cache evenly.
    const std::uint64_t devices = scenario.gpuCount;
    if (devices > 1 && config.numHeads > 0 && static_cast<std::uint64_t>(config.numHeads) % devices != 0) {
        check.hint(Field::NumAttentionHeads, fmt::format("{} heads do not split evenly over the scenario's {} GPUs "
                                                         "(tensor parallelism)",
                                                         config.numHeads, devices));
    }
    const bool grouped = !config.latent && config.numKvHeads > 0 && config.numKvHeads < config.numHeads;
    if (devices > 1 && grouped && config.hasDecoder()) {
        const auto kvHeads = static_cast<std::uint64_t>(config.numKvHeads);
        if (kvHeads % devices != 0 && devices % kvHeads != 0) {
            check.hint(
                Field::NumKeyValueHeads,
                fmt::format("{} KV heads do not shard the cache evenly over the scenario's {} GPUs", kvHeads, devices));
        }
    }
    return check.take();
}

Diagnostics validate(const ModelConfig& config) {
    Checker check;
    checkShape(config, check);
    checkAttention(config, check);
    checkFfn(config, check);
    checkMixers(config, check);
    if (!config.exact()) {
        check.warning(Field::ModelType,
                      fmt::format("every figure is an estimate: it ignores {}", fmt::join(config.ignoredFields, ", ")));
    }
    checkConventions(config, check);
    return check.take();
}

} // namespace archplay::core
