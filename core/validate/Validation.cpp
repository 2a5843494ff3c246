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

class Checker {
public:
    void error(std::string field, std::string message) { add(Severity::Error, std::move(field), std::move(message)); }
    void warning(std::string field, std::string message) {
        add(Severity::Warning, std::move(field), std::move(message));
    }
    void hint(std::string field, std::string message) { add(Severity::Hint, std::move(field), std::move(message)); }

    /// A size that must be at least `minimum` and not absurd. Returns whether it is usable.
    bool size(const char* field, std::int64_t value, std::int64_t minimum = 1) {
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
    void sizes(std::initializer_list<std::pair<const char*, std::int64_t>> fields) {
        for (const auto& [field, value] : fields) {
            size(field, value);
        }
    }

    /// An error on `field` when a positive `divisor` does not divide `value`.
    void divides(const char* field, std::int64_t value, std::int64_t divisor, const char* message) {
        if (divisor > 0 && value % divisor != 0) {
            error(field, message);
        }
    }

    Diagnostics take() { return std::move(m_diagnostics); }

private:
    void add(Severity severity, std::string field, std::string message) {
        m_diagnostics.push_back({severity, std::move(field), std::move(message)});
    }
    Diagnostics m_diagnostics;
};

// Published MoE models route 1 in 4 (Mixtral) to 1 in 32 (DeepSeek-V3) of their experts; more than
// 1 in 2 saves little compute over a dense layer of the same parameters.
constexpr std::int64_t kMostActiveExperts = 2;

void checkShape(const ModelConfig& c, Checker& check) {
    check.size("vocab_size", c.vocabSize);
    const bool hiddenOk = check.size("hidden_size", c.hiddenSize);
    check.size("num_hidden_layers", c.numLayers);
    if (c.architecture == ArchitectureKind::EncoderDecoder) {
        check.size("num_encoder_layers", c.numEncoderLayers);
    }
    // 0 means "as the decoder"; anything else must be a usable size.
    if (c.encoderHeads != 0) {
        check.size("encoder_attention_heads", c.encoderHeads);
    }
    if (c.encoderIntermediateSize != 0) {
        check.size("encoder_ffn_dim", c.encoderIntermediateSize);
    }
    if (c.numLayers > 100000 || c.numEncoderLayers > 100000) {
        check.error("num_hidden_layers", "more than 100,000 layers is not supported");
    }
    const bool headsOk = check.size("num_attention_heads", c.numHeads);
    const bool kvOk = check.size("num_key_value_heads", c.numKvHeads);
    check.size("max_position_embeddings", c.maxPositions);

    if (headsOk && kvOk && !c.latent) {
        if (c.numKvHeads > c.numHeads) {
            check.error("num_key_value_heads",
                        fmt::format("{} is more than the {} query heads", c.numKvHeads, c.numHeads));
        } else if (c.numHeads % c.numKvHeads != 0) {
            check.error("num_key_value_heads",
                        fmt::format("{} does not divide the {} query heads; each KV head serves a whole group of "
                                    "them",
                                    c.numKvHeads, c.numHeads));
        }
    }
    if (c.headDim) {
        check.size("head_dim", *c.headDim);
    } else if (hiddenOk && headsOk && c.readsHeadDim() && c.hiddenSize % c.numHeads != 0) {
        check.error("num_attention_heads",
                    fmt::format("{} does not divide the hidden size {}, so head_dim cannot be derived; set head_dim "
                                "explicitly or choose a divisor",
                                c.numHeads, c.hiddenSize));
    }
}

void checkAttention(const ModelConfig& c, Checker& check) {
    if (c.latent) {
        const LatentAttention& mla = *c.latent;
        if (mla.qLoraRank) {
            check.size("q_lora_rank", *mla.qLoraRank);
        }
        check.size("kv_lora_rank", mla.kvLoraRank);
        const bool nopeOk = check.size("qk_nope_head_dim", mla.qkNopeHeadDim, 0);
        const bool ropeOk = check.size("qk_rope_head_dim", mla.qkRopeHeadDim, 0);
        check.size("v_head_dim", mla.vHeadDim);
        if (nopeOk && ropeOk && mla.qkNopeHeadDim + mla.qkRopeHeadDim <= 0) {
            check.error("qk_nope_head_dim", "the query/key head (this plus qk_rope_head_dim) must be wider than 0");
        }
        if (c.architecture != ArchitectureKind::DecoderOnly) {
            check.warning("kv_lora_rank", "latent attention is modelled for decoder stacks only; the encoder uses "
                                          "standard attention");
        }
    }
    if (c.slidingPattern != SlidingPattern::None) {
        if (check.size("sliding_window", c.slidingWindow) && c.slidingWindow >= c.maxPositions) {
            check.warning("sliding_window",
                          fmt::format("{} covers the whole context of {} tokens; the sliding layers act as global "
                                      "ones",
                                      c.slidingWindow, c.maxPositions));
        }
    }
    if (c.slidingPattern == SlidingPattern::GlobalEveryN) {
        check.size("sliding_window_pattern", c.globalEvery);
    }
    if (c.slidingPattern == SlidingPattern::FromLayer) {
        check.size("max_window_layers", c.firstSlidingLayer, 0);
    }
    if (c.slidingPattern == SlidingPattern::Explicit && !c.layerTypes.empty() &&
        static_cast<std::int64_t>(c.layerTypes.size()) != c.numLayers) {
        check.warning("layer_types", fmt::format("lists {} layers but there are {}; the list is repeated cyclically",
                                                 c.layerTypes.size(), c.numLayers));
    }
    check.size("attention_chunk_size", c.attentionChunkSize, 0);
    if (c.rotaryFraction <= 0.0 || c.rotaryFraction > 1.0 || c.rotaryFraction != c.rotaryFraction) {
        check.error("partial_rotary_factor", "must be in (0, 1]");
    }
    if (c.positional == PositionalKind::RelativeBias) {
        check.size("relative_attention_num_buckets", c.relativeBuckets);
    }
    check.size("position_offset", c.positionOffset, 0);
    check.size("type_vocab_size", c.tokenTypes, 0);
    check.size("word_embed_proj_dim", c.embeddingProjectionDim, 0);
    check.size("num_nextn_predict_layers", c.mtpLayers, 0);
}

// The dimensions of linear-attention, state-space and convolution layers, when the stack has them.
void checkMixers(const ModelConfig& c, Checker& check) {
    if (c.usesMixer(TokenMixer::GatedDeltaNet)) {
        const GatedDeltaNet& d = c.deltaNet;
        check.sizes({{"linear_num_key_heads", d.numKeyHeads},
                     {"linear_num_value_heads", d.numValueHeads},
                     {"linear_key_head_dim", d.keyHeadDim},
                     {"linear_value_head_dim", d.valueHeadDim},
                     {"linear_conv_kernel_dim", d.convKernel}});
        check.divides("linear_num_value_heads", d.numValueHeads, d.numKeyHeads,
                      "must be a multiple of the key heads (linear_num_key_heads)");
    }
    if (c.usesMixer(TokenMixer::Mamba2) || c.usesMixer(TokenMixer::AttentionWithMamba2)) {
        const Mamba2Mixer& m = c.mamba;
        check.sizes({{"mamba_n_heads", m.numHeads},
                     {"mamba_d_head", m.headDim},
                     {"mamba_d_state", m.stateSize},
                     {"mamba_n_groups", m.numGroups},
                     {"mamba_d_conv", m.convKernel}});
        check.divides("mamba_n_groups", m.numHeads, m.numGroups, "must divide the heads (mamba_n_heads)");
    }
    if (c.usesMixer(TokenMixer::ShortConv)) {
        check.size("conv_L_cache", c.shortConv.kernel);
    }
    if (c.usesMixer(TokenMixer::Mamba)) {
        const Mamba1Mixer& m = c.mamba1;
        check.sizes({{"intermediate_size", m.innerWidth},
                     {"state_size", m.stateSize},
                     {"conv_kernel", m.convKernel},
                     {"time_step_rank", m.timeStepRank}});
    }
    if (c.indexer) {
        check.sizes({{"index_n_heads", c.indexer->numHeads},
                     {"index_head_dim", c.indexer->headDim},
                     {"index_topk", c.indexer->topK}});
        if (!c.latent) {
            check.error("index_n_heads", "the sparse-attention indexer needs latent attention (kv_lora_rank)");
        }
    }
}

void checkFfn(const ModelConfig& c, Checker& check) {
    if (c.hasDenseFfnLayers()) {
        check.size("intermediate_size", c.intermediateSize);
    }
    if (c.ffnKind != FfnKind::Moe) {
        return;
    }
    const MixtureOfExperts& moe = c.moe;
    const bool expertsOk = check.size("num_experts", moe.numExperts);
    const bool topKOk = check.size("num_experts_per_tok", moe.topK);
    if (expertsOk && topKOk) {
        if (moe.topK > moe.numExperts) {
            check.error("num_experts_per_tok", fmt::format("{} exceeds the {} experts", moe.topK, moe.numExperts));
        } else if (moe.topK == moe.numExperts) {
            check.warning("num_experts_per_tok", "every token is routed to every expert: the MoE layer is dense");
        } else if (moe.topK > moe.numExperts / kMostActiveExperts) {
            check.warning("num_experts_per_tok",
                          fmt::format("{} of {} experts per token is more than 1 in {}: the layer computes almost as "
                                      "much as a dense one (published MoE models route 1 in 4 to 1 in 32)",
                                      moe.topK, moe.numExperts, kMostActiveExperts));
        }
    }
    check.size("moe_intermediate_size", moe.expertIntermediateSize);
    check.size("n_shared_experts", moe.numSharedExperts, 0);
    check.size("shared_expert_intermediate_size", moe.sharedExpertIntermediateSize, 0);
    check.size("first_k_dense_replace", moe.firstDenseLayers, 0);
    check.size("decoder_sparse_step", moe.sparseStep);
    if (moe.firstDenseLayers >= c.numLayers && c.numLayers > 0) {
        check.warning("first_k_dense_replace", "covers every layer: no layer is MoE");
    }
    for (std::int64_t index : moe.denseLayers) {
        if (index < 0 || index >= c.numLayers) {
            check.warning("mlp_only_layers", fmt::format("names layer {}, which does not exist", index));
        }
    }
}

void checkConventions(const ModelConfig& c, Checker& check) {
    const std::int64_t headDim = c.effectiveHeadDim();
    const bool heads = c.hasAttentionLayers() || c.usesMixer(TokenMixer::LightningAttention);
    if (!c.latent && heads && headDim > 0 && (headDim < 64 || headDim > 128)) {
        check.hint("head_dim", fmt::format("{} is outside the usual 64-128; attention kernels such as "
                                           "FlashAttention are tuned for 64, 128 (and 256)",
                                           headDim));
    }
    if (c.tensorNaming == TensorNaming::T5 && c.outputHead && !c.tieWordEmbeddings) {
        // transformers 5.17's T5ForConditionalGeneration ties lm_head to shared whatever the config says.
        check.hint("tie_word_embeddings",
                   "transformers 5.17 ties T5's head to the shared embedding anyway, so its num_parameters() is "
                   "vocab_size x d_model lower; archplay counts the separate lm_head the t5-v1.1 checkpoints store");
    }
    // The same rules the sliders snap to (config/Snapping.h), so a snapped value never draws a hint.
    if (c.hiddenSize > 0 && !isSnapped(c.hiddenSize, kHiddenSnap)) {
        check.hint("hidden_size", fmt::format("{} is not a multiple of {}; tensor cores prefer it", c.hiddenSize,
                                              multipleOf(kHiddenSnap)));
    }
    // Only within the cap: above it the size is already an error, and rounding it up could overflow.
    if (c.vocabSize > 0 && c.vocabSize <= kMaxDimension && !isSnapped(c.vocabSize, kVocabSnap)) {
        const std::int64_t m = multipleOf(kVocabSnap);
        check.hint("vocab_size", fmt::format("{} is not a multiple of {}; padding it (e.g. to {}) speeds up "
                                             "the embedding and output matmuls",
                                             c.vocabSize, m, (c.vocabSize + m - 1) / m * m));
    }
    if (c.hasDenseFfnLayers() && c.intermediateSize > 0 && !isSnapped(c.intermediateSize, kFfnSnap)) {
        check.hint("intermediate_size",
                   fmt::format("{} is not a multiple of {}", c.intermediateSize, multipleOf(kFfnSnap)));
    }
    if (c.hasDenseFfnLayers() && c.hiddenSize > 0 && c.intermediateSize > 0) {
        const double ratio = static_cast<double>(c.intermediateSize) / static_cast<double>(c.hiddenSize);
        const bool gated = c.ffnKind != FfnKind::Mlp;
        if (ratio < 1.0 || ratio > 8.0) {
            check.warning("intermediate_size",
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
        check.error("tensor_parallel",
                    fmt::format("{} does not divide the {} GPUs into data-parallel groups", tp, scenario.gpuCount));
    }
    if (config.numHeads > 0 && static_cast<std::uint64_t>(config.numHeads) % tp != 0) {
        check.error("tensor_parallel", fmt::format("{} does not divide the {} attention heads", tp, config.numHeads));
    }
    const std::int64_t width =
        config.ffnKind == FfnKind::Moe ? config.moe.expertIntermediateSize : config.intermediateSize;
    if (width > 0 && static_cast<std::uint64_t>(width) % tp != 0) {
        check.error("tensor_parallel", fmt::format("{} does not divide the FFN width {}", tp, width));
    }
}

} // namespace

Diagnostics validateScenario(const ModelConfig& config, const Scenario& scenario) {
    Checker check;
    if (const std::string problem = gpuProblem(scenario.gpu); !problem.empty()) {
        check.error("gpu", problem);
    }
    if (scenario.gpuCount == 0) {
        check.error("gpu_count", "must be at least 1");
    }
    for (auto [field, value] :
         {std::pair{"sequence_length", scenario.sequenceLength}, std::pair{"batch_size", scenario.batch},
          std::pair{"prefill_chunk", scenario.prefillChunk}, std::pair{"micro_batch", scenario.microBatch},
          std::pair{"tensor_parallel", scenario.tensorParallel}}) {
        if (value == 0) {
            check.error(field, "must be at least 1");
        }
    }
    if (scenario.zeroStage < 0 || scenario.zeroStage > 3) {
        check.error("zero_stage", fmt::format("{} is not a ZeRO stage: 0, 1, 2 or 3", scenario.zeroStage));
    }
    if (!(scenario.mfu > 0) || scenario.mfu > 1) {
        check.error("mfu", "must be above 0 and at most 1");
    }
    checkTensorParallel(config, scenario, check);
    if (config.maxPositions > 0 && scenario.sequenceLength > static_cast<std::uint64_t>(config.maxPositions)) {
        check.warning("sequence_length",
                      fmt::format("{} tokens is beyond the model's context of {}: untrained positions",
                                  withThousands(scenario.sequenceLength),
                                  withThousands(static_cast<std::uint64_t>(config.maxPositions))));
    }
    // Tensor parallelism splits the heads over the devices; an uneven split idles some of them, and
    // KV heads that neither divide nor are divided by the device count cannot shard the cache evenly.
    const std::uint64_t devices = scenario.gpuCount;
    if (devices > 1 && config.numHeads > 0 && static_cast<std::uint64_t>(config.numHeads) % devices != 0) {
        check.hint("num_attention_heads", fmt::format("{} heads do not split evenly over the scenario's {} GPUs "
                                                      "(tensor parallelism)",
                                                      config.numHeads, devices));
    }
    const bool grouped = !config.latent && config.numKvHeads > 0 && config.numKvHeads < config.numHeads;
    if (devices > 1 && grouped && config.hasDecoder()) {
        const auto kvHeads = static_cast<std::uint64_t>(config.numKvHeads);
        if (kvHeads % devices != 0 && devices % kvHeads != 0) {
            check.hint(
                "num_key_value_heads",
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
        check.warning("model_type",
                      fmt::format("every figure is an estimate: it ignores {}", fmt::join(config.ignoredFields, ", ")));
    }
    checkConventions(config, check);
    return check.take();
}

} // namespace archplay::core
