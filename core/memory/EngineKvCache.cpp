// SPDX-License-Identifier: GPL-3.0-or-later
// The cache as vLLM and llama.cpp allocate it (KvAllocator::Vllm, KvAllocator::LlamaCpp; FORMULAS.md §4.8).
#include "core/memory/KvLedger.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace archplay::core {
namespace {

std::uint64_t cdiv(std::uint64_t a, std::uint64_t b) {
    return b == 0 ? 0 : a / b + (a % b != 0 ? 1 : 0);
}

/// `a` rounded up to a multiple of `b` (GGML_PAD).
Checked padTo(std::uint64_t a, std::uint64_t b) {
    return Checked(cdiv(a, b)) * Checked(b);
}

std::string_view engineName(KvAllocator allocator) {
    return allocator == KvAllocator::Vllm ? "vLLM" : "llama.cpp";
}

/// llama.cpp's bytes for one cached K or V row of `elements` values (ggml_row_size): f32, f16 and bf16
/// per value; q8_0 and q4_0 in blocks of 32 values, 32 int8 or 16 bytes of nibbles plus an f16 scale
/// (34 and 18 bytes; ggml-common.h, block_q8_0 and block_q4_0).
Checked llamaRowBytes(std::uint64_t elements, DType dtype) {
    switch (dtype) {
    case DType::INT8:
        return Checked(elements / 32) * Checked(34);
    case DType::INT4:
        return Checked(elements / 32) * Checked(18);
    default:
        return Checked(elements) * Checked(static_cast<std::uint64_t>(bitsOf(dtype) / 8));
    }
}

/// Why the engine has no rule for this model or KV format; empty when it has.
std::string unsupportedReason(const ModelConfig& config, const ModelPlan& plan, DType dtype, KvAllocator allocator) {
    const std::string_view engine = engineName(allocator);
    if (config.architecture == ArchitectureKind::EncoderDecoder) {
        return fmt::format("archplay has {}'s cache rules for decoder-only models; an encoder-decoder's "
                           "cross-attention cache under {} is not modelled",
                           engine, engine);
    }
    if (allocator == KvAllocator::Vllm && (dtype == DType::INT8 || dtype == DType::INT4)) {
        return "vLLM caches K and V in the model's dtype or in fp8 (--kv-cache-dtype auto, fp8); it has no int8 or "
               "int4 KV cache";
    }
    if (allocator == KvAllocator::LlamaCpp && dtype == DType::FP8) {
        return "llama.cpp caches K and V in f32, f16, bf16 or blocks of 32 values (-ctk/-ctv q8_0, q4_0); it has no "
               "fp8 KV cache";
    }
    if (config.indexer) {
        return allocator == KvAllocator::Vllm
                   ? "vLLM caches DeepSeek sparse attention in a layout of its own (fp8_ds_mla: an fp8 latent with "
                     "scales, and an indexer cache of its own page size), which archplay does not model"
                   : "archplay has no llama.cpp rule for DeepSeek sparse attention's indexer cache";
    }
    for (const LayerPlan& layer : plan.layers) {
        if (layer.stack != Stack::Decoder) {
            continue;
        }
        if (layer.mixer == TokenMixer::LightningAttention) {
            return fmt::format("archplay has no {} rule for lightning attention's state (MiniMax-Text-01)", engine);
        }
        if (allocator == KvAllocator::LlamaCpp && layer.attends() && (dtype == DType::INT8 || dtype == DType::INT4)) {
            // ggml quantises each head's row in blocks of 32 (llama.cpp refuses "block size 32 does not
            // divide n_embd_head_k"); MLA's one head is its latent and rotary key.
            const std::uint64_t head =
                layer.latent ? cacheLedger(config, layer, allocator).selfPerToken.value()
                             : static_cast<std::uint64_t>(std::max<std::int64_t>(config.effectiveHeadDim(), 0));
            if (head % 32 != 0) {
                return fmt::format("llama.cpp's {} cache quantises each head's row in blocks of 32 values; a head "
                                   "of {} values is not a multiple of 32",
                                   kvFormatName(KvAllocator::LlamaCpp, dtype), head);
            }
        }
    }
    return {};
}

/// The kinds of vLLM's KV cache specs: layers of one kind share a page count per request.
struct VllmKind {
    enum Type { Full, Sliding, Chunked, State } type = Full;
    std::uint64_t window = 0;
    auto operator<=>(const VllmKind&) const = default;
};

VllmKind vllmKind(const LayerPlan& layer) {
    if (layer.window <= 0) {
        return {};
    }
    const auto window = static_cast<std::uint64_t>(layer.window);
    return {layer.attention == LayerAttention::Chunked ? VllmKind::Chunked : VllmKind::Sliding, window};
}

/// Pages one request of `length` tokens takes in one layer of `kind` (max_memory_usage_bytes / page).
std::uint64_t vllmPages(VllmKind kind, std::uint64_t length, std::uint64_t block, std::uint64_t chunk) {
    if (kind.type == VllmKind::State) {
        return 1;
    }
    if (length == 0) {
        return 0;
    }
    switch (kind.type) {
    case VllmKind::Sliding:
        // The last W - 1 tokens plus a step's scheduled tokens; +1 as the window need not start a block.
        return cdiv(std::min((Checked(kind.window - 1) + Checked(chunk)).value(), length), block) + 1;
    case VllmKind::Chunked:
        return cdiv(std::min((Checked(kind.window) + Checked(chunk)).value(), length), block);
    default:
        return cdiv(length, block);
    }
}

void vllmCache(const ModelConfig& config, const ModelPlan& plan, std::uint64_t chunk, KvCacheReport& report) {
    const std::uint64_t length = report.sequenceLength;
    const std::uint64_t batch = report.batch;
    const DType stateDType = report.stateDType.value_or(report.dtype == DType::FP8 ? DType::BF16 : report.dtype);
    std::uint64_t attentionPerToken = 0; // bytes one token takes in one attention layer
    std::uint64_t statePage = 0;         // bytes of one layer's recurrent state
    bool latent = false;
    std::map<VllmKind, std::uint64_t> layersOfKind;
    for (const LayerPlan& layer : plan.layers) {
        if (layer.stack != Stack::Decoder) {
            continue;
        }
        if (layer.attends()) {
            const std::uint64_t perToken =
                bytesFor(cacheLedger(config, layer, KvAllocator::Vllm).selfPerToken.value(), report.dtype);
            if (attentionPerToken != 0 && perToken != attentionPerToken) {
                report.unsupported = "vLLM pages every attention layer alike; layers that cache different widths "
                                     "per token are not modelled";
                return;
            }
            attentionPerToken = perToken;
            latent = latent || layer.latent;
            ++layersOfKind[vllmKind(layer)];
        }
        const FixedState state = fixedState(config, layer, KvAllocator::Vllm);
        if (state.elements() > 0) {
            statePage = std::max(statePage, state.bytes(stateDType, true));
            ++layersOfKind[{VllmKind::State, 0}];
        }
    }
    if (layersOfKind.empty()) {
        return;
    }
    // Pages of 16 tokens, 64 for FlashMLA; a hybrid model's attention block grows in steps of 16 until
    // its page holds a recurrent state, which is then padded to it (HybridAttentionMambaModelConfig).
    std::uint64_t block = latent ? 64 : 16;
    Checked page;
    if (attentionPerToken != 0 && statePage != 0) {
        block = std::max(block, 16 * cdiv(statePage, 16 * attentionPerToken));
        page = Checked(block) * Checked(attentionPerToken);
    } else {
        page = attentionPerToken != 0 ? Checked(block) * Checked(attentionPerToken) : Checked(statePage);
    }
    // Groups of an equal number of layers, one layer of each group per shared pool; the last group of a
    // kind is padded (_get_kv_cache_groups_uniform_page_size).
    std::uint64_t fewest = UINT64_MAX;
    std::uint64_t most = 0;
    for (const auto& [kind, count] : layersOfKind) {
        fewest = std::min(fewest, count);
        most = std::max(most, count);
    }
    const std::uint64_t groupSize = layersOfKind.size() == 1 || 4 * most < 5 * fewest ? most : fewest;

    KvEngineLayout& layout = report.engine;
    layout.blockTokens = attentionPerToken != 0 ? block : 0;
    layout.pageBytes = page.value();
    layout.groupSize = groupSize;
    Checked padding;
    Checked pagesPerSequence;
    for (const auto& [kind, count] : layersOfKind) {
        const std::uint64_t groups = cdiv(count, groupSize);
        const std::uint64_t pages = vllmPages(kind, length, block, chunk);
        layout.groups += groups;
        layout.paddingLayers += groups * groupSize - count;
        pagesPerSequence += Checked(groups) * Checked(pages);
        padding += Checked(groups * groupSize - count) * Checked(pages) * page;
    }
    layout.pagesPerSequence = pagesPerSequence.value();

    Checked perToken, total, states;
    for (std::size_t i = 0; i < plan.layers.size(); ++i) {
        const LayerPlan& layer = plan.layers[i];
        KvLayerCache& cache = report.layers[i];
        if (layer.stack != Stack::Decoder) {
            continue;
        }
        Checked bytes;
        if (layer.attends()) {
            const LayerLedger ledger = cacheLedger(config, layer, KvAllocator::Vllm);
            const std::uint64_t pages = vllmPages(vllmKind(layer), length, block, chunk);
            cache.selfElementsPerToken = ledger.selfPerToken.value();
            cache.expandedElementsPerToken = ledger.selfPerToken.value();
            cache.selfBytesPerToken = attentionPerToken;
            cache.cachedTokens = (Checked(pages) * Checked(block)).value();
            bytes += Checked(pages) * page;
            perToken += attentionPerToken;
        }
        const FixedState state = fixedState(config, layer, KvAllocator::Vllm);
        if (state.elements() > 0) {
            cache.fixedStateElements = state.elements();
            cache.fixedStateBytes = page.value();
            bytes += page;
            states += page;
        }
        cache.bytes = (bytes * Checked(batch)).value();
        total += bytes;
    }
    report.bytesPerToken = perToken.value();
    report.expandedBytesPerToken = perToken.value();
    report.fixedStateBytesPerSequence = states.value();
    report.fixedStateBytes = (states * Checked(batch)).value();
    report.paddingBytes = (padding * Checked(batch)).value();
    const Checked whole = (total + padding) * Checked(batch);
    report.totalBytes = whole.value();
    report.expandedTotalBytes = whole.value();
    report.overflow = whole.overflowed() || page.overflowed() || pagesPerSequence.overflowed();
}

void llamaCppCache(const ModelConfig& config, const ModelPlan& plan, KvCacheReport& report) {
    const std::uint64_t length = report.sequenceLength;
    const std::uint64_t batch = report.batch;
    const DType dtype = report.dtype;
    // -c (batch x S) -np batch: n_ctx padded to 256, split into one stream per sequence, padded again.
    const Checked context = padTo((Checked(batch) * Checked(length)).value(), 256);
    const std::uint64_t cells = batch == 0 ? 0 : padTo(context.value() / batch, 256).value();
    // n_batch = min(n_ctx, 2048), n_ubatch = min(n_batch, 512) for a causal model.
    const std::uint64_t ubatch = std::min<std::uint64_t>(context.value(), 512);
    // llama.cpp keeps a window's cache only beside full layers (llama_kv_cache_iswa); a model whose every
    // layer slides (Mistral 7B v0.1) is converted without one and caches the whole context.
    bool full = false;
    bool sliding = false;
    for (const LayerPlan& layer : plan.layers) {
        if (layer.stack == Stack::Decoder && layer.attends()) {
            (layer.window > 0 ? sliding : full) = true;
        }
    }
    const bool interleaved = full && sliding;
    KvEngineLayout& layout = report.engine;
    layout.cells = cells;
    Checked perToken, keys, values, recurrent;
    for (std::size_t i = 0; i < plan.layers.size(); ++i) {
        const LayerPlan& layer = plan.layers[i];
        KvLayerCache& cache = report.layers[i];
        if (layer.stack != Stack::Decoder) {
            continue;
        }
        Checked bytes;
        if (layer.attends()) {
            const LayerLedger ledger = cacheLedger(config, layer, KvAllocator::LlamaCpp);
            // K and V rows of every KV head; MLA's latent and rotary key as K alone, V being a view of it.
            const std::uint64_t keyRow = layer.latent ? ledger.selfPerToken.value() : ledger.selfPerToken.value() / 2;
            const std::uint64_t valueRow = layer.latent ? 0 : keyRow;
            std::uint64_t held = cells;
            if (interleaved && layer.window > 0) {
                const auto window = static_cast<std::uint64_t>(layer.window);
                held = padTo(std::min(cells, (Checked(window) + Checked(ubatch)).value()), 256).value();
                layout.slidingCells = held;
            }
            const Checked key = llamaRowBytes(keyRow, dtype);
            const Checked value = llamaRowBytes(valueRow, dtype);
            cache.selfElementsPerToken = ledger.selfPerToken.value();
            cache.expandedElementsPerToken = ledger.selfPerToken.value();
            cache.selfBytesPerToken = (key + value).value();
            cache.cachedTokens = held;
            keys += key * Checked(held) * Checked(batch);
            values += value * Checked(held) * Checked(batch);
            bytes += (key + value) * Checked(held);
            perToken += key + value;
        }
        const FixedState state = fixedState(config, layer, KvAllocator::LlamaCpp);
        if (state.elements() > 0) {
            // One cell per sequence (rs_size = max(1, n_seq_max)), r and s in f32.
            cache.fixedStateElements = state.elements();
            cache.fixedStateBytes = state.bytes(DType::FP32, false);
            bytes += cache.fixedStateBytes;
            recurrent += Checked(cache.fixedStateBytes) * Checked(batch);
            report.fixedStateBytesPerSequence += cache.fixedStateBytes;
        }
        cache.bytes = (bytes * Checked(batch)).value();
    }
    layout.keyBytes = keys.value();
    layout.valueBytes = values.value();
    layout.recurrentBytes = recurrent.value();
    report.bytesPerToken = perToken.value();
    report.expandedBytesPerToken = perToken.value();
    report.fixedStateBytes = recurrent.value();
    const Checked whole = keys + values + recurrent;
    report.totalBytes = whole.value();
    report.expandedTotalBytes = whole.value();
    report.overflow = whole.overflowed() || context.overflowed();
}

} // namespace

KvCacheReport engineKvCache(const ModelConfig& config, const ModelPlan& plan, std::uint64_t sequenceLength,
                            std::uint64_t batch, DType dtype, std::optional<DType> stateDType, KvAllocator allocator,
                            std::uint64_t prefillChunk) {
    KvCacheReport report;
    report.allocator = allocator;
    report.dtype = dtype;
    report.sequenceLength = sequenceLength;
    report.batch = batch;
    // vLLM keeps recurrent states in the model's dtype (mamba_cache_dtype auto), which an fp8 KV cache
    // does not change; llama.cpp in f32 whatever is asked.
    report.stateDType = stateDType; // what was asked; each engine keeps its own precision below
    report.layers.assign(plan.layers.size(), KvLayerCache{});
    report.unsupported = unsupportedReason(config, plan, dtype, allocator);
    if (!report.unsupported.empty()) {
        return report;
    }
    if (allocator == KvAllocator::Vllm) {
        vllmCache(config, plan, prefillChunk, report);
    } else {
        llamaCppCache(config, plan, report);
    }
    return report;
}

VllmCapacity vllmCapacity(const ModelConfig& config, const KvCacheReport& oneSequence, std::uint64_t cacheBytes,
                          std::uint64_t tensorParallel) {
    VllmCapacity capacity;
    capacity.cacheBytes = cacheBytes;
    capacity.unsupported = oneSequence.unsupported;
    const KvEngineLayout& layout = oneSequence.engine;
    if (!capacity.unsupported.empty() || oneSequence.allocator != KvAllocator::Vllm || layout.pageBytes == 0) {
        if (capacity.unsupported.empty()) {
            capacity.unsupported = "the model keeps no cache under vLLM";
        }
        return capacity;
    }
    std::uint64_t page = layout.pageBytes;
    if (tensorParallel > 1) {
        const auto kvHeads = static_cast<std::uint64_t>(std::max<std::int64_t>(config.numKvHeads, 1));
        if (oneSequence.fixedStateBytesPerSequence > 0) {
            capacity.unsupported = "vLLM splits a recurrent state's heads over tensor-parallel ranks, which archplay "
                                   "does not model";
            return capacity;
        }
        if (!config.latent) {
            // K/V heads are split over the ranks, or replicated one per rank when fewer than the ranks
            // (a rank's page holds max(1, heads / TP) heads); MLA's latent is replicated whole.
            if (kvHeads % tensorParallel == 0) {
                page /= tensorParallel;
            } else if (tensorParallel % kvHeads == 0) {
                page /= kvHeads;
            } else {
                capacity.unsupported = fmt::format(
                    "vLLM needs the {} KV heads divisible by the {} tensor-parallel ranks or the ranks by them",
                    kvHeads, tensorParallel);
                return capacity;
            }
        }
    }
    capacity.pageBytes = page;
    capacity.blocks = cacheBytes / page / layout.groupSize;
    const std::uint64_t smallestBlock = layout.blockTokens != 0 ? layout.blockTokens : oneSequence.sequenceLength;
    capacity.tokens = (Checked(capacity.blocks / layout.groups) * Checked(smallestBlock)).value();
    capacity.maxConcurrency = layout.pagesPerSequence == 0
                                  ? 0
                                  : static_cast<double>(capacity.blocks) / static_cast<double>(layout.pagesPerSequence);
    return capacity;
}

} // namespace archplay::core
