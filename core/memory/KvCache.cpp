// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/memory/KvCache.h"

#include "core/memory/KvLedger.h"
#include "core/util/Checked.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace archplay::core {

std::uint64_t FixedState::elements() const {
    const Checked sum = Checked(convolutionElements) + Checked(recurrentElements);
    return sum.overflowed() ? UINT64_MAX : sum.value();
}

std::uint64_t FixedState::bytes(DType dtype, bool forced) const {
    const DType recurrentDType = recurrentInFp32 && !forced ? DType::FP32 : dtype;
    const DType convolutionDType = convolutionInFp32 && !forced ? DType::FP32 : dtype;
    const Checked sum =
        Checked(bytesFor(convolutionElements, convolutionDType)) + Checked(bytesFor(recurrentElements, recurrentDType));
    return sum.overflowed() ? UINT64_MAX : sum.value();
}

std::string_view toString(KvAllocator allocator) {
    switch (allocator) {
    case KvAllocator::Architecture:
        return "architecture";
    case KvAllocator::Transformers:
        return "transformers";
    case KvAllocator::Vllm:
        return "vllm";
    case KvAllocator::LlamaCpp:
        return "llama.cpp";
    }
    return {};
}

std::optional<KvAllocator> parseKvAllocator(std::string_view name) {
    for (KvAllocator allocator : kAllKvAllocators) {
        if (name == toString(allocator)) {
            return allocator;
        }
    }
    return std::nullopt;
}

std::string kvAllocatorChoices() {
    std::string names;
    for (std::size_t i = 0; i < std::size(kAllKvAllocators); ++i) {
        names += i == 0 ? "" : i + 1 == std::size(kAllKvAllocators) ? " or " : ", ";
        names += toString(kAllKvAllocators[i]);
    }
    return names;
}

std::string_view kvFormatName(KvAllocator allocator, DType dtype) {
    if (allocator == KvAllocator::LlamaCpp) {
        switch (dtype) {
        case DType::INT8:
            return "q8_0";
        case DType::INT4:
            return "q4_0";
        case DType::FP16:
            return "f16";
        case DType::FP32:
            return "f32";
        default:
            break;
        }
    }
    return toString(dtype);
}

std::string_view allocatorLabel(KvAllocator allocator) {
    switch (allocator) {
    case KvAllocator::Architecture:
        return "the architecture's own cache";
    case KvAllocator::Transformers:
        return "what transformers 5.17 allocates";
    case KvAllocator::Vllm:
        return "what vLLM 0.11 reserves";
    case KvAllocator::LlamaCpp:
        return "what llama.cpp allocates";
    }
    return {};
}

std::string_view allocatorSource(KvAllocator allocator) {
    switch (allocator) {
    case KvAllocator::Architecture:
        return "FORMULAS.md §4: K and V of every KV head, W tokens on a sliding layer, MLA's latent";
    case KvAllocator::Transformers:
        return "transformers 5.17 cache_utils.py, DynamicCache and its layers, and each family's modeling file";
    case KvAllocator::Vllm:
        return "vLLM 0.11 v1/kv_cache_interface.py (page sizes, max_memory_usage_bytes), v1/core/kv_cache_utils.py "
               "(groups, padding layers, num_gpu_blocks), model_executor/models/config.py (hybrid page sizes), "
               "block 16, 64 with FlashMLA, max_num_batched_tokens = the prefill chunk";
    case KvAllocator::LlamaCpp:
        return "llama.cpp src/llama-context.cpp (n_ctx padded to 256, PR #17046), llama-kv-cache.cpp (K and V rows, "
               "MLA as K only), llama-kv-cache-iswa.cpp (sliding cache of W + n_ubatch cells), "
               "llama-memory-recurrent.cpp (f32 states), ggml block sizes; -np batch, -ub 512, flash attention";
    }
    return {};
}

FixedState fixedState(const ModelConfig& config, const LayerPlan& layer, KvAllocator allocator) {
    Checked conv;
    Checked recurrent;
    bool fp32 = false;
    // vLLM's and llama.cpp's convolution states keep K - 1 columns; transformers' keep K.
    const bool engine = allocator == KvAllocator::Vllm || allocator == KvAllocator::LlamaCpp;
    const auto window = [engine](std::int64_t kernel) {
        return dim(engine && kernel > 0 ? kernel - 1 : kernel);
    };
    switch (layer.mixer) {
    case TokenMixer::Attention:
        return {};
    case TokenMixer::GatedDeltaNet: {
        const GatedDeltaNet& d = config.deltaNet;
        conv = d.convChannels() * window(d.convKernel);
        recurrent = dim(d.numValueHeads) * dim(d.keyHeadDim) * dim(d.valueHeadDim);
        fp32 = true;
        break;
    }
    case TokenMixer::LightningAttention: {
        const Checked headDim = dim(config.effectiveHeadDim());
        recurrent = dim(config.numHeads) * headDim * headDim;
        break;
    }
    case TokenMixer::Mamba2:
    case TokenMixer::AttentionWithMamba2: {
        const Mamba2Mixer& m = config.mamba;
        conv = m.convChannels() * window(m.convKernel);
        recurrent = dim(m.numHeads) * dim(m.headDim) * dim(m.stateSize);
        // transformers' Mamba-2 layers (Granite 4.0 H, Falcon-H1) allocate the SSM state in fp32.
        fp32 = allocator == KvAllocator::Transformers;
        break;
    }
    case TokenMixer::Mamba: {
        // MambaCache: conv_states [inner, conv_kernel] and ssm_states [inner, state_size], both in the
        // model's dtype.
        const Mamba1Mixer& m = config.mamba1;
        conv = dim(m.innerWidth) * window(m.convKernel);
        recurrent = dim(m.innerWidth) * dim(m.stateSize);
        break;
    }
    case TokenMixer::ShortConv:
        conv = dim(config.hiddenSize) * window(config.shortConv.kernel);
        break;
    }
    // llama.cpp's llama_memory_recurrent holds both in f32 (llama-model.cpp, create_memory).
    const bool llamaCpp = allocator == KvAllocator::LlamaCpp;
    return {conv.overflowed() ? UINT64_MAX : conv.value(), recurrent.overflowed() ? UINT64_MAX : recurrent.value(),
            fp32 || llamaCpp, llamaCpp};
}

LayerLedger cacheLedger(const ModelConfig& config, const LayerPlan& layer, KvAllocator allocator) {
    LayerLedger ledger;
    const bool transformers = allocator == KvAllocator::Transformers;
    if (layer.attends() && !layer.latent) {
        // K and V of every KV head (FORMULAS.md §4.1); Falcon's new decoder repeats them per query head.
        const bool repeated = transformers && config.forward.kvRepeatedPerQueryHead;
        ledger.selfPerToken =
            Checked(2) * dim(repeated ? config.numHeads : config.numKvHeads) * dim(config.effectiveHeadDim());
        ledger.expandedPerToken = ledger.selfPerToken;
    } else if (layer.latent) {
        // MLA caches the compressed latent plus the shared rotary key (§4.3); the expanded figure is the
        // decompressed per-head K and V, which some transformers families cache instead.
        const LatentAttention& mla = *config.latent;
        const Checked latent = dim(mla.kvLoraRank) + dim(mla.qkRopeHeadDim);
        const Checked expanded =
            dim(config.numHeads) * (dim(mla.qkNopeHeadDim) + dim(mla.qkRopeHeadDim) + dim(mla.vHeadDim));
        ledger.selfPerToken = transformers && config.forward.latentCachedExpanded ? expanded : latent;
        ledger.expandedPerToken = expanded;
        if (config.indexer) {
            // DeepSeek sparse attention's indexer caches one key of index_head_dim per token.
            ledger.selfPerToken += dim(config.indexer->headDim);
            ledger.expandedPerToken += dim(config.indexer->headDim);
        }
    }
    if (layer.window > 0) {
        // DynamicSlidingWindowLayer keeps sliding_window - 1 tokens (the query's own key is not kept).
        const auto window = static_cast<std::uint64_t>(layer.window);
        ledger.tokenLimit = transformers ? window - 1 : window;
    }
    return ledger;
}

KvCacheReport kvCache(const ModelConfig& config, const ModelPlan& plan, std::uint64_t sequenceLength,
                      std::uint64_t batch, DType dtype, std::uint64_t encoderSequenceLength,
                      std::optional<DType> stateDType, KvAllocator allocator, std::uint64_t prefillChunk) {
    if (allocator == KvAllocator::Vllm || allocator == KvAllocator::LlamaCpp) {
        KvCacheReport report =
            engineKvCache(config, plan, sequenceLength, batch, dtype, stateDType, allocator, prefillChunk);
        report.encoderSequenceLength =
            config.architecture == ArchitectureKind::EncoderDecoder ? encoderSequenceLength : 0;
        return report;
    }
    KvCacheReport report;
    report.allocator = allocator;
    report.latentExpanded =
        config.latent && allocator == KvAllocator::Transformers && config.forward.latentCachedExpanded;
    report.dtype = dtype;
    report.stateDType = stateDType;
    report.sequenceLength = sequenceLength;
    report.encoderSequenceLength = config.architecture == ArchitectureKind::EncoderDecoder ? encoderSequenceLength : 0;
    report.batch = batch;

    // The cross-attention K and V of every encoder token (§4.4).
    const Checked crossPerEncoderToken = Checked(2) * dim(config.numKvHeads) * dim(config.effectiveHeadDim());
    Checked perToken, expandedPerToken, crossPerToken, total, expandedTotal, stateTotal;

    report.layers.reserve(plan.layers.size());
    for (const LayerPlan& layer : plan.layers) {
        KvLayerCache cache;
        if (layer.stack == Stack::Decoder) {
            const LayerLedger ledger = cacheLedger(config, layer, allocator);
            const Checked self = ledger.selfPerToken;
            const Checked expanded = ledger.expandedPerToken;
            // A layer without attention keeps no tokens, only its fixed state.
            cache.cachedTokens = layer.attends() ? std::min(sequenceLength, ledger.tokenLimit) : 0;
            const Checked cross = layer.crossAttention ? crossPerEncoderToken : Checked(0);
            const Checked elements = self * cache.cachedTokens + cross * report.encoderSequenceLength;
            const Checked expandedElements = expanded * cache.cachedTokens + cross * report.encoderSequenceLength;
            cache.selfElementsPerToken = self.value();
            cache.selfBytesPerToken = bytesFor(self.value(), dtype);
            cache.expandedElementsPerToken = expanded.value();
            cache.crossElementsPerToken = cross.value();
            const FixedState state = core::fixedState(config, layer, allocator);
            cache.fixedStateElements = state.elements();
            const std::uint64_t stateBytes = state.bytes(stateDType.value_or(dtype), stateDType.has_value());
            cache.fixedStateBytes = stateBytes;
            stateTotal += stateBytes;
            cache.bytes = (Checked(bytesFor((elements * batch).value(), dtype)) + Checked(stateBytes) * batch).value();
            report.overflow = report.overflow || (elements * batch).overflowed() || expandedElements.overflowed();
            perToken += self;
            expandedPerToken += expanded;
            crossPerToken += cross;
            total += elements;
            expandedTotal += expandedElements;
        }
        report.layers.push_back(cache);
    }
    total *= batch;
    expandedTotal *= batch;
    report.bytesPerToken = bytesFor(perToken.value(), dtype);
    report.expandedBytesPerToken = bytesFor(expandedPerToken.value(), dtype);
    report.crossBytesPerEncoderToken = bytesFor(crossPerToken.value(), dtype);
    const Checked fixedStateTotal = stateTotal * batch;
    report.fixedStateBytesPerSequence = stateTotal.value();
    report.fixedStateBytes = fixedStateTotal.value();
    report.totalBytes = (Checked(bytesFor(total.value(), dtype)) + fixedStateTotal).value();
    report.expandedTotalBytes = (Checked(bytesFor(expandedTotal.value(), dtype)) + fixedStateTotal).value();
    report.overflow = report.overflow || perToken.overflowed() || expandedPerToken.overflowed() || total.overflowed() ||
                      expandedTotal.overflowed() || fixedStateTotal.overflowed() || report.totalBytes == UINT64_MAX;
    return report;
}

} // namespace archplay::core
