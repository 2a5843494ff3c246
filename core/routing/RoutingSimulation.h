// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/LayerPlan.h"
#include "core/config/ModelConfig.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace archplay::core {

/// The routing rule a simulation follows: the config's RouterRule (RouterScoring is declared with
/// it in config/ModelConfig.h), with any group limit the expert count cannot hold dropped.
using RouterSettings = RouterRule;

/// The router's rule as the simulation and the derivation apply it: config.moe.router, read from
/// config.json by core/io with each family's defaults (Mixtral and DeepSeek-V3 renormalise the top
/// k). A group limit is kept only when n_group > 1 divides E and 1 <= topk_group <= n_group.
[[nodiscard]] RouterSettings routerSettings(const ModelConfig& config);

/// One token of the sample and what the simulated router does with it.
struct RoutedToken {
    std::string text;            ///< as shown, with its leading space
    std::vector<double> scores;  ///< per routed expert: softmax probability or sigmoid affinity
    std::vector<int> chosen;     ///< the k experts the token is sent to, best first
    std::vector<double> weights; ///< gate weight of each chosen expert, after normalisation and scaling
};

/// An ILLUSTRATIVE simulation of a mixture-of-experts router on a fixed sample sentence. The scores
/// are not those of any trained checkpoint; they show how top-k routing, shared experts, group
/// limits and load look for the configured E, k and scoring rule.
///
/// Method (deterministic, the same on every run):
/// 1. seed = FNV-1a 64 of model_type, E, k, shared experts and the layer position, so the picture
///    changes when any of them changes (and not with the hidden size or expert width, which the
///    simulated router does not model);
/// 2. near-normal draws come from SplitMix64(seed, stream), each the sum of one output's four 16-bit
///    quarters, centred and scaled to unit variance (Irwin-Hall, n = 4);
/// 3. every expert e gets a router row w_e ~ N(0, I_32); every token t a hidden state
///    h_t = normalise(0.6 c_class(t) + 0.8 u_word(t)), where class is punctuation, function word or
///    content word and word is the lower-cased token, so repeated and similar tokens route alike;
/// 4. logits z_te = 2 w_e . h_t / |h_t| (standard deviation 2); scores by the config's RouterScoring; group-limited
///    selection when n_group > 1 (keep the topk_group best groups), then the top k scores;
/// 5. gate weights are the chosen scores, renormalised when norm_topk_prob, times routed_scaling_factor.
struct RoutingSimulation {
    bool moe = false;        ///< false when the layer has a dense FFN: nothing is routed
    std::int64_t layer = -1; ///< position in ModelPlan::layers of the layer simulated
    std::int64_t numExperts = 0;
    std::int64_t topK = 0;
    std::int64_t sharedExperts = 0; ///< always-on experts, not scored
    RouterSettings settings;
    std::uint64_t seed = 0;
    std::vector<RoutedToken> tokens;
    std::vector<std::int64_t> expertLoad; ///< tokens of the sample sent to each routed expert
    /// Tokens each expert would get if the sample were spread perfectly evenly: tokens x k / E.
    [[nodiscard]] double balancedLoad() const {
        return numExperts > 0 ? double(tokens.size()) * double(topK) / double(numExperts) : 0.0;
    }
    /// The first expert of each group after the first under group-limited routing (n_group > 1,
    /// E / n_group experts a group, as DeepSeek-V3's router splits them); empty without groups.
    [[nodiscard]] std::vector<std::int64_t> groupStarts() const;
};

/// The fixed sample sentence, as tokens with their leading spaces (word-level: a real tokenizer
/// splits differently).
[[nodiscard]] const std::vector<std::string>& routingSampleTokens();

/// Position in ModelPlan::layers of the first MoE layer, or -1 when there is none.
[[nodiscard]] std::int64_t firstMoeLayer(const ModelPlan& plan);

/// Everything a simulation depends on: equal inputs give equal simulations, so a view can keep its
/// simulation while a slider moves something else (the layer count, the vocabulary).
struct RoutingInputs {
    bool moe = false; ///< plan.layers[layer] is a simulable MoE layer
    std::int64_t layer = -1;
    std::int64_t numExperts = 0;
    std::int64_t topK = 0;
    std::int64_t sharedExperts = 0;
    RouterSettings settings;
    std::uint64_t seed = 0; ///< from model type, E, k, shared experts and layer

    bool operator==(const RoutingInputs&) const = default;
};

/// The inputs of simulating `layer` (a position in plan.layers); moe = false for a dense layer, a
/// position outside the plan, no experts or no k, or more than 65,536 experts (too many to draw).
[[nodiscard]] RoutingInputs routingInputs(const ModelConfig& config, const ModelPlan& plan, std::int64_t layer);

/// Simulates the router over the sample. moe = false for a dense layer or a position outside the plan.
[[nodiscard]] RoutingSimulation simulateRouting(const RoutingInputs& inputs);

/// simulateRouting(inputs), shared: the last few simulations are kept, so the views that show one
/// router (the routing view, the weights' lit experts) simulate it once per change between them.
/// Thread-safe.
[[nodiscard]] std::shared_ptr<const RoutingSimulation> sharedRouting(const RoutingInputs& inputs);

/// simulateRouting(routingInputs(config, plan, layer)).
[[nodiscard]] RoutingSimulation simulateRouting(const ModelConfig& config, const ModelPlan& plan, std::int64_t layer);

} // namespace archplay::core
