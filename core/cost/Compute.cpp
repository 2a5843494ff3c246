// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cost/Compute.h"

#include "core/util/Checked.h"

#include <algorithm>
#include <cmath>

namespace archplay::core {
namespace {

bool inFfn(Component component) {
    return component == Component::Ffn || component == Component::Router || component == Component::Experts ||
           component == Component::SharedExperts;
}

/// The self-attention mask with the indexer's key limit applied: min(keys, K) of a causal query is a
/// sliding window of K.
MaskSpec limitedMask(const LayerKindCompute& kind) {
    if (kind.keyLimit == 0) {
        return kind.mask;
    }
    if (kind.mask.kind == MaskKind::Causal) {
        return {MaskKind::SlidingWindow, kind.keyLimit};
    }
    if (kind.mask.kind == MaskKind::SlidingWindow) {
        return {MaskKind::SlidingWindow, std::min(kind.mask.span, kind.keyLimit)};
    }
    return kind.mask;
}

/// The recurrence of a linear-attention or state-space mixer per token (recurrent form; chunked
/// kernels reorder the same products).
Checked statePerToken(const ModelConfig& config, TokenMixer mixer) {
    switch (mixer) {
    case TokenMixer::GatedDeltaNet: {
        // Per value head with a [dk, dv] state: decay (1), prediction S^T k (2), rank-1 update (2), readout S^T q (2).
        const GatedDeltaNet& d = config.deltaNet;
        return Checked(7) * dim(d.numValueHeads) * dim(d.keyHeadDim) * dim(d.valueHeadDim);
    }
    case TokenMixer::LightningAttention: {
        // Per head with a [d, d] state: decay (1), k^T v update (2), readout q S (2).
        const Checked d = dim(config.effectiveHeadDim());
        return Checked(5) * dim(config.numHeads) * d * d;
    }
    case TokenMixer::Mamba2:
    case TokenMixer::AttentionWithMamba2: {
        // Per head with a [P, N] state: decay (1), dt x B^T update (2), C readout (2).
        const Mamba2Mixer& m = config.mamba;
        return Checked(5) * dim(m.numHeads) * dim(m.headDim) * dim(m.stateSize);
    }
    case TokenMixer::Mamba: {
        // Per channel with an [N] state: decay (1), dt x B update (2), C readout (2).
        const Mamba1Mixer& m = config.mamba1;
        return Checked(5) * dim(m.innerWidth) * dim(m.stateSize);
    }
    case TokenMixer::Attention:
    case TokenMixer::ShortConv:
        return 0;
    }
    return 0;
}

/// One layer kind's cost and its per-token weight FLOPs by component (one layer).
struct KindTally {
    LayerKindCompute kind;
    std::array<Checked, kComponentCount> components{};
};

KindTally kindCompute(const ModelConfig& config, const LayerPlan& layer, Checked& overflow) {
    KindTally tally;
    LayerKindCompute& kind = tally.kind;
    kind.kind = layer;
    Checked mixer, ffn, crossSource;
    for (const TensorSpec& tensor : layerTensors(config, layer)) {
        if (tensor.use == TensorUse::SourceMatrix) {
            crossSource += Checked(2) * tensor.total();
            continue;
        }
        if (tensor.use != TensorUse::Matrix && tensor.use != TensorUse::Convolution) {
            continue;
        }
        const std::int64_t copies = tensor.component == Component::Experts
                                        ? std::min(tensor.copies, std::max<std::int64_t>(config.moe.topK, 0))
                                        : tensor.copies;
        const Checked flops = Checked(2) * tensor.elements() * dim(copies);
        (inFfn(tensor.component) ? ffn : mixer) += flops;
        tally.components[static_cast<std::size_t>(tensor.component)] += flops;
    }
    kind.mixerWeights = mixer.value();
    kind.ffnWeights = ffn.value();
    kind.crossSourceWeights = crossSource.value();
    const Checked heads = dim(config.numHeads);
    Checked perKey, indexer, cross;
    if (layer.attends()) {
        if (layer.latent && config.latent) {
            const LatentAttention& mla = *config.latent;
            perKey = Checked(2) * heads * (dim(mla.qkNopeHeadDim) + dim(mla.qkRopeHeadDim) + dim(mla.vHeadDim));
            if (config.indexer) {
                indexer = Checked(2) * dim(config.indexer->numHeads) * dim(config.indexer->headDim);
                kind.keyLimit = dim(config.indexer->topK).value();
            }
        } else {
            perKey = Checked(4) * heads * dim(config.effectiveHeadDim());
        }
    }
    if (layer.crossAttention) {
        cross = Checked(4) * heads * dim(config.effectiveHeadDim());
    }
    const Checked state = statePerToken(config, layer.mixer);
    kind.perKey = perKey.value();
    kind.indexerPerKey = indexer.value();
    kind.crossPerKey = cross.value();
    kind.statePerToken = state.value();
    kind.mask = selfAttentionMask(layer);
    overflow += mixer + ffn + crossSource + perKey + indexer + cross + state;
    return tally;
}

/// One decoder layer of `kind`'s attention for the token at `position`: the self-attention keys it
/// sees (and those the indexer scores), and every source token through cross-attention.
Checked causalLayerAttention(const LayerKindCompute& kind, std::uint64_t position, std::uint64_t sourceTokens) {
    const std::uint64_t keys = attendedKeyCount(kind, position);
    const std::uint64_t scored =
        kind.indexerPerKey > 0 && position > 0 ? attendedKeys(kind.mask, position - 1, position).size() : 0;
    return Checked(keys) * Checked(kind.perKey) + Checked(scored) * Checked(kind.indexerPerKey) +
           Checked(sourceTokens) * Checked(kind.crossPerKey);
}

/// The self-attention of `kind`'s layers over a sequence of `tokens` that attends both ways,
/// averaged over its tokens: an encoder has no decode step. Units: FLOPs per token.
double averagedAttention(const LayerKindCompute& kind, std::uint64_t tokens) {
    if (tokens == 0) {
        return 0;
    }
    const double selfPairs = asDouble(attendedPairs(limitedMask(kind), tokens, tokens));
    return asDouble(static_cast<std::uint64_t>(kind.layers)) * selfPairs * asDouble(kind.perKey) / asDouble(tokens);
}

/// Whether a token of the model runs through `kind`'s layers: an encoder-decoder's encoder runs
/// once per source token instead.
bool runsPerToken(const ComputeReport& report, const LayerKindCompute& kind) {
    return !(report.encoderDecoder && kind.kind.stack == Stack::Encoder);
}

} // namespace

std::string_view toString(Recompute recompute) {
    switch (recompute) {
    case Recompute::None:
        return "none";
    case Recompute::Selective:
        return "selective";
    case Recompute::Full:
        return "full";
    }
    return "none";
}

std::optional<Recompute> parseRecompute(std::string_view name) {
    for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
        if (toString(r) == name) {
            return r;
        }
    }
    return std::nullopt;
}

std::uint64_t attendedKeyCount(const LayerKindCompute& kind, std::uint64_t position) {
    if (kind.perKey == 0 || position == 0) {
        return 0;
    }
    return attendedKeys(limitedMask(kind), position - 1, position).size();
}

ComputeReport compute(const ModelConfig& config, const ModelPlan& plan, std::uint64_t context,
                      std::uint64_t sourceTokens, std::uint64_t totalParams, const TrainingSetup& training) {
    ComputeReport report;
    report.context = context;
    const bool encoderDecoder = config.architecture == ArchitectureKind::EncoderDecoder;
    report.sourceTokens = encoderDecoder ? sourceTokens : 0;
    report.encoderDecoder = encoderDecoder;
    std::array<Checked, kComponentCount> byComponent{};
    Checked overflow;

    // Tensors outside the layers: the LM head (tied or not) and embedding projections run per token;
    // lookups do not; the pooler runs once per sequence.
    double perSequence = 0;
    for (const TensorSpec& tensor : outerTensors(config)) {
        if (tensor.use == TensorUse::Matrix) {
            byComponent[static_cast<std::size_t>(tensor.component)] += Checked(2) * tensor.total();
        } else if (tensor.use == TensorUse::SequenceMatrix) {
            perSequence += 2 * asDouble(tensor.total().value());
        }
    }
    if (config.outputHead && config.tieWordEmbeddings) {
        const Checked width =
            dim(config.embeddingProjectionDim > 0 ? config.embeddingProjectionDim : config.hiddenSize);
        byComponent[static_cast<std::size_t>(Component::OutputHead)] += Checked(2) * dim(config.vocabSize) * width;
    }
    Checked outerWeights;
    for (const Checked& c : byComponent) {
        outerWeights += c;
    }

    // One entry per layer kind, in order of first appearance.
    std::vector<KindTally> tallies;
    for (const LayerPlan& layer : plan.layers) {
        auto found = std::find_if(tallies.begin(), tallies.end(),
                                  [&](const KindTally& k) { return sameKind(k.kind.kind, layer); });
        if (found == tallies.end()) {
            tallies.push_back(kindCompute(config, layer, overflow));
            found = std::prev(tallies.end());
        }
        found->kind.layers += 1;
    }

    const std::uint64_t S = context;
    const std::uint64_t E = report.sourceTokens;
    Checked weights = outerWeights, attention, state;
    double prefill = asDouble(outerWeights.value()) * asDouble(S) + perSequence, prefillAttention = 0;
    double encoderAttentionPerToken = 0;
    for (const KindTally& tally : tallies) {
        const LayerKindCompute& kind = tally.kind;
        report.kinds.push_back(kind);
        const bool perModelToken = !(encoderDecoder && kind.kind.stack == Stack::Encoder);
        const Checked layers = dim(kind.layers);
        if (perModelToken) {
            for (std::size_t i = 0; i < kComponentCount; ++i) {
                byComponent[i] += tally.components[i] * layers;
            }
            weights += Checked(kind.mixerWeights) * layers + Checked(kind.ffnWeights) * layers;
            state += Checked(kind.statePerToken) * layers;
        }
        const std::uint64_t tokens = perModelToken ? S : E;
        const double n = asDouble(kind.layers);
        const double selfPairs = asDouble(attendedPairs(limitedMask(kind), tokens, tokens));
        const double indexerPairs = kind.indexerPerKey > 0 ? asDouble(attendedPairs(kind.mask, tokens, tokens)) : 0;
        const double kindAttention =
            n * (selfPairs * asDouble(kind.perKey) + indexerPairs * asDouble(kind.indexerPerKey) +
                 asDouble(tokens) * asDouble(E) * asDouble(kind.crossPerKey));
        prefillAttention += kindAttention;
        prefill += kindAttention + n * (asDouble(tokens) * (asDouble(kind.mixerWeights) + asDouble(kind.ffnWeights) +
                                                            asDouble(kind.statePerToken)) +
                                        asDouble(E) * asDouble(kind.crossSourceWeights));
        if (!perModelToken) {
            continue;
        }
        if (!kind.kind.causal) {
            encoderAttentionPerToken += averagedAttention(kind, S);
        } else {
            attention += layers * causalLayerAttention(kind, S, E);
        }
    }
    // An encoder has no decode step: its per-token attention is the average over the S tokens.
    attention += roundedCount(encoderAttentionPerToken);

    for (std::size_t i = 0; i < kComponentCount; ++i) {
        report.weightsByComponent[i] = byComponent[i].value();
        overflow += byComponent[i];
    }
    report.weights = weights.value();
    report.attention = attention.value();
    report.state = state.value();
    const Checked perToken = weights + attention + state;
    report.perToken = perToken.value();
    report.prefill = prefill;
    report.prefillAttention = prefillAttention;
    report.overflow = overflow.overflowed() || perToken.overflowed();

    report.trainingTokens = training.tokens;
    report.recompute = training.recompute;
    const auto trainingFlops = [&](double tokens) {
        if (S == 0) {
            return 0.0;
        }
        const double recomputed = training.recompute == Recompute::Full        ? prefill
                                  : training.recompute == Recompute::Selective ? prefillAttention
                                                                               : 0.0;
        return tokens / asDouble(S) * (3 * prefill + recomputed);
    };
    report.trainingFlops = trainingFlops(asDouble(training.tokens));
    if (S > 0) {
        const double attentionPasses = training.recompute == Recompute::None ? 3 : 4;
        report.trainingAttention = asDouble(training.tokens) / asDouble(S) * attentionPasses * prefillAttention;
    }
    report.sixND = 3 * asDouble(report.weights) * asDouble(training.tokens);
    const Checked chinchilla = Checked(20) * Checked(totalParams);
    report.chinchillaTokens = chinchilla.value();
    report.chinchillaFlops = trainingFlops(asDouble(report.chinchillaTokens));
    const double rate = asDouble(training.gpus) * training.peakFlops * training.mfu;
    report.trainingSeconds = rate > 0 ? report.trainingFlops / rate : 0;
    return report;
}

std::vector<std::uint64_t> flopsCurvePositions(const ComputeReport& report, std::uint64_t maxPosition,
                                               std::uint64_t current) {
    std::vector<std::uint64_t> positions;
    maxPosition = std::max<std::uint64_t>(maxPosition, 1);
    constexpr int kPointsPerOctave = 4;
    for (int step = 0; step <= 64 * kPointsPerOctave; ++step) {
        const double value = std::round(std::exp2(static_cast<double>(step) / kPointsPerOctave));
        if (value > static_cast<double>(maxPosition)) {
            break;
        }
        positions.push_back(static_cast<std::uint64_t>(value));
    }
    positions.push_back(maxPosition);
    const auto add = [&](std::uint64_t position) {
        if (position > 0 && position <= maxPosition) {
            positions.push_back(position);
        }
    };
    // A chunk's last token sees the whole chunk and the next one sees itself alone: the first few
    // edges are drawn exact, later ones fall between the points.
    constexpr std::uint64_t kChunkEdges = 4;
    for (const LayerKindCompute& kind : report.kinds) {
        if (kind.perKey == 0) {
            continue;
        }
        if (kind.mask.kind == MaskKind::SlidingWindow || kind.mask.kind == MaskKind::LocalWindow) {
            add(kind.mask.span);
        }
        if (kind.mask.kind == MaskKind::Chunked && kind.mask.span > 0) {
            for (std::uint64_t edge = 1; edge <= kChunkEdges && kind.mask.span <= maxPosition / edge; ++edge) {
                add(edge * kind.mask.span);
                add(edge * kind.mask.span + 1);
            }
        }
        add(kind.keyLimit);
    }
    add(current);
    std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
    return positions;
}

std::vector<TokenFlops> flopsPerTokenCurve(const ComputeReport& report, const std::vector<std::uint64_t>& positions) {
    std::vector<TokenFlops> curve;
    curve.reserve(positions.size());
    for (std::uint64_t position : positions) {
        TokenFlops point;
        point.position = position;
        point.weights = asDouble(report.weights);
        point.state = asDouble(report.state);
        Checked causal;
        double averaged = 0;
        for (const LayerKindCompute& kind : report.kinds) {
            if (!runsPerToken(report, kind)) {
                continue;
            }
            if (kind.kind.causal) {
                causal += dim(kind.layers) * causalLayerAttention(kind, position, report.sourceTokens);
            } else {
                averaged += averagedAttention(kind, position);
            }
        }
        point.attention = asDouble(causal.value()) + averaged;
        point.total = point.weights + point.attention + point.state;
        curve.push_back(point);
    }
    return curve;
}

std::vector<FlopsPart> flopsByComponent(const ComputeReport& report) {
    std::vector<FlopsPart> parts;
    for (std::size_t i = 0; i < kComponentCount; ++i) {
        const auto component = static_cast<Component>(i);
        if (report.weightsByComponent[i] == 0) {
            continue;
        }
        // "Attention" alone would read as the scores: these are its projections.
        std::string name =
            component == Component::Attention ? "Attention projections" : std::string(toString(component));
        parts.push_back({std::move(name), FlopsKind::Weights, component, report.weightsByComponent[i]});
    }
    if (report.attention > 0) {
        parts.push_back({"Attention scores and values", FlopsKind::Attention, Component::Attention, report.attention});
    }
    if (report.state > 0) {
        parts.push_back({"Recurrent states", FlopsKind::State, Component::Mixer, report.state});
    }
    return parts;
}

std::vector<KindFlops> flopsByLayerKind(const ModelConfig& config, const ComputeReport& report) {
    std::vector<KindFlops> kinds;
    Checked inLayers;
    for (const LayerKindCompute& kind : report.kinds) {
        if (!runsPerToken(report, kind)) {
            continue;
        }
        KindFlops flops;
        flops.name = layerKindName(config, kind.kind);
        flops.layers = kind.layers;
        const Checked layers = dim(kind.layers);
        const Checked weights = (Checked(kind.mixerWeights) + Checked(kind.ffnWeights)) * layers;
        inLayers += weights;
        flops.weights = weights.value();
        flops.attention = kind.kind.causal
                              ? (layers * causalLayerAttention(kind, report.context, report.sourceTokens)).value()
                              : roundedCount(averagedAttention(kind, report.context)).value();
        flops.state = (Checked(kind.statePerToken) * layers).value();
        flops.total = (Checked(flops.weights) + Checked(flops.attention) + Checked(flops.state)).value();
        kinds.push_back(std::move(flops));
    }
    const std::uint64_t outside = report.weights > inLayers.value() ? report.weights - inLayers.value() : 0;
    if (outside > 0) {
        KindFlops flops;
        flops.name = "Outside the layers";
        flops.outside = true;
        flops.weights = outside;
        flops.total = outside;
        kinds.push_back(std::move(flops));
    }
    return kinds;
}

} // namespace archplay::core
