// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/memory/KvCache.h"

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
    const Checked sum =
        Checked(bytesFor(convolutionElements, dtype)) + Checked(bytesFor(recurrentElements, recurrentDType));
    return sum.overflowed() ? UINT64_MAX : sum.value();
}

FixedState fixedState(const ModelConfig& config, const LayerPlan& layer) {
    Checked conv;
    Checked recurrent;
    bool fp32 = false;
    switch (layer.mixer) {
    case TokenMixer::Attention:
        return {};
    case TokenMixer::GatedDeltaNet: {
        const GatedDeltaNet& d = config.deltaNet;
        conv = d.convChannels() * dim(d.convKernel);
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
        conv = m.convChannels() * dim(m.convKernel);
        recurrent = dim(m.numHeads) * dim(m.headDim) * dim(m.stateSize);
        break;
    }
    case TokenMixer::ShortConv:
        conv = dim(config.hiddenSize) * dim(config.shortConv.kernel);
        break;
    }
    return {conv.overflowed() ? UINT64_MAX : conv.value(), recurrent.overflowed() ? UINT64_MAX : recurrent.value(),
            fp32};
}

KvCacheReport kvCache(const ModelConfig& config, const ModelPlan& plan, std::uint64_t sequenceLength,
                      std::uint64_t batch, DType dtype, std::uint64_t encoderSequenceLength,
                      std::optional<DType> stateDType) {
    KvCacheReport report;
    report.dtype = dtype;
    report.stateDType = stateDType;
    report.sequenceLength = sequenceLength;
    report.encoderSequenceLength = config.architecture == ArchitectureKind::EncoderDecoder ? encoderSequenceLength : 0;
    report.batch = batch;

    const Checked headDim = dim(config.effectiveHeadDim());
    // K and V of every KV head (FORMULAS.md §4.1); for encoder-decoder models the cross-attention
    // K/V of the encoder output (§4.4).
    const Checked standardPerToken = Checked(2) * dim(config.numKvHeads) * headDim;
    Checked perToken, expandedPerToken, crossPerToken, total, expandedTotal, stateTotal;

    report.layers.reserve(plan.layers.size());
    for (const LayerPlan& layer : plan.layers) {
        KvLayerCache cache;
        if (layer.stack == Stack::Decoder) {
            Checked self = layer.attends() ? standardPerToken : Checked(0);
            Checked expanded = self;
            if (layer.latent) {
                // MLA caches the compressed latent plus the shared rotary key (§4.3); Hugging Face's
                // eager implementation caches the decompressed per-head K and V instead.
                const LatentAttention& mla = *config.latent;
                self = dim(mla.kvLoraRank) + dim(mla.qkRopeHeadDim);
                expanded = dim(config.numHeads) * (dim(mla.qkNopeHeadDim) + dim(mla.qkRopeHeadDim) + dim(mla.vHeadDim));
                if (config.indexer) {
                    // DeepSeek sparse attention's indexer caches one key of index_head_dim per token.
                    self += dim(config.indexer->headDim);
                    expanded += dim(config.indexer->headDim);
                }
            }
            const std::uint64_t window = layer.window > 0 ? static_cast<std::uint64_t>(layer.window) : UINT64_MAX;
            cache.cachedTokens = std::min(sequenceLength, window);
            const Checked cross = layer.crossAttention ? standardPerToken : Checked(0);
            const Checked elements = self * cache.cachedTokens + cross * report.encoderSequenceLength;
            const Checked expandedElements = expanded * cache.cachedTokens + cross * report.encoderSequenceLength;
            cache.selfElementsPerToken = self.value();
            cache.selfBytesPerToken = bytesFor(self.value(), dtype);
            cache.expandedElementsPerToken = expanded.value();
            cache.crossElementsPerToken = cross.value();
            const FixedState state = core::fixedState(config, layer);
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
