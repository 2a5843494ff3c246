// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/derivation/Derivation.h"

#include "core/derivation/DerivationLayers.h"
#include "core/derivation/DerivationText.h"
#include "core/util/Format.h"

#include <fmt/format.h>

#include <algorithm>

namespace archplay::core {

using namespace derivation;

namespace {

std::int64_t embeddingWidth(const ModelConfig& c) {
    return c.embeddingProjectionDim > 0 && c.embeddingProjectionDim != c.hiddenSize ? c.embeddingProjectionDim
                                                                                    : c.hiddenSize;
}

DerivationStep tokensStep(const ModelConfig& c) {
    DerivationStep s{"Tokens", {}, {}};
    const std::string last = num(c.vocabSize - 1);
    if (c.architecture == ArchitectureKind::EncoderDecoder) {
        s.text = fmt::format("Source tokens enter the encoder and target tokens the decoder; both come from one "
                             "vocabulary of $V = {}$ entries.",
                             num(c.vocabSize));
        s.equations.push_back("s_{1}, \\ldots, s_{S} \\in \\{0, \\ldots, " + last +
                              "\\}, \\quad t_{1}, \\ldots, t_{T} \\in \\{0, \\ldots, " + last + "\\}");
    } else {
        s.text = fmt::format("A sequence of $T$ token ids from a vocabulary of $V = {}$ entries.", num(c.vocabSize));
        s.equations.push_back("t_{1}, \\ldots, t_{T} \\in \\{0, \\ldots, " + last + "\\}");
    }
    return s;
}

DerivationStep embeddingStep(const ModelConfig& c, const std::string& token, const std::string& tokens) {
    DerivationStep s{"Token embedding", "Each token picks its row of the embedding table", {}};
    const std::int64_t width = embeddingWidth(c);
    std::string lookup = "X^{(0)}_{i} = ";
    std::string shapes = "E \\in " + real(c.vocabSize, width);
    if (c.forward.embeddingScaledBySqrtHidden) {
        lookup += "\\sqrt{" + num(c.hiddenSize) + "}\\, ";
        s.text += ", scaled by $\\sqrt{H}$ as in Gemma";
    }
    lookup += "E_{" + token + "}";
    if (width != c.hiddenSize) {
        lookup += "\\, W_{\\mathrm{in}}";
        shapes += ", \\quad W_{\\mathrm{in}} \\in " + real(width, c.hiddenSize);
        s.text += fmt::format(", projected from {} to {} features", width, c.hiddenSize);
    }
    if (c.tokenTypes > 0) {
        lookup += " + E^{\\mathrm{type}}_{\\tau_{i}}";
        shapes += ", \\quad E^{\\mathrm{type}} \\in " + real(c.tokenTypes, c.hiddenSize);
        s.text += ", plus the embedding of its segment $\\tau_i$";
    }
    if (c.positional == PositionalKind::Learned) {
        lookup += c.positionOffset > 0 ? " + P_{i + " + num(c.positionOffset) + "}" : " + P_{i}";
        shapes += ", \\quad P \\in " + real(c.maxPositions + c.positionOffset, c.hiddenSize);
        s.text += ", plus a learned embedding of its position";
    } else if (c.positional == PositionalKind::Sinusoidal) {
        lookup += " + \\mathrm{PE}_{i}";
        s.text += ", plus a fixed sinusoidal encoding of its position";
    }
    s.text += ".";
    s.equations.push_back(lookup);
    s.equations.push_back(shapes + ", \\quad X^{(0)} \\in " + realRows(tokens, c.hiddenSize));
    if (c.positional == PositionalKind::Sinusoidal) {
        const std::string angle = "i / 10{,}000^{2j/" + num(c.hiddenSize) + "}";
        s.equations.push_back("\\mathrm{PE}_{i,2j} = \\sin\\left(" + angle +
                              "\\right), \\quad \\mathrm{PE}_{i,2j+1} = \\cos\\left(" + angle + "\\right)");
    }
    if (c.embeddingNorm) {
        s.equations.push_back("X^{(0)} \\leftarrow " + normOperator(c) + "\\left(X^{(0)}\\right)");
    }
    return s;
}

std::optional<DerivationStep> positionStep(const ModelConfig& c) {
    switch (c.positional) {
    case PositionalKind::Learned:
    case PositionalKind::Sinusoidal:
        return std::nullopt;
    case PositionalKind::None:
        return DerivationStep{"Positions", "No position encoding: order enters only through the causal mask.", {}};
    case PositionalKind::Alibi: {
        DerivationStep s{"Positions: ALiBi",
                         "Attention with linear biases: each head subtracts a penalty proportional to the distance; "
                         "there are no position parameters.",
                         {}};
        s.equations.push_back("B_{h,ij} = -m_{h}\\,(i - j), \\quad m_{h} = 2^{-8h/" + num(c.numHeads) +
                              "}, \\quad h = 1, \\ldots, " + num(c.numHeads));
        return s;
    }
    case PositionalKind::RelativeBias: {
        DerivationStep s{"Positions: relative attention bias",
                         "T5 learns one bias per head and relative-distance bucket (exact for short distances, "
                         "logarithmic beyond). Each stack's table sits in its first layer and serves all its layers.",
                         {}};
        s.equations.push_back("B_{h,ij} = b_{\\mathrm{bucket}(j - i),\\, h}, \\quad b \\in " +
                              real(c.relativeBuckets, c.numHeads));
        return s;
    }
    case PositionalKind::Rope:
        break;
    }
    const bool latent = c.latent.has_value();
    const std::int64_t headDim = latent ? c.latent->qkRopeHeadDim : c.effectiveHeadDim();
    const std::int64_t rotated =
        latent ? headDim : static_cast<std::int64_t>(static_cast<double>(headDim) * c.rotaryFraction);
    const std::int64_t half = rotated / 2;
    DerivationStep s{"Positions: rotary embedding (RoPE)",
                     fmt::format("Queries and keys are rotated by their position $i$: dimension $j$ pairs with "
                                 "$j + {}$, so $q_i^{{\\top}} k_j$ depends on $i - j$ only.",
                                 half),
                     {}};
    if (latent) {
        s.text += fmt::format(" In MLA only the {}-dimensional rotary parts rotate.", headDim);
    } else if (rotated < headDim) {
        s.text += fmt::format(" Only the first {} of the {} head dimensions rotate; the rest pass through.", rotated,
                              headDim);
    }
    const std::string h = num(half);
    s.equations.push_back("\\operatorname{RoPE}(x)_{i,j} = x_{i,j} \\cos(i\\,\\theta_{j}) - x_{i,j+" + h +
                          "} \\sin(i\\,\\theta_{j})");
    s.equations.push_back("\\operatorname{RoPE}(x)_{i,j+" + h + "} = x_{i,j+" + h +
                          "} \\cos(i\\,\\theta_{j}) + x_{i,j} \\sin(i\\,\\theta_{j})");
    const double base = c.forward.ropeTheta.value_or(10000.0);
    s.equations.push_back("\\theta_{j} = " + scientific(base) + "^{-2j/" + num(rotated) + "}, \\quad j = 0, \\ldots, " +
                          num(half - 1));
    if (const auto& local = c.forward.ropeLocalTheta; local && *local != base) {
        // Written by scientific(): a base read from config.json may be any double, which a cast to an
        // integer would not survive.
        s.text += fmt::format(" Global layers use base ${}$, sliding layers base ${}$.", scientific(base),
                              scientific(*local));
    }
    if (const auto& scaling = c.forward.ropeScaling) {
        const std::string factor = scaling->factor ? fmt::format(", factor {:g}", *scaling->factor) : std::string();
        s.text += fmt::format(" The frequencies are rescaled for long contexts ({}{}).", scaling->type, factor);
    }
    return s;
}

/// Layers of `stack` grouped by kind, in order of first appearance.
std::vector<std::pair<LayerPlan, std::vector<std::int64_t>>> kindsOf(const ModelPlan& plan, Stack stack) {
    std::vector<std::pair<LayerPlan, std::vector<std::int64_t>>> kinds;
    for (const LayerPlan& layer : plan.layers) {
        if (layer.stack != stack) {
            continue;
        }
        auto found =
            std::find_if(kinds.begin(), kinds.end(), [&](const auto& kind) { return sameKind(kind.first, layer); });
        if (found == kinds.end()) {
            kinds.push_back({layer, {}});
            found = std::prev(kinds.end());
        }
        found->second.push_back(layer.index);
    }
    return kinds;
}

std::int64_t stackSize(const ModelPlan& plan, Stack stack) {
    return std::count_if(plan.layers.begin(), plan.layers.end(), [&](const LayerPlan& l) { return l.stack == stack; });
}

void addStack(Derivation& d, const ModelConfig& c, const ModelPlan& plan, Stack stack, const std::string& tokens,
              Defined& defined) {
    const std::int64_t count = stackSize(plan, stack);
    for (const auto& [kind, indices] : kindsOf(plan, stack)) {
        d.sections.push_back(layerSection(c, kind, indices, tokens, count, defined));
    }
}

DerivationSection outputSection(const ModelConfig& c, std::int64_t layers, const std::string& tokens) {
    DerivationSection section{"Output", {}, {}};
    const std::string last = "X^{(" + num(layers) + ")}";
    std::string normalised = last;
    if (c.finalNorm) {
        DerivationStep norm{"Final norm", {}, {"\\hat{X} = " + normOperator(c) + "\\left(" + last + "\\right)"}};
        section.steps.push_back(std::move(norm));
        normalised = "\\hat{X}";
    }
    if (!c.outputHead) {
        DerivationStep out{"Contextual embeddings",
                           "The base model stops here: one vector per token, without a language-model head.",
                           {normalised + " \\in " + realRows(tokens, c.hiddenSize)}};
        if (c.pooler) {
            out.text += " The pooler reads the first ([CLS]) token.";
            out.equations.push_back("\\operatorname{pool}(X) = \\tanh\\left(" + normalised +
                                    "_{1} W_{p} + b_{p}\\right), "
                                    "\\quad W_{p} \\in " +
                                    real(c.hiddenSize, c.hiddenSize));
        }
        section.steps.push_back(std::move(out));
        return section;
    }
    const std::int64_t width = embeddingWidth(c);
    DerivationStep head{"Output head", {}, {}};
    std::string logits = "Z = ";
    std::string input = normalised;
    if (c.forward.tiedHeadInputScaled && c.tieWordEmbeddings) {
        input = "\\left(" + num(c.hiddenSize) + "^{-1/2}\\, " + normalised + "\\right)";
        head.text = "T5 scales the decoder output by $d_{\\mathrm{model}}^{-1/2}$ before the tied head. ";
    }
    if (width != c.hiddenSize) {
        input += "\\, W_{\\mathrm{proj}}";
    }
    if (c.tieWordEmbeddings) {
        logits += input + " E^{\\top}";
        head.text += "The head is tied to the embedding, $W_{\\mathrm{out}} = E^{\\top}$, and counted once.";
    } else {
        logits += input + " W_{\\mathrm{out}}";
        head.text += "An untied head with its own weights.";
    }
    if (c.outputHeadBias) {
        logits += " + b_{\\mathrm{out}}";
    }
    logits += " \\in " + realRows(tokens, c.vocabSize);
    head.equations.push_back(logits);
    std::string shapes;
    if (width != c.hiddenSize) {
        shapes = "W_{\\mathrm{proj}} \\in " + real(c.hiddenSize, width);
    }
    if (!c.tieWordEmbeddings) {
        shapes +=
            (shapes.empty() ? "" : ", \\quad ") + std::string("W_{\\mathrm{out}} \\in ") + real(width, c.vocabSize);
    }
    if (!shapes.empty()) {
        head.equations.push_back(shapes);
    }
    if (const auto& cap = c.forward.finalLogitSoftcap) {
        head.equations.push_back("Z \\leftarrow " + scientific(*cap) + " \\tanh\\left(Z / " + scientific(*cap) +
                                 "\\right)");
    }
    section.steps.push_back(std::move(head));

    DerivationStep softmax{"Next-token distribution", {}, {}};
    const std::string sum = "\\sum_{u=0}^{" + num(c.vocabSize - 1) + "} \\exp Z_{i,u}";
    if (c.hasDecoder()) {
        softmax.text = "A softmax over the vocabulary at every position gives the distribution of the next token.";
        softmax.equations.push_back("P(t_{i+1} = v \\mid t_{1}, \\ldots, t_{i}) = \\operatorname{softmax}(Z_{i})_{v} = "
                                    "\\frac{\\exp Z_{i,v}}{" +
                                    sum + "}");
    } else {
        softmax.title = "Token distribution";
        softmax.text = "A softmax over the vocabulary predicts each (masked) token from the whole sequence.";
        softmax.equations.push_back("P(t_{i} = v \\mid t_{1}, \\ldots, t_{T}) = \\frac{\\exp Z_{i,v}}{" + sum + "}");
    }
    section.steps.push_back(std::move(softmax));
    return section;
}

std::string latexProse(const std::string& text) {
    std::string out;
    bool maths = false;
    for (char ch : text) {
        if (ch == '$') {
            maths = !maths;
        }
        if (!maths && (ch == '&' || ch == '%' || ch == '#' || ch == '_')) {
            out.push_back('\\');
        }
        out.push_back(ch);
    }
    return out;
}

void collectInline(const std::string& text, std::vector<std::string>& out) {
    std::size_t start = text.find('$');
    while (start != std::string::npos) {
        const std::size_t end = text.find('$', start + 1);
        if (end == std::string::npos) {
            return;
        }
        out.push_back(text.substr(start + 1, end - start - 1));
        start = text.find('$', end + 1);
    }
}

} // namespace

Derivation deriveForwardPass(const ModelConfig& c, const ModelPlan& plan) {
    Derivation d;
    d.title = fmt::format("Forward pass of {} ({})", c.modelType, toString(c.architecture));
    d.notation =
        fmt::format("Shapes are for one sequence of $T$ tokens; the batch is left out. Activations are rows, "
                    "$X \\in {}$, and a linear layer computes $x W$ with $W \\in \\mathbb{{R}}^{{d_{{\\mathrm{{in}}}} "
                    "\\times d_{{\\mathrm{{out}}}}}}$ (Hugging Face stores the transpose, [out, in]).",
                    realRows("T", c.hiddenSize));
    Defined defined;
    DerivationSection input{"Input", {}, {tokensStep(c)}};
    const bool encoderDecoder = c.architecture == ArchitectureKind::EncoderDecoder;
    if (encoderDecoder) {
        d.notation += " The encoder reads $S$ source tokens.";
    }
    input.steps.push_back(embeddingStep(c, encoderDecoder ? "s_{i}" : "t_{i}", encoderDecoder ? "S" : "T"));
    if (auto positions = positionStep(c)) {
        input.steps.push_back(std::move(*positions));
    }
    d.sections.push_back(std::move(input));

    if (encoderDecoder) {
        addStack(d, c, plan, Stack::Encoder, "S", defined);
        const std::int64_t encoderLayers = stackSize(plan, Stack::Encoder);
        DerivationStep output{"Encoder output", "Every decoder layer's cross-attention reads this.", {}};
        output.equations.push_back("Z = " + (c.finalNorm ? normOperator(c) : std::string()) + "\\left(X^{(" +
                                   num(encoderLayers) + ")}\\right) \\in " + realRows("S", c.hiddenSize));
        DerivationStep decoderInput{"Decoder input", "Target tokens are embedded with the same table.", {}};
        decoderInput.equations.push_back("X^{(0)}_{i} = E_{t_{i}} \\in " + realVector(c.hiddenSize) +
                                         ", \\quad X^{(0)} \\in " + realRows("T", c.hiddenSize));
        d.sections.push_back({"Encoder output and decoder input", {}, {std::move(output), std::move(decoderInput)}});
        addStack(d, c, plan, Stack::Decoder, "T", defined);
        d.sections.push_back(outputSection(c, stackSize(plan, Stack::Decoder), "T"));
    } else {
        const Stack stack = c.architecture == ArchitectureKind::EncoderOnly ? Stack::Encoder : Stack::Decoder;
        addStack(d, c, plan, stack, "T", defined);
        d.sections.push_back(outputSection(c, stackSize(plan, stack), "T"));
    }
    return d;
}

DerivationSection deriveLayerSection(const ModelConfig& c, const ModelPlan& plan, std::int64_t planIndex) {
    if (planIndex < 0 || planIndex >= static_cast<std::int64_t>(plan.layers.size())) {
        return {};
    }
    const LayerPlan& layer = plan.layers[static_cast<std::size_t>(planIndex)];
    const bool encoderOfTwo = c.architecture == ArchitectureKind::EncoderDecoder && layer.stack == Stack::Encoder;
    for (const auto& [kind, indices] : kindsOf(plan, layer.stack)) {
        if (sameKind(kind, layer)) {
            Defined defined;
            return layerSection(c, kind, indices, encoderOfTwo ? "S" : "T", stackSize(plan, layer.stack), defined);
        }
    }
    return {};
}

std::string toLatex(const Derivation& d) {
    std::string out = "% " + d.title + ", written by archplay. Needs \\usepackage{amsmath,amssymb}.\n";
    out += "\\section*{" + latexProse(d.title) + "}\n" + latexProse(d.notation) + "\n";
    int number = 1;
    for (const DerivationSection& section : d.sections) {
        out += "\n\\subsection*{" + latexProse(section.title) + "}\n";
        if (!section.text.empty()) {
            out += latexProse(section.text) + "\n";
        }
        for (const DerivationStep& step : section.steps) {
            out += fmt::format("\n\\paragraph{{{}. {}}} {}\n", number++, latexProse(step.title), latexProse(step.text));
            for (const std::string& equation : step.equations) {
                out += "\\[ " + equation + " \\]\n";
            }
        }
    }
    return out;
}

std::string toMarkdown(const Derivation& d) {
    std::string out = "# " + d.title + "\n\n" + d.notation + "\n";
    int number = 1;
    for (const DerivationSection& section : d.sections) {
        out += "\n## " + section.title + "\n\n";
        if (!section.text.empty()) {
            out += section.text + "\n\n";
        }
        for (const DerivationStep& step : section.steps) {
            out += fmt::format("**{}. {}.** {}\n\n", number++, step.title, step.text);
            for (const std::string& equation : step.equations) {
                out += "$$\n" + equation + "\n$$\n\n";
            }
        }
    }
    while (out.size() > 1 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n') {
        out.pop_back();
    }
    return out;
}

std::vector<std::string> mathFragments(const Derivation& d) {
    std::vector<std::string> fragments;
    collectInline(d.title, fragments);
    collectInline(d.notation, fragments);
    for (const DerivationSection& section : d.sections) {
        collectInline(section.title, fragments);
        collectInline(section.text, fragments);
        for (const DerivationStep& step : section.steps) {
            collectInline(step.title, fragments);
            collectInline(step.text, fragments);
            fragments.insert(fragments.end(), step.equations.begin(), step.equations.end());
        }
    }
    return fragments;
}

} // namespace archplay::core
