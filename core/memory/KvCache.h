// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/DType.h"
#include "core/config/LayerPlan.h"
#include "core/config/ModelConfig.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace archplay::core {

/// Tokens prefilled at once by default: vLLM's max_num_batched_tokens for its API server.
inline constexpr std::uint64_t kDefaultPrefillChunk = 8192;

/// Whose rule sizes the cache (FORMULAS.md §4.7). Each engine's rules live in one place, cacheLedger()
/// in KvCache.cpp, and every figure (the KV view, the cards, the exports, the CLI) names its allocator.
enum class KvAllocator {
    /// The architecture's own cache, the minimum any engine must keep: K and V of every KV head (or MLA's
    /// latent), W tokens on a sliding layer, fixed states at the KV precision except where the kernels
    /// keep them in fp32. The default.
    Architecture,
    /// What the cache classes of transformers 5.x hold after a forward pass (cache_utils.py): a sliding or
    /// chunked layer's DynamicSlidingWindowLayer keeps W - 1 tokens; DeepSeek-V3.2 and GLM-5 cache
    /// up-projected per-head K and V (DeepSeek-V2/V3 the latent); Falcon's new decoder caches K and V
    /// repeated to every query head; Mamba-2 and Gated DeltaNet keep their recurrent state in fp32 and
    /// their convolution window in the model's dtype. Bookkeeping scalars are not counted.
    Transformers,
    /// What vLLM's v1 engine reserves per request (0.11: v1/kv_cache_interface.py, v1/core/kv_cache_utils.py,
    /// model_executor/models/config.py): pages of 16 tokens (64 on MLA layers, FlashMLA's block; more
    /// when a hybrid model's attention page must hold a Mamba state), a full layer cdiv(S, block) pages,
    /// a sliding layer cdiv(min(W - 1 + max_num_batched_tokens, S), block) + 1, a chunked layer
    /// cdiv(min(C + max_num_batched_tokens, S), block), a recurrent layer one page (its convolution
    /// window of K - 1 columns and its state in the model's dtype, padded to the attention page), and
    /// the padding layers of its hybrid groups. KV formats: the model's dtype or fp8.
    Vllm,
    /// What llama.cpp allocates for -c (batch x S) -np batch (llama-context.cpp after PR #17046,
    /// llama-kv-cache.cpp, llama-kv-cache-iswa.cpp, llama-memory-recurrent.cpp): each sequence's stream
    /// padded to 256 cells, a sliding or chunked layer min(cells, W + n_ubatch 512) padded to 256, K and
    /// V rows in f32/f16/bf16 or blocks of 32 (q8_0 34 bytes, q4_0 18 bytes), MLA's latent as K only,
    /// recurrent layers' K - 1 convolution columns and states in f32, one cell per sequence.
    LlamaCpp,
};
inline constexpr KvAllocator kAllKvAllocators[] = {KvAllocator::Architecture, KvAllocator::Transformers,
                                                   KvAllocator::Vllm, KvAllocator::LlamaCpp};
std::string_view toString(KvAllocator allocator);
/// "architecture", "transformers", "vllm" or "llama.cpp"; nullopt for anything else.
std::optional<KvAllocator> parseKvAllocator(std::string_view name);
/// The names parseKvAllocator() takes, for messages: "architecture, transformers, vllm or llama.cpp".
std::string kvAllocatorChoices();
/// The KV format as the allocator names it: llama.cpp's ggml types ("q8_0" for int8, "q4_0" for int4,
/// "f16", "bf16", "f32"), otherwise toString(dtype).
std::string_view kvFormatName(KvAllocator allocator, DType dtype);
/// What a figure under the allocator is, for labels: "the architecture's own cache",
/// "what transformers 5.17 allocates".
std::string_view allocatorLabel(KvAllocator allocator);
/// Where the allocator's rules come from, for labels and reports.
std::string_view allocatorSource(KvAllocator allocator);

/// Cache of one layer. Elements are per token; bytes are for the whole scenario.
struct KvLayerCache {
    std::uint64_t selfElementsPerToken = 0;     ///< cached K and V (or MLA latent) elements per token
    std::uint64_t selfBytesPerToken = 0;        ///< the same in bytes at the cache precision
    std::uint64_t expandedElementsPerToken = 0; ///< what Hugging Face's eager MLA caches (= self for non-MLA)
    std::uint64_t cachedTokens = 0;             ///< tokens held: min(sequence, window)
    std::uint64_t crossElementsPerToken = 0;    ///< cross-attention K/V per encoder token
    /// Elements of the fixed per-sequence state of a linear-attention, state-space or convolution
    /// mixer (convolution window plus recurrent state); 0 for attention layers (FORMULAS.md §4.6).
    std::uint64_t fixedStateElements = 0;
    std::uint64_t fixedStateBytes = 0; ///< the fixed state of one sequence at its precision
    std::uint64_t bytes = 0;           ///< self + cross + fixed state, times batch
};

/// How an engine lays the cache out for one scenario (zero under Architecture and Transformers).
struct KvEngineLayout {
    std::uint64_t blockTokens = 0;      ///< vLLM: tokens per page of an attention layer
    std::uint64_t pageBytes = 0;        ///< vLLM: bytes of one page, every layer's (padded to one size)
    std::uint64_t groupSize = 0;        ///< vLLM: layers per KV cache group (one page of each per block id)
    std::uint64_t groups = 0;           ///< vLLM: KV cache groups
    std::uint64_t pagesPerSequence = 0; ///< vLLM: block ids a request of S tokens takes, over all groups
    std::uint64_t paddingLayers = 0;    ///< vLLM: empty layer slots that fill the last group of a kind
    std::uint64_t cells = 0;            ///< llama.cpp: cells of one sequence's stream (n_ctx_seq)
    std::uint64_t slidingCells = 0;     ///< llama.cpp: cells of its sliding-window cache; 0 without one
    std::uint64_t keyBytes = 0;         ///< llama.cpp: its "K (type)" buffers. Units: bytes.
    std::uint64_t valueBytes = 0;       ///< llama.cpp: its "V (type)" buffers. Units: bytes.
    std::uint64_t recurrentBytes = 0;   ///< llama.cpp: llama_memory_recurrent's r and s buffers. Units: bytes.
};

/// The fixed per-sequence state one layer keeps (FORMULAS.md §4.6), as Hugging Face's caches hold it:
/// a Gated DeltaNet's convolution window over q, k, v ([conv_dim, K]) plus its [value heads, d_k, d_v]
/// recurrent state, which the kernels keep in fp32; lightning attention's [heads, d, d] K^T V state;
/// Mamba-2's convolution window over x, B, C ([conv_dim, d_conv]) plus its [heads, d_head, d_state]
/// SSM state; a short convolution's [hidden, L_cache] window. Empty for attention. vLLM and llama.cpp
/// keep K - 1 columns of each convolution window (the oldest is shifted out before it is read).
struct FixedState {
    std::uint64_t convolutionElements = 0;
    std::uint64_t recurrentElements = 0;
    bool recurrentInFp32 = false;   ///< the implementation keeps the recurrent state in fp32 whatever the model dtype
    bool convolutionInFp32 = false; ///< and the convolution window too (llama.cpp)

    std::uint64_t elements() const;
    /// Bytes at `dtype`; the fp32 recurrent state stays fp32 unless `forced`.
    std::uint64_t bytes(DType dtype, bool forced) const;
};
[[nodiscard]] FixedState fixedState(const ModelConfig& config, const LayerPlan& layer,
                                    KvAllocator allocator = KvAllocator::Architecture);

/// The architecture's own KV cache for one scenario (FORMULAS.md §4).
struct KvCacheReport {
    KvAllocator allocator = KvAllocator::Architecture;
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
    /// The fixed state of every linear-attention / state-space / convolution layer for one sequence,
    /// at stateDType; it does not grow with the sequence. Units: bytes.
    std::uint64_t fixedStateBytesPerSequence = 0;
    /// fixedStateBytesPerSequence times batch. Units: bytes.
    std::uint64_t fixedStateBytes = 0;
    std::optional<DType> stateDType; ///< forced precision of fixed states; absent: the implementation's
    /// Whole cache for the scenario: windows applied, cross-attention and fixed state included, times
    /// batch. Units: bytes.
    std::uint64_t totalBytes = 0;
    /// The same if every MLA layer cached expanded per-head K and V.
    std::uint64_t expandedTotalBytes = 0;
    /// The MLA layers cache per-head K and V under this allocator (transformers' DeepSeek-V3.2, GLM-5):
    /// the expanded figures are then the cache itself.
    bool latentExpanded = false;
    std::vector<KvLayerCache> layers; ///< aligned with ModelPlan::layers (encoder layers hold 0)
    KvEngineLayout engine;
    /// vLLM's padding layers: what the empty slots of its last groups reserve. Included in totalBytes.
    std::uint64_t paddingBytes = 0;
    /// Why the allocator has no rule for this model or KV format ("llama.cpp offers no fp8 KV cache");
    /// empty when it has. The figures are then zero, never a guess.
    std::string unsupported;
    bool overflow = false;
};

/// The KV cache for `sequenceLength` generated/context tokens per sequence, `batch` sequences,
/// `encoderSequenceLength` source tokens (encoder-decoder only) at `dtype`; fixed states at
/// `stateDType` (absent: as the implementation keeps them: the KV precision, except the recurrent
/// states the allocator keeps in fp32), as `allocator` holds it.
/// Formulas: FORMULAS.md §4.1 (MHA/GQA/MQA: 2·nkv·d per layer), §4.2 (sliding windows cap at W),
/// §4.3 (MLA: kv_lora_rank + qk_rope_head_dim), §4.4 (encoder-decoder cross-attention).
/// vLLM's sliding and chunked layers also hold the `prefillChunk` tokens (max_num_batched_tokens)
/// a step may schedule.
[[nodiscard]] KvCacheReport kvCache(const ModelConfig& config, const ModelPlan& plan, std::uint64_t sequenceLength,
                                    std::uint64_t batch, DType dtype, std::uint64_t encoderSequenceLength = 0,
                                    std::optional<DType> stateDType = std::nullopt,
                                    KvAllocator allocator = KvAllocator::Architecture,
                                    std::uint64_t prefillChunk = kDefaultPrefillChunk);

/// What vLLM prints once it has sized its cache: "GPU KV cache size: N tokens" and "Maximum
/// concurrency for S tokens per request: X" (v1/core/kv_cache_utils.py, _report_kv_cache_config).
struct VllmCapacity {
    std::uint64_t cacheBytes = 0; ///< memory given to the cache on each GPU. Units: bytes.
    std::uint64_t pageBytes = 0;  ///< one page on each GPU (K/V heads split over tensor-parallel ranks)
    std::uint64_t blocks = 0;     ///< num_gpu_blocks: cacheBytes / pageBytes / group size
    std::uint64_t tokens = 0;     ///< blocks / groups x the smallest block: "GPU KV cache size"
    double maxConcurrency = 0;    ///< blocks / pages one request of S tokens takes
    std::string unsupported;      ///< why there is no figure; empty when there is
};
/// vLLM's capacity for `cacheBytes` per GPU over `tensorParallel` ranks, from a report made under
/// KvAllocator::Vllm for one sequence of the request length.
[[nodiscard]] VllmCapacity vllmCapacity(const ModelConfig& config, const KvCacheReport& oneSequence,
                                        std::uint64_t cacheBytes, std::uint64_t tensorParallel);

} // namespace archplay::core
