// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/design/TargetSearch.h"

#include "core/io/ConfigJson.h"
#include "core/io/Presets.h"
#include "core/report/ReportJson.h"
#include "core/scenario/GpuFit.h"
#include "core/util/Checked.h"
#include "core/util/Format.h"
#include "core/validate/Validation.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace archplay::core {
namespace {

void error(Diagnostics& diagnostics, std::string field, std::string message) {
    diagnostics.push_back({Severity::Error, std::move(field), std::move(message)});
}

// ---- the figures composed --------------------------------------------------------------------

/// The figures a search composes, each linear in the number of layers of each kind.
struct Figures {
    Checked total, active, kvPerToken, kvScenario, weightBytes, flopsPerToken;

    template <typename Op> static Figures apply(const Figures& a, const Figures& b, Op op) {
        return {op(a.total, b.total),           op(a.active, b.active),           op(a.kvPerToken, b.kvPerToken),
                op(a.kvScenario, b.kvScenario), op(a.weightBytes, b.weightBytes), op(a.flopsPerToken, b.flopsPerToken)};
    }
    friend Figures operator+(const Figures& a, const Figures& b) {
        return apply(a, b, [](Checked x, Checked y) { return x + y; });
    }
    friend Figures operator-(const Figures& a, const Figures& b) {
        return apply(a, b, [](Checked x, Checked y) { return x - y; });
    }
    Figures times(std::int64_t count) const {
        const Checked n = dim(count);
        return {total * n, active * n, kvPerToken * n, kvScenario * n, weightBytes * n, flopsPerToken * n};
    }
    bool overflowed() const {
        return total.overflowed() || active.overflowed() || kvPerToken.overflowed() || kvScenario.overflowed() ||
               weightBytes.overflowed() || flopsPerToken.overflowed();
    }
};

/// The figures of one analysis; nullopt (with the first error) when it is invalid or a figure is refused.
std::optional<Figures> figuresOf(const Analysis& analysis, Diagnostic& reason) {
    if (!analysis.valid) {
        for (const Diagnostic& d : analysis.diagnostics) {
            if (d.severity == Severity::Error) {
                reason = d;
                break;
            }
        }
        return std::nullopt;
    }
    if (analysis.params.overflow || analysis.kv.overflow || analysis.weights.overflow || !analysis.costsValid ||
        !analysis.config.exact()) {
        reason = {Severity::Warning, "design_space", "a figure exceeds 2^64 - 1"};
        return std::nullopt;
    }
    return Figures{analysis.params.total,  analysis.params.active, analysis.kv.bytesPerToken,
                   analysis.kv.totalBytes, analysis.weightBytes,   analysis.compute.perToken};
}

std::optional<Figures> figuresOf(const DesignShape& shape, const Scenario& scenario, Diagnostic& reason) {
    return figuresOf(analyze(designConfig(shape), scenario), reason);
}

// ---- the rules -------------------------------------------------------------------------------

constexpr std::int64_t kTensorParallel = 8;

/// Applies every rule to a design; `sink(rule, penalty, text)` receives each broken one. The
/// text is a callable so that the search's inner loop formats nothing.
template <typename Sink>
void applyRules(const DesignShape& s, std::uint64_t params, std::uint64_t activeParams, Sink&& sink) {
    if (s.hiddenSize % 128 != 0) {
        sink(DesignRule::HiddenMultiple, 1.0,
             [&] { return fmt::format("hidden_size {} is not a multiple of 128", s.hiddenSize); });
    }
    const bool latent = s.kvLoraRank > 0;
    const bool kvSplits = latent || s.numKvHeads % kTensorParallel == 0 || kTensorParallel % s.numKvHeads == 0;
    if (s.numHeads % kTensorParallel != 0 || !kvSplits) {
        sink(DesignRule::TensorParallel, 1.0, [&] {
            return s.numHeads % kTensorParallel != 0
                       ? fmt::format("{} query heads do not split over 8 GPUs", s.numHeads)
                       : fmt::format("{} KV heads neither split over nor replicate on 8 GPUs", s.numKvHeads);
        });
    }
    if (!latent && s.numKvHeads > 0) {
        const double group = static_cast<double>(s.numHeads) / static_cast<double>(s.numKvHeads);
        const double nearest = std::clamp(group, 4.0, 8.0);
        if (group != nearest) {
            sink(DesignRule::GqaGroup, 0.5 * std::abs(std::log2(group / nearest)),
                 [&] { return fmt::format("{:g} query heads per KV head, published GQA uses 4 to 8", group); });
        }
    }
    if (s.numExperts == 0 || s.denseFirstLayers > 0) {
        const double ratio = static_cast<double>(s.intermediateSize) / static_cast<double>(s.hiddenSize);
        const double nearest = std::clamp(ratio, 2.6, 3.6);
        double penalty = ratio != nearest ? 2.0 * std::abs(std::log(ratio / nearest)) : 0.0;
        if (s.intermediateSize % 128 != 0) {
            penalty += 0.5;
        }
        if (penalty > 0) {
            sink(DesignRule::FfnRatio, penalty, [&] {
                return fmt::format("FFN {} is {:.2f} x hidden{}, published 2.6 to 3.6 (8/3 to 3.5) in multiples of 128",
                                   s.intermediateSize, ratio,
                                   s.intermediateSize % 128 != 0 ? " and not a multiple of 128" : "");
            });
        }
    }
    const double aspect = static_cast<double>(s.hiddenSize) / static_cast<double>(s.layers);
    const double reference =
        depthWidthReference().aspect(static_cast<double>(s.numExperts > 0 ? activeParams : params));
    if (reference > 0) {
        const double off = std::abs(std::log(aspect / reference));
        if (off > std::log(1.25)) {
            sink(DesignRule::DepthWidth, 2.0 * (off - std::log(1.25)), [&] {
                return fmt::format("hidden / layers {:.0f}, published models of this size about {:.0f}", aspect,
                                   reference);
            });
        }
    }
    if (s.headDim != 128) {
        sink(DesignRule::HeadDim, 0.25,
             [&] { return fmt::format("head_dim {}, most published decoders use 128", s.headDim); });
    }
    if (s.tiedEmbeddings && params > 5'000'000'000) {
        sink(DesignRule::Embeddings, 0.5,
             [] { return std::string("tied embeddings above 5B parameters; published models untie them"); });
    } else if (!s.tiedEmbeddings && params < 2'000'000'000) {
        sink(DesignRule::Embeddings, 0.25,
             [] { return std::string("untied embeddings below 2B parameters; published models tie them"); });
    }
    if (s.numExperts > 0 && (s.numExperts % 8 != 0 || s.topK * 4 > s.numExperts)) {
        sink(DesignRule::Experts, 0.5, [&] {
            return s.numExperts % 8 != 0 ? fmt::format("{} experts do not split over 8 GPUs", s.numExperts)
                                         : fmt::format("top-{} of {} experts: published MoE route to at most a quarter",
                                                       s.topK, s.numExperts);
        });
    }
}

double penaltySum(const DesignShape& shape, std::uint64_t params, std::uint64_t activeParams) {
    double sum = 0;
    applyRules(shape, params, activeParams, [&](DesignRule, double penalty, auto&&) { sum += penalty; });
    return sum;
}

// ---- validation ------------------------------------------------------------------------------

/// A size the space may hold: positive and no larger than validate() accepts.
void checkSize(Diagnostics& diagnostics, const std::string& field, std::int64_t value, const char* what = "a value") {
    if (value <= 0) {
        error(diagnostics, field, fmt::format("{} must be positive, not {}", what, value));
    } else if (value > kMaxDimension) {
        error(diagnostics, field, fmt::format("{} {} is above the largest size, 2^40", what, value));
    }
}

void checkList(Diagnostics& diagnostics, const std::string& field, const std::vector<std::int64_t>& values,
               bool zeroAllowed = false) {
    if (values.empty()) {
        error(diagnostics, field, "the list of values is empty");
    }
    for (const std::int64_t value : values) {
        if (!(zeroAllowed && value == 0)) {
            checkSize(diagnostics, field, value);
        }
    }
    if (std::set<std::int64_t>(values.begin(), values.end()).size() != values.size()) {
        error(diagnostics, field, "the list repeats a value");
    }
}

void checkRange(Diagnostics& diagnostics, const std::string& field, const DesignRange& range) {
    if (!range.values.empty()) {
        checkList(diagnostics, field, range.values);
        return;
    }
    const std::size_t before = diagnostics.size();
    checkSize(diagnostics, field, range.min, "the range minimum");
    checkSize(diagnostics, field, range.max, "the range maximum");
    if (range.step <= 0) {
        error(diagnostics, field, fmt::format("the range step must be positive, not {}", range.step));
    }
    if (diagnostics.size() == before && range.min > range.max) {
        error(diagnostics, field, fmt::format("the range minimum {} is above its maximum {}", range.min, range.max));
    }
}

void checkFractions(Diagnostics& diagnostics, const std::string& field, const std::vector<double>& values) {
    if (values.empty()) {
        error(diagnostics, field, "the list of values is empty");
    }
    for (const double value : values) {
        if (!std::isfinite(value) || value <= 0 || value > 64) {
            error(diagnostics, field, fmt::format("a value must be above 0 and at most 64, not {}", value));
        }
    }
}

/// Errors in the dense dimensions of a space, each naming its config.json field.
void checkDenseSpace(Diagnostics& diagnostics, const TargetSpace& space) {
    checkRange(diagnostics, "num_hidden_layers", space.layers);
    checkRange(diagnostics, "hidden_size", space.hiddenSize);
    checkList(diagnostics, "head_dim", space.headDims);
    checkList(diagnostics, "num_key_value_heads", space.kvHeads);
    checkList(diagnostics, "vocab_size", space.vocabSizes);
    if (space.ffnMultipliers.empty()) {
        error(diagnostics, "ffn_dim_multiplier", "the list of values is empty");
    }
    for (const double multiplier : space.ffnMultipliers) {
        if (!std::isfinite(multiplier) || multiplier <= 0) {
            error(diagnostics, "ffn_dim_multiplier", fmt::format("a multiplier must be positive, not {}", multiplier));
        }
    }
    checkSize(diagnostics, "multiple_of", space.ffnMultiple, "the FFN width multiple");
    checkSize(diagnostics, "max_position_embeddings", space.maxPositions, "the context length");
    if (space.tiedEmbeddings.empty()) {
        error(diagnostics, "tie_word_embeddings", "the list of values is empty");
    } else if (std::set<bool>(space.tiedEmbeddings.begin(), space.tiedEmbeddings.end()).size() !=
               space.tiedEmbeddings.size()) {
        error(diagnostics, "tie_word_embeddings", "the list repeats a value");
    }
}

/// Errors in the targets: counts, tolerance, budgets, aspect bounds, number of candidates.
void checkTargets(Diagnostics& diagnostics, const TargetSpace& space, const SearchTargets& targets) {
    if (targets.params == 0) {
        error(diagnostics, "target_params", "the target parameter count must be positive");
    }
    if (!std::isfinite(targets.tolerance) || targets.tolerance < 0 || targets.tolerance > 1) {
        error(diagnostics, "tolerance",
              fmt::format("the tolerance is a fraction from 0 to 1, not {}", targets.tolerance));
    }
    if (targets.maxKvBytesPerToken && *targets.maxKvBytesPerToken == 0) {
        error(diagnostics, "max_kv_bytes_per_token", "the KV budget per token must be positive");
    }
    for (const std::optional<double>& aspect : {targets.minAspect, targets.maxAspect}) {
        if (aspect && (!std::isfinite(*aspect) || *aspect <= 0)) {
            error(diagnostics, "aspect", fmt::format("a width-per-layer bound must be positive, not {}", *aspect));
        }
    }
    if (targets.minAspect && targets.maxAspect && *targets.minAspect > *targets.maxAspect) {
        error(diagnostics, "aspect",
              fmt::format("the least width per layer {} is above the most {}", *targets.minAspect, *targets.maxAspect));
    }
    if (targets.top == 0) {
        error(diagnostics, "top", "at least one candidate must be asked for");
    }
    if (targets.activeParams && *targets.activeParams == 0) {
        error(diagnostics, "active_params", "the active parameter target must be positive");
    }
    if (targets.activeParams && !(space.moe || space.mla)) {
        error(diagnostics, "active_params", "an active parameter target needs a mixture-of-experts space");
    }
    if (targets.maxKvBytesScenario && *targets.maxKvBytesScenario == 0) {
        error(diagnostics, "max_kv_bytes", "the KV budget must be positive");
    }
    if (targets.maxFlopsPerToken && *targets.maxFlopsPerToken == 0) {
        error(diagnostics, "max_flops_per_token", "the FLOPs budget must be positive");
    }
    if (targets.scenario.gpuCount == 0) {
        error(diagnostics, "gpus", "the number of GPUs must be positive");
    }
    if (formatInfo(targets.scenario.weightFormat).id.find("_k_") != std::string_view::npos) {
        error(diagnostics, "weight_format",
              "llama.cpp's _K_M mixes give some layers more bits: their bytes are not linear in depth");
    }
}

/// The space's size in shapes (each analyzed once) and in candidates (shapes x depths x dense-first
/// counts x embeddings), each factor as the search enumerates it.
struct SpaceSize {
    Checked shapes;
    Checked candidates;
};

SpaceSize spaceSizeOf(const TargetSpace& space) {
    Checked attention = Checked(space.kvHeads.size()) + (space.multiHead ? 1 : 0);
    if (space.mla) {
        attention = Checked(space.kvLoraRanks.size()) * space.qLoraRanks.size();
    }
    Checked shapes = Checked(space.hiddenSize.size()) * space.headDims.size() * attention * space.ffnMultipliers.size();
    Checked perShape = Checked(space.layers.size()) * space.vocabSizes.size() * space.tiedEmbeddings.size();
    if (space.moe || space.mla) {
        shapes = shapes * space.experts.size() * space.topK.size() * space.expertWidthRatios.size() *
                 (space.mla ? space.sharedExperts.size() : 1);
        perShape = perShape * space.denseFirstLayers.size();
    }
    return {shapes, shapes * perShape};
}

// ---- the search ------------------------------------------------------------------------------

/// A candidate while the search runs: no text, no analysis.
struct Found {
    DesignShape shape;
    Figures figures;
    std::uint64_t distance = 0;
    double plausibility = 0;
    double score = 0;
};

/// The order of SearchTargets::rank, ties broken by the shape so that a search is deterministic.
struct RanksBefore {
    SearchRank rank;
    bool operator()(const Found& a, const Found& b) const {
        auto key = [this](const Found& f) {
            const DesignShape& s = f.shape;
            return std::make_tuple(rank == SearchRank::Rules ? f.score : 0.0, f.distance, f.figures.kvPerToken.value(),
                                   s.layers, s.hiddenSize, s.headDim, s.numKvHeads, s.intermediateSize, s.vocabSize,
                                   s.tiedEmbeddings, s.numExperts, s.topK, s.expertIntermediateSize, s.sharedExperts,
                                   s.denseFirstLayers, s.kvLoraRank, s.qLoraRank);
        };
        return key(a) < key(b);
    }
};

std::uint64_t absDiff(std::uint64_t a, std::uint64_t b) {
    return a > b ? a - b : b - a;
}

/// The largest accepted |count - target|: floor(target x tolerance).
std::uint64_t acceptedDistance(std::uint64_t target, double tolerance) {
    return static_cast<std::uint64_t>(std::floor(static_cast<long double>(target) * tolerance));
}

class Search {
public:
    Search(const TargetSpace& space, const SearchTargets& targets)
        : m_space(space)
        , m_targets(targets)
        , m_depths(space.layers.expand())
        , m_gpuSize(memorySizeOf(targets.scenario.gpu))
        , m_keep(targets.fitTraining ? targets.top * 8 : targets.top)
        , m_ranksBefore{targets.rank}
        , m_accepted(acceptedDistance(targets.params, targets.tolerance))
        , m_acceptedActive(targets.activeParams ? acceptedDistance(*targets.activeParams, targets.tolerance) : 0) {
        m_shape.maxPositions = space.maxPositions;
        m_shape.vocabSize = space.vocabSizes.front();
        m_shape.tiedEmbeddings = space.tiedEmbeddings.front();
    }

    void run() {
        const std::vector<std::int64_t> widths = m_space.hiddenSize.expand();
        for (std::size_t i = 0; i < widths.size(); ++i) {
            if (m_targets.progress &&
                !m_targets.progress(static_cast<double>(i) / static_cast<double>(widths.size()))) {
                m_stoppedAt = static_cast<double>(i) / static_cast<double>(widths.size());
                return;
            }
            const std::int64_t hidden = widths[i];
            m_shape.hiddenSize = hidden;
            for (const std::int64_t headDim : m_space.headDims) {
                if (hidden % headDim != 0) {
                    skip("head_dim", fmt::format("hidden_size {} is not a multiple of head_dim {}", hidden, headDim));
                    continue;
                }
                m_shape.headDim = headDim;
                m_shape.numHeads = hidden / headDim;
                searchAttention();
            }
        }
    }

    void finish(TargetSearchResult& result) {
        std::sort_heap(m_heap.begin(), m_heap.end(), m_ranksBefore);
        result.evaluated = m_evaluated;
        result.matched = m_matched;
        for (const Found& found : m_heap) {
            if (result.candidates.size() == m_targets.top) {
                break;
            }
            std::optional<TargetCandidate> candidate = complete(found, result.diagnostics);
            if (candidate) {
                result.candidates.push_back(std::move(*candidate));
            }
        }
        if (m_stoppedAt) {
            result.diagnostics.push_back(
                {Severity::Warning, "design_space",
                 fmt::format("the search was stopped after {:.0f}% of the widths", 100 * *m_stoppedAt)});
        }
        for (const auto& [field, skipped] : m_skipped) {
            result.diagnostics.push_back(
                {Severity::Warning, field,
                 fmt::format("{} shapes skipped: {}", withThousands(skipped.shapes), skipped.reason)});
        }
    }

private:
    void searchAttention() {
        if (m_space.mla) {
            m_shape.numKvHeads = m_shape.numHeads;
            for (const std::int64_t kvLora : m_space.kvLoraRanks) {
                m_shape.kvLoraRank = kvLora;
                for (const std::int64_t qLora : m_space.qLoraRanks) {
                    m_shape.qLoraRank = qLora;
                    searchFfn();
                }
            }
            return;
        }
        std::vector<std::int64_t> kvHeads = m_space.kvHeads;
        if (m_space.multiHead && std::find(kvHeads.begin(), kvHeads.end(), m_shape.numHeads) == kvHeads.end()) {
            kvHeads.push_back(m_shape.numHeads);
        }
        for (const std::int64_t kv : kvHeads) {
            if (m_shape.numHeads % kv != 0) {
                skip("num_key_value_heads",
                     fmt::format("{} KV heads do not divide {} query heads", kv, m_shape.numHeads));
                continue;
            }
            m_shape.numKvHeads = kv;
            searchFfn();
        }
    }

    void searchFfn() {
        const bool moe = m_space.moe || m_space.mla;
        const bool anyDense =
            !moe || *std::max_element(m_space.denseFirstLayers.begin(), m_space.denseFirstLayers.end()) > 0;
        std::vector<std::int64_t> widths;
        for (const double multiplier : m_space.ffnMultipliers) {
            const std::int64_t width = llamaFfnWidth(m_shape.hiddenSize, multiplier, m_space.ffnMultiple);
            if (width <= 0) {
                skip("ffn_dim_multiplier", fmt::format("ffn_dim_multiplier {} gives no FFN width", multiplier));
            } else if (std::find(widths.begin(), widths.end(), width) != widths.end()) {
                skip("ffn_dim_multiplier",
                     fmt::format("ffn_dim_multiplier {} gives the FFN width {} again", multiplier, width));
            } else {
                widths.push_back(width);
            }
            if (!anyDense) {
                break; // no layer has a dense FFN: one width is enough for the config
            }
        }
        for (const std::int64_t width : widths) {
            m_shape.intermediateSize = width;
            if (!moe) {
                evaluateLayerShape();
                continue;
            }
            for (const std::int64_t experts : m_space.experts) {
                m_shape.numExperts = experts;
                for (const std::int64_t topK : m_space.topK) {
                    if (topK > experts) {
                        skip("num_experts_per_tok",
                             fmt::format("top-{} of {} experts: more than there are", topK, experts));
                        continue;
                    }
                    m_shape.topK = topK;
                    for (const double ratio : m_space.expertWidthRatios) {
                        const double raw = std::ceil(ratio * static_cast<double>(m_shape.hiddenSize) / 128.0) * 128.0;
                        m_shape.expertIntermediateSize = static_cast<std::int64_t>(raw);
                        for (const std::int64_t shared :
                             m_space.mla ? m_space.sharedExperts : std::vector<std::int64_t>{0}) {
                            m_shape.sharedExperts = shared;
                            evaluateLayerShape();
                        }
                    }
                }
            }
        }
    }

    /// Passes over the current shape, counted under the field that rules it out with the first reason.
    void skip(const std::string& field, std::string reason) {
        Skipped& skipped = m_skipped[field];
        if (skipped.shapes++ == 0) {
            skipped.reason = std::move(reason);
        }
    }

    /// The outer part (embeddings, final norm, LM head) for a width, vocabulary and tying: the
    /// analysis of a 1-layer config minus its layer. Kept per (family, width, vocabulary, tying).
    std::optional<Figures> outer(const Figures& oneLayerLayer, bool moeLayer) {
        const auto key = std::make_tuple(static_cast<int>(designFamily(m_shape)), m_shape.hiddenSize, m_shape.vocabSize,
                                         m_shape.tiedEmbeddings, moeLayer);
        const auto it = m_outer.find(key);
        if (it != m_outer.end()) {
            return it->second;
        }
        DesignShape one = m_shape;
        one.layers = 1;
        one.denseFirstLayers = 0;
        Diagnostic reason;
        const std::optional<Figures> figures = figuresOf(one, m_targets.scenario, reason);
        if (!figures) {
            return std::nullopt;
        }
        const Figures rest = *figures - oneLayerLayer;
        if (rest.overflowed()) {
            return std::nullopt;
        }
        m_outer.emplace(key, rest);
        return rest;
    }

    /// The figures of one layer of the current shape: the MoE (or only) layer and the dense-first
    /// layer. Once the outer part of the width is known, each is a 1-layer analysis minus it;
    /// before, the 1- and 2-layer configs give both (dense: C - A; MoE: C - B and C - A, where A
    /// is 1 MoE layer, B 1 dense layer and C 1 dense + 1 MoE layer).
    bool layerFigures(Figures& mainLayer, Figures& denseLayer, Diagnostic& reason) {
        const bool moe = m_shape.numExperts > 0;
        DesignShape probe = m_shape;
        probe.vocabSize = m_space.vocabSizes.front();
        probe.tiedEmbeddings = m_space.tiedEmbeddings.front();
        const auto key = std::make_tuple(static_cast<int>(designFamily(probe)), probe.hiddenSize, probe.vocabSize,
                                         probe.tiedEmbeddings, moe);
        probe.layers = 1;
        probe.denseFirstLayers = 0;
        const std::optional<Figures> a = figuresOf(probe, m_targets.scenario, reason);
        probe.denseFirstLayers = 1;
        const std::optional<Figures> b = a && moe ? figuresOf(probe, m_targets.scenario, reason) : a;
        if (!a || !b) {
            return false;
        }
        const auto known = m_outer.find(key);
        if (known != m_outer.end()) {
            mainLayer = *a - known->second;
            denseLayer = *b - known->second;
            return !mainLayer.overflowed() && !denseLayer.overflowed();
        }
        probe.layers = 2;
        const std::optional<Figures> c = figuresOf(probe, m_targets.scenario, reason);
        if (!c) {
            return false;
        }
        mainLayer = moe ? *c - *b : *c - *a;
        denseLayer = *c - *a;
        const Figures rest = *a - mainLayer;
        if (mainLayer.overflowed() || denseLayer.overflowed() || rest.overflowed()) {
            return false;
        }
        m_outer.emplace(key, rest);
        return true;
    }

    /// Scans every embedding, dense-first count and depth of the current shape by composition.
    void evaluateLayerShape() {
        const bool moe = m_shape.numExperts > 0;
        Figures mainLayer;
        Figures denseLayer;
        Diagnostic reason{Severity::Warning, "design_space", "a layer's figures could not be composed"};
        if (!layerFigures(mainLayer, denseLayer, reason)) {
            skip(reason.field, reason.message);
            return;
        }
        for (const std::int64_t vocab : m_space.vocabSizes) {
            m_shape.vocabSize = vocab;
            for (const bool tied : m_space.tiedEmbeddings) {
                m_shape.tiedEmbeddings = tied;
                const std::optional<Figures> rest = outer(mainLayer, moe);
                if (!rest) {
                    skip("vocab_size", "the outer part could not be counted");
                    continue;
                }
                if (!moe) {
                    scanDepths(*rest, denseLayer, mainLayer, 0);
                    continue;
                }
                for (const std::int64_t denseFirst : m_space.denseFirstLayers) {
                    scanDepths(*rest, denseLayer, mainLayer, denseFirst);
                }
            }
        }
    }

    void scanDepths(const Figures& rest, const Figures& denseLayer, const Figures& mainLayer, std::int64_t denseFirst) {
        const Figures dense = denseLayer.times(denseFirst);
        const Figures start = rest + dense;
        const std::uint64_t target = m_targets.params;
        for (const std::int64_t layers : m_depths) {
            ++m_evaluated;
            if (denseFirst >= layers && denseFirst > 0) {
                continue; // every layer dense: not a mixture of experts
            }
            const Checked total = start.total + mainLayer.total * dim(layers - denseFirst);
            if (total.overflowed() || absDiff(total.value(), target) > m_accepted) {
                continue;
            }
            offerDepth(start + mainLayer.times(layers - denseFirst), layers, denseFirst);
        }
    }

    /// Tests the remaining targets of one depth and keeps it when it ranks among the best.
    void offerDepth(const Figures& f, std::int64_t layers, std::int64_t denseFirst) {
        if (f.overflowed()) {
            return;
        }
        std::uint64_t distance = absDiff(f.total.value(), m_targets.params);
        double distanceScore = m_accepted > 0 ? static_cast<double>(distance) / static_cast<double>(m_accepted) : 0;
        if (m_targets.activeParams) {
            const std::uint64_t activeDistance = absDiff(f.active.value(), *m_targets.activeParams);
            if (activeDistance > m_acceptedActive) {
                return;
            }
            distance += activeDistance;
            distanceScore +=
                m_acceptedActive > 0 ? static_cast<double>(activeDistance) / static_cast<double>(m_acceptedActive) : 0;
        }
        if ((m_targets.maxKvBytesPerToken && f.kvPerToken.value() > *m_targets.maxKvBytesPerToken) ||
            (m_targets.maxKvBytesScenario && f.kvScenario.value() > *m_targets.maxKvBytesScenario) ||
            (m_targets.maxFlopsPerToken && f.flopsPerToken.value() > *m_targets.maxFlopsPerToken)) {
            return;
        }
        const double aspect = static_cast<double>(m_shape.hiddenSize) / static_cast<double>(layers);
        if ((m_targets.minAspect && aspect < *m_targets.minAspect) ||
            (m_targets.maxAspect && aspect > *m_targets.maxAspect)) {
            return;
        }
        if (m_targets.fitServing &&
            !deviceFit(m_gpuSize, m_targets.scenario.gpuCount, f.weightBytes.value(), f.kvScenario.value()).fits) {
            return;
        }
        ++m_matched;
        Found found{m_shape, f, distance, 0, 0};
        found.shape.layers = layers;
        found.shape.denseFirstLayers = denseFirst;
        found.plausibility = penaltySum(found.shape, f.total.value(), f.active.value());
        found.score = found.plausibility + distanceScore;
        if (m_heap.size() == m_keep) {
            if (!m_ranksBefore(found, m_heap.front())) {
                return;
            }
            std::pop_heap(m_heap.begin(), m_heap.end(), m_ranksBefore);
            m_heap.pop_back();
        }
        m_heap.push_back(found);
        std::push_heap(m_heap.begin(), m_heap.end(), m_ranksBefore);
    }

    /// The full analysis of a kept design, its composed figures checked against it, its penalties in words.
    std::optional<TargetCandidate> complete(const Found& found, Diagnostics& diagnostics) const {
        auto analysis = std::make_shared<const Analysis>(analyze(designConfig(found.shape), m_targets.scenario));
        Diagnostic reason;
        const std::optional<Figures> exact = figuresOf(*analysis, reason);
        const Figures& f = found.figures;
        if (!exact || exact->total != f.total || exact->active != f.active || exact->kvPerToken != f.kvPerToken ||
            exact->kvScenario != f.kvScenario || exact->weightBytes != f.weightBytes ||
            exact->flopsPerToken != f.flopsPerToken) {
            error(diagnostics, "design_space",
                  fmt::format("the composed figures of a {}-layer design differ from its analysis; it is left out",
                              found.shape.layers));
            return std::nullopt;
        }
        if (m_targets.fitTraining &&
            (analysis->trainingGpusNeeded == 0 || analysis->trainingGpusNeeded > m_targets.scenario.gpuCount)) {
            return std::nullopt;
        }
        TargetCandidate candidate;
        candidate.shape = found.shape;
        candidate.params = f.total.value();
        candidate.activeParams = f.active.value();
        candidate.kvBytesPerToken = f.kvPerToken.value();
        candidate.kvBytesScenario = f.kvScenario.value();
        candidate.weightBytes = f.weightBytes.value();
        candidate.flopsPerToken = f.flopsPerToken.value();
        candidate.distance = found.distance;
        candidate.plausibility = found.plausibility;
        candidate.score = found.score;
        candidate.penalties = designPenalties(found.shape, candidate.params, candidate.activeParams);
        candidate.analysis = std::move(analysis);
        return candidate;
    }

    const TargetSpace& m_space;
    const SearchTargets& m_targets;
    const std::vector<std::int64_t> m_depths;
    const GpuMemorySize m_gpuSize;
    const std::size_t m_keep;
    const RanksBefore m_ranksBefore;
    const std::uint64_t m_accepted;       ///< largest accepted |total - target|
    const std::uint64_t m_acceptedActive; ///< largest accepted |active - active target|
    DesignShape m_shape;
    std::map<std::tuple<int, std::int64_t, std::int64_t, bool, bool>, Figures> m_outer;
    std::vector<Found> m_heap;
    std::uint64_t m_evaluated = 0;
    std::uint64_t m_matched = 0;
    struct Skipped {
        std::uint64_t shapes = 0;
        std::string reason; ///< the first shape's
    };
    std::map<std::string, Skipped> m_skipped; ///< shapes passed over, by the field that rules them out
    std::optional<double> m_stoppedAt;        ///< the fraction of widths searched when progress() said stop
};

} // namespace

double DepthWidthCurve::aspect(double params) const {
    if (models == 0 || params <= 0) {
        return 0;
    }
    return std::exp(intercept + slope * std::log(params));
}

const DepthWidthCurve& depthWidthReference() {
    static const DepthWidthCurve curve = [] {
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        std::size_t n = 0;
        for (const Preset& preset : builtinPresets()) {
            const std::optional<ModelConfig> config = presetConfig(preset);
            if (!config || config->architecture != ArchitectureKind::DecoderOnly || config->ffnKind != FfnKind::Gated ||
                !config->mixers.empty() || config->latent || config->numLayers <= 0) {
                continue;
            }
            const Analysis analysis = analyze(*config, Scenario{});
            if (!analysis.valid || analysis.params.total == 0) {
                continue;
            }
            const double x = std::log(static_cast<double>(analysis.params.total));
            const double y = std::log(static_cast<double>(config->hiddenSize) / static_cast<double>(config->numLayers));
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
            ++n;
        }
        DepthWidthCurve fit;
        const double denominator = static_cast<double>(n) * sxx - sx * sx;
        if (n >= 2 && denominator > 0) {
            fit.slope = (static_cast<double>(n) * sxy - sx * sy) / denominator;
            fit.intercept = (sy - fit.slope * sx) / static_cast<double>(n);
            fit.models = n;
        }
        return fit;
    }();
    return curve;
}

Diagnostics validateTargetSearch(const TargetSpace& space, const SearchTargets& targets) {
    Diagnostics diagnostics;
    checkDenseSpace(diagnostics, space);
    checkTargets(diagnostics, space, targets);
    for (const std::int64_t headDim : space.headDims) {
        if (headDim % 2 != 0 && space.mla) {
            error(diagnostics, "head_dim", "latent attention needs an even head_dim (the rotary half)");
        }
    }
    if (space.moe || space.mla) {
        checkList(diagnostics, "n_routed_experts", space.experts);
        checkList(diagnostics, "num_experts_per_tok", space.topK);
        checkList(diagnostics, "first_k_dense_replace", space.denseFirstLayers, true);
        checkFractions(diagnostics, "moe_intermediate_size", space.expertWidthRatios);
        if (space.mla) {
            checkList(diagnostics, "n_shared_experts", space.sharedExperts, true);
            checkList(diagnostics, "kv_lora_rank", space.kvLoraRanks);
            checkList(diagnostics, "q_lora_rank", space.qLoraRanks, true);
        }
    }
    if (!hasErrors(diagnostics)) {
        const SpaceSize size = spaceSizeOf(space);
        auto count = [](Checked value) {
            return value.overflowed() ? std::string("over 2^64") : withThousands(value.value());
        };
        if (size.candidates.overflowed() || size.candidates.value() > kMaxTargetCandidates) {
            error(diagnostics, "design_space",
                  fmt::format("the space holds {} candidates; at most {} are searched", count(size.candidates),
                              withThousands(kMaxTargetCandidates)));
        } else if (size.shapes.value() > kMaxTargetShapes) {
            error(diagnostics, "design_space",
                  fmt::format("the space holds {} shapes besides depth, dense-first layers and embeddings; at most "
                              "{} are analyzed",
                              count(size.shapes), withThousands(kMaxTargetShapes)));
        }
    }
    return diagnostics;
}

TargetSearchResult searchTargets(const TargetSpace& space, const SearchTargets& targets) {
    TargetSearchResult result;
    result.diagnostics = validateTargetSearch(space, targets);
    if (hasErrors(result.diagnostics)) {
        return result;
    }
    result.spaceSize = spaceSizeOf(space).candidates.value();
    Search search(space, targets);
    search.run();
    search.finish(result);
    const std::vector<bool> front = paretoFront(result.candidates, targets.paretoX, targets.paretoY);
    for (std::size_t i = 0; i < front.size(); ++i) {
        result.candidates[i].pareto = front[i];
    }
    return result;
}

const std::vector<DesignRuleInfo>& designRules() {
    static const std::vector<DesignRuleInfo> rules = {
        {DesignRule::HiddenMultiple, "hidden_multiple", "Width", "hidden_size a multiple of 128"},
        {DesignRule::TensorParallel, "tensor_parallel", "Tensor parallelism",
         "query heads a multiple of 8; KV heads a multiple or a divisor of 8"},
        {DesignRule::GqaGroup, "gqa_group", "GQA group", "4 to 8 query heads per KV head"},
        {DesignRule::FfnRatio, "ffn_ratio", "FFN width", "dense FFN 2.6 to 3.6 x hidden, a multiple of 128"},
        {DesignRule::DepthWidth, "depth_width", "Depth to width",
         "hidden / layers within 25% of the presets' curve (MoE: at the active count)"},
        {DesignRule::HeadDim, "head_dim", "Head size", "head_dim 128"},
        {DesignRule::Embeddings, "embeddings", "Embeddings", "untied above 5B parameters, tied below 2B"},
        {DesignRule::Experts, "experts", "Experts", "routed experts a multiple of 8, top-k at most a quarter of them"},
    };
    return rules;
}

const DesignRuleInfo& ruleInfo(DesignRule rule) {
    return designRules()[static_cast<std::size_t>(rule)];
}

std::vector<SearchAxis> searchAxes() {
    std::vector<SearchAxis> axes = {CandidateFigure::Distance, CandidateFigure::Plausibility, CandidateFigure::Score};
    for (const DesignFigureInfo& info : designFigures()) {
        axes.emplace_back(info.figure);
    }
    return axes;
}

std::vector<RulePenalty> designPenalties(const DesignShape& shape, std::uint64_t params, std::uint64_t activeParams) {
    std::vector<RulePenalty> penalties;
    applyRules(shape, params, activeParams, [&](DesignRule rule, double penalty, auto&& text) {
        penalties.push_back({rule, ruleInfo(rule).key, penalty, text()});
    });
    std::stable_sort(penalties.begin(), penalties.end(),
                     [](const RulePenalty& a, const RulePenalty& b) { return a.penalty > b.penalty; });
    return penalties;
}

SeedDesign seedDesign(const SearchTargets& targets, std::int64_t vocabSize) {
    const double width = std::cbrt(100.0 * static_cast<double>(targets.params) / 12.0);
    DesignShape shape;
    shape.hiddenSize = std::max<std::int64_t>(128, std::llround(width / 128.0) * 128);
    shape.layers = std::max<std::int64_t>(1, std::llround(static_cast<double>(shape.hiddenSize) / 100.0));
    shape.headDim = 128;
    shape.numHeads = shape.hiddenSize / 128;
    shape.numKvHeads = shape.numHeads >= 32 && shape.numHeads % 8 == 0 ? 8 : shape.numHeads;
    shape.intermediateSize = llamaFfnWidth(shape.hiddenSize, 1.0, 256);
    shape.vocabSize = vocabSize;
    shape.tiedEmbeddings = false;
    return {shape, std::make_shared<const Analysis>(analyze(designConfig(shape), targets.scenario))};
}

std::optional<double> axisValue(const TargetCandidate& candidate, const SearchAxis& axis) {
    if (const auto* figure = std::get_if<DesignFigure>(&axis)) {
        return candidate.analysis ? figureValue(*candidate.analysis, *figure) : std::nullopt;
    }
    switch (std::get<CandidateFigure>(axis)) {
    case CandidateFigure::Distance:
        return static_cast<double>(candidate.distance);
    case CandidateFigure::Plausibility:
        return candidate.plausibility;
    case CandidateFigure::Score:
        return candidate.score;
    }
    return std::nullopt;
}

namespace {
struct CandidateFigureInfo {
    CandidateFigure figure;
    std::string_view key;
    std::string_view label;
};
constexpr std::array<CandidateFigureInfo, 3> kCandidateFigures = {{
    {CandidateFigure::Distance, "distance", "Distance to the target"},
    {CandidateFigure::Plausibility, "plausibility", "Rule penalties"},
    {CandidateFigure::Score, "score", "Score (penalties + distance)"},
}};
} // namespace

std::string_view axisKey(const SearchAxis& axis) {
    if (const auto* figure = std::get_if<DesignFigure>(&axis)) {
        return figureInfo(*figure).key;
    }
    return kCandidateFigures[static_cast<std::size_t>(std::get<CandidateFigure>(axis))].key;
}

std::string_view axisLabel(const SearchAxis& axis) {
    if (const auto* figure = std::get_if<DesignFigure>(&axis)) {
        return figureInfo(*figure).label;
    }
    return kCandidateFigures[static_cast<std::size_t>(std::get<CandidateFigure>(axis))].label;
}

bool axisLowerIsBetter(const SearchAxis& axis) {
    if (const auto* figure = std::get_if<DesignFigure>(&axis)) {
        return figureInfo(*figure).lowerIsBetter;
    }
    return true;
}

std::optional<SearchAxis> axisFromKey(std::string_view key) {
    if (const std::optional<DesignFigure> figure = figureFromKey(key)) {
        return SearchAxis(*figure);
    }
    for (const CandidateFigureInfo& info : kCandidateFigures) {
        if (info.key == key) {
            return SearchAxis(info.figure);
        }
    }
    return std::nullopt;
}

std::vector<bool> paretoFront(const std::vector<TargetCandidate>& candidates, const SearchAxis& x,
                              const SearchAxis& y) {
    // Both axes as "lower is better".
    std::vector<std::optional<std::pair<double, double>>> points;
    const double sx = axisLowerIsBetter(x) ? 1.0 : -1.0;
    const double sy = axisLowerIsBetter(y) ? 1.0 : -1.0;
    for (const TargetCandidate& candidate : candidates) {
        const std::optional<double> vx = axisValue(candidate, x);
        const std::optional<double> vy = axisValue(candidate, y);
        points.push_back(vx && vy ? std::optional(std::make_pair(sx * *vx, sy * *vy)) : std::nullopt);
    }
    std::vector<bool> front(candidates.size(), false);
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (!points[i]) {
            continue;
        }
        const double xi = points[i]->first;
        const double yi = points[i]->second;
        front[i] = std::none_of(points.begin(), points.end(), [&](const auto& other) {
            return other && other->first <= xi && other->second <= yi && (other->first < xi || other->second < yi);
        });
    }
    return front;
}

nlohmann::json targetSearchJson(const TargetSearchResult& result, const SearchTargets& targets,
                                const SeedDesign* seed) {
    using nlohmann::json;
    auto optional = [](const auto& value) {
        return value ? json(*value) : json(nullptr);
    };
    auto shapeJson = [](const DesignShape& s) {
        json out = {{"num_hidden_layers", s.layers},
                    {"hidden_size", s.hiddenSize},
                    {"num_attention_heads", s.numHeads},
                    {"num_key_value_heads", s.numKvHeads},
                    {"head_dim", s.headDim},
                    {"intermediate_size", s.intermediateSize},
                    {"vocab_size", s.vocabSize},
                    {"tie_word_embeddings", s.tiedEmbeddings}};
        if (s.numExperts > 0) {
            out["n_routed_experts"] = s.numExperts;
            out["num_experts_per_tok"] = s.topK;
            out["moe_intermediate_size"] = s.expertIntermediateSize;
            out["n_shared_experts"] = s.sharedExperts;
            out["dense_first_layers"] = s.denseFirstLayers;
        }
        if (s.kvLoraRank > 0) {
            out["kv_lora_rank"] = s.kvLoraRank;
            out["q_lora_rank"] = s.qLoraRank > 0 ? json(s.qLoraRank) : json(nullptr);
        }
        return out;
    };
    json candidates = json::array();
    for (const TargetCandidate& c : result.candidates) {
        json penalties = json::array();
        for (const RulePenalty& p : c.penalties) {
            penalties.push_back({{"rule", p.key}, {"penalty", p.penalty}, {"text", p.text}});
        }
        candidates.push_back({{"total", c.params},
                              {"active", c.activeParams},
                              {"kv_bytes_per_token", c.kvBytesPerToken},
                              {"kv_bytes_scenario", c.kvBytesScenario},
                              {"weight_bytes", c.weightBytes},
                              {"flops_per_token", c.flopsPerToken},
                              {"distance", c.distance},
                              {"plausibility", c.plausibility},
                              {"score", c.score},
                              {"penalties", penalties},
                              {"pareto", c.pareto},
                              {"shape", shapeJson(c.shape)},
                              {"config", exportConfig(c.analysis ? c.analysis->config : designConfig(c.shape))}});
    }
    json out = {{"targets",
                 {{"params", targets.params},
                  {"active_params", optional(targets.activeParams)},
                  {"tolerance", targets.tolerance},
                  {"max_kv_bytes_per_token", optional(targets.maxKvBytesPerToken)},
                  {"max_kv_bytes", optional(targets.maxKvBytesScenario)},
                  {"sequence_length", targets.scenario.sequenceLength},
                  {"batch", targets.scenario.batch},
                  {"kv_dtype", std::string(toString(targets.scenario.kvDType))},
                  {"gpu", targets.fitServing || targets.fitTraining ? json(targets.scenario.gpu.id) : json(nullptr)},
                  {"gpus", targets.scenario.gpuCount},
                  {"fit", targets.fitTraining ? "training" : (targets.fitServing ? "serving" : "none")},
                  {"max_flops_per_token", optional(targets.maxFlopsPerToken)},
                  {"pareto_axes", {axisKey(targets.paretoX), axisKey(targets.paretoY)}},
                  {"rank", targets.rank == SearchRank::Rules ? "rules" : "distance"}}},
                {"depth_width_curve",
                 {{"intercept", depthWidthReference().intercept},
                  {"slope", depthWidthReference().slope},
                  {"models", depthWidthReference().models}}},
                {"space_size", result.spaceSize},
                {"evaluated", result.evaluated},
                {"matched", result.matched},
                {"diagnostics", diagnosticsJson(result.diagnostics)},
                {"candidates", candidates}};
    if (seed != nullptr && seed->analysis && seed->analysis->valid) {
        out["seed"] = {{"total", seed->analysis->params.total},
                       {"active", seed->analysis->params.active},
                       {"kv_bytes_per_token", seed->analysis->kv.bytesPerToken},
                       {"shape", shapeJson(seed->shape)},
                       {"config", exportConfig(seed->analysis->config)}};
    }
    return out;
}

} // namespace archplay::core
