// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace archplay::core {

/// Which stacks the model has.
enum class ArchitectureKind { DecoderOnly, EncoderOnly, EncoderDecoder };

/// How a feed-forward block is built. Experts of a Moe block are gated (SwiGLU-style) MLPs.
enum class FfnKind { Mlp, Gated, Moe };

/// Normalisation layer type. LayerNorm has weight and bias [H]; RmsNorm a weight [H];
/// NonParametric (OLMo v1) has none.
enum class NormKind { LayerNorm, RmsNorm, NonParametric };

/// Where the per-layer norms sit. Counts follow the placement:
/// Pre/Post: 2 per layer (3 with cross-attention); Sandwich: 4 (Gemma 2/3);
/// ParallelSingle: 1 (GPT-J, Phi-2, Falcon-7B); ParallelDouble: 2 (Falcon-40B ln_attn + ln_mlp);
/// PostOnly: 2 after the sub-blocks and none before (OLMo 2).
enum class NormPlacement { Pre, Post, Sandwich, ParallelSingle, ParallelDouble, PostOnly };

/// How token positions enter the model.
enum class PositionalKind { Learned, Sinusoidal, Rope, Alibi, RelativeBias, None };

/// Normalisation of queries and keys inside attention.
/// PerHead: one RMSNorm weight [head_dim] shared by all heads (Qwen3, Gemma 3).
/// FullWidth: RMSNorm over the projected vector, [heads x head_dim] and [kv_heads x head_dim] (OLMo 2).
enum class QkNorm { None, PerHead, FullWidth };

/// Which layers use a sliding-window (local) attention instead of global attention.
enum class SlidingPattern {
    None,         ///< every layer global
    All,          ///< every layer sliding (Mistral-7B-v0.1)
    GlobalEveryN, ///< layer i global iff (i+1) % period == 0 (Gemma 3: 6; Gemma 2: 2)
    FromLayer,    ///< layer i sliding iff i >= firstSlidingLayer (Qwen2 use_sliding_window + max_window_layers)
    Explicit,     ///< per-layer list (Hugging Face layer_types), repeated cyclically when shorter
};

/// Attention of one layer as it is scheduled.
enum class LayerAttention { Global, Sliding, Chunked };

/// Feed-forward activation; names follow Hugging Face `hidden_act`.
enum class Activation { Relu, Gelu, GeluTanh, Silu, Other };

/// Multi-head latent attention (DeepSeek-V2/V3). Dimensions in elements.
struct LatentAttention {
    std::optional<std::int64_t> qLoraRank; ///< q_lora_rank; absent means a plain q_proj (V2-Lite)
    std::int64_t kvLoraRank = 512;         ///< kv_lora_rank, width of the cached latent
    std::int64_t qkNopeHeadDim = 128;      ///< qk_nope_head_dim
    std::int64_t qkRopeHeadDim = 64;       ///< qk_rope_head_dim, the shared rotary key (also cached)
    std::int64_t vHeadDim = 128;           ///< v_head_dim

    bool operator==(const LatentAttention&) const = default;
};

/// Mixture-of-experts settings. Only read when FfnKind::Moe.
struct MixtureOfExperts {
    std::int64_t numExperts = 8;                   ///< routed experts E
    std::int64_t topK = 2;                         ///< experts per token k
    std::int64_t expertIntermediateSize = 14336;   ///< per-expert width Im
    std::int64_t numSharedExperts = 0;             ///< always-on shared experts
    std::int64_t sharedExpertIntermediateSize = 0; ///< width of each shared expert; 0 = the expert width (DeepSeek)
    bool sharedExpertGate = false;                 ///< Qwen2-MoE's sigmoid gate Linear(H, 1)
    std::int64_t firstDenseLayers = 0;             ///< first_k_dense_replace: leading layers with a dense FFN
    std::int64_t sparseStep = 1;                   ///< decoder_sparse_step: layer i is MoE iff (i+1) % step == 0
    std::vector<std::int64_t> denseLayers;         ///< mlp_only_layers: explicit dense layer indices

    /// Width of one shared expert in effect.
    std::int64_t sharedWidth() const {
        return sharedExpertIntermediateSize > 0 ? sharedExpertIntermediateSize : expertIntermediateSize;
    }

    bool operator==(const MixtureOfExperts&) const = default;
};

/// config.json fields a config carries without interpreting them. Read-only and shared: copying a
/// config (once per change, into the Analysis) copies a pointer, not the JSON. Equal when the JSON is.
class Passthrough {
public:
    Passthrough()
        : Passthrough(nlohmann::json::object()) {}
    Passthrough(nlohmann::json json) // NOLINT(google-explicit-constructor): assigned like the JSON it holds
        : m_json(std::make_shared<const nlohmann::json>(std::move(json))) {}

    const nlohmann::json& json() const { return *m_json; }
    bool operator==(const Passthrough& other) const { return m_json == other.m_json || *m_json == *other.m_json; }

private:
    std::shared_ptr<const nlohmann::json> m_json;
};

/// A transformer's architecture: every number and switch that decides its parameters and caches.
/// Sizes are in elements (not bytes). Signed so that invalid user input (0, negative) can be held
/// and reported by validate() instead of wrapping.
struct ModelConfig {
    std::string modelType = "llama"; ///< Hugging Face model_type this config reads and writes as
    ArchitectureKind architecture = ArchitectureKind::DecoderOnly;

    std::int64_t vocabSize = 32000;
    std::int64_t hiddenSize = 4096;
    std::int64_t numLayers = 32;       ///< decoder layers (encoder layers for encoder-only models)
    std::int64_t numEncoderLayers = 0; ///< encoder layers of an encoder-decoder model

    std::int64_t numHeads = 32;
    std::int64_t numKvHeads = 32;
    std::optional<std::int64_t> headDim;   ///< explicit head_dim; absent means hiddenSize / numHeads
    std::optional<LatentAttention> latent; ///< present for MLA

    bool qBias = false;
    bool kBias = false;
    bool vBias = false;
    bool oBias = false;
    bool fusedQkv = false; ///< one fused QKV projection (GPT-2, NeoX, Falcon, Phi-3): same count
    QkNorm qkNorm = QkNorm::None;

    SlidingPattern slidingPattern = SlidingPattern::None;
    std::int64_t slidingWindow = 4096;      ///< tokens a sliding layer attends to (and caches)
    std::int64_t globalEvery = 6;           ///< period for SlidingPattern::GlobalEveryN
    std::int64_t firstSlidingLayer = 0;     ///< for SlidingPattern::FromLayer
    std::vector<LayerAttention> layerTypes; ///< for SlidingPattern::Explicit
    std::int64_t attentionChunkSize = 0;    ///< chunked local attention (Llama 4); 0 = off

    FfnKind ffnKind = FfnKind::Gated;
    Activation activation = Activation::Silu;
    std::int64_t intermediateSize = 11008; ///< dense FFN width I
    bool ffnBias = false;
    MixtureOfExperts moe;

    NormKind normKind = NormKind::RmsNorm;
    NormPlacement normPlacement = NormPlacement::Pre;
    bool finalNorm = true;
    bool embeddingNorm = false; ///< a norm right after the token embedding (BLOOM, BERT, BART)

    PositionalKind positional = PositionalKind::Rope;
    std::int64_t maxPositions = 4096;  ///< max_position_embeddings / n_positions (context length)
    std::int64_t positionOffset = 0;   ///< extra learned rows (OPT, BART: 2)
    double rotaryFraction = 1.0;       ///< share of head_dim that is rotated (partial RoPE)
    std::int64_t relativeBuckets = 32; ///< T5 relative_attention_num_buckets

    bool outputHead = true; ///< an LM head exists (XxxForCausalLM); false for BertModel
    bool tieWordEmbeddings = false;
    bool outputHeadBias = false;             ///< lm_head bias (GPT-J, Phi-2)
    std::int64_t embeddingProjectionDim = 0; ///< OPT word_embed_proj_dim when it differs from H; 0 = none

    std::int64_t tokenTypes = 0; ///< BERT type_vocab_size
    bool pooler = false;         ///< BERT pooler dense [H,H] + bias
    std::int64_t mtpLayers = 0;  ///< DeepSeek-V3 num_nextn_predict_layers (reported apart)

    /// Fields of the source config.json that the model does not interpret, kept for a lossless round trip.
    Passthrough passthrough;

    /// head_dim in effect: the explicit value, else hiddenSize / numHeads (0 when numHeads is 0).
    std::int64_t effectiveHeadDim() const;
    /// True when the model has an encoder stack.
    bool hasEncoder() const { return architecture != ArchitectureKind::DecoderOnly; }
    /// True when the model has a decoder stack (decoder-only or encoder-decoder).
    bool hasDecoder() const { return architecture != ArchitectureKind::EncoderOnly; }

    bool operator==(const ModelConfig&) const = default;
};

/// Attention family as people name it: MHA, GQA, MQA or MLA.
enum class AttentionFamily { MHA, GQA, MQA, MLA };
AttentionFamily attentionFamily(const ModelConfig& config);

std::string_view toString(ArchitectureKind kind);
std::string_view toString(FfnKind kind);
std::string_view toString(NormKind kind);
std::string_view toString(NormPlacement placement);
std::string_view toString(PositionalKind kind);
std::string_view toString(QkNorm norm);
std::string_view toString(LayerAttention attention);
std::string_view toString(Activation activation);
std::string_view toString(AttentionFamily family);
std::string_view toString(SlidingPattern pattern);

} // namespace archplay::core
