// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/util/Checked.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace archplay::core {

/// Which stacks the model has.
enum class ArchitectureKind { DecoderOnly, EncoderOnly, EncoderDecoder };

/// How a feed-forward block is built. Experts of a Moe block are gated (SwiGLU-style) MLPs. None: the
/// layers have no feed-forward block, their mixer is the whole layer (Mamba language models).
enum class FfnKind { Mlp, Gated, Moe, None };

/// Normalisation layer type. LayerNorm has weight and bias [H]; RmsNorm a weight [H];
/// NonParametric (OLMo v1) has none; LayerNormNoBias (Cohere) a weight [H] only.
enum class NormKind { LayerNorm, RmsNorm, NonParametric, LayerNormNoBias };

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
/// PerHeadLayerNorm: one LayerNorm weight and bias [head_dim] shared by all heads (Phi's qk_layernorm).
enum class QkNorm { None, PerHead, FullWidth, PerHeadLayerNorm };

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

/// How a checkpoint stores its weights, from its config.json's quantization_config.
struct ShippedWeights {
    std::string method; ///< quant_method: "fp8", "mxfp4", "gptq", "awq", "bitsandbytes", "compressed-tensors"
    /// The archplay weight format id it is stored in ("fp8-block128", "mxfp4"); empty when it is not
    /// one of archplay's layouts, and `unread` says why.
    std::string format;
    /// Modules left unquantised beside the format's own rule (modules_to_not_convert, ignore), with the
    /// layer index as '*': "model.layers.*.self_attn", "lm_head".
    std::vector<std::string> keptModules;
    std::string unread; ///< why the format could not be read; empty when it was
    bool operator==(const ShippedWeights&) const = default;
};

/// What mixes information across tokens in a layer. Only softmax attention keeps a per-token KV
/// cache; the others keep a fixed per-sequence state (FORMULAS.md §4.6).
enum class TokenMixer {
    Attention,           ///< softmax self-attention (global, sliding or chunked)
    GatedDeltaNet,       ///< Qwen3-Next / Qwen3.5 linear attention
    LightningAttention,  ///< MiniMax-Text-01 linear attention
    Mamba2,              ///< Mamba-2 state-space mixer (Granite 4.0 H)
    Mamba,               ///< Mamba-1 selective state-space mixer (Mamba language models)
    ShortConv,           ///< LFM2 gated short convolution
    AttentionWithMamba2, ///< attention and Mamba-2 side by side in one layer (Falcon-H1)
};

/// Whose checkpoint names a config's tensors carry: the module paths, the storage order and the
/// fusions of that family's modeling file in transformers (e.g. BERT's `attention.self.query`,
/// GPT-2's Conv1D `attn.c_attn` stored [in, out], Phi-3's fused `mlp.gate_up_proj`). Chosen by the
/// config.json reader of the family (core/io); Llama's names for every other family. Names, storage
/// order and fusions only: no parameter count depends on it.
enum class TensorNaming {
    Llama,
    Bert,
    T5,
    Bart,
    Opt,
    Gpt2,
    GptJ,
    GptNeox,
    Falcon,
    Bloom,
    Phi,
    Phi3,
    Mamba,
    Starcoder2,
    QwenMoe, ///< Qwen2-MoE, Qwen3-Next: one shared_expert and its shared_expert_gate
    Qwen35,  ///< Qwen3.5: the Gated DeltaNet's in_proj_qkv, in_proj_z, in_proj_b, in_proj_a
    Glm4,
    Apertus,
    Hunyuan,
    Ernie45Moe,
    Llama4,
    GptOss,
    GraniteHybrid,
    FalconH1,
    Lfm2,
};

/// Feed-forward activation; names follow Hugging Face `hidden_act`. XIelu (Apertus) has two
/// trainable scalars per layer.
enum class Activation { Relu, Gelu, GeluTanh, Silu, XIelu, Other };

/// Multi-head latent attention (DeepSeek-V2/V3). Dimensions in elements.
struct LatentAttention {
    std::optional<std::int64_t> qLoraRank; ///< q_lora_rank; absent means a plain q_proj (V2-Lite)
    std::int64_t kvLoraRank = 512;         ///< kv_lora_rank, width of the cached latent
    std::int64_t qkNopeHeadDim = 128;      ///< qk_nope_head_dim
    std::int64_t qkRopeHeadDim = 64;       ///< qk_rope_head_dim, the shared rotary key (also cached)
    std::int64_t vHeadDim = 128;           ///< v_head_dim

    bool operator==(const LatentAttention&) const = default;
};

/// Gated DeltaNet (Qwen3-Next, Qwen3.5). Dimensions in elements.
struct GatedDeltaNet {
    std::int64_t numKeyHeads = 16;   ///< linear_num_key_heads
    std::int64_t numValueHeads = 32; ///< linear_num_value_heads
    std::int64_t keyHeadDim = 128;   ///< linear_key_head_dim
    std::int64_t valueHeadDim = 128; ///< linear_value_head_dim
    std::int64_t convKernel = 4;     ///< linear_conv_kernel_dim

    /// Widths in elements, overflow-checked (each dimension may be up to 2^40).
    Checked keyWidth() const { return dim(numKeyHeads) * dim(keyHeadDim); }
    Checked valueWidth() const { return dim(numValueHeads) * dim(valueHeadDim); }
    /// Channels of the causal convolution over q, k and v.
    Checked convChannels() const { return Checked(2) * keyWidth() + valueWidth(); }

    bool operator==(const GatedDeltaNet&) const = default;
};

/// Mamba-2 mixer (Granite 4.0 H, Falcon-H1). Dimensions in elements.
struct Mamba2Mixer {
    std::int64_t numHeads = 128;  ///< mamba_n_heads
    std::int64_t headDim = 64;    ///< mamba_d_head
    std::int64_t stateSize = 128; ///< mamba_d_state
    std::int64_t numGroups = 1;   ///< mamba_n_groups
    std::int64_t convKernel = 4;  ///< mamba_d_conv
    bool convBias = true;         ///< mamba_conv_bias
    bool inProjBias = false;      ///< in_proj bias (mamba_proj_bias)
    bool outProjBias = false;     ///< out_proj bias (Granite: mamba_proj_bias; Falcon-H1: projectors_bias)
    bool gatedNorm = true;        ///< the gated RMSNorm before out_proj (Falcon-H1: mamba_rms_norm)

    /// Width of the SSM (heads x head_dim), overflow-checked.
    Checked innerWidth() const { return dim(numHeads) * dim(headDim); }
    /// Channels of the causal convolution over x, B and C, overflow-checked.
    Checked convChannels() const { return innerWidth() + Checked(2) * dim(numGroups) * dim(stateSize); }

    bool operator==(const Mamba2Mixer&) const = default;
};

/// Mamba-1's selective state-space mixer (transformers modeling_mamba.py, MambaMixer). Dimensions in
/// elements.
struct Mamba1Mixer {
    std::int64_t innerWidth = 1536; ///< intermediate_size = expand x hidden_size
    std::int64_t stateSize = 16;    ///< state_size
    std::int64_t convKernel = 4;    ///< conv_kernel
    std::int64_t timeStepRank = 48; ///< time_step_rank ("auto": ceil(hidden_size / 16))
    bool convBias = true;           ///< use_conv_bias
    bool projectionBias = false;    ///< use_bias: in_proj and out_proj have biases

    bool operator==(const Mamba1Mixer&) const = default;
};

/// LFM2's gated short convolution. The width is the hidden size.
struct ShortConvMixer {
    std::int64_t kernel = 3; ///< conv_L_cache
    bool bias = false;       ///< conv_bias

    bool operator==(const ShortConvMixer&) const = default;
};

/// DeepSeek sparse attention's lightning indexer (DeepSeek-V3.2): scores past tokens from a small
/// key cache of its own and keeps the top-k for the MLA layer.
struct SparseIndexer {
    std::int64_t numHeads = 64; ///< index_n_heads
    std::int64_t headDim = 128; ///< index_head_dim (also its cached key width)
    std::int64_t topK = 2048;   ///< index_topk

    bool operator==(const SparseIndexer&) const = default;
};

/// How a router turns its logits into expert scores.
enum class RouterScoring {
    Softmax, ///< p = softmax(z) over all routed experts (Mixtral, Qwen-MoE, DeepSeek-V2)
    Sigmoid, ///< s_e = sigmoid(z_e), each expert scored alone (DeepSeek-V3 scoring_func "sigmoid")
};

/// A mixture-of-experts router's rule as config.json states it (FORMULAS.md §13). It changes no
/// parameter count; the routing simulation and the derivation follow it. The group fields are kept
/// as written: routerSettings() (core/routing) drops a group limit the expert count cannot hold.
struct RouterRule {
    RouterScoring scoring = RouterScoring::Softmax; ///< scoring_func
    bool normaliseTopK = false;  ///< norm_topk_prob: gate weights renormalised over the k chosen (Mixtral always)
    std::int64_t groups = 1;     ///< n_group: experts split into groups for group-limited routing (DeepSeek-V3: 8)
    std::int64_t topKGroups = 1; ///< topk_group: groups a token may draw experts from (DeepSeek-V3: 4)
    bool groupByTopTwo = false;  ///< a group is scored by its two best experts (topk_method "noaux_tc"), else its best
    double routedScaling = 1.0;  ///< routed_scaling_factor applied to the gate weights

    bool operator==(const RouterRule&) const = default;
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
    std::vector<std::int64_t> moeLayers;           ///< explicit MoE layer indices; when set, the rules above are unused
    bool routerBias = false;                       ///< the router Linear has a bias (gpt-oss)
    bool expertBias = false;                       ///< every expert projection has a bias (gpt-oss)
    bool correctionBiasParameter = false;          ///< e_score_correction_bias [E] is an nn.Parameter (counted)
    RouterRule router;                             ///< how tokens pick their experts (no parameters)

    /// Width of one shared expert in effect.
    std::int64_t sharedWidth() const {
        return sharedExpertIntermediateSize > 0 ? sharedExpertIntermediateSize : expertIntermediateSize;
    }

    bool operator==(const MixtureOfExperts&) const = default;
};

/// rope_scaling: RoPE frequencies rescaled for contexts longer than the training length.
struct RopeScaling {
    std::string type = "scaled";  ///< rope_type (or the older type): "linear", "dynamic", "yarn", "llama3", ...
    std::optional<double> factor; ///< factor: how many times the context is stretched

    bool operator==(const RopeScaling&) const = default;
};

/// What the forward pass computes beyond the tensors: constants and family conventions that change
/// no parameter count and no cache, written out by the derivation (FORMULAS.md §1, §2). Filled by
/// the config.json readers (core/io) from the keys named below, or from the family's convention.
struct ForwardDetails {
    std::optional<double> ropeTheta;               ///< rope_theta, the RoPE base; absent: 10,000
    std::optional<double> ropeLocalTheta;          ///< rope_local_base_freq, the sliding layers' base (Gemma 3)
    std::optional<RopeScaling> ropeScaling;        ///< rope_scaling, when it is an object
    std::optional<double> queryPreAttentionScalar; ///< query_pre_attn_scalar: scores divided by its root (Gemma 2/3)
    std::optional<double> attentionLogitSoftcap;   ///< attn_logit_softcapping: scores capped by c tanh(s / c)
    std::optional<double> finalLogitSoftcap;       ///< final_logit_softcapping: logits capped likewise
    std::optional<double> normEpsilon;             ///< rms_norm_eps, layer_norm_eps, layer_norm_epsilon, ...
    bool embeddingScaledBySqrtHidden = false;      ///< token embeddings multiplied by sqrt(hidden_size) (Gemma)
    bool normGainPlusOne = false;                  ///< RMSNorm multiplies by (1 + g), not g (Gemma)
    bool attentionUnscaled = false;                ///< scores not divided by sqrt(head_dim) (T5)
    bool tiedHeadInputScaled = false;              ///< before a tied head the output is scaled by H^-1/2 (T5)
    /// How the family's transformers modeling file fills its cache, where it differs from the architecture's
    /// minimum (core/memory/KvCache.h, KvAllocator::Transformers):
    bool kvRepeatedPerQueryHead = false; ///< K and V cached repeated to every query head (Falcon's new decoder)
    bool latentCachedExpanded = false;   ///< MLA caches per-head K and V, not the latent (DeepSeek-V3.2, GLM-5)

    bool operator==(const ForwardDetails&) const = default;
};

/// config.json fields a config carries without interpreting them. Read-only and shared: copying a
/// config (once per change, into the Analysis) copies a pointer, not the JSON. Equal when the JSON is.
/// Only core/io reads it; this header declares the JSON type without its library, so a caller of
/// json() includes <nlohmann/json.hpp> itself.
class Passthrough {
public:
    /// An empty JSON object.
    Passthrough();
    Passthrough(nlohmann::json json); // NOLINT(google-explicit-constructor): assigned like the JSON it holds

    [[nodiscard]] const nlohmann::json& json() const { return *m_json; }
    bool operator==(const Passthrough& other) const;

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
    /// Encoder widths of an encoder-decoder model whose encoder differs from its decoder (BART's
    /// encoder_attention_heads, encoder_ffn_dim); 0 = the decoder's numHeads and intermediateSize.
    std::int64_t encoderHeads = 0;
    std::int64_t encoderIntermediateSize = 0;
    std::optional<std::int64_t> headDim;   ///< explicit head_dim; absent means hiddenSize / numHeads
    std::optional<LatentAttention> latent; ///< present for MLA

    bool qBias = false;
    bool kBias = false;
    bool vBias = false;
    bool oBias = false;
    bool fusedQkv = false; ///< one fused QKV projection (GPT-2, NeoX, Falcon, Phi-3): same count
    TensorNaming tensorNaming = TensorNaming::Llama; ///< the family's tensor names and fusions
    QkNorm qkNorm = QkNorm::None;
    bool attentionSinks = false;          ///< a learned sink logit per head (gpt-oss `sinks`)
    bool attentionOutputGate = false;     ///< q_proj also yields a sigmoid gate on the output (Qwen3-Next)
    std::optional<SparseIndexer> indexer; ///< DeepSeek sparse attention (MLA layers only)

    /// Token mixer of each layer, repeated cyclically when shorter; empty means attention everywhere.
    std::vector<TokenMixer> mixers;
    GatedDeltaNet deltaNet;
    Mamba2Mixer mamba;
    Mamba1Mixer mamba1;
    ShortConvMixer shortConv;

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
    std::int64_t maxPositions = 4096;     ///< max_position_embeddings / n_positions (context length)
    std::int64_t positionOffset = 0;      ///< extra learned rows (OPT, BART: 2)
    double rotaryFraction = 1.0;          ///< share of head_dim that is rotated (partial RoPE)
    std::int64_t relativeBuckets = 32;    ///< T5 relative_attention_num_buckets
    std::vector<std::int64_t> nopeLayers; ///< layers without rotary positions (Llama 4, SmolLM3 no_rope_layers)

    bool outputHead = true; ///< an LM head exists (XxxForCausalLM); false for BertModel
    bool tieWordEmbeddings = false;
    bool outputHeadBias = false; ///< lm_head bias (GPT-J, Phi-2)
    /// Untying the head also unties the encoder's and the decoder's token embeddings from the shared one:
    /// each keeps its own beside it (BART and mBART in transformers 5.x). See stackEmbeddingsUntied().
    bool stackEmbeddingsFollowTie = false;
    std::int64_t embeddingProjectionDim = 0; ///< OPT word_embed_proj_dim when it differs from H; 0 = none

    std::int64_t tokenTypes = 0; ///< BERT type_vocab_size
    bool pooler = false;         ///< BERT pooler dense [H,H] + bias
    std::int64_t mtpLayers = 0;  ///< DeepSeek-V3 num_nextn_predict_layers (reported apart)

    ForwardDetails forward; ///< constants and conventions of the forward pass (no parameters)

    /// Read on purpose as an estimate: config.json fields that change the architecture but were not
    /// understood. Empty for an exact config. Every figure of a config with entries is an estimate.
    std::vector<std::string> ignoredFields;
    /// Parts of the checkpoint that are not counted (a multimodal wrapper's vision or audio tower).
    std::vector<std::string> uncountedParts;

    /// Fields of the source config.json that the model does not interpret, kept for a lossless round trip.
    Passthrough passthrough;
    /// The weights as the checkpoint ships them, read from quantization_config (core/io/ShippedWeights.cpp);
    /// absent for a config without one.
    std::optional<ShippedWeights> shipped;

    /// head_dim in effect: the explicit value, else hiddenSize / numHeads (0 when numHeads is 0).
    [[nodiscard]] std::int64_t effectiveHeadDim() const;
    /// True when some layer reads head_dim: standard attention (every encoder layer, and decoder layers
    /// without latent attention) and lightning attention. Latent attention's heads are set by its ranks.
    [[nodiscard]] bool readsHeadDim() const;
    /// Width of one query/key head: qk_nope_head_dim + qk_rope_head_dim under latent attention, else
    /// effectiveHeadDim().
    [[nodiscard]] std::int64_t queryKeyHeadDim() const;
    /// FFN width of an encoder layer: encoderIntermediateSize when set, else intermediateSize.
    [[nodiscard]] std::int64_t encoderFfnWidth() const {
        return encoderIntermediateSize > 0 ? encoderIntermediateSize : intermediateSize;
    }
    /// Attention heads of an encoder layer: encoderHeads when set, else numHeads.
    [[nodiscard]] std::int64_t encoderHeadCount() const { return encoderHeads > 0 ? encoderHeads : numHeads; }
    /// True when the model has an encoder stack.
    [[nodiscard]] bool hasEncoder() const { return architecture != ArchitectureKind::DecoderOnly; }
    /// The encoder and the decoder each hold a token embedding of their own beside the shared one.
    [[nodiscard]] bool stackEmbeddingsUntied() const {
        return stackEmbeddingsFollowTie && !tieWordEmbeddings && architecture == ArchitectureKind::EncoderDecoder;
    }
    /// True when the model has a decoder stack (decoder-only or encoder-decoder).
    [[nodiscard]] bool hasDecoder() const { return architecture != ArchitectureKind::EncoderOnly; }
    /// True when every figure is exact (no ignored fields).
    [[nodiscard]] bool exact() const { return ignoredFields.empty(); }
    /// Mixer of decoder layer `index`.
    [[nodiscard]] TokenMixer mixerAt(std::int64_t index) const;
    /// True when some layer is not plain attention.
    [[nodiscard]] bool hybrid() const;
    /// True when some layer has a dense feed-forward block of width intermediateSize (every layer of a
    /// dense model; the dense-first, off-step or listed layers of a mixture of experts).
    [[nodiscard]] bool hasDenseFfnLayers() const;
    /// True when some layer has softmax attention (every layer unless the mixers say otherwise).
    [[nodiscard]] bool hasAttentionLayers() const;
    /// True when some layer of the stack uses this mixer.
    [[nodiscard]] bool usesMixer(TokenMixer mixer) const;

    bool operator==(const ModelConfig&) const = default;
};

/// Attention family as people name it: MHA, GQA, MQA or MLA.
enum class AttentionFamily { MHA, GQA, MQA, MLA };
[[nodiscard]] AttentionFamily attentionFamily(const ModelConfig& config);

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
std::string_view toString(TokenMixer mixer);
/// The model_type whose names a TensorNaming follows: "llama", "bert", "gpt_neox", ...
std::string_view toString(TensorNaming naming);
/// True when the mixer has softmax attention (and so a per-token KV cache).
[[nodiscard]] bool hasAttention(TokenMixer mixer);

} // namespace archplay::core
