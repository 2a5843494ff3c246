// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/design/DesignSearch.h"

#include "core/config/LayerPlan.h"
#include "core/design/TargetSearch.h"
#include "core/io/ConfigJson.h"
#include "core/io/ReportJson.h"
#include "core/params/ParamCount.h"
#include "core/util/Checked.h"
#include "core/util/Format.h"
#include "core/validate/Validation.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

namespace archplay::core {
namespace {

void error(Diagnostics& diagnostics, std::string field, std::string message) {
    diagnostics.push_back({Severity::Error, std::move(field), std::move(message)});
}

/// A size the space may hold: positive and no larger than validate() accepts.
void checkSize(Diagnostics& diagnostics, const std::string& field, std::int64_t value, const char* what) {
    if (value <= 0) {
        error(diagnostics, field, fmt::format("{} must be positive, not {}", what, value));
    } else if (value > kMaxDimension) {
        error(diagnostics, field, fmt::format("{} {} is above the largest size, 2^40", what, value));
    }
}

void checkList(Diagnostics& diagnostics, const std::string& field, const std::vector<std::int64_t>& values) {
    if (values.empty()) {
        error(diagnostics, field, "the list of values is empty");
    }
    for (std::int64_t value : values) {
        checkSize(diagnostics, field, value, "a value");
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

/// Errors in the dimensions of a space, each naming its config.json field.
void checkSpace(Diagnostics& diagnostics, const DesignSpace& space) {
    checkRange(diagnostics, "num_hidden_layers", space.layers);
    checkRange(diagnostics, "hidden_size", space.hiddenSize);
    checkList(diagnostics, "head_dim", space.headDims);
    checkList(diagnostics, "num_key_value_heads", space.kvHeads);
    checkList(diagnostics, "vocab_size", space.vocabSizes);
    if (space.ffnMultipliers.empty()) {
        error(diagnostics, "ffn_dim_multiplier", "the list of values is empty");
    }
    for (double multiplier : space.ffnMultipliers) {
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

/// Errors in the targets: count, tolerance, KV budget, aspect bounds, number of candidates.
void checkTargets(Diagnostics& diagnostics, const DesignTargets& targets) {
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
}

/// An error when a well-formed space holds more than kMaxDesignCandidates or kMaxDesignShapes.
void checkSpaceSize(Diagnostics& diagnostics, const DesignSpace& space) {
    const Checked shapes = Checked(space.hiddenSize.size()) * space.headDims.size() * space.kvHeads.size() *
                           space.ffnMultipliers.size() * space.vocabSizes.size() * space.tiedEmbeddings.size();
    const Checked candidates = shapes * space.layers.size();
    auto count = [](Checked value) {
        return value.overflowed() ? std::string("over 2^64") : withThousands(value.value());
    };
    if (candidates.overflowed() || candidates.value() > kMaxDesignCandidates) {
        error(diagnostics, "design_space",
              fmt::format("the space holds {} candidates; at most {} are searched", count(candidates),
                          withThousands(kMaxDesignCandidates)));
    } else if (shapes.value() > kMaxDesignShapes) {
        error(diagnostics, "design_space",
              fmt::format("the space holds {} shapes besides depth; at most {} are counted", count(shapes),
                          withThousands(kMaxDesignShapes)));
    }
}

/// Parameters and KV bytes per token of a uniform stack of L layers: outer + L x per-layer.
struct LinearCost {
    Checked paramsOuter;
    Checked paramsPerLayer;
    Checked kvOuter;
    Checked kvPerLayer;
};

/// Runs the core's counters on the 1- and 2-layer configs of a shape. The parameter line comes from
/// one count: its per-layer figure and the rest of its total (the count is the costly step, about
/// 10 us); the cache line is read through both configs. nullopt with `reason` set when the config is
/// invalid or a figure overflows.
std::optional<LinearCost> linearCost(DesignShape shape, DType kvDType, Diagnostic& reason) {
    shape.layers = 1;
    const ModelConfig one = designConfig(shape);
    for (const Diagnostic& d : validate(one)) {
        if (d.severity == Severity::Error) {
            reason = d;
            return std::nullopt;
        }
    }
    shape.layers = 2;
    const ModelConfig two = designConfig(shape);
    const ModelPlan planOne = planLayers(one);
    const ModelPlan planTwo = planLayers(two);
    const ParamReport params = countParameters(one, planOne);
    const KvCacheReport kvOne = kvCache(one, planOne, 1, 1, kvDType);
    const KvCacheReport kvTwo = kvCache(two, planTwo, 1, 1, kvDType);

    LinearCost cost;
    if (params.layers.size() == 1) {
        cost.paramsPerLayer = params.layers.front().total;
        cost.paramsOuter = Checked(params.total) - cost.paramsPerLayer;
    }
    cost.kvPerLayer = Checked(kvTwo.bytesPerToken) - kvOne.bytesPerToken;
    cost.kvOuter = Checked(kvOne.bytesPerToken) - cost.kvPerLayer;
    if (params.layers.size() != 1 || params.overflow || kvOne.overflow || kvTwo.overflow ||
        cost.paramsOuter.overflowed() || cost.kvOuter.overflowed()) {
        reason = {Severity::Error, "hidden_size", "a count exceeds 2^64 - 1"};
        return std::nullopt;
    }
    return cost;
}

/// Ranking: nearest the target, then least KV per token, then the smaller shape, so the order is total.
bool ranksBefore(const DesignCandidate& a, const DesignCandidate& b) {
    auto key = [](const DesignCandidate& c) {
        const DesignShape& s = c.shape;
        return std::tie(c.distance, c.kvBytesPerToken, s.layers, s.hiddenSize, s.headDim, s.numKvHeads,
                        s.intermediateSize, s.vocabSize, s.tiedEmbeddings);
    };
    return key(a) < key(b);
}

/// The best `limit` candidates offered, kept as a heap whose front is the worst kept.
class TopCandidates {
public:
    explicit TopCandidates(std::size_t limit)
        : m_limit(limit) {}

    void offer(const DesignCandidate& candidate) {
        if (m_heap.size() == m_limit) {
            if (!ranksBefore(candidate, m_heap.front())) {
                return;
            }
            std::pop_heap(m_heap.begin(), m_heap.end(), ranksBefore);
            m_heap.pop_back();
        }
        m_heap.push_back(candidate);
        std::push_heap(m_heap.begin(), m_heap.end(), ranksBefore);
    }
    std::vector<DesignCandidate> takeSorted() {
        std::sort_heap(m_heap.begin(), m_heap.end(), ranksBefore);
        return std::move(m_heap);
    }

private:
    std::size_t m_limit;
    std::vector<DesignCandidate> m_heap;
};

/// The innermost loop: every depth of one shape, its figures composed from the shape's linear cost
/// and tested against the targets.
struct DepthScan {
    const DesignTargets& targets;
    const std::vector<std::int64_t>& depths;
    std::uint64_t tolerance = 0; ///< largest accepted |params - target|
    TopCandidates best;
    std::uint64_t matched = 0;

    void run(DesignShape shape, double multiplier, const LinearCost& cost) {
        const std::uint64_t target = targets.params;
        for (const std::int64_t layers : depths) {
            const Checked params = cost.paramsOuter + cost.paramsPerLayer * dim(layers);
            if (params.overflowed()) {
                continue;
            }
            const std::uint64_t distance = params.value() > target ? params.value() - target : target - params.value();
            if (distance > tolerance) {
                continue;
            }
            const Checked kvBytes = cost.kvOuter + cost.kvPerLayer * dim(layers);
            if (targets.maxKvBytesPerToken && (kvBytes.overflowed() || kvBytes.value() > *targets.maxKvBytesPerToken)) {
                continue;
            }
            const double aspect = static_cast<double>(shape.hiddenSize) / static_cast<double>(layers);
            if ((targets.minAspect && aspect < *targets.minAspect) ||
                (targets.maxAspect && aspect > *targets.maxAspect)) {
                continue;
            }
            ++matched;
            shape.layers = layers;
            best.offer({shape, multiplier, params.value(), kvBytes.value(), distance});
        }
    }
};

/// Candidates skipped for one reason, reported as one warning.
struct Skips {
    std::uint64_t count = 0;
    std::string field;
    std::string message;

    void add(std::uint64_t candidates) { count += candidates; }
};

/// An FFN width of the space with the first multiplier that gives it.
struct FfnWidth {
    std::int64_t width = 0;
    double multiplier = 1.0;
};

/// One search: loops over the shapes of a valid space (widths, head dims, KV heads, FFN widths,
/// vocabularies, tying), counts each shape once and scans its depths; tallies what it skips.
class ShapeSearch {
public:
    ShapeSearch(const DesignSpace& space, const DesignTargets& targets)
        : m_space(space)
        , m_targets(targets)
        , m_depths(space.layers.expand())
        , m_perShape(m_depths.size())
        , m_perFfn(m_perShape * space.vocabSizes.size() * space.tiedEmbeddings.size())
        , m_perMultiplier(m_perFfn * space.kvHeads.size() * space.headDims.size())
        , m_scan{targets, m_depths, acceptedDistance(targets), TopCandidates(targets.top)} {
        m_shape.maxPositions = space.maxPositions;
    }

    /// Candidates in the whole space: the product of the dimension sizes.
    std::uint64_t spaceSize() const {
        return m_perMultiplier * m_space.ffnMultipliers.size() * m_space.hiddenSize.size();
    }

    void run() {
        for (const std::int64_t hiddenSize : m_space.hiddenSize.expand()) {
            m_shape.hiddenSize = hiddenSize;
            searchHeadDims(distinctFfnWidths(hiddenSize));
        }
    }

    /// Moves the figures, the best candidates and one warning per kind of skip into `result`.
    void finish(DesignSearchResult& result) {
        result.evaluated = m_evaluated;
        result.matched = m_scan.matched;
        result.candidates = m_scan.best.takeSorted();
        for (const Skips* skips : {&m_headDimSkips, &m_kvSkips, &m_repeatSkips, &m_widthSkips, &m_invalidSkips}) {
            result.skipped += skips->count;
            if (skips->count > 0) {
                result.diagnostics.push_back(
                    {Severity::Warning, skips->field,
                     fmt::format("{} candidates skipped: {}", withThousands(skips->count), skips->message)});
            }
        }
    }

private:
    static std::uint64_t acceptedDistance(const DesignTargets& targets) {
        return static_cast<std::uint64_t>(std::floor(static_cast<long double>(targets.params) * targets.tolerance));
    }

    /// The FFN widths of one model width. Multipliers that round to one width are one design; the
    /// first multiplier names it.
    std::vector<FfnWidth> distinctFfnWidths(std::int64_t hiddenSize) {
        std::vector<FfnWidth> widths;
        for (const double multiplier : m_space.ffnMultipliers) {
            const std::int64_t width = llamaFfnWidth(hiddenSize, multiplier, m_space.ffnMultiple);
            if (width == 0) {
                m_widthSkips.add(m_perMultiplier);
            } else if (std::any_of(widths.begin(), widths.end(), [&](const FfnWidth& w) { return w.width == width; })) {
                m_repeatSkips.add(m_perMultiplier);
            } else {
                widths.push_back({width, multiplier});
            }
        }
        return widths;
    }

    void searchHeadDims(const std::vector<FfnWidth>& ffnWidths) {
        const std::uint64_t perKvHeads = m_perFfn * ffnWidths.size();
        const std::uint64_t perHeadDim = perKvHeads * m_space.kvHeads.size();
        for (const std::int64_t headDim : m_space.headDims) {
            if (m_shape.hiddenSize % headDim != 0) {
                m_headDimSkips.add(perHeadDim);
                continue;
            }
            m_shape.headDim = headDim;
            m_shape.numHeads = m_shape.hiddenSize / headDim;
            for (const std::int64_t kvHeads : m_space.kvHeads) {
                if (m_shape.numHeads % kvHeads != 0) {
                    m_kvSkips.add(perKvHeads);
                    continue;
                }
                m_shape.numKvHeads = kvHeads;
                searchFfnAndEmbeddings(ffnWidths);
            }
        }
    }

    void searchFfnAndEmbeddings(const std::vector<FfnWidth>& ffnWidths) {
        for (const FfnWidth& ffn : ffnWidths) {
            m_shape.intermediateSize = ffn.width;
            for (const std::int64_t vocabSize : m_space.vocabSizes) {
                m_shape.vocabSize = vocabSize;
                for (const bool tied : m_space.tiedEmbeddings) {
                    m_shape.tiedEmbeddings = tied;
                    evaluateShape(ffn.multiplier);
                }
            }
        }
    }

    /// Counts the current shape once and scans its depths; an invalid shape skips every depth.
    void evaluateShape(double multiplier) {
        Diagnostic reason;
        const std::optional<LinearCost> cost = linearCost(m_shape, m_targets.kvDType, reason);
        if (!cost) {
            if (m_invalidSkips.count == 0) {
                m_invalidSkips.field = reason.field;
                m_invalidSkips.message = reason.message;
            }
            m_invalidSkips.add(m_perShape);
            return;
        }
        m_evaluated += m_perShape;
        m_scan.run(m_shape, multiplier, *cost);
    }

    const DesignSpace& m_space;
    const DesignTargets& m_targets;
    const std::vector<std::int64_t> m_depths;
    const std::uint64_t m_perShape;      ///< candidates per shape: its depths
    const std::uint64_t m_perFfn;        ///< candidates per FFN width: depths x vocabularies x tying
    const std::uint64_t m_perMultiplier; ///< candidates per multiplier: per FFN width x KV heads x head dims
    DepthScan m_scan;
    DesignShape m_shape;
    std::uint64_t m_evaluated = 0;
    Skips m_headDimSkips{0, "head_dim", "hidden_size is not a multiple of head_dim"};
    Skips m_kvSkips{0, "num_key_value_heads", "num_key_value_heads does not divide the query heads"};
    Skips m_repeatSkips{0, "ffn_dim_multiplier", "the multiplier gives the same FFN width as an earlier one"};
    Skips m_widthSkips{0, "ffn_dim_multiplier", "the FFN width is not positive or exceeds 2^40"};
    Skips m_invalidSkips;
};

} // namespace

std::uint64_t DesignRange::size() const {
    if (!values.empty()) {
        return values.size();
    }
    if (step <= 0 || min > max) {
        return 0;
    }
    return static_cast<std::uint64_t>((max - min) / step) + 1;
}

std::vector<std::int64_t> DesignRange::expand() const {
    if (!values.empty()) {
        return values;
    }
    std::vector<std::int64_t> expanded;
    expanded.reserve(size());
    for (std::uint64_t i = 0; i < size(); ++i) {
        expanded.push_back(min + static_cast<std::int64_t>(i) * step);
    }
    return expanded;
}

std::int64_t llamaFfnWidth(std::int64_t hiddenSize, double multiplier, std::int64_t multipleOf) {
    if (hiddenSize <= 0 || hiddenSize > kMaxDimension || multipleOf <= 0 || multipleOf > kMaxDimension ||
        !std::isfinite(multiplier) || multiplier <= 0) {
        return 0;
    }
    // int(2 * (4 * dim) / 3), then int(ffn_dim_multiplier * hidden_dim), as Llama's Python computes it.
    const std::int64_t base = 8 * hiddenSize / 3;
    const double scaled = std::floor(multiplier * static_cast<double>(base));
    if (scaled > static_cast<double>(kMaxDimension)) {
        return 0;
    }
    const std::int64_t width = static_cast<std::int64_t>(scaled);
    const std::int64_t rounded = (width + multipleOf - 1) / multipleOf * multipleOf;
    return rounded > 0 && rounded <= kMaxDimension ? rounded : 0;
}

ModelConfig designConfig(const DesignShape& shape) {
    if (shape.numExperts > 0 || shape.kvLoraRank > 0) {
        return targetConfig(shape);
    }
    ModelConfig config;
    config.modelType = "llama";
    config.architecture = ArchitectureKind::DecoderOnly;
    config.vocabSize = shape.vocabSize;
    config.hiddenSize = shape.hiddenSize;
    config.numLayers = shape.layers;
    config.numHeads = shape.numHeads;
    config.numKvHeads = shape.numKvHeads;
    config.headDim = shape.headDim;
    config.qBias = config.kBias = config.vBias = config.oBias = false;
    config.slidingPattern = SlidingPattern::None;
    config.ffnKind = FfnKind::Gated;
    config.activation = Activation::Silu;
    config.intermediateSize = shape.intermediateSize;
    config.ffnBias = false;
    config.normKind = NormKind::RmsNorm;
    config.normPlacement = NormPlacement::Pre;
    config.finalNorm = true;
    config.positional = PositionalKind::Rope;
    config.maxPositions = shape.maxPositions;
    config.outputHead = true;
    config.tieWordEmbeddings = shape.tiedEmbeddings;
    return config;
}

Diagnostics validateDesign(const DesignSpace& space, const DesignTargets& targets) {
    Diagnostics diagnostics;
    checkSpace(diagnostics, space);
    checkTargets(diagnostics, targets);
    if (!hasErrors(diagnostics)) {
        checkSpaceSize(diagnostics, space);
    }
    return diagnostics;
}

DesignSearchResult searchDesigns(const DesignSpace& space, const DesignTargets& targets) {
    DesignSearchResult result;
    result.diagnostics = validateDesign(space, targets);
    if (hasErrors(result.diagnostics)) {
        return result;
    }
    ShapeSearch search(space, targets);
    result.spaceSize = search.spaceSize();
    search.run();
    search.finish(result);
    return result;
}

nlohmann::json designSearchJson(const DesignSearchResult& result, const DesignTargets& targets) {
    using nlohmann::json;
    auto optional = [](const auto& value) {
        return value ? json(*value) : json(nullptr);
    };
    json candidates = json::array();
    for (const DesignCandidate& candidate : result.candidates) {
        const DesignShape& shape = candidate.shape;
        candidates.push_back({{"params", candidate.params},
                              {"distance", candidate.distance},
                              {"kv_bytes_per_token", candidate.kvBytesPerToken},
                              {"num_hidden_layers", shape.layers},
                              {"hidden_size", shape.hiddenSize},
                              {"num_attention_heads", shape.numHeads},
                              {"num_key_value_heads", shape.numKvHeads},
                              {"head_dim", shape.headDim},
                              {"intermediate_size", shape.intermediateSize},
                              {"ffn_dim_multiplier", candidate.ffnMultiplier},
                              {"vocab_size", shape.vocabSize},
                              {"tie_word_embeddings", shape.tiedEmbeddings},
                              {"config", exportConfig(designConfig(shape))}});
    }
    return {{"targets",
             {{"params", targets.params},
              {"tolerance", targets.tolerance},
              {"max_kv_bytes_per_token", optional(targets.maxKvBytesPerToken)},
              {"kv_dtype", std::string(toString(targets.kvDType))},
              {"min_aspect", optional(targets.minAspect)},
              {"max_aspect", optional(targets.maxAspect)}}},
            {"space_size", result.spaceSize},
            {"evaluated", result.evaluated},
            {"skipped", result.skipped},
            {"matched", result.matched},
            {"diagnostics", diagnosticsJson(result.diagnostics)},
            {"candidates", candidates}};
}

} // namespace archplay::core
