// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/routing/RoutingSimulation.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <limits>
#include <mutex>
#include <numeric>
#include <string_view>

namespace archplay::core {
namespace {

constexpr int kHiddenDim = 32;
constexpr double kLogitScale = 2.0;
// Beyond this many experts the picture stops being readable and the cost grows; validation warns first.
constexpr std::int64_t kMaxSimulatedExperts = 65536;

std::uint64_t fnv1a(std::string_view text, std::uint64_t hash = 14695981039346656037ULL) {
    for (unsigned char ch : text) {
        hash ^= ch;
        hash *= 1099511628211ULL;
    }
    return hash;
}

/// SplitMix64 (Steele, Lea and Flood 2014): a small, well-mixed generator that is the same everywhere.
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed)
        : m_state(seed) {}

    std::uint64_t next() {
        std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    /// An approximately standard normal draw from one 64-bit output: the sum of its four 16-bit
    /// quarters as uniforms (Irwin-Hall, n = 4), centred and scaled to unit variance. A few
    /// nanoseconds, where Box-Muller's logarithm and sine take tens, so drawing the rows of 1,024
    /// experts stays well under a millisecond.
    double normal() {
        const std::uint64_t bits = next();
        const double sum =
            double(bits & 0xFFFF) + double((bits >> 16) & 0xFFFF) + double((bits >> 32) & 0xFFFF) + double(bits >> 48);
        constexpr double kMean = 4 * 65535.0 / 2;
        constexpr double kScale = 1.7320508075688772 / 65536.0; // sqrt(12 / 4) over the quarters' range
        return (sum - kMean) * kScale;
    }

private:
    std::uint64_t m_state;
};

using Vector = std::array<double, kHiddenDim>;

Vector normalVector(std::uint64_t seed, std::uint64_t stream) {
    SplitMix64 rng(seed ^ (stream * 0xD1B54A32D192ED03ULL));
    Vector v{};
    for (double& x : v) {
        x = rng.normal();
    }
    return v;
}

std::string lowerWord(std::string_view token) {
    std::string word;
    for (unsigned char ch : token) {
        if (!std::isspace(ch)) {
            word.push_back(static_cast<char>(std::tolower(ch)));
        }
    }
    return word;
}

int wordClass(const std::string& word) {
    static const std::array<std::string_view, 12> functionWords = {"the", "a",    "an", "to", "of",   "and",
                                                                   "its", "each", "in", "so", "that", "is"};
    if (!word.empty() && std::ispunct(static_cast<unsigned char>(word.front()))) {
        return 0;
    }
    return std::find(functionWords.begin(), functionWords.end(), word) != functionWords.end() ? 1 : 2;
}

/// The random parts of the simulated router: one row per expert and one direction per word class.
struct Router {
    Router(std::uint64_t routerSeed, std::size_t experts)
        : seed(routerSeed)
        , rows(experts) {
        for (std::size_t e = 0; e < experts; ++e) {
            rows[e] = normalVector(seed, 1000 + e);
        }
        for (std::size_t c = 0; c < classVectors.size(); ++c) {
            classVectors[c] = normalVector(seed, 10 + c);
        }
    }

    std::uint64_t seed;
    std::vector<Vector> rows;
    std::array<Vector, 3> classVectors{};
};

/// z_e = 2 w_e . h / |h| for h = 0.6 c_class + 0.8 u_word (step 3 and 4 of the method).
std::vector<double> routerLogits(const Router& router, const std::string& word) {
    const Vector wordVector = normalVector(router.seed, fnv1a(word));
    const Vector& classVector = router.classVectors[static_cast<std::size_t>(wordClass(word))];
    Vector hidden{};
    double norm = 0.0;
    for (int i = 0; i < kHiddenDim; ++i) {
        hidden[i] = 0.6 * classVector[i] + 0.8 * wordVector[i];
        norm += hidden[i] * hidden[i];
    }
    norm = std::sqrt(norm);
    std::vector<double> logits(router.rows.size());
    for (std::size_t e = 0; e < router.rows.size(); ++e) {
        // Four partial sums: independent chains the processor runs side by side.
        std::array<double, 4> partial{};
        for (int i = 0; i < kHiddenDim; i += 4) {
            for (int j = 0; j < 4; ++j) {
                partial[j] += router.rows[e][i + j] * hidden[i + j];
            }
        }
        const double dot = (partial[0] + partial[1]) + (partial[2] + partial[3]);
        logits[e] = kLogitScale * dot / norm;
    }
    return logits;
}

/// Softmax probabilities over all experts, or independent sigmoid affinities.
std::vector<double> expertScores(const std::vector<double>& logits, RouterScoring scoring) {
    std::vector<double> scores(logits.size());
    if (scoring == RouterScoring::Sigmoid) {
        std::transform(logits.begin(), logits.end(), scores.begin(),
                       [](double z) { return 1.0 / (1.0 + std::exp(-z)); });
        return scores;
    }
    const double peak = *std::max_element(logits.begin(), logits.end());
    double sum = 0.0;
    for (std::size_t e = 0; e < logits.size(); ++e) {
        scores[e] = std::exp(logits[e] - peak);
        sum += scores[e];
    }
    for (double& p : scores) {
        p /= sum;
    }
    return scores;
}

/// Group-limited routing: only experts of the best topk_group groups may be chosen. A group scores
/// its best expert, or its best two with groupByTopTwo. Everything is allowed without groups.
std::vector<bool> allowedExperts(const std::vector<double>& scores, const RouterSettings& settings) {
    std::vector<bool> allowed(scores.size(), true);
    if (settings.groups <= 1) {
        return allowed;
    }
    const auto groupSize = static_cast<std::int64_t>(scores.size()) / settings.groups;
    std::vector<std::pair<double, std::int64_t>> groupScores;
    for (std::int64_t g = 0; g < settings.groups; ++g) {
        double best = -std::numeric_limits<double>::infinity();
        double second = best;
        for (std::int64_t e = g * groupSize; e < (g + 1) * groupSize; ++e) {
            const double score = scores[static_cast<std::size_t>(e)];
            if (score > best) {
                second = best;
                best = score;
            } else if (score > second) {
                second = score;
            }
        }
        groupScores.emplace_back(settings.groupByTopTwo && groupSize > 1 ? best + second : best, g);
    }
    std::sort(groupScores.begin(), groupScores.end(), std::greater<>());
    std::fill(allowed.begin(), allowed.end(), false);
    for (std::int64_t i = 0; i < settings.topKGroups; ++i) {
        const std::int64_t g = groupScores[static_cast<std::size_t>(i)].second;
        std::fill(allowed.begin() + g * groupSize, allowed.begin() + (g + 1) * groupSize, true);
    }
    return allowed;
}

/// The k allowed experts with the highest scores, best first (barred experts only when fewer than k
/// are allowed).
std::vector<int> topExperts(const std::vector<double>& scores, const std::vector<bool>& allowed, std::int64_t topK) {
    std::vector<int> order(scores.size());
    std::iota(order.begin(), order.end(), 0);
    // Ties go to the lower index, so the order is the same on every platform.
    const auto better = [&](int a, int b) {
        const double sa = scores[static_cast<std::size_t>(a)];
        const double sb = scores[static_cast<std::size_t>(b)];
        return sa != sb ? sa > sb : a < b;
    };
    const auto barred =
        std::partition(order.begin(), order.end(), [&](int e) { return allowed[static_cast<std::size_t>(e)]; });
    const auto kth = order.begin() + topK;
    if (kth <= barred) {
        std::partial_sort(order.begin(), kth, barred, better);
    } else {
        std::sort(order.begin(), barred, better);
        std::partial_sort(barred, kth, order.end(), better);
    }
    return {order.begin(), kth};
}

/// The chosen experts' scores, renormalised over them when norm_topk_prob, times routed_scaling_factor.
std::vector<double> gateWeights(const std::vector<double>& scores, const std::vector<int>& chosen,
                                const RouterSettings& settings) {
    double chosenSum = 0.0;
    for (int e : chosen) {
        chosenSum += scores[static_cast<std::size_t>(e)];
    }
    std::vector<double> weights;
    for (int e : chosen) {
        double weight = scores[static_cast<std::size_t>(e)];
        if (settings.normaliseTopK && chosenSum > 0.0) {
            weight /= chosenSum;
        }
        weights.push_back(weight * settings.routedScaling);
    }
    return weights;
}

/// Step 1 of the method: FNV-1a of model_type (as text), E, k, shared experts and layer position:
/// what the simulated router models. The hidden size and the expert width do not enter it, so
/// dragging them leaves the picture alone instead of drawing a new random one.
std::uint64_t simulationSeed(const ModelConfig& config, std::int64_t layer) {
    const std::string seedText = config.modelType + "|" + std::to_string(config.moe.numExperts) + "|" +
                                 std::to_string(config.moe.topK) + "|" + std::to_string(config.moe.numSharedExperts) +
                                 "|" + std::to_string(layer);
    return fnv1a(seedText);
}

RoutedToken routeToken(const Router& router, const RouterSettings& settings, std::int64_t topK,
                       const std::string& text) {
    RoutedToken token;
    token.text = text;
    token.scores = expertScores(routerLogits(router, lowerWord(text)), settings.scoring);
    token.chosen = topExperts(token.scores, allowedExperts(token.scores, settings), topK);
    token.weights = gateWeights(token.scores, token.chosen, settings);
    return token;
}

} // namespace

RouterSettings routerSettings(const ModelConfig& config) {
    RouterSettings settings = config.moe.router;
    const bool groupLimited = settings.groups > 1 && settings.topKGroups >= 1 &&
                              settings.topKGroups <= settings.groups && config.moe.numExperts % settings.groups == 0;
    if (!groupLimited) {
        settings.groups = 1;
        settings.topKGroups = 1;
        settings.groupByTopTwo = false;
    }
    return settings;
}

const std::vector<std::string>& routingSampleTokens() {
    static const std::vector<std::string> tokens = {"The",  " router", " sends", " each", " token",   " to",
                                                    " its", " top",    "-",      "k",     " experts", ",",
                                                    " and", " the",    " rest",  " stay", " idle",    "."};
    return tokens;
}

std::int64_t firstMoeLayer(const ModelPlan& plan) {
    for (std::size_t i = 0; i < plan.layers.size(); ++i) {
        if (plan.layers[i].ffn == FfnKind::Moe) {
            return static_cast<std::int64_t>(i);
        }
    }
    return -1;
}

RoutingInputs routingInputs(const ModelConfig& config, const ModelPlan& plan, std::int64_t layer) {
    RoutingInputs inputs;
    inputs.layer = layer;
    if (layer < 0 || layer >= static_cast<std::int64_t>(plan.layers.size()) ||
        plan.layers[static_cast<std::size_t>(layer)].ffn != FfnKind::Moe) {
        return inputs;
    }
    const std::int64_t experts = config.moe.numExperts;
    if (experts <= 0 || experts > kMaxSimulatedExperts || config.moe.topK <= 0) {
        return inputs;
    }
    inputs.moe = true;
    inputs.numExperts = experts;
    inputs.topK = std::min(config.moe.topK, experts);
    inputs.sharedExperts = std::max<std::int64_t>(config.moe.numSharedExperts, 0);
    inputs.settings = routerSettings(config);
    inputs.seed = simulationSeed(config, layer);
    return inputs;
}

std::shared_ptr<const RoutingSimulation> sharedRouting(const RoutingInputs& inputs) {
    constexpr std::size_t kKept = 4;
    static std::mutex mutex;
    static std::vector<std::pair<RoutingInputs, std::shared_ptr<const RoutingSimulation>>> kept; // newest first
    {
        const std::lock_guard lock(mutex);
        const auto found =
            std::find_if(kept.begin(), kept.end(), [&](const auto& entry) { return entry.first == inputs; });
        if (found != kept.end()) {
            std::rotate(kept.begin(), found, found + 1);
            return kept.front().second;
        }
    }
    auto simulation = std::make_shared<const RoutingSimulation>(simulateRouting(inputs));
    const std::lock_guard lock(mutex);
    kept.insert(kept.begin(), {inputs, simulation});
    if (kept.size() > kKept) {
        kept.pop_back();
    }
    return simulation;
}

RoutingSimulation simulateRouting(const ModelConfig& config, const ModelPlan& plan, std::int64_t layer) {
    return simulateRouting(routingInputs(config, plan, layer));
}

RoutingSimulation simulateRouting(const RoutingInputs& inputs) {
    RoutingSimulation sim;
    sim.layer = inputs.layer;
    if (!inputs.moe) {
        return sim;
    }
    sim.moe = true;
    sim.numExperts = inputs.numExperts;
    sim.topK = inputs.topK;
    sim.sharedExperts = inputs.sharedExperts;
    sim.settings = inputs.settings;
    sim.seed = inputs.seed;

    const Router router(sim.seed, static_cast<std::size_t>(sim.numExperts));
    sim.expertLoad.assign(static_cast<std::size_t>(sim.numExperts), 0);
    for (const std::string& text : routingSampleTokens()) {
        RoutedToken token = routeToken(router, sim.settings, sim.topK, text);
        for (int e : token.chosen) {
            ++sim.expertLoad[static_cast<std::size_t>(e)];
        }
        sim.tokens.push_back(std::move(token));
    }
    return sim;
}

std::vector<std::int64_t> RoutingSimulation::groupStarts() const {
    std::vector<std::int64_t> starts;
    if (settings.groups <= 1 || numExperts < settings.groups) {
        return starts;
    }
    const std::int64_t size = numExperts / settings.groups;
    for (std::int64_t g = 1; g < settings.groups; ++g) {
        starts.push_back(g * size);
    }
    return starts;
}

} // namespace archplay::core
