// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/derivation/DerivationLayers.h"

#include "core/derivation/DerivationText.h"
#include "core/params/Tensors.h"
#include "core/routing/RoutingSimulation.h"
#include "core/util/Format.h"

#include <fmt/format.h>

namespace archplay::core::derivation {
namespace {

std::string attentionDescription(const LayerPlan& kind) {
    std::string text;
    if (!kind.attends()) {
        text = std::string(mixerName(kind.mixer)) + " (no KV cache, a fixed state)";
    } else if (kind.latent) {
        text = "latent attention (MLA)";
    } else if (kind.attention == LayerAttention::Sliding && kind.window > 0) {
        text = fmt::format("{} attention, window $W = {}$", kind.causal ? "sliding-window" : "local", num(kind.window));
    } else if (kind.attention == LayerAttention::Chunked && kind.window > 0) {
        text = fmt::format("chunked attention, $C = {}$", num(kind.window));
    } else {
        text = kind.causal ? "global causal attention" : "bidirectional attention";
    }
    if (kind.mixer == TokenMixer::AttentionWithMamba2) {
        text += " beside a Mamba-2 branch";
    }
    if (kind.crossAttention) {
        text += ", cross-attention";
    }
    return text;
}

std::string ffnDescription(const ModelConfig& c, const LayerPlan& kind) {
    switch (kind.ffn) {
    case FfnKind::Mlp:
        return "MLP";
    case FfnKind::Gated:
        return gatedName(c.activation) + " FFN";
    case FfnKind::Moe:
        return fmt::format("MoE, top-{} of {} experts{}", c.moe.topK, c.moe.numExperts,
                           c.moe.numSharedExperts > 0 ? fmt::format(" + {} shared", c.moe.numSharedExperts) : "");
    case FfnKind::None:
        return "no FFN";
    }
    return {};
}

/// The mask of a layer as a cases equation, or empty when every pair attends.
std::string maskEquation(const LayerPlan& kind) {
    const std::string open = "M_{ij} = \\begin{cases} 0 & ";
    const std::string close = " \\\\ -\\infty & \\text{otherwise} \\end{cases}";
    if (kind.attention == LayerAttention::Sliding && kind.window > 0) {
        return kind.causal ? open + "i - " + num(kind.window) + " < j \\le i" + close
                           : open + "|i - j| \\le " + num(kind.window / 2) + close;
    }
    if (kind.attention == LayerAttention::Chunked && kind.window > 0) {
        const std::string chunk = num(kind.window);
        return open + "\\lfloor i / " + chunk + " \\rfloor = \\lfloor j / " + chunk + " \\rfloor,\\; j \\le i" + close;
    }
    if (kind.causal) {
        return open + "j \\le i" + close;
    }
    return {};
}

std::string maskText(const LayerPlan& kind) {
    if (kind.attention == LayerAttention::Sliding && kind.window > 0) {
        return kind.causal ? fmt::format("Sliding window: token $i$ sees only its last {} positions, so a layer's "
                                         "cache never holds more than {} tokens.",
                                         withThousands(static_cast<std::uint64_t>(kind.window)),
                                         withThousands(static_cast<std::uint64_t>(kind.window)))
                           : "Local window: token $i$ sees the positions within half a window on either side.";
    }
    if (kind.attention == LayerAttention::Chunked && kind.window > 0) {
        return "Chunked attention: the sequence is cut into chunks and a token sees the earlier tokens of its own "
               "chunk only.";
    }
    return kind.causal ? "Causal mask: token $i$ sees keys $j \\le i$; the softmax runs over each row."
                       : "No mask: every token sees every token (padding aside); the softmax runs over each row.";
}

/// The config as the layers of one stack read it: an encoder with heads and an FFN width of its own
/// (BART's encoder_attention_heads, encoder_ffn_dim) reads them in place of the decoder's.
ModelConfig stackView(const ModelConfig& config, Stack stack) {
    ModelConfig view = config;
    if (stack == Stack::Encoder && config.encoderHeads > 0) {
        view.numHeads = view.numKvHeads = config.encoderHeads; // BART's encoder: multi-head attention
    }
    if (stack == Stack::Encoder) {
        view.intermediateSize = config.encoderFfnWidth();
    }
    return view;
}

class LayerWriter {
public:
    LayerWriter(const ModelConfig& config, const LayerPlan& kind, std::string tokens, Defined& defined)
        : m_stackConfig(stackView(config, kind.stack))
        , c(m_stackConfig)
        , m_kind(kind)
        , m_tokens(std::move(tokens))
        , m_defined(defined)
        , m_norm(normOperator(config))
        , m_headDim(c.effectiveHeadDim()) {}

    std::vector<DerivationStep> steps() {
        inputNorm();
        if (!m_kind.attends()) {
            tokenMixer(m_kind.mixer);
        } else if (m_kind.latent) {
            latentAttention();
        } else {
            standardAttention();
        }
        if (m_kind.mixer == TokenMixer::AttentionWithMamba2) {
            tokenMixer(TokenMixer::Mamba2);
        }
        if (m_kind.crossAttention) {
            crossAttention();
        }
        if (m_kind.ffn == FfnKind::None) {
            // The mixer is the whole layer (Mamba): its residual sum is the layer's output.
            m_steps.back().equations.push_back("X^{(\\ell)} = " + m_residual);
        } else {
            feedForward();
        }
        return std::move(m_steps);
    }

private:
    DerivationStep& step(std::string title, std::string text = {}) {
        m_steps.push_back({std::move(title), std::move(text), {}});
        return m_steps.back();
    }
    void defineNorm(DerivationStep& s) {
        if (c.normKind != NormKind::NonParametric && m_defined.first("norm")) {
            s.equations.push_back(normDefinition(c));
        }
    }
    bool preNorm() const {
        return c.normPlacement == NormPlacement::Pre || c.normPlacement == NormPlacement::Sandwich ||
               c.normPlacement == NormPlacement::ParallelSingle;
    }
    std::string attentionInput() const {
        switch (c.normPlacement) {
        case NormPlacement::Post:
        case NormPlacement::PostOnly:
            return "X^{(\\ell-1)}";
        case NormPlacement::ParallelDouble:
            return "\\hat{X}_{a}";
        default:
            return "\\hat{X}";
        }
    }

    void inputNorm() {
        if (preNorm()) {
            // A layer without attention (Mamba, Gated DeltaNet...) normalises before its token mixer.
            const bool attends = m_kind.attends();
            auto& s = step(attends ? "Attention input norm" : "Mixer input norm",
                           c.normPlacement == NormPlacement::ParallelSingle
                               ? "One norm feeds both branches: attention and feed-forward run in parallel."
                           : attends ? "Each token's features are normalised before attention."
                                     : "Each token's features are normalised before the token mixer.");
            s.equations.push_back("\\hat{X} = " + m_norm + "\\left(X^{(\\ell-1)}\\right) \\in " +
                                  realRows(m_tokens, c.hiddenSize));
            defineNorm(s);
        } else if (c.normPlacement == NormPlacement::ParallelDouble) {
            auto& s = step("Branch norms", "Attention and feed-forward run in parallel, each after its own norm.");
            s.equations.push_back("\\hat{X}_{a} = " + m_norm +
                                  "_{a}\\left(X^{(\\ell-1)}\\right), \\quad \\hat{X}_{m} = " + m_norm +
                                  "_{m}\\left(X^{(\\ell-1)}\\right)");
            defineNorm(s);
        }
    }

    std::string keyName(const std::string& head) const {
        switch (attentionFamily(c)) {
        case AttentionFamily::MQA:
            return "";
        case AttentionFamily::GQA:
            return "_{g(" + head + ")}";
        default:
            return "_{" + head + "}";
        }
    }

    void standardAttention() {
        const Checked qWidth = dim(c.numHeads) * dim(m_headDim);
        const Checked kvWidth = dim(c.numKvHeads) * dim(m_headDim);
        const std::string in = attentionInput();
        const AttentionFamily family = attentionFamily(c);
        std::string text;
        if (family == AttentionFamily::GQA) {
            text = fmt::format("Grouped-query attention: {} query heads share {} key-value heads, {} queries per "
                               "group, with $d_h = {}$.",
                               c.numHeads, c.numKvHeads, c.numKvHeads > 0 ? c.numHeads / c.numKvHeads : 0, m_headDim);
        } else if (family == AttentionFamily::MQA) {
            text = fmt::format("Multi-query attention: {} query heads share one key-value head, with $d_h = {}$.",
                               c.numHeads, m_headDim);
        } else {
            text = fmt::format("Multi-head attention: {} heads of $d_h = {}$.", c.numHeads, m_headDim);
        }
        auto& qkv = step("Queries, keys and values", text);
        if (c.fusedQkv) {
            qkv.equations.push_back("\\left[\\,Q \\;\\; K \\;\\; V\\,\\right] = " + in + "\\, W_{QKV}" +
                                    (c.qBias ? " + b_{QKV}" : "") + ", \\quad W_{QKV} \\in " +
                                    real(c.hiddenSize, qWidth + Checked(2) * kvWidth));
        } else {
            if (c.attentionOutputGate) {
                // Qwen3-Next's q_proj is twice as wide: each head's query, then its output gate.
                qkv.text += " The query projection also yields a gate $G$ for each head's output.";
                qkv.equations.push_back("\\left[\\,Q \\;\\; G\\,\\right] = " + in + "\\, W_{Q}" +
                                        (c.qBias ? " + b_{Q}" : "") + ", \\quad W_{Q} \\in " +
                                        real(c.hiddenSize, Checked(2) * qWidth));
            } else {
                qkv.equations.push_back("Q = " + in + "\\, W_{Q}" + (c.qBias ? " + b_{Q}" : "") +
                                        ", \\quad W_{Q} \\in " + real(c.hiddenSize, qWidth));
            }
            qkv.equations.push_back("K = " + in + "\\, W_{K}" + (c.kBias ? " + b_{K}" : "") + ", \\quad W_{K} \\in " +
                                    real(c.hiddenSize, kvWidth));
            qkv.equations.push_back("V = " + in + "\\, W_{V}" + (c.vBias ? " + b_{V}" : "") + ", \\quad W_{V} \\in " +
                                    real(c.hiddenSize, kvWidth));
        }
        const std::string headShape = realRows(m_tokens, m_headDim);
        if (family == AttentionFamily::MHA) {
            qkv.equations.push_back("Q_{h}, K_{h}, V_{h} \\in " + headShape + ", \\quad h = 1, \\ldots, " +
                                    num(c.numHeads));
        } else if (family == AttentionFamily::MQA) {
            qkv.equations.push_back("Q_{h} \\in " + headShape + ", \\; h = 1, \\ldots, " + num(c.numHeads) +
                                    "; \\qquad K, V \\in " + headShape);
        } else {
            qkv.equations.push_back("Q_{h} \\in " + headShape + ", \\; h = 1, \\ldots, " + num(c.numHeads) +
                                    "; \\qquad K_{g}, V_{g} \\in " + headShape + ", \\; g = 1, \\ldots, " +
                                    num(c.numKvHeads));
        }
        const std::string key =
            family == AttentionFamily::MQA ? "K" : (family == AttentionFamily::GQA ? "K_{g}" : "K_{h}");
        if (c.qkNorm == QkNorm::PerHead) {
            qkv.equations.push_back("Q_{h} \\leftarrow \\operatorname{RMSNorm}(Q_{h}), \\quad " + key +
                                    " \\leftarrow \\operatorname{RMSNorm}(" + key + "), \\quad g_{q}, g_{k} \\in " +
                                    realVector(m_headDim));
        } else if (c.qkNorm == QkNorm::PerHeadLayerNorm) {
            qkv.equations.push_back("Q_{h} \\leftarrow \\operatorname{LayerNorm}(Q_{h}), \\quad " + key +
                                    " \\leftarrow \\operatorname{LayerNorm}(" + key +
                                    "), \\quad g_{q}, b_{q}, g_{k}, b_{k} \\in " + realVector(m_headDim));
        } else if (c.qkNorm == QkNorm::FullWidth) {
            qkv.equations.push_back("Q \\leftarrow \\operatorname{RMSNorm}(Q), \\quad K \\leftarrow "
                                    "\\operatorname{RMSNorm}(K), \\quad g_{q} \\in " +
                                    realVector(qWidth) + ", \\; g_{k} \\in " + realVector(kvWidth));
        }
        if (c.positional == PositionalKind::Rope) {
            qkv.equations.push_back("Q_{h} \\leftarrow \\operatorname{RoPE}(Q_{h}), \\quad " + key +
                                    " \\leftarrow \\operatorname{RoPE}(" + key + ")");
            if (m_kind.attention == LayerAttention::Sliding) {
                if (const auto& localBase = c.forward.ropeLocalTheta) {
                    qkv.text += " Sliding layers rotate with base $" + scientific(*localBase) + "$.";
                }
            }
        }

        auto& sdpa = step("Scaled dot-product attention", maskText(m_kind));
        std::string scores = "S_{h} = ";
        const std::string product = "Q_{h} " + (family == AttentionFamily::GQA   ? std::string("K_{g(h)}^{\\top}")
                                                : family == AttentionFamily::MQA ? std::string("K^{\\top}")
                                                                                 : std::string("K_{h}^{\\top}"));
        if (c.forward.attentionUnscaled) {
            scores += product;
            sdpa.text += " T5 does not divide by $\\sqrt{d_h}$: its initialisation absorbs the scale.";
        } else {
            const std::optional<double>& scalar = c.forward.queryPreAttentionScalar;
            const std::string scale = scalar ? scientific(*scalar) : num(m_headDim);
            scores += "\\frac{" + product + "}{\\sqrt{" + scale + "}}";
        }
        if (c.positional == PositionalKind::Alibi || c.positional == PositionalKind::RelativeBias) {
            scores += " + B_{h}";
        }
        const std::string mask = maskEquation(m_kind);
        if (!mask.empty()) {
            scores += " + M";
        }
        sdpa.equations.push_back(scores);
        if (const auto& cap = c.forward.attentionLogitSoftcap) {
            sdpa.equations.push_back("S_{h} \\leftarrow " + scientific(*cap) + " \\tanh\\left(S_{h} / " +
                                     scientific(*cap) + "\\right)");
        }
        std::string output = "A_{h} = \\operatorname{softmax}(S_{h})\\, V" + keyName("h") + " \\in " + headShape;
        if (c.attentionSinks) {
            // gpt-oss: a learned logit per head joins every row's softmax and is dropped after it.
            sdpa.text += " A learned sink logit $s_h$ per head joins each row's softmax and is dropped after it, so a "
                         "head can attend to nothing.";
            sdpa.equations.push_back(
                "P_{h} = \\operatorname{softmax}\\left(\\left[\\,S_{h} \\;\\; s_{h}\\,\\right]\\right), "
                "\\quad s_{h} \\in \\mathbb{R}, \\; h = 1, \\ldots, " +
                num(c.numHeads));
            output = "A_{h} = P_{h,\\,:,\\,1:T}\\, V" + keyName("h") + " \\in " + headShape;
        }
        if (family == AttentionFamily::GQA) {
            output += ", \\quad g(h) = \\left\\lceil h / " + num(c.numHeads / c.numKvHeads) + " \\right\\rceil";
        }
        sdpa.equations.push_back(output);
        if (!mask.empty()) {
            sdpa.equations.push_back(mask);
        }

        auto& out = step("Output projection and residual");
        const std::string lastHead = num(c.numHeads);
        const std::string heads = c.attentionOutputGate ? "A_{1} \\odot \\sigma(G_{1}) \\; \\cdots \\; A_{" + lastHead +
                                                              "} \\odot \\sigma(G_{" + lastHead + "})"
                                                        : "A_{1} \\; \\cdots \\; A_{" + lastHead + "}";
        out.equations.push_back("\\operatorname{Attn}(" + in + ") = \\left[\\," + heads + "\\,\\right] W_{O}" +
                                (c.oBias ? " + b_{O}" : "") + ", \\quad W_{O} \\in " + real(qWidth, c.hiddenSize));
        attentionResidual(out, in);
    }

    void latentAttention() {
        const LatentAttention& mla = *c.latent;
        const Checked qkDim = dim(mla.qkNopeHeadDim) + dim(mla.qkRopeHeadDim);
        const std::string in = attentionInput();
        const std::string heads = num(c.numHeads);
        if (mla.qLoraRank) {
            auto& q = step("Latent queries",
                           fmt::format("Queries pass through a {}-wide bottleneck; each of the {} heads gets a "
                                       "{}-dimensional content part and a {}-dimensional rotary part.",
                                       *mla.qLoraRank, c.numHeads, mla.qkNopeHeadDim, mla.qkRopeHeadDim));
            q.equations.push_back("c^{Q} = " + in + "\\, W^{DQ} \\in " + realRows(m_tokens, *mla.qLoraRank) +
                                  ", \\quad W^{DQ} \\in " + real(c.hiddenSize, *mla.qLoraRank));
            q.equations.push_back("\\left[\\,Q^{C} \\;\\; Q^{R}\\,\\right] = \\operatorname{RMSNorm}(c^{Q})\\, W^{UQ}, "
                                  "\\quad W^{UQ} \\in " +
                                  real(num(*mla.qLoraRank), heads + " \\cdot " + num(qkDim)));
        } else {
            auto& q = step("Queries", fmt::format("Each of the {} heads gets a {}-dimensional content part and a "
                                                  "{}-dimensional rotary part.",
                                                  c.numHeads, mla.qkNopeHeadDim, mla.qkRopeHeadDim));
            q.equations.push_back("\\left[\\,Q^{C} \\;\\; Q^{R}\\,\\right] = " + in + "\\, W_{Q}, \\quad W_{Q} \\in " +
                                  real(num(c.hiddenSize), heads + " \\cdot " + num(qkDim)));
        }
        const Checked latentWidth = dim(mla.kvLoraRank) + dim(mla.qkRopeHeadDim);
        const Checked expanded = dim(c.numHeads) * (qkDim + dim(mla.vHeadDim));
        auto& kv =
            step("Latent keys and values",
                 fmt::format("Keys and values are compressed into one {}-wide latent per token; a {}-dimensional "
                             "rotary key is shared by all heads. Only $c^{{KV}}$ and $k^{{R}}$ are cached: "
                             "${} + {} = {}$ values per token and layer, against ${} \\cdot ({} + {} + {}) = "
                             "{}$ for per-head keys and values.",
                             mla.kvLoraRank, mla.qkRopeHeadDim, mla.kvLoraRank, mla.qkRopeHeadDim, num(latentWidth),
                             c.numHeads, mla.qkNopeHeadDim, mla.qkRopeHeadDim, mla.vHeadDim, num(expanded)));
        kv.equations.push_back("\\left[\\,c^{KV} \\;\\; k^{R}\\,\\right] = " + in +
                               "\\, W^{DKV}, \\quad W^{DKV} \\in " + real(c.hiddenSize, latentWidth));
        kv.equations.push_back(
            "\\left[\\,K^{C} \\;\\; V\\,\\right] = \\operatorname{RMSNorm}(c^{KV})\\, W^{UKV}, "
            "\\quad W^{UKV} \\in " +
            real(num(mla.kvLoraRank), heads + " \\cdot (" + num(mla.qkNopeHeadDim) + " + " + num(mla.vHeadDim) + ")"));

        auto& sdpa = step("Attention per head", maskText(m_kind));
        sdpa.equations.push_back(
            "q_{h} = \\left[\\,q^{C}_{h} \\;\\; \\operatorname{RoPE}(q^{R}_{h})\\,\\right], "
            "\\quad k_{h} = \\left[\\,k^{C}_{h} \\;\\; \\operatorname{RoPE}(k^{R})\\,\\right] \\in " +
            realVector(qkDim));
        const std::string mask = maskEquation(m_kind);
        sdpa.equations.push_back("A_{h} = \\operatorname{softmax}\\left(\\frac{Q_{h} K_{h}^{\\top}}{\\sqrt{" +
                                 num(qkDim) + "}}" + (mask.empty() ? "" : " + M") + "\\right) V_{h} \\in " +
                                 realRows(m_tokens, mla.vHeadDim) + ", \\quad h = 1, \\ldots, " + heads);
        if (!mask.empty()) {
            sdpa.equations.push_back(mask);
        }

        auto& out = step("Output projection and residual");
        out.equations.push_back("\\operatorname{Attn}(" + in + ") = \\left[\\,A_{1} \\; \\cdots \\; A_{" + heads +
                                "}\\,\\right] W_{O}, \\quad W_{O} \\in " +
                                real(dim(c.numHeads) * dim(mla.vHeadDim), dim(c.hiddenSize)));
        attentionResidual(out, in);
    }

    // Linear attention, state-space and convolution mixers: a recurrence over a fixed-size state
    // instead of attention over a growing cache (FORMULAS.md §4.6; the transformers modeling files).
    void tokenMixer(TokenMixer mixer) {
        const std::string in = attentionInput();
        const bool branch = m_kind.mixer == TokenMixer::AttentionWithMamba2;
        // The mixer's output: a branch beside attention is named Mamba; a mixer that is the layer's only one,
        // Mix (its residual sum is written like attention's).
        const std::string out = branch ? "\\operatorname{Mamba}(" + in + ")" : "\\operatorname{Mix}(" + in + ")";
        const std::int64_t hidden = c.hiddenSize;
        switch (mixer) {
        case TokenMixer::GatedDeltaNet: {
            const GatedDeltaNet& d = c.deltaNet;
            auto& s = step("Gated DeltaNet",
                           fmt::format("Linear attention with a delta-rule memory: {} key heads of $d_k = {}$, {} "
                                       "value heads of $d_v = {}$, a causal convolution of width {} over q, k, v. The "
                                       "state $S$ replaces the KV cache and does not grow with the sequence.",
                                       d.numKeyHeads, d.keyHeadDim, d.numValueHeads, d.valueHeadDim, d.convKernel));
            s.equations.push_back("\\left[\\,q \\;\\; k \\;\\; v \\;\\; z\\,\\right] = " + in +
                                  "\\, W_{qkvz}, \\quad W_{qkvz} \\in " +
                                  real(hidden, Checked(2) * d.keyWidth() + Checked(2) * d.valueWidth()));
            s.equations.push_back(
                "S_{t} = \\alpha_{t}\\, S_{t-1}\\left(I - \\beta_{t}\\, k_{t} k_{t}^{\\top}\\right) + "
                "\\beta_{t}\\, v_{t} k_{t}^{\\top}, \\quad S_{t} \\in \\mathbb{R}^{" +
                num(d.numValueHeads) + " \\times " + num(d.valueHeadDim) + " \\times " + num(d.keyHeadDim) + "}");
            s.equations.push_back(out + " = \\left(" + m_norm + "(S_{t} q_{t}) \\odot \\operatorname{SiLU}(z_{t})" +
                                  "\\right) W_{O}, \\quad W_{O} \\in " + real(d.valueWidth(), hidden));
            break;
        }
        case TokenMixer::LightningAttention: {
            const Checked width = dim(c.numHeads) * dim(m_headDim);
            auto& s = step("Lightning attention",
                           fmt::format("Linear attention: {} heads of $d = {}$ accumulate $k^{{\\top}} v$ with a "
                                       "per-head decay $\\lambda$; the state replaces the KV cache.",
                                       c.numHeads, m_headDim));
            s.equations.push_back("\\left[\\,q \\;\\; k \\;\\; v\\,\\right] = \\operatorname{SiLU}(" + in +
                                  "\\, W_{qkv}), \\quad W_{qkv} \\in " + real(hidden, Checked(3) * width));
            s.equations.push_back("S_{t} = \\lambda\\, S_{t-1} + k_{t}^{\\top} v_{t}, \\quad S_{t} \\in "
                                  "\\mathbb{R}^{" +
                                  num(c.numHeads) + " \\times " + num(m_headDim) + " \\times " + num(m_headDim) + "}");
            s.equations.push_back(out + " = \\left(" + m_norm + "(q_{t} S_{t}) \\odot \\sigma(" + in +
                                  " W_{g})\\right) W_{O}, \\quad W_{g} \\in " + real(hidden, width));
            break;
        }
        case TokenMixer::Mamba2:
        case TokenMixer::AttentionWithMamba2: {
            const Mamba2Mixer& m = c.mamba;
            auto& s = step(branch ? "Mamba-2 branch" : "Mamba-2",
                           fmt::format("A selective state-space layer: {} heads of $d = {}$, state size $N = {}$, {} "
                                       "group(s) of B and C, a causal convolution of width {}.{}",
                                       m.numHeads, m.headDim, m.stateSize, m.numGroups, m.convKernel,
                                       branch ? " It runs beside attention; both outputs join the residual." : ""));
            s.equations.push_back("\\left[\\,z \\;\\; x \\;\\; B \\;\\; C \\;\\; \\Delta\\,\\right] = " + in +
                                  "\\, W_{in}, \\quad W_{in} \\in " +
                                  real(hidden, m.innerWidth() + m.convChannels() + dim(m.numHeads)));
            s.equations.push_back("h_{t} = e^{\\Delta_{t} A}\\, h_{t-1} + \\Delta_{t}\\, B_{t}\\, x_{t}, \\quad "
                                  "y_{t} = C_{t}\\, h_{t} + D\\, x_{t}, \\quad h_{t} \\in \\mathbb{R}^{" +
                                  num(m.numHeads) + " \\times " + num(m.headDim) + " \\times " + num(m.stateSize) +
                                  "}");
            s.equations.push_back(out +
                                  " = \\left(y \\odot \\operatorname{SiLU}(z)\\right) W_{out}, \\quad W_{out} "
                                  "\\in " +
                                  real(m.innerWidth(), hidden));
            if (branch) {
                s.equations.push_back("X' = X^{(\\ell-1)} + \\operatorname{Attn}(" + in + ") + " + out);
                m_residual = "X'";
            }
            break;
        }
        case TokenMixer::Mamba: {
            const Mamba1Mixer& m = c.mamba1;
            const Checked inner = dim(m.innerWidth);
            auto& s = step("Mamba",
                           fmt::format("A selective state-space layer (Mamba-1): inner width {}, state size $N = {}$ "
                                       "per channel, a time step of rank {}, a causal convolution of width {}.",
                                       m.innerWidth, m.stateSize, m.timeStepRank, m.convKernel));
            s.equations.push_back("\\left[\\,x \\;\\; z\\,\\right] = " + in + "\\, W_{in}, \\quad W_{in} \\in " +
                                  real(hidden, Checked(2) * inner));
            s.equations.push_back("\\left[\\,\\delta \\;\\; B \\;\\; C\\,\\right] = "
                                  "\\operatorname{conv}_{" +
                                  num(m.convKernel) +
                                  "}(x)\\, W_{x}, \\quad "
                                  "\\Delta = \\operatorname{softplus}(\\delta\\, W_{dt}), \\quad W_{x} \\in " +
                                  real(inner, dim(m.timeStepRank) + Checked(2) * dim(m.stateSize)));
            s.equations.push_back("h_{t} = e^{\\Delta_{t} A}\\, h_{t-1} + \\Delta_{t}\\, B_{t}\\, x_{t}, \\quad "
                                  "y_{t} = C_{t}\\, h_{t} + D\\, x_{t}, \\quad h_{t} \\in \\mathbb{R}^{" +
                                  num(m.innerWidth) + " \\times " + num(m.stateSize) + "}");
            s.equations.push_back(out +
                                  " = \\left(y \\odot \\operatorname{SiLU}(z)\\right) W_{out}, \\quad W_{out} \\in " +
                                  real(inner, hidden));
            break;
        }
        case TokenMixer::ShortConv: {
            auto& s = step("Gated short convolution",
                           fmt::format("A depthwise causal convolution of width $L = {}$ between two gates; its "
                                       "state is the last {} inputs.",
                                       c.shortConv.kernel, c.shortConv.kernel));
            s.equations.push_back("\\left[\\,B \\;\\; C \\;\\; x\\,\\right] = " + in +
                                  "\\, W_{in}, \\quad W_{in} \\in " + real(hidden, 3 * hidden));
            s.equations.push_back(out + " = \\left(C \\odot \\operatorname{conv}_{" + num(c.shortConv.kernel) +
                                  "}(B \\odot x)\\right) W_{out}, \\quad W_{out} \\in " + real(hidden, hidden));
            break;
        }
        case TokenMixer::Attention:
            return;
        }
        if (!branch) {
            attentionResidual(m_steps.back(), in, "\\operatorname{Mix}");
        }
    }

    /// The residual sum after the token mixer, `op` its output's name (attention, or another mixer's Mix).
    void attentionResidual(DerivationStep& s, const std::string& in, const std::string& op = "\\operatorname{Attn}") {
        const std::string attn = op + "(" + in + ")";
        switch (c.normPlacement) {
        case NormPlacement::Pre:
            s.equations.push_back("X' = X^{(\\ell-1)} + " + attn);
            break;
        case NormPlacement::Sandwich:
            s.equations.push_back("X' = X^{(\\ell-1)} + " + m_norm + "\\left(" + attn + "\\right)");
            break;
        case NormPlacement::Post:
            s.equations.push_back("X' = " + m_norm + "\\left(X^{(\\ell-1)} + " + attn + "\\right)");
            defineNorm(s);
            break;
        case NormPlacement::PostOnly:
            s.equations.push_back("X' = X^{(\\ell-1)} + " + m_norm + "\\left(" + attn + "\\right)");
            defineNorm(s);
            break;
        case NormPlacement::ParallelSingle:
        case NormPlacement::ParallelDouble:
            s.text = "The residual adds both branches at once (below).";
            break;
        }
        m_residual = "X'";
    }

    void crossAttention() {
        const Checked qWidth = dim(c.numHeads) * dim(m_headDim);
        const Checked kvWidth = dim(c.numKvHeads) * dim(m_headDim);
        auto& s = step("Cross-attention", "Queries come from the decoder, keys and values from the encoder output $Z$. "
                                          "No mask: every target token sees every source token. $K^{c}$ and "
                                          "$V^{c}$ are computed once per request and cached.");
        const bool pre = c.normPlacement != NormPlacement::Post && c.normPlacement != NormPlacement::PostOnly;
        const std::string in = pre ? "\\hat{X}'" : "X'";
        if (pre) {
            s.equations.push_back("\\hat{X}' = " + m_norm + "(X')");
        }
        s.equations.push_back("Q^{c} = " + in +
                              "\\, W^{c}_{Q}, \\quad K^{c} = Z\\, W^{c}_{K}, \\quad V^{c} = Z\\, W^{c}_{V}");
        s.equations.push_back("W^{c}_{Q} \\in " + real(c.hiddenSize, qWidth) + ", \\quad W^{c}_{K}, W^{c}_{V} \\in " +
                              real(c.hiddenSize, kvWidth) + ", \\quad Z \\in " + realRows("S", c.hiddenSize));
        const std::string product = "Q^{c}_{h} {K^{c}_{h}}^{\\top}";
        s.equations.push_back(
            "A^{c}_{h} = \\operatorname{softmax}\\left(" +
            (c.forward.attentionUnscaled ? product : "\\frac{" + product + "}{\\sqrt{" + num(m_headDim) + "}}") +
            "\\right) V^{c}_{h}");
        const std::string projected =
            "\\left[\\,A^{c}_{1} \\; \\cdots \\; A^{c}_{" + num(c.numHeads) + "}\\,\\right] W^{c}_{O}";
        s.equations.push_back(pre ? "X'' = X' + " + projected
                                  : "X'' = " + m_norm + "\\left(X' + " + projected + "\\right)");
        m_residual = "X''";
    }

    std::string glu(const std::string& superscript, Checked width, std::string& shapes) const {
        const std::string sup = superscript.empty() ? "" : "^{" + superscript + "}";
        shapes = "W" + sup + "_{\\mathrm{gate}}, W" + sup + "_{\\mathrm{up}} \\in " + real(c.hiddenSize, width) +
                 ", \\quad W" + sup + "_{\\mathrm{down}} \\in " + real(width, c.hiddenSize);
        return "\\left(" + activationOperator(c.activation) + "\\left(x\\, W" + sup +
               "_{\\mathrm{gate}}\\right) \\odot x\\, W" + sup + "_{\\mathrm{up}}\\right) W" + sup +
               "_{\\mathrm{down}}";
    }

    void feedForward() {
        const bool moe = m_kind.ffn == FfnKind::Moe;
        auto& s = step(moe ? "Mixture of experts and residual" : "Feed-forward and residual");
        const std::string prev = m_residual;
        switch (c.normPlacement) {
        case NormPlacement::Pre:
            s.equations.push_back("X^{(\\ell)} = " + prev + " + \\operatorname{FFN}\\left(" + m_norm + "(" + prev +
                                  ")\\right)");
            break;
        case NormPlacement::Sandwich:
            s.equations.push_back("X^{(\\ell)} = " + prev + " + " + m_norm + "\\left(\\operatorname{FFN}\\left(" +
                                  m_norm + "(" + prev + ")\\right)\\right)");
            break;
        case NormPlacement::Post:
            s.equations.push_back("X^{(\\ell)} = " + m_norm + "\\left(" + prev + " + \\operatorname{FFN}(" + prev +
                                  ")\\right)");
            break;
        case NormPlacement::PostOnly:
            s.equations.push_back("X^{(\\ell)} = " + prev + " + " + m_norm + "\\left(\\operatorname{FFN}(" + prev +
                                  ")\\right)");
            break;
        case NormPlacement::ParallelSingle:
            s.equations.push_back(
                "X^{(\\ell)} = X^{(\\ell-1)} + \\operatorname{Attn}(\\hat{X}) + \\operatorname{FFN}(\\hat{X})");
            break;
        case NormPlacement::ParallelDouble:
            s.equations.push_back("X^{(\\ell)} = X^{(\\ell-1)} + \\operatorname{Attn}(\\hat{X}_{a}) + "
                                  "\\operatorname{FFN}(\\hat{X}_{m})");
            break;
        }
        std::string shapes;
        if (m_kind.ffn == FfnKind::Mlp) {
            s.text = fmt::format("A two-layer MLP of width {}.",
                                 withThousands(static_cast<std::uint64_t>(c.intermediateSize)));
            const std::string bias1 = c.ffnBias ? " + b_{1}" : "";
            const std::string bias2 = c.ffnBias ? " + b_{2}" : "";
            s.equations.push_back("\\operatorname{FFN}(x) = " + activationOperator(c.activation) + "\\left(x\\, W_{1}" +
                                  bias1 + "\\right) W_{2}" + bias2 + ", \\quad W_{1} \\in " +
                                  real(c.hiddenSize, c.intermediateSize) + ", \\; W_{2} \\in " +
                                  real(c.intermediateSize, c.hiddenSize));
        } else if (m_kind.ffn == FfnKind::Gated) {
            s.text = fmt::format("{}: a gated linear unit of width {} (Shazeer 2020).", gatedName(c.activation),
                                 withThousands(static_cast<std::uint64_t>(c.intermediateSize)));
            s.equations.push_back("\\operatorname{FFN}(x) = " + glu("", dim(c.intermediateSize), shapes));
            s.equations.push_back(shapes);
        } else {
            mixtureOfExperts(s);
        }
        if (m_defined.first("activation " + activationOperator(c.activation))) {
            s.equations.push_back(activationDefinition(c.activation));
        }
    }

    void mixtureOfExperts(DerivationStep& s) {
        const MixtureOfExperts& moe = c.moe;
        const std::string experts = num(moe.numExperts);
        const std::string k = num(moe.topK);
        const RouterSettings router = routerSettings(c);
        s.text = fmt::format("A router sends each token to {} of {} experts, each a {} of width {}", moe.topK,
                             moe.numExperts, gatedName(c.activation),
                             withThousands(static_cast<std::uint64_t>(moe.expertIntermediateSize)));
        if (moe.numSharedExperts > 0) {
            s.text += fmt::format("; {} shared expert{} of width {} see{} every token", moe.numSharedExperts,
                                  moe.numSharedExperts > 1 ? "s" : "",
                                  withThousands(static_cast<std::uint64_t>(moe.sharedWidth())),
                                  moe.numSharedExperts > 1 ? "" : "s");
        }
        s.text += ".";
        if (router.groups > 1) {
            s.text += fmt::format(" Routing is group-limited: the experts form {} groups of {}, and a token draws "
                                  "its experts from its {} best groups.",
                                  router.groups, moe.numExperts / router.groups, router.topKGroups);
        }
        s.equations.push_back("s = x\\, W_{r}, \\quad W_{r} \\in " + real(c.hiddenSize, moe.numExperts));
        if (router.scoring == RouterScoring::Sigmoid) {
            s.equations.push_back("p_{e} = \\sigma(s_{e}), \\quad e = 1, \\ldots, " + experts);
        } else {
            s.equations.push_back("p = \\operatorname{softmax}(s) \\in " + realVector(moe.numExperts));
        }
        s.equations.push_back("\\mathcal{T} = \\operatorname{TopK}(p, " + k + ")");
        std::string combine = "\\operatorname{FFN}(x) = ";
        if (router.routedScaling != 1.0) {
            combine += scientific(router.routedScaling) + " ";
        }
        combine += router.normaliseTopK
                       ? "\\sum_{e \\in \\mathcal{T}} \\frac{p_{e}}{\\sum_{e' \\in \\mathcal{T}} p_{e'}}\\, "
                         "\\operatorname{FFN}_{e}(x)"
                       : "\\sum_{e \\in \\mathcal{T}} p_{e}\\, \\operatorname{FFN}_{e}(x)";
        if (moe.numSharedExperts > 0) {
            combine += moe.sharedExpertGate ? " + \\sigma(x\\, w_{s})\\, \\operatorname{FFN}_{\\mathrm{shared}}(x)"
                                            : " + \\operatorname{FFN}_{\\mathrm{shared}}(x)";
        }
        s.equations.push_back(combine);
        std::string shapes;
        s.equations.push_back("\\operatorname{FFN}_{e}(x) = " + glu("e", dim(moe.expertIntermediateSize), shapes));
        s.equations.push_back(shapes);
        if (moe.numSharedExperts > 0) {
            std::string sharedShapes;
            s.equations.push_back("\\operatorname{FFN}_{\\mathrm{shared}}(x) = " +
                                  glu("s", dim(moe.numSharedExperts) * dim(moe.sharedWidth()), sharedShapes));
            s.equations.push_back(sharedShapes);
        }
    }

    ModelConfig m_stackConfig;
    const ModelConfig& c;
    const LayerPlan& m_kind;
    std::string m_tokens;
    Defined& m_defined;
    std::string m_norm;
    std::int64_t m_headDim;
    std::string m_residual = "X^{(\\ell-1)}";
    std::vector<DerivationStep> m_steps;
};

} // namespace

std::string normDefinition(const ModelConfig& config) {
    const std::string width = num(config.hiddenSize);
    const std::optional<double>& normEpsilon = config.forward.normEpsilon;
    const std::string epsilon = normEpsilon ? scientific(*normEpsilon) : "\\epsilon";
    if (config.normKind == NormKind::RmsNorm) {
        const std::string gain = config.forward.normGainPlusOne ? "(1 + g)" : "g";
        return "\\operatorname{RMSNorm}(x) = \\frac{x}{\\sqrt{\\frac{1}{" + width + "} \\sum_{j} x_{j}^{2} + " +
               epsilon + "}} \\odot " + gain + ", \\quad g \\in " + realVector(config.hiddenSize);
    }
    return "\\operatorname{LayerNorm}(x) = \\frac{x - \\mu}{\\sqrt{\\sigma^{2} + " + epsilon +
           "}} \\odot g + b, \\quad \\mu = \\frac{1}{" + width + "} \\sum_{j} x_{j}, \\; \\sigma^{2} = \\frac{1}{" +
           width + "} \\sum_{j} (x_{j} - \\mu)^{2}, \\quad g, b \\in " + realVector(config.hiddenSize);
}

DerivationSection layerSection(const ModelConfig& config, const LayerPlan& kind,
                               const std::vector<std::int64_t>& indices, const std::string& tokens,
                               std::int64_t layerCount, Defined& defined) {
    DerivationSection section;
    const std::string stack = config.architecture == ArchitectureKind::EncoderDecoder
                                  ? (kind.stack == Stack::Encoder ? "Encoder layers " : "Decoder layers ")
                                  : "Layers ";
    section.title = stack + layerList(indices) + " ($\\times " + std::to_string(indices.size()) +
                    "$): " + attentionDescription(kind) + ", " + ffnDescription(config, kind);
    Checked params;
    for (const TensorSpec& tensor : layerTensors(config, kind)) {
        params += tensor.total();
    }
    section.text = fmt::format("{} of the {} layers{}; each holds {} parameters. $\\ell$ is the layer's number, "
                               "from 1.",
                               indices.size(), layerCount,
                               static_cast<std::int64_t>(indices.size()) == layerCount ? " (all alike)" : "",
                               withThousands(params.value()));
    section.steps = LayerWriter(config, kind, tokens, defined).steps();
    return section;
}

} // namespace archplay::core::derivation
