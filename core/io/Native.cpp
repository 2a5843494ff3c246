// SPDX-License-Identifier: GPL-3.0-or-later
// The archplay native config format (model_type "archplay"): a Hugging Face-style config.json in
// which every structural switch is spelled out, so any design the program can hold is written
// without loss. Unknown model types are read with the same code, from the common key names.
#include "core/io/Families.h"
#include "core/io/FamilyIo.h"
#include "core/util/Checked.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>

namespace archplay::core {
namespace {

using nlohmann::json;

template <typename Enum, std::size_t N>
Enum readEnum(JsonFields& f, std::string_view key, Enum fallback, const std::array<Enum, N>& values) {
    if (!f.has(key)) {
        f.consume(key);
        return fallback;
    }
    const std::string name = f.text(key, "");
    for (Enum value : values) {
        if (toString(value) == name) {
            return value;
        }
    }
    std::string known;
    for (Enum value : values) {
        known += (known.empty() ? "" : ", ") + std::string(toString(value));
    }
    f.error(std::string(key), fmt::format("{} '{}' is not one of: {}", key, name, known));
    return fallback;
}

constexpr std::array kArchitectures{ArchitectureKind::DecoderOnly, ArchitectureKind::EncoderOnly,
                                    ArchitectureKind::EncoderDecoder};
constexpr std::array kFfnKinds{FfnKind::Mlp, FfnKind::Gated, FfnKind::Moe, FfnKind::None};
constexpr std::array kNormKinds{NormKind::LayerNorm, NormKind::RmsNorm, NormKind::NonParametric,
                                NormKind::LayerNormNoBias};
constexpr std::array kPlacements{NormPlacement::Pre,
                                 NormPlacement::Post,
                                 NormPlacement::Sandwich,
                                 NormPlacement::ParallelSingle,
                                 NormPlacement::ParallelDouble,
                                 NormPlacement::PostOnly};
constexpr std::array kPositionals{PositionalKind::Learned, PositionalKind::Sinusoidal,   PositionalKind::Rope,
                                  PositionalKind::Alibi,   PositionalKind::RelativeBias, PositionalKind::None};
constexpr std::array kMixers{TokenMixer::Attention, TokenMixer::GatedDeltaNet, TokenMixer::LightningAttention,
                             TokenMixer::Mamba2,    TokenMixer::ShortConv,     TokenMixer::AttentionWithMamba2,
                             TokenMixer::Mamba};
constexpr std::array kNamings{TensorNaming::Llama,   TensorNaming::Bert,          TensorNaming::T5,
                              TensorNaming::Bart,    TensorNaming::Opt,           TensorNaming::Gpt2,
                              TensorNaming::GptJ,    TensorNaming::GptNeox,       TensorNaming::Falcon,
                              TensorNaming::Bloom,   TensorNaming::Phi,           TensorNaming::Phi3,
                              TensorNaming::Mamba,   TensorNaming::Starcoder2,    TensorNaming::QwenMoe,
                              TensorNaming::Qwen35,  TensorNaming::Glm4,          TensorNaming::Apertus,
                              TensorNaming::Hunyuan, TensorNaming::Ernie45Moe,    TensorNaming::Llama4,
                              TensorNaming::GptOss,  TensorNaming::GraniteHybrid, TensorNaming::FalconH1,
                              TensorNaming::Lfm2};
constexpr std::array kQkNorms{QkNorm::None, QkNorm::PerHead, QkNorm::FullWidth, QkNorm::PerHeadLayerNorm};
constexpr std::array kPatterns{SlidingPattern::None, SlidingPattern::All, SlidingPattern::GlobalEveryN,
                               SlidingPattern::FromLayer, SlidingPattern::Explicit};

/// The family conventions of ForwardDetails, each with its native key.
struct ForwardFlag {
    std::string_view key;
    bool ForwardDetails::*member;
};

constexpr std::array<ForwardFlag, 6> kForwardFlags = {{
    {"embedding_sqrt_scale", &ForwardDetails::embeddingScaledBySqrtHidden},
    {"norm_gain_plus_one", &ForwardDetails::normGainPlusOne},
    {"attention_unscaled", &ForwardDetails::attentionUnscaled},
    {"tied_head_input_scale", &ForwardDetails::tiedHeadInputScaled},
    {"kv_cached_per_query_head", &ForwardDetails::kvRepeatedPerQueryHead},
    {"latent_cached_expanded", &ForwardDetails::latentCachedExpanded},
}};

/// Records, for an unknown model type, each structural switch that was absent and assumed.
class Assumptions {
public:
    Assumptions(JsonFields& fields, bool active)
        : m_fields(fields)
        , m_active(active) {}
    void note(std::string_view key, std::string_view assumed) {
        if (m_active && !m_fields.has(key)) {
            m_list.push_back(fmt::format("{} = {}", key, assumed));
        }
    }
    std::string text() const {
        std::string joined;
        for (const std::string& item : m_list) {
            joined += (joined.empty() ? "" : "; ") + item;
        }
        return joined;
    }

private:
    JsonFields& m_fields;
    bool m_active;
    std::vector<std::string> m_list;
};

} // namespace

void readNative(JsonFields& f, ModelConfig& c, bool assume) {
    Assumptions assumed(f, assume);
    assumed.note("architecture", "decoder-only");
    assumed.note("ffn_type", "gated (SwiGLU)");
    assumed.note("norm_type", "rmsnorm");
    assumed.note("norm_placement", "pre");
    assumed.note("position_embedding_type", "rope");
    assumed.note("attention_bias", "false");
    assumed.note("tie_word_embeddings", "false");

    c.architecture = readEnum(f, "architecture", ArchitectureKind::DecoderOnly, kArchitectures);
    c.vocabSize = f.integer("vocab_size", 32000);
    c.hiddenSize = f.integer({"hidden_size", "d_model", "n_embd", "n_embed", "dim"}, 4096);
    c.numLayers = f.integer({"num_hidden_layers", "n_layer", "num_layers", "decoder_layers", "n_layers"}, 32);
    c.numEncoderLayers = f.integer({"num_encoder_layers", "encoder_layers"},
                                   c.architecture == ArchitectureKind::EncoderDecoder ? c.numLayers : 0);
    c.numHeads = f.integer({"num_attention_heads", "n_head", "num_heads", "n_heads"}, 32);
    c.numKvHeads = f.integer({"num_key_value_heads", "num_kv_heads", "n_head_kv", "n_kv_heads"}, c.numHeads);
    c.encoderHeads = f.integer("encoder_attention_heads", 0);
    c.encoderIntermediateSize = f.integer("encoder_ffn_dim", 0);
    c.headDim = f.nullableInteger("head_dim", std::nullopt);
    c.intermediateSize = f.integer({"intermediate_size", "ffn_dim", "d_ff", "n_inner", "ffn_hidden_size"},
                                   saturatingProduct(4, c.hiddenSize));
    c.maxPositions = f.integer({"max_position_embeddings", "n_positions", "max_seq_len", "seq_length"}, 4096);
    assumed.note("intermediate_size", fmt::format("{} (4 x hidden)", saturatingProduct(4, c.hiddenSize)));

    if (f.has("kv_lora_rank")) {
        c.latent = familyio::readLatent(f, LatentAttention{});
    }
    const bool attentionBias = f.flag("attention_bias", false);
    c.qBias = f.flag("q_bias", attentionBias);
    c.kBias = f.flag("k_bias", attentionBias);
    c.vBias = f.flag("v_bias", attentionBias);
    c.oBias = f.flag("o_bias", attentionBias);
    c.fusedQkv = f.flag("fused_qkv", false);
    // A design first read as another family keeps that family's tensor names when it is saved natively.
    c.tensorNaming = readEnum(f, "tensor_names", TensorNaming::Llama, kNamings);
    c.qkNorm = readEnum(f, "qk_norm", QkNorm::None, kQkNorms);

    c.slidingWindow = f.nullableInteger("sliding_window", 4096).value_or(4096);
    const bool windowed = f.has("sliding_window");
    c.slidingPattern = readEnum(f, "sliding_pattern", windowed ? SlidingPattern::All : SlidingPattern::None, kPatterns);
    c.globalEvery = f.integer("sliding_window_pattern", 6);
    c.firstSlidingLayer = f.integer("max_window_layers", 0);
    if (f.has("layer_types")) {
        for (const std::string& name : f.texts("layer_types")) {
            c.layerTypes.push_back(name == "sliding_attention"   ? LayerAttention::Sliding
                                   : name == "chunked_attention" ? LayerAttention::Chunked
                                                                 : LayerAttention::Global);
        }
        c.slidingPattern = SlidingPattern::Explicit;
    }
    c.attentionChunkSize = f.integer("attention_chunk_size", 0);
    c.attentionSinks = f.flag("attention_sinks", false);
    c.attentionOutputGate = f.flag("attention_output_gate", false);
    if (f.has("index_n_heads")) {
        SparseIndexer ix;
        ix.numHeads = f.integer("index_n_heads", ix.numHeads);
        ix.headDim = f.integer("index_head_dim", ix.headDim);
        ix.topK = f.integer("index_topk", ix.topK);
        c.indexer = ix;
    }
    c.nopeLayers = f.integers("nope_layers");
    for (const std::string& name : f.texts("token_mixers")) {
        const auto it = std::find_if(kMixers.begin(), kMixers.end(), [&](TokenMixer m) { return toString(m) == name; });
        if (it == kMixers.end()) {
            f.error("token_mixers", fmt::format("token mixer '{}' is not one of attention, gated_deltanet, "
                                                "lightning_attention, mamba2, short_conv, attention_with_mamba2, "
                                                "mamba",
                                                name));
            break;
        }
        c.mixers.push_back(*it);
    }
    c.deltaNet.numKeyHeads = f.integer("linear_num_key_heads", c.deltaNet.numKeyHeads);
    c.deltaNet.numValueHeads = f.integer("linear_num_value_heads", c.deltaNet.numValueHeads);
    c.deltaNet.keyHeadDim = f.integer("linear_key_head_dim", c.deltaNet.keyHeadDim);
    c.deltaNet.valueHeadDim = f.integer("linear_value_head_dim", c.deltaNet.valueHeadDim);
    c.deltaNet.convKernel = f.integer("linear_conv_kernel_dim", c.deltaNet.convKernel);
    c.mamba.numHeads = f.integer("mamba_n_heads", c.mamba.numHeads);
    c.mamba.headDim = f.integer("mamba_d_head", c.mamba.headDim);
    c.mamba.stateSize = f.integer("mamba_d_state", c.mamba.stateSize);
    c.mamba.numGroups = f.integer("mamba_n_groups", c.mamba.numGroups);
    c.mamba.convKernel = f.integer("mamba_d_conv", c.mamba.convKernel);
    c.mamba.convBias = f.flag("mamba_conv_bias", c.mamba.convBias);
    c.mamba.inProjBias = f.flag("mamba_in_proj_bias", c.mamba.inProjBias);
    c.mamba.outProjBias = f.flag("mamba_out_proj_bias", c.mamba.outProjBias);
    c.mamba.gatedNorm = f.flag("mamba_gated_norm", c.mamba.gatedNorm);
    c.shortConv.kernel = f.integer("conv_L_cache", c.shortConv.kernel);
    c.shortConv.bias = f.flag("conv_bias", c.shortConv.bias);
    c.mamba1.innerWidth = f.integer("mamba_inner_size", c.mamba1.innerWidth);
    c.mamba1.stateSize = f.integer("mamba_state_size", c.mamba1.stateSize);
    c.mamba1.convKernel = f.integer("mamba_conv_kernel", c.mamba1.convKernel);
    c.mamba1.timeStepRank = f.integer("mamba_time_step_rank", c.mamba1.timeStepRank);
    c.mamba1.convBias = f.flag("mamba_use_conv_bias", c.mamba1.convBias);
    c.mamba1.projectionBias = f.flag("mamba_use_bias", c.mamba1.projectionBias);
    c.stackEmbeddingsFollowTie = f.flag("stack_embeddings_follow_tie", false);

    c.ffnKind = readEnum(f, "ffn_type", FfnKind::Gated, kFfnKinds);
    const std::string act = f.peekText("hidden_act");
    c.activation =
        act.empty() ? (c.ffnKind == FfnKind::Mlp ? Activation::Gelu : Activation::Silu) : parseActivation(act);
    c.ffnBias = f.flag("mlp_bias", false);
    if (c.ffnKind == FfnKind::Moe || f.has("num_experts")) {
        c.ffnKind = FfnKind::Moe;
        c.moe.numExperts = f.integer({"num_experts", "num_local_experts", "n_routed_experts"}, 8);
        c.moe.topK = f.integer("num_experts_per_tok", 2);
        c.moe.expertIntermediateSize = f.integer("moe_intermediate_size", c.intermediateSize);
        c.moe.numSharedExperts = f.integer("n_shared_experts", 0);
        c.moe.sharedExpertIntermediateSize = f.integer("shared_expert_intermediate_size", 0);
        c.moe.sharedExpertGate = f.flag("shared_expert_gate", false);
        c.moe.firstDenseLayers = f.integer("first_k_dense_replace", 0);
        c.moe.sparseStep = f.integer("decoder_sparse_step", 1);
        c.moe.denseLayers = f.integers("mlp_only_layers");
        c.moe.moeLayers = f.integers("moe_layers");
        c.moe.routerBias = f.flag("router_bias", false);
        c.moe.expertBias = f.flag("expert_bias", false);
        c.moe.correctionBiasParameter = f.flag("correction_bias_parameter", false);
    }

    c.normKind = readEnum(f, "norm_type", NormKind::RmsNorm, kNormKinds);
    c.normPlacement = readEnum(f, "norm_placement", NormPlacement::Pre, kPlacements);
    c.finalNorm = f.flag("final_norm", c.normPlacement != NormPlacement::Post);
    c.embeddingNorm = f.flag("embedding_norm", false);

    c.positional = readEnum(f, "position_embedding_type", PositionalKind::Rope, kPositionals);
    c.positionOffset = f.integer("position_offset", 0);
    c.rotaryFraction = f.number("partial_rotary_factor", 1.0);
    c.relativeBuckets = f.integer("relative_attention_num_buckets", 32);

    c.outputHead = f.flag("output_head", c.architecture != ArchitectureKind::EncoderOnly);
    c.tieWordEmbeddings = f.flag("tie_word_embeddings", false);
    c.outputHeadBias = f.flag("lm_head_bias", false);
    c.embeddingProjectionDim = f.integer("word_embed_proj_dim", 0);
    c.tokenTypes = f.integer("type_vocab_size", 0);
    c.pooler = f.flag("pooler", false);
    c.mtpLayers = f.integer("num_nextn_predict_layers", 0);
    for (const ForwardFlag& flag : kForwardFlags) {
        c.forward.*flag.member = f.flag(flag.key, false);
    }
    c.ignoredFields = f.texts("archplay_ignored_fields");
    c.uncountedParts = f.texts("archplay_uncounted_parts");
    if (!assume) {
        // A family's config its own format cannot express is written natively; it keeps its family.
        c.modelType = f.text("archplay_model_type", c.modelType);
    }

    if (assume) {
        f.warn("model_type", fmt::format("model_type '{}' has no dedicated reader; read from the common field names, "
                                         "assuming: {}",
                                         c.modelType, assumed.text()));
    }
}

void writeNative(const ModelConfig& c, json& out) {
    out["model_type"] = "archplay";
    if (c.modelType != "archplay") {
        out["archplay_model_type"] = c.modelType;
    }
    out["architecture"] = toString(c.architecture);
    out["vocab_size"] = c.vocabSize;
    out["hidden_size"] = c.hiddenSize;
    out["num_hidden_layers"] = c.numLayers;
    out["num_encoder_layers"] = c.numEncoderLayers;
    out["num_attention_heads"] = c.numHeads;
    out["num_key_value_heads"] = c.numKvHeads;
    if (c.encoderHeads != 0) {
        out["encoder_attention_heads"] = c.encoderHeads;
    }
    if (c.encoderIntermediateSize != 0) {
        out["encoder_ffn_dim"] = c.encoderIntermediateSize;
    }
    out["head_dim"] = c.headDim ? json(*c.headDim) : json(nullptr);
    out["intermediate_size"] = c.intermediateSize;
    out["max_position_embeddings"] = c.maxPositions;
    if (c.latent) {
        familyio::writeLatent(*c.latent, out);
    }
    out["q_bias"] = c.qBias;
    out["k_bias"] = c.kBias;
    out["v_bias"] = c.vBias;
    out["o_bias"] = c.oBias;
    out["fused_qkv"] = c.fusedQkv;
    out["tensor_names"] = toString(c.tensorNaming);
    out["qk_norm"] = toString(c.qkNorm);
    out["sliding_pattern"] = toString(c.slidingPattern);
    out["sliding_window"] = c.slidingWindow;
    out["sliding_window_pattern"] = c.globalEvery;
    out["max_window_layers"] = c.firstSlidingLayer;
    if (c.slidingPattern == SlidingPattern::Explicit) {
        json list = json::array();
        for (LayerAttention type : c.layerTypes) {
            list.push_back(toString(type));
        }
        out["layer_types"] = list;
    }
    out["attention_chunk_size"] = c.attentionChunkSize;
    out["attention_sinks"] = c.attentionSinks;
    out["attention_output_gate"] = c.attentionOutputGate;
    if (c.indexer) {
        out["index_n_heads"] = c.indexer->numHeads;
        out["index_head_dim"] = c.indexer->headDim;
        out["index_topk"] = c.indexer->topK;
    }
    out["nope_layers"] = c.nopeLayers;
    if (!c.mixers.empty()) {
        json mixers = json::array();
        for (TokenMixer mixer : c.mixers) {
            mixers.push_back(toString(mixer));
        }
        out["token_mixers"] = std::move(mixers);
    }
    if (!c.mixers.empty()) { // the mixers' shapes, even while every layer is attention: a layer may turn back
        out["linear_num_key_heads"] = c.deltaNet.numKeyHeads;
        out["linear_num_value_heads"] = c.deltaNet.numValueHeads;
        out["linear_key_head_dim"] = c.deltaNet.keyHeadDim;
        out["linear_value_head_dim"] = c.deltaNet.valueHeadDim;
        out["linear_conv_kernel_dim"] = c.deltaNet.convKernel;
        out["mamba_n_heads"] = c.mamba.numHeads;
        out["mamba_d_head"] = c.mamba.headDim;
        out["mamba_d_state"] = c.mamba.stateSize;
        out["mamba_n_groups"] = c.mamba.numGroups;
        out["mamba_d_conv"] = c.mamba.convKernel;
        out["mamba_conv_bias"] = c.mamba.convBias;
        out["mamba_in_proj_bias"] = c.mamba.inProjBias;
        out["mamba_out_proj_bias"] = c.mamba.outProjBias;
        out["mamba_gated_norm"] = c.mamba.gatedNorm;
        out["conv_L_cache"] = c.shortConv.kernel;
        out["conv_bias"] = c.shortConv.bias;
        out["mamba_inner_size"] = c.mamba1.innerWidth;
        out["mamba_state_size"] = c.mamba1.stateSize;
        out["mamba_conv_kernel"] = c.mamba1.convKernel;
        out["mamba_time_step_rank"] = c.mamba1.timeStepRank;
        out["mamba_use_conv_bias"] = c.mamba1.convBias;
        out["mamba_use_bias"] = c.mamba1.projectionBias;
    }
    if (c.stackEmbeddingsFollowTie) {
        out["stack_embeddings_follow_tie"] = true;
    }
    out["ffn_type"] = toString(c.ffnKind);
    out["hidden_act"] = toString(c.activation);
    out["mlp_bias"] = c.ffnBias;
    if (c.ffnKind == FfnKind::Moe) {
        out["num_experts"] = c.moe.numExperts;
        out["num_experts_per_tok"] = c.moe.topK;
        out["moe_intermediate_size"] = c.moe.expertIntermediateSize;
        out["n_shared_experts"] = c.moe.numSharedExperts;
        out["shared_expert_intermediate_size"] = c.moe.sharedExpertIntermediateSize;
        out["shared_expert_gate"] = c.moe.sharedExpertGate;
        out["first_k_dense_replace"] = c.moe.firstDenseLayers;
        out["decoder_sparse_step"] = c.moe.sparseStep;
        out["mlp_only_layers"] = c.moe.denseLayers;
        out["moe_layers"] = c.moe.moeLayers;
        out["router_bias"] = c.moe.routerBias;
        out["expert_bias"] = c.moe.expertBias;
        out["correction_bias_parameter"] = c.moe.correctionBiasParameter;
    }
    out["norm_type"] = toString(c.normKind);
    out["norm_placement"] = toString(c.normPlacement);
    out["final_norm"] = c.finalNorm;
    out["embedding_norm"] = c.embeddingNorm;
    out["position_embedding_type"] = toString(c.positional);
    out["position_offset"] = c.positionOffset;
    out["partial_rotary_factor"] = c.rotaryFraction;
    out["relative_attention_num_buckets"] = c.relativeBuckets;
    out["output_head"] = c.outputHead;
    out["tie_word_embeddings"] = c.tieWordEmbeddings;
    out["lm_head_bias"] = c.outputHeadBias;
    out["word_embed_proj_dim"] = c.embeddingProjectionDim;
    out["type_vocab_size"] = c.tokenTypes;
    out["pooler"] = c.pooler;
    out["num_nextn_predict_layers"] = c.mtpLayers;
    for (const ForwardFlag& flag : kForwardFlags) {
        out.erase(std::string(flag.key));
        if (c.forward.*flag.member) {
            out[std::string(flag.key)] = true; // written only when set, as few configs use them
        }
    }
    if (!c.ignoredFields.empty()) {
        out["archplay_ignored_fields"] = c.ignoredFields;
    }
    if (!c.uncountedParts.empty()) {
        out["archplay_uncounted_parts"] = c.uncountedParts;
    }
}

} // namespace archplay::core
