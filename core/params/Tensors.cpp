// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/params/Tensors.h"

#include "core/params/TensorNames.h"

#include <algorithm>
#include <map>
#include <span>
#include <string_view>

namespace archplay::core {
namespace {

using Shape = Dims;
using tensornames::AttentionNames;
using tensornames::LayerNames;
using tensornames::MoeNames;

class TensorList {
public:
    TensorList() { m_tensors.reserve(32); }

    void add(std::string name, Component component, Shape shape, TensorUse use = TensorUse::Vector,
             std::int64_t copies = 1) {
        m_tensors.push_back({std::move(name), component, shape, copies});
        m_tensors.back().use = use;
    }
    /// A Linear layer: weight [out, in] and, when `bias`, bias [out]. A Conv1D (`inFirst`, GPT-2)
    /// stores its weight [in, out].
    void linear(const std::string& name, Component component, Checked in, Checked out, bool bias,
                std::int64_t copies = 1, bool inFirst = false, Projection projection = Projection::Other) {
        add(name + ".weight", component, inFirst ? Shape{in, out} : Shape{out, in}, TensorUse::Matrix, copies);
        m_tensors.back().inFirst = inFirst;
        m_tensors.back().projection = projection;
        if (bias) {
            add(name + ".bias", component, {out}, TensorUse::Vector, copies);
        }
    }
    /// Marks the last Linear weight added (the last tensor, or the one before its bias).
    void markLastWeight(TensorUse use) {
        for (auto it = m_tensors.rbegin(); it != m_tensors.rend(); ++it) {
            if (it->use == TensorUse::Matrix) {
                it->use = use;
                return;
            }
        }
    }
    /// A gated FFN (GLU): gate_proj and up_proj [width, hidden], down_proj [hidden, width].
    void glu(const std::string& scope, Component component, Checked hidden, Checked width, bool bias,
             std::int64_t copies = 1) {
        linear(scope + ".gate_proj", component, hidden, width, bias, copies);
        linear(scope + ".up_proj", component, hidden, width, bias, copies);
        linear(scope + ".down_proj", component, width, hidden, bias, copies, false, Projection::FfnDown);
    }
    void norm(const std::string& name, NormKind kind, Checked width) {
        if (kind == NormKind::NonParametric) {
            return;
        }
        add(name + ".weight", Component::Norm, {width});
        if (kind == NormKind::LayerNorm) {
            add(name + ".bias", Component::Norm, {width});
        }
    }
    std::size_t size() const { return m_tensors.size(); }
    /// Marks the tensors added since `first` as cross-attention.
    void markCrossAttention(std::size_t first) {
        for (std::size_t i = first; i < m_tensors.size(); ++i) {
            m_tensors[i].crossAttention = true;
        }
    }
    std::vector<TensorSpec> take() { return std::move(m_tensors); }

private:
    std::vector<TensorSpec> m_tensors;
};

// Every width below that is a product of config values is a Checked product: heads x head_dim can
// exceed 2^64 - 1 even though each dimension is at most 2^40 (validation's cap).
// `conv1d`: the fused projection and the output are GPT-2 Conv1D layers, stored [in, out].
void addStandardAttention(TensorList& list, const ModelConfig& c, const AttentionNames& names, bool self, bool conv1d) {
    const Checked hidden = dim(c.hiddenSize);
    const Checked headDim = dim(c.effectiveHeadDim());
    const Checked qWidth = dim(c.numHeads) * headDim;
    const Checked kvWidth = dim(c.numKvHeads) * headDim;
    // Qwen3-Next's gated attention: q_proj also yields a per-channel output gate.
    const Checked qOut = self && c.attentionOutputGate ? Checked(2) * qWidth : qWidth;
    if (c.fusedQkv) {
        list.linear(names.qkv, Component::Attention, hidden, qOut + Checked(2) * kvWidth, c.qBias, 1, conv1d,
                    Projection::FusedQkv);
    } else {
        list.linear(names.q, Component::Attention, hidden, qOut, c.qBias);
        list.linear(names.k, Component::Attention, hidden, kvWidth, c.kBias);
        if (!self) {
            list.markLastWeight(TensorUse::SourceMatrix);
        }
        list.linear(names.v, Component::Attention, hidden, kvWidth, c.vBias, 1, false, Projection::Value);
        if (!self) {
            list.markLastWeight(TensorUse::SourceMatrix);
        }
    }
    list.linear(names.o, Component::Attention, qWidth, hidden, c.oBias, 1, conv1d);
    if (self && c.attentionSinks) {
        list.add("self_attn.sinks", Component::Attention, {dim(c.numHeads)});
    }
}

// DeepSeek-V3.2's lightning indexer (DeepSeek sparse attention), beside MLA.
void addIndexer(TensorList& list, const ModelConfig& c) {
    const SparseIndexer& ix = *c.indexer;
    const Checked hidden = dim(c.hiddenSize);
    const Checked queryIn = c.latent && c.latent->qLoraRank ? dim(*c.latent->qLoraRank) : hidden;
    list.linear("self_attn.indexer.wq_b", Component::Attention, queryIn, dim(ix.numHeads) * dim(ix.headDim), false);
    list.linear("self_attn.indexer.wk", Component::Attention, hidden, dim(ix.headDim), false);
    list.norm("self_attn.indexer.k_norm", NormKind::LayerNorm, dim(ix.headDim));
    list.linear("self_attn.indexer.weights_proj", Component::Attention, hidden, dim(ix.numHeads), false);
}

// Gated DeltaNet (transformers modeling_qwen3_next.py, Qwen3NextGatedDeltaNet; Qwen3.5 keeps the
// projections apart: in_proj_qkv, in_proj_z, in_proj_b, in_proj_a).
void addGatedDeltaNet(TensorList& list, const ModelConfig& c, bool split) {
    const GatedDeltaNet& d = c.deltaNet;
    const Checked hidden = dim(c.hiddenSize);
    const Checked valueHeads = dim(d.numValueHeads);
    if (split) {
        list.linear("linear_attn.in_proj_qkv", Component::Mixer, hidden, Checked(2) * d.keyWidth() + d.valueWidth(),
                    false);
        list.linear("linear_attn.in_proj_z", Component::Mixer, hidden, d.valueWidth(), false);
        list.linear("linear_attn.in_proj_b", Component::Mixer, hidden, valueHeads, false);
        list.linear("linear_attn.in_proj_a", Component::Mixer, hidden, valueHeads, false);
    } else {
        list.linear("linear_attn.in_proj_qkvz", Component::Mixer, hidden,
                    Checked(2) * d.keyWidth() + Checked(2) * d.valueWidth(), false);
        list.linear("linear_attn.in_proj_ba", Component::Mixer, hidden, Checked(2) * valueHeads, false);
    }
    list.add("linear_attn.conv1d.weight", Component::Mixer, {d.convChannels(), 1, dim(d.convKernel)},
             TensorUse::Convolution);
    list.add("linear_attn.dt_bias", Component::Mixer, {valueHeads});
    list.add("linear_attn.A_log", Component::Mixer, {valueHeads});
    list.norm("linear_attn.norm", NormKind::RmsNorm, dim(d.valueHeadDim));
    list.linear("linear_attn.out_proj", Component::Mixer, d.valueWidth(), hidden, false);
}

// MiniMax-Text-01's lightning attention (modeling_minimax.py, MiniMaxLightningAttention).
void addLightningAttention(TensorList& list, const ModelConfig& c) {
    const Checked hidden = dim(c.hiddenSize);
    const Checked width = dim(c.numHeads) * dim(c.effectiveHeadDim());
    list.linear("self_attn.qkv_proj", Component::Mixer, hidden, Checked(3) * width, false);
    list.norm("self_attn.norm", NormKind::RmsNorm, width);
    list.linear("self_attn.out_proj", Component::Mixer, width, hidden, false);
    list.linear("self_attn.output_gate", Component::Mixer, hidden, width, false);
}

// Mamba-2 (modeling_mamba2.py, Mamba2Mixer; modeling_granitemoehybrid.py, modeling_falcon_h1.py).
void addMamba2(TensorList& list, const ModelConfig& c, const std::string& module) {
    const Mamba2Mixer& m = c.mamba;
    const Checked hidden = dim(c.hiddenSize);
    const Checked heads = dim(m.numHeads);
    const auto path = [&module](std::string_view name) {
        return module + "." + std::string(name);
    };
    list.linear(path("in_proj"), Component::Mixer, hidden, m.innerWidth() + m.convChannels() + heads, m.inProjBias);
    list.add(path("conv1d.weight"), Component::Mixer, {m.convChannels(), 1, dim(m.convKernel)}, TensorUse::Convolution);
    if (m.convBias) {
        list.add(path("conv1d.bias"), Component::Mixer, {m.convChannels()});
    }
    list.add(path("dt_bias"), Component::Mixer, {heads});
    list.add(path("A_log"), Component::Mixer, {heads});
    list.add(path("D"), Component::Mixer, {heads});
    if (m.gatedNorm) {
        list.norm(path("norm"), NormKind::RmsNorm, m.innerWidth());
    }
    list.linear(path("out_proj"), Component::Mixer, m.innerWidth(), hidden, m.outProjBias);
}

// Mamba-1 (modeling_mamba.py, MambaMixer): in_proj to x and the gate z, a depthwise convolution over
// x, x_proj to the time step's low rank and B and C, dt_proj back to the inner width, A_log [I, N], D.
void addMamba1(TensorList& list, const ModelConfig& c) {
    const Mamba1Mixer& m = c.mamba1;
    const Checked hidden = dim(c.hiddenSize);
    const Checked inner = dim(m.innerWidth);
    const Checked rank = dim(m.timeStepRank);
    const Checked state = dim(m.stateSize);
    list.linear("mixer.in_proj", Component::Mixer, hidden, Checked(2) * inner, m.projectionBias);
    list.add("mixer.conv1d.weight", Component::Mixer, {inner, 1, dim(m.convKernel)}, TensorUse::Convolution);
    if (m.convBias) {
        list.add("mixer.conv1d.bias", Component::Mixer, {inner});
    }
    list.linear("mixer.x_proj", Component::Mixer, inner, rank + Checked(2) * state, false);
    list.linear("mixer.dt_proj", Component::Mixer, rank, inner, true);
    list.add("mixer.A_log", Component::Mixer, {inner, state});
    list.add("mixer.D", Component::Mixer, {inner});
    list.linear("mixer.out_proj", Component::Mixer, inner, hidden, m.projectionBias);
}

// LFM2's gated short convolution (modeling_lfm2.py, Lfm2ShortConv).
void addShortConv(TensorList& list, const ModelConfig& c) {
    const Checked hidden = dim(c.hiddenSize);
    const bool bias = c.shortConv.bias;
    list.linear("conv.in_proj", Component::Mixer, hidden, Checked(3) * hidden, bias);
    list.add("conv.conv.weight", Component::Mixer, {hidden, 1, dim(c.shortConv.kernel)}, TensorUse::Convolution);
    if (bias) {
        list.add("conv.conv.bias", Component::Mixer, {hidden});
    }
    list.linear("conv.out_proj", Component::Mixer, hidden, hidden, bias);
}

// DeepSeek-V2/V3 multi-head latent attention (FORMULAS.md §2.15).
void addLatentAttention(TensorList& list, const ModelConfig& c) {
    const LatentAttention& mla = *c.latent;
    const Checked hidden = dim(c.hiddenSize);
    const Checked heads = dim(c.numHeads);
    const Checked kvRank = dim(mla.kvLoraRank);
    const Checked qkHeadDim = dim(mla.qkNopeHeadDim) + dim(mla.qkRopeHeadDim);
    if (mla.qLoraRank) {
        const Checked qRank = dim(*mla.qLoraRank);
        list.linear("self_attn.q_a_proj", Component::Attention, hidden, qRank, c.qBias);
        list.norm("self_attn.q_a_layernorm", NormKind::RmsNorm, qRank);
        list.linear("self_attn.q_b_proj", Component::Attention, qRank, heads * qkHeadDim, false);
    } else {
        list.linear("self_attn.q_proj", Component::Attention, hidden, heads * qkHeadDim, false);
    }
    list.linear("self_attn.kv_a_proj_with_mqa", Component::Attention, hidden, kvRank + dim(mla.qkRopeHeadDim), c.kBias);
    list.norm("self_attn.kv_a_layernorm", NormKind::RmsNorm, kvRank);
    list.linear("self_attn.kv_b_proj", Component::Attention, kvRank,
                heads * (dim(mla.qkNopeHeadDim) + dim(mla.vHeadDim)), false);
    list.linear("self_attn.o_proj", Component::Attention, heads * dim(mla.vHeadDim), hidden, c.oBias);
}

void addQkNorm(TensorList& list, const ModelConfig& c, const LayerNames& names) {
    const Checked headDim = dim(c.effectiveHeadDim());
    switch (c.qkNorm) {
    case QkNorm::None:
        return;
    case QkNorm::PerHead:
        list.norm(names.qNorm, NormKind::RmsNorm, headDim);
        list.norm(names.kNorm, NormKind::RmsNorm, headDim);
        return;
    case QkNorm::PerHeadLayerNorm:
        list.norm(names.qNorm, NormKind::LayerNorm, headDim);
        list.norm(names.kNorm, NormKind::LayerNorm, headDim);
        return;
    case QkNorm::FullWidth:
        list.norm(names.qNorm, NormKind::RmsNorm, dim(c.numHeads) * headDim);
        list.norm(names.kNorm, NormKind::RmsNorm, dim(c.numKvHeads) * headDim);
        return;
    }
}

void addDenseFfn(TensorList& list, const ModelConfig& c, FfnKind kind, Checked width, const LayerNames& names) {
    const Checked hidden = dim(c.hiddenSize);
    if (kind == FfnKind::Mlp) {
        list.linear(names.up, Component::Ffn, hidden, width, c.ffnBias, 1, names.conv1d);
        list.linear(names.down, Component::Ffn, width, hidden, c.ffnBias, 1, names.conv1d, Projection::FfnDown);
        if (c.activation == Activation::XIelu) {
            // xIELU's trainable alpha_p and alpha_n (beta and eps are buffers).
            list.add("mlp.act_fn.alpha_p", Component::Ffn, {1});
            list.add("mlp.act_fn.alpha_n", Component::Ffn, {1});
        }
        return;
    }
    if (!names.gateUp.empty()) {
        // Phi-3 keeps gate and up in one tensor [2 x width, hidden], gate rows first.
        list.linear(names.gateUp, Component::Ffn, hidden, Checked(2) * width, c.ffnBias);
    } else {
        list.linear(names.gate, Component::Ffn, hidden, width, c.ffnBias);
        list.linear(names.gatedUp, Component::Ffn, hidden, width, c.ffnBias);
    }
    list.linear(names.gatedDown, Component::Ffn, width, hidden, c.ffnBias, 1, false, Projection::FfnDown);
}

// The routed experts are listed one GLU per expert (`copies`), whatever the family's storage: their
// names fold into the family's fused tensors in foldedTensors().
void addMoeFfn(TensorList& list, const ModelConfig& c, const MoeNames& names) {
    const MixtureOfExperts& moe = c.moe;
    const Checked hidden = dim(c.hiddenSize);
    const Checked experts = dim(moe.numExperts);
    list.linear(names.router, Component::Router, hidden, experts, moe.routerBias);
    if (moe.correctionBiasParameter) {
        list.add(names.correctionBias, Component::Router, names.correctionBiasRow ? Dims{1, experts} : Dims{experts});
    }
    list.glu(names.experts, Component::Experts, hidden, dim(moe.expertIntermediateSize), moe.expertBias,
             moe.numExperts);
    if (moe.numSharedExperts > 0) {
        // The shared experts are one GLU of width n_shared x Im (DeepSeek, ERNIE 4.5, Hunyuan), with the
        // dense FFN's biases (ERNIE's use_bias, Hunyuan's mlp_bias).
        const Checked sharedWidth = dim(moe.numSharedExperts) * dim(moe.sharedWidth());
        if (names.sharedGateUp.empty()) {
            list.glu(names.shared, Component::SharedExperts, hidden, sharedWidth, c.ffnBias);
        } else {
            list.linear(names.sharedGateUp, Component::SharedExperts, hidden, Checked(2) * sharedWidth, c.ffnBias);
            list.linear(names.sharedDown, Component::SharedExperts, sharedWidth, hidden, c.ffnBias, 1, false,
                        Projection::FfnDown);
        }
    }
    if (moe.sharedExpertGate) {
        list.linear(names.sharedGate, Component::Router, hidden, 1, false);
    }
}

/// One norm of a layer; `crossOnly` norms exist only in layers with cross-attention.
struct LayerNormSlot {
    std::string_view name;
    bool crossOnly = false;
};

/// The norms of a PostOnly layer in Hugging Face module order (OLMo 2: Llama's names). The other
/// placements take their names from the family (LayerNames).
std::span<const LayerNormSlot> postOnlyNormSlots() {
    static constexpr LayerNormSlot kPostOnly[] = {
        {"post_attention_layernorm"}, {"post_cross_attn_layernorm", true}, {"post_feedforward_layernorm"}};
    return kPostOnly;
}

void addLayerNorms(TensorList& list, const ModelConfig& c, const LayerPlan& layer, const LayerNames& names) {
    const Checked hidden = dim(c.hiddenSize);
    switch (c.normPlacement) {
    case NormPlacement::Sandwich: {
        // Before and after the attention, after the cross-attention, before and after the FFN.
        const auto& [beforeAttention, afterAttention, beforeFfn, afterFfn] = names.sandwichNorms;
        list.norm(beforeAttention, c.normKind, hidden);
        list.norm(afterAttention, c.normKind, hidden);
        if (layer.crossAttention) {
            list.norm("cross_attn_layernorm", c.normKind, hidden);
        }
        list.norm(beforeFfn, c.normKind, hidden);
        list.norm(afterFfn, c.normKind, hidden);
        return;
    }
    case NormPlacement::PostOnly:
        for (const LayerNormSlot& slot : postOnlyNormSlots()) {
            if (!slot.crossOnly || layer.crossAttention) {
                list.norm(std::string(slot.name), c.normKind, hidden);
            }
        }
        return;
    case NormPlacement::Pre:
    case NormPlacement::Post:
    case NormPlacement::ParallelSingle:
    case NormPlacement::ParallelDouble:
        list.norm(names.attentionNorm, c.normKind, hidden);
        if (layer.crossAttention) {
            list.norm(names.crossNorm, c.normKind, hidden);
        }
        if (c.normPlacement != NormPlacement::ParallelSingle && layer.ffn != FfnKind::None) {
            list.norm(names.ffnNorm, c.normKind, hidden);
        }
        return;
    }
}

} // namespace

std::string_view toString(Component component) {
    switch (component) {
    case Component::Embedding:
        return "Embeddings";
    case Component::Positional:
        return "Positions";
    case Component::Attention:
        return "Attention";
    case Component::Norm:
        return "Norms";
    case Component::Ffn:
        return "Feed-forward";
    case Component::Router:
        return "Router";
    case Component::Experts:
        return "Routed experts";
    case Component::SharedExperts:
        return "Shared experts";
    case Component::OutputHead:
        return "Output head";
    case Component::Pooler:
        return "Pooler";
    case Component::Mixer:
        return "Linear mixers";
    }
    return {};
}

Checked TensorSpec::elements() const {
    Checked result = 1;
    for (Checked d : shape) {
        result *= d;
    }
    return result;
}

std::vector<TensorSpec> layerTensors(const ModelConfig& config, const LayerPlan& layer) {
    TensorList list;
    const LayerNames names = tensornames::layerNames(config, layer);
    switch (layer.mixer) {
    case TokenMixer::Attention:
    case TokenMixer::AttentionWithMamba2:
        if (layer.latent) {
            addLatentAttention(list, config);
            if (config.indexer) {
                addIndexer(list, config);
            }
        } else {
            addStandardAttention(list, config, names.self, true, names.conv1d);
            addQkNorm(list, config, names);
        }
        if (layer.mixer == TokenMixer::AttentionWithMamba2) {
            addMamba2(list, config, names.mamba2);
        }
        break;
    case TokenMixer::GatedDeltaNet:
        addGatedDeltaNet(list, config, names.splitDeltaNetProjections);
        break;
    case TokenMixer::LightningAttention:
        addLightningAttention(list, config);
        break;
    case TokenMixer::Mamba2:
        addMamba2(list, config, names.mamba2);
        break;
    case TokenMixer::Mamba:
        addMamba1(list, config);
        break;
    case TokenMixer::ShortConv:
        addShortConv(list, config);
        break;
    }
    if (layer.crossAttention) {
        const std::size_t first = list.size();
        addStandardAttention(list, config, names.cross, false, false);
        list.markCrossAttention(first);
    }
    if (layer.ffn == FfnKind::Moe) {
        addMoeFfn(list, config, names.moe);
    } else if (layer.ffn != FfnKind::None) {
        const std::int64_t width = layer.stack == Stack::Encoder ? config.encoderFfnWidth() : config.intermediateSize;
        addDenseFfn(list, config, layer.ffn, dim(width), names);
    }
    addLayerNorms(list, config, layer, names);
    return list.take();
}

std::vector<TensorSpec> outerTensors(const ModelConfig& config) {
    TensorList list;
    const Checked hidden = dim(config.hiddenSize);
    const Checked vocab = dim(config.vocabSize);
    const bool projected = config.embeddingProjectionDim > 0 && config.embeddingProjectionDim != config.hiddenSize;
    const Checked embedWidth = projected ? dim(config.embeddingProjectionDim) : hidden;
    const tensornames::OuterNames names = tensornames::outerNames(config);

    list.add(names.tokens + ".weight", Component::Embedding, {vocab, embedWidth}, TensorUse::Lookup);
    if (projected) {
        list.linear(names.projectIn, Component::Embedding, embedWidth, hidden, false);
        list.linear(names.projectOut, Component::Embedding, hidden, embedWidth, false);
    }
    if (config.stackEmbeddingsUntied()) {
        // BART untied in transformers 5.x: the encoder's and the decoder's own embed_tokens beside `shared`.
        list.add("encoder.embed_tokens.weight", Component::Embedding, {vocab, embedWidth}, TensorUse::Lookup);
        list.add("decoder.embed_tokens.weight", Component::Embedding, {vocab, embedWidth}, TensorUse::Lookup);
    }
    if (config.tokenTypes > 0) {
        list.add(names.tokenTypes + ".weight", Component::Embedding, {dim(config.tokenTypes), hidden},
                 TensorUse::Lookup);
    }

    std::vector<Stack> stacks;
    if (config.hasEncoder()) {
        stacks.push_back(Stack::Encoder);
    }
    if (config.architecture != ArchitectureKind::EncoderOnly) {
        stacks.push_back(Stack::Decoder);
    }
    for (Stack stack : stacks) {
        const tensornames::StackNames stackNames = tensornames::stackNames(config, stack);
        if (config.positional == PositionalKind::Learned) {
            list.add(stackNames.positions + ".weight", Component::Positional,
                     {dim(config.maxPositions) + dim(config.positionOffset), hidden}, TensorUse::Lookup);
        } else if (config.positional == PositionalKind::RelativeBias) {
            // The table lives in block 0 of each stack and serves every layer: counted once, outside them.
            list.add(stackNames.relativeBias + ".weight", Component::Positional,
                     {dim(config.relativeBuckets), dim(config.numHeads)}, TensorUse::Lookup);
        }
        if (config.embeddingNorm) {
            list.norm(stackNames.embeddingNorm, config.normKind, hidden);
        }
        if (config.finalNorm) {
            list.norm(stackNames.finalNorm, config.normKind, hidden);
        }
    }

    if (config.outputHead) {
        if (!config.tieWordEmbeddings) {
            list.add(names.head + ".weight", Component::OutputHead, {vocab, embedWidth}, TensorUse::Matrix);
        }
        if (config.outputHeadBias) {
            list.add(names.head + ".bias", Component::OutputHead, {vocab});
        }
    }
    if (config.pooler) {
        list.linear(names.pooler, Component::Pooler, hidden, hidden, true);
        list.markLastWeight(TensorUse::SequenceMatrix);
    }
    return list.take();
}

std::string checkpointKey(const ModelConfig& config, const TensorSpec& tensor, const LayerPlan* layer) {
    if (!layer && tensor.component == Component::OutputHead) {
        return tensor.name;
    }
    std::string key(tensornames::baseModelPrefix(config));
    if (layer) {
        key += tensornames::layerPath(config, *layer);
    }
    return key + tensor.name;
}

namespace {

/// `key` with every number between dots folded to '#': "encoder.block.#.layer.#.SelfAttention.q.weight".
std::string foldNumbers(const std::string& key) {
    std::string folded;
    folded.reserve(key.size());
    std::size_t start = 0;
    while (start <= key.size()) {
        std::size_t end = key.find('.', start);
        if (end == std::string::npos) {
            end = key.size();
        }
        const std::string_view part(key.data() + start, end - start);
        const bool number = !part.empty() && std::all_of(part.begin(), part.end(),
                                                         [](char ch) { return (ch >= '0' && ch <= '9') || ch == '-'; });
        folded += number ? std::string_view("#") : part;
        if (end < key.size()) {
            folded += '.';
        }
        start = end + 1;
    }
    return folded;
}

/// Adds `count` tensors of `shape` under `key` (a key seen before keeps its shape and adds the count).
void addFolded(std::map<std::string, FoldedTensor>& folded, std::string key, Dims shape, std::uint64_t count) {
    FoldedTensor& entry = folded[key];
    Checked elements = Checked(count);
    for (Checked d : shape) {
        elements *= d;
    }
    if (entry.count == 0) {
        entry.key = std::move(key);
        entry.shape = shape;
    }
    entry.count += count;
    entry.elements += elements;
}

/// Adds a routed expert's tensor (one GLU per expert in core, `copies` = E) under the key the layout
/// gives it. A checkpoint keeps the family's storage (tensornames::ExpertStorage); transformers 5.x
/// fuses gate and up, [E, 2I, H] and down [E, H, I], except where the checkpoint already stores them
/// fused [E, H, 2I] and [E, I, H] (gpt-oss, Llama 4), which it keeps.
void addExpertTensor(std::map<std::string, FoldedTensor>& folded, const std::string& key, const TensorSpec& tensor,
                     std::uint64_t layers, tensornames::ExpertStorage storage, TensorLayout layout) {
    using tensornames::ExpertStorage;
    const std::size_t experts = key.rfind(".experts.");
    const std::string module = key.substr(0, experts + 1);                               // "model.layers.#.mlp."
    const std::string rest = key.substr(experts + std::string_view(".experts.").size()); // "gate_proj.weight"
    if (storage == ExpertStorage::PerExpert && layout == TensorLayout::Checkpoint) {
        addFolded(folded, module + "experts.#." + rest, tensor.shape,
                  layers * static_cast<std::uint64_t>(tensor.copies));
        return;
    }
    if (rest.starts_with("up_proj")) {
        return; // fused with the gate, which adds both
    }
    const bool down = rest.starts_with("down_proj");
    const bool bias = rest.ends_with(".bias");
    const Checked copies = dim(tensor.copies);
    // One expert's weight [out, in]: the gate's out doubles when fused with up.
    const Checked out = down ? tensor.shape[0] : Checked(2) * tensor.shape[0];
    const Checked in = bias ? Checked(0) : tensor.shape[1];
    const bool inFirst = storage == ExpertStorage::FusedInFirst;
    std::string name;
    if (storage == ExpertStorage::FusedLinear && layout == TensorLayout::Checkpoint) {
        name = module + (down ? "output_linear" : "input_linear") + (bias ? ".bias" : ".weight");
    } else {
        name = module + "experts." + (down ? "down_proj" : "gate_up_proj") + (bias ? "_bias" : "");
    }
    const Dims shape = bias ? Dims{copies, out} : inFirst ? Dims{copies, in, out} : Dims{copies, out, in};
    addFolded(folded, name, shape, layers);
}

} // namespace

std::vector<FoldedTensor> foldedTensors(const ModelConfig& config, const ModelPlan& plan, TensorLayout layout) {
    std::map<std::string, FoldedTensor> folded;
    const auto keyOf = [&](const TensorSpec& tensor, const LayerPlan* layer) {
        std::string key = foldNumbers(checkpointKey(config, tensor, layer));
        return layout == TensorLayout::Transformers ? tensornames::transformersKey(config, std::move(key)) : key;
    };
    for (const TensorSpec& tensor : outerTensors(config)) {
        addFolded(folded, keyOf(tensor, nullptr), tensor.shape, 1);
    }
    // Layers of one kind share their tensors: each kind is listed once, times its layers.
    std::vector<std::pair<LayerPlan, std::uint64_t>> kinds;
    for (const LayerPlan& layer : plan.layers) {
        auto found =
            std::find_if(kinds.begin(), kinds.end(), [&](const auto& kind) { return sameKind(kind.first, layer); });
        if (found == kinds.end()) {
            kinds.emplace_back(layer, 1);
        } else {
            ++found->second;
        }
    }
    for (const auto& [layer, layers] : kinds) {
        const tensornames::ExpertStorage storage = tensornames::layerNames(config, layer).moe.storage;
        for (const TensorSpec& tensor : layerTensors(config, layer)) {
            std::string key = keyOf(tensor, &layer);
            if (tensor.component == Component::Experts && key.find(".experts.") != std::string::npos) {
                addExpertTensor(folded, key, tensor, layers, storage, layout);
            } else {
                addFolded(folded, std::move(key), tensor.shape, layers * static_cast<std::uint64_t>(tensor.copies));
            }
        }
    }
    std::vector<FoldedTensor> result;
    result.reserve(folded.size());
    for (auto& [key, tensor] : folded) {
        result.push_back(std::move(tensor));
    }
    return result;
}

// DeepSeek-V3's multi-token-prediction module, per deepseek-ai/DeepSeek-V3 README_WEIGHTS.md:
// enorm, hnorm, eh_proj [H, 2H], one MoE decoder layer, shared_head.norm, and stored copies of
// the embedding and the output head.
std::vector<TensorSpec> extraTensors(const ModelConfig& config) {
    std::vector<TensorSpec> result;
    if (config.mtpLayers <= 0 || config.mtpLayers > 64) {
        return result;
    }
    const Checked hidden = dim(config.hiddenSize);
    const Checked vocab = dim(config.vocabSize);
    LayerPlan layer;
    layer.latent = config.latent.has_value();
    layer.ffn = config.ffnKind;
    for (std::int64_t i = 0; i < config.mtpLayers; ++i) {
        TensorList list;
        const std::string prefix = "mtp." + std::to_string(i) + ".";
        list.add(prefix + "embed_tokens.weight (stored copy)", Component::Embedding, {vocab, hidden},
                 TensorUse::Lookup);
        list.norm(prefix + "enorm", NormKind::RmsNorm, hidden);
        list.norm(prefix + "hnorm", NormKind::RmsNorm, hidden);
        list.linear(prefix + "eh_proj", Component::Attention, Checked(2) * hidden, hidden, false);
        for (TensorSpec& t : layerTensors(config, layer)) {
            t.name = prefix + t.name;
            result.push_back(std::move(t));
        }
        list.norm(prefix + "shared_head.norm", NormKind::RmsNorm, hidden);
        list.add(prefix + "shared_head.head.weight (stored copy)", Component::OutputHead, {vocab, hidden},
                 TensorUse::Matrix);
        for (TensorSpec& t : list.take()) {
            result.push_back(std::move(t));
        }
    }
    return result;
}

} // namespace archplay::core
