// SPDX-License-Identifier: GPL-3.0-or-later
#include "routing/RoutingSimulation.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <numeric>
#include <string_view>
#include <tuple>

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
    /// Uniform in (0, 1).
    double uniform() { return (static_cast<double>(next() >> 11) + 0.5) / 9007199254740992.0; }
    /// Two independent standard normals by Box-Muller.
    std::pair<double, double> normals() {
        const double radius = std::sqrt(-2.0 * std::log(uniform()));
        const double angle = 6.283185307179586 * uniform();
        return {radius * std::cos(angle), radius * std::sin(angle)};
    }

private:
    std::uint64_t m_state;
};

using Vector = std::array<double, kHiddenDim>;

Vector normalVector(std::uint64_t seed, std::uint64_t stream) {
    SplitMix64 rng(seed ^ (stream * 0xD1B54A32D192ED03ULL));
    Vector v{};
    for (std::size_t i = 0; i < v.size(); i += 2) {
        std::tie(v[i], v[i + 1]) = rng.normals();
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

const nlohmann::json* field(const ModelConfig& config, const char* key) {
    const nlohmann::json& passthrough = config.passthrough.json();
    if (!passthrough.is_object()) {
        return nullptr;
    }
    auto it = passthrough.find(key);
    return it == passthrough.end() || it->is_null() ? nullptr : &*it;
}

} // namespace

RouterSettings routerSettings(const ModelConfig& config) {
    RouterSettings settings;
    if (const auto* scoring = field(config, "scoring_func"); scoring && scoring->is_string()) {
        settings.scoring = scoring->get<std::string>() == "sigmoid" ? RouterScoring::Sigmoid : RouterScoring::Softmax;
    }
    // transformers: Mixtral always renormalises; DeepSeek-V3's config defaults norm_topk_prob to true.
    settings.normaliseTopK = config.modelType == "mixtral" || config.modelType == "deepseek_v3";
    if (const auto* normalise = field(config, "norm_topk_prob"); normalise && normalise->is_boolean()) {
        settings.normaliseTopK = normalise->get<bool>();
    }
    const auto* groups = field(config, "n_group");
    const auto* topKGroups = field(config, "topk_group");
    const auto* method = field(config, "topk_method");
    const bool greedy = method && method->is_string() && method->get<std::string>() == "greedy";
    if (!greedy && groups && groups->is_number_integer() && topKGroups && topKGroups->is_number_integer()) {
        const auto n = groups->get<std::int64_t>();
        const auto k = topKGroups->get<std::int64_t>();
        if (n > 1 && k >= 1 && k <= n && config.moe.numExperts % n == 0) {
            settings.groups = n;
            settings.topKGroups = k;
            settings.groupByTopTwo = method && method->is_string() && method->get<std::string>() == "noaux_tc";
        }
    }
    if (const auto* scaling = field(config, "routed_scaling_factor"); scaling && scaling->is_number()) {
        settings.routedScaling = scaling->get<double>();
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
    const std::string seedText = config.modelType + "|" + std::to_string(config.hiddenSize) + "|" +
                                 std::to_string(experts) + "|" + std::to_string(config.moe.topK) + "|" +
                                 std::to_string(config.moe.numSharedExperts) + "|" +
                                 std::to_string(config.moe.expertIntermediateSize) + "|" + std::to_string(layer);
    inputs.seed = fnv1a(seedText);
    return inputs;
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
    const std::int64_t experts = inputs.numExperts;
    sim.moe = true;
    sim.numExperts = experts;
    sim.topK = inputs.topK;
    sim.sharedExperts = inputs.sharedExperts;
    sim.settings = inputs.settings;
    sim.seed = inputs.seed;

    const auto expertCount = static_cast<std::size_t>(experts);
    std::vector<Vector> routerRows(expertCount);
    for (std::size_t e = 0; e < expertCount; ++e) {
        routerRows[e] = normalVector(sim.seed, 1000 + e);
    }
    std::array<Vector, 3> classVectors{};
    for (std::size_t c = 0; c < classVectors.size(); ++c) {
        classVectors[c] = normalVector(sim.seed, 10 + c);
    }

    sim.expertLoad.assign(expertCount, 0);
    const std::int64_t groupSize = experts / sim.settings.groups;
    for (const std::string& text : routingSampleTokens()) {
        RoutedToken token;
        token.text = text;
        const std::string word = lowerWord(text);
        const Vector wordVector = normalVector(sim.seed, fnv1a(word));
        const Vector& classVector = classVectors[static_cast<std::size_t>(wordClass(word))];
        Vector hidden{};
        double norm = 0.0;
        for (int i = 0; i < kHiddenDim; ++i) {
            hidden[i] = 0.6 * classVector[i] + 0.8 * wordVector[i];
            norm += hidden[i] * hidden[i];
        }
        norm = std::sqrt(norm);
        std::vector<double> logits(expertCount);
        for (std::size_t e = 0; e < expertCount; ++e) {
            double dot = 0.0;
            for (int i = 0; i < kHiddenDim; ++i) {
                dot += routerRows[e][i] * hidden[i];
            }
            logits[e] = kLogitScale * dot / norm;
        }
        token.scores.resize(expertCount);
        if (sim.settings.scoring == RouterScoring::Sigmoid) {
            std::transform(logits.begin(), logits.end(), token.scores.begin(),
                           [](double z) { return 1.0 / (1.0 + std::exp(-z)); });
        } else {
            const double peak = *std::max_element(logits.begin(), logits.end());
            double sum = 0.0;
            for (std::size_t e = 0; e < expertCount; ++e) {
                token.scores[e] = std::exp(logits[e] - peak);
                sum += token.scores[e];
            }
            for (double& p : token.scores) {
                p /= sum;
            }
        }

        // Group-limited routing: only experts of the best topk_group groups may be chosen.
        std::vector<bool> allowed(expertCount, true);
        if (sim.settings.groups > 1) {
            std::vector<std::pair<double, std::int64_t>> groupScores;
            for (std::int64_t g = 0; g < sim.settings.groups; ++g) {
                std::vector<double> members(token.scores.begin() + g * groupSize,
                                            token.scores.begin() + (g + 1) * groupSize);
                std::sort(members.begin(), members.end(), std::greater<>());
                double score = members.front();
                if (sim.settings.groupByTopTwo && members.size() > 1) {
                    score += members[1];
                }
                groupScores.emplace_back(score, g);
            }
            std::sort(groupScores.begin(), groupScores.end(), std::greater<>());
            std::fill(allowed.begin(), allowed.end(), false);
            for (std::int64_t i = 0; i < sim.settings.topKGroups; ++i) {
                const std::int64_t g = groupScores[static_cast<std::size_t>(i)].second;
                std::fill(allowed.begin() + g * groupSize, allowed.begin() + (g + 1) * groupSize, true);
            }
        }
        std::vector<int> order(expertCount);
        std::iota(order.begin(), order.end(), 0);
        std::partial_sort(order.begin(), order.begin() + sim.topK, order.end(), [&](int a, int b) {
            const auto ia = static_cast<std::size_t>(a);
            const auto ib = static_cast<std::size_t>(b);
            if (allowed[ia] != allowed[ib]) {
                return static_cast<bool>(allowed[ia]);
            }
            // Ties go to the lower index, so the order is the same on every platform.
            return token.scores[ia] != token.scores[ib] ? token.scores[ia] > token.scores[ib] : a < b;
        });
        token.chosen.assign(order.begin(), order.begin() + sim.topK);
        double chosenSum = 0.0;
        for (int e : token.chosen) {
            chosenSum += token.scores[static_cast<std::size_t>(e)];
            ++sim.expertLoad[static_cast<std::size_t>(e)];
        }
        for (int e : token.chosen) {
            double weight = token.scores[static_cast<std::size_t>(e)];
            if (sim.settings.normaliseTopK && chosenSum > 0.0) {
                weight /= chosenSum;
            }
            token.weights.push_back(weight * sim.settings.routedScaling);
        }
        sim.tokens.push_back(std::move(token));
    }
    return sim;
}

} // namespace archplay::core
