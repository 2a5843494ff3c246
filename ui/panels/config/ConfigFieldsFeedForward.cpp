// SPDX-License-Identifier: GPL-3.0-or-later
// The Feed-forward fields of the config panel: the dense FFN and the mixture of experts.
#include "ui/panels/config/ConfigFieldAccess.h"

namespace archplay::ui::panels::fieldtables {

using namespace Qt::StringLiterals;
using core::Field;

namespace {

bool hasSharedExperts(const ModelConfig& c) {
    return isMoe(c) && c.moe.numSharedExperts > 0;
}
bool hasFfn(const ModelConfig& c) {
    return c.ffnKind != core::FfnKind::None;
}

} // namespace

std::vector<FieldSpec> feedForwardFields() {
    using MoE = core::MixtureOfExperts;
    return {
        {.field = Field::FfnType,
         .jsonKey = u"model_type, num_experts"_s,
         .label = tr("FFN"),
         .tooltip = tr("Plain MLP (up, activation, down), gated MLP (SwiGLU/GeGLU: gate and up, then down), a "
                       "mixture of gated experts with a router, or none (the mixer is the whole layer, as in "
                       "Mamba)."),
         .editor = ChoiceEditor{.choices = {{tr("MLP"), qint64(core::FfnKind::Mlp)},
                                            {tr("Gated MLP"), qint64(core::FfnKind::Gated)},
                                            {tr("Mixture of experts"), qint64(core::FfnKind::Moe)},
                                            {tr("None"), qint64(core::FfnKind::None)}},
                                .value = withRule(member(&ModelConfig::ffnKind), core::edits::setFfnKind)}},
        {.field = Field::HiddenAct,
         .label = tr("Activation"),
         .tooltip =
             tr("Nonlinearity of the feed-forward block; it does not change the parameter count, except xIELU's two "
                "trainable scalars per layer."),
         .applies = hasFfn,
         .editor = ChoiceEditor{.choices = {{tr("ReLU"), qint64(core::Activation::Relu)},
                                            {tr("GELU"), qint64(core::Activation::Gelu)},
                                            {tr("GELU (tanh)"), qint64(core::Activation::GeluTanh)},
                                            {tr("SiLU / Swish"), qint64(core::Activation::Silu)},
                                            {tr("xIELU"), qint64(core::Activation::XIelu)},
                                            {tr("Other"), qint64(core::Activation::Other)}},
                                .value = member(&ModelConfig::activation)}},
        {.field = Field::MlpBias,
         .label = tr("FFN bias"),
         .tooltip = tr("The feed-forward projections have biases."),
         .applies = hasFfn,
         .editor = ToggleEditor{member(&ModelConfig::ffnBias)}},
        {.field = Field::NumExperts,
         .jsonKey = u"num_experts, num_local_experts, n_routed_experts"_s,
         .label = tr("Experts"),
         .tooltip = tr("Routed experts per MoE layer; a token is sent to top-k of them."),
         .applies = isMoe,
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 1024,
                                 .spinMaximum = 65536,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::Snap::PowerOfTwo,
                                 .value = withRule(moeMember(&MoE::numExperts), core::edits::setNumExperts)}},
        {.field = Field::NumExpertsPerTok,
         .label = tr("Top-k"),
         .tooltip = tr("Experts each token is routed to; they set the active parameters."),
         .applies = isMoe,
         .editor =
             IntegerEditor{
                 .minimum = 1,
                 .maximum = 64,
                 .spinMaximum = 65536,
                 .maximumFor = [](const ModelConfig& c) { return qint64(std::max<std::int64_t>(1, c.moe.numExperts)); },
                 .value = moeMember(&MoE::topK)}},
        {.field = Field::MoeIntermediateSize,
         .label = tr("Expert width"),
         .tooltip = tr("Inner width of one routed expert (Mixtral uses intermediate_size)."),
         .applies = isMoe,
         .editor = IntegerEditor{.minimum = 64,
                                 .maximum = 65536,
                                 .spinMaximum = 1 << 22,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::kFfnSnap,
                                 .value = moeMember(&MoE::expertIntermediateSize)}},
        {.field = Field::NSharedExperts,
         .label = tr("Shared experts"),
         .tooltip = tr("Experts every token passes through besides its routed ones (DeepSeek, Qwen-MoE)."),
         .applies = isMoe,
         .editor =
             IntegerEditor{
                 .minimum = 0, .maximum = 16, .spinMaximum = 256, .value = moeMember(&MoE::numSharedExperts)}},
        {.field = Field::SharedExpertIntermediateSize,
         .label = tr("Shared width"),
         .tooltip = tr("Inner width of each shared expert (DeepSeek: the expert width; Qwen2-MoE sets its own)."),
         .applies = hasSharedExperts,
         .editor = IntegerEditor{.minimum = 0,
                                 .maximum = 65536,
                                 .spinMaximum = 1 << 22,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::kFfnSnap,
                                 .value = moeMember(&MoE::sharedExpertIntermediateSize)}},
        {.field = Field::SharedExpertGate,
         .label = tr("Shared-expert gate"),
         .tooltip = tr("A sigmoid gate Linear(hidden, 1) scales the shared experts (Qwen2-MoE)."),
         .applies = hasSharedExperts,
         .editor = ToggleEditor{moeMember(&MoE::sharedExpertGate)}},
        {.field = Field::FirstKDenseReplace,
         .label = tr("Dense first"),
         .tooltip = tr("Leading layers that keep a dense FFN instead of experts (DeepSeek-V3: 3)."),
         .applies = isMoe,
         .editor =
             IntegerEditor{
                 .minimum = 0,
                 .maximum = 256,
                 .spinMaximum = 4096,
                 .maximumFor = [](const ModelConfig& c) { return qint64(std::max<std::int64_t>(0, c.numLayers)); },
                 .value = moeMember(&MoE::firstDenseLayers)}},
        {.field = Field::DecoderSparseStep,
         .label = tr("MoE every N"),
         .tooltip = tr("Layer i has experts when (i + 1) is a multiple of N; the others are dense."),
         .applies = isMoe,
         .editor =
             IntegerEditor{.minimum = 1, .maximum = 16, .spinMaximum = 4096, .value = moeMember(&MoE::sparseStep)}},
        {.field = Field::MlpOnlyLayers,
         .label = tr("Dense layers"),
         .tooltip = tr("Layer indices that keep a dense FFN, separated by commas (Qwen-MoE's mlp_only_layers)."),
         .applies = [](const ModelConfig& c) { return isMoe(c) && c.moe.moeLayers.empty(); },
         .editor = layerList(&MoE::denseLayers)},
        {.field = Field::MoeLayers,
         .jsonKey = u"moe_layers, moe_layer_freq, mlp_layer_types"_s,
         .label = tr("MoE layers"),
         .tooltip = tr("Layer indices that have experts, separated by commas; when set, it replaces the "
                       "dense-first, every-N and dense-list rules. Empty: those rules decide."),
         .applies = isMoe,
         .editor = layerList(&MoE::moeLayers)},
        {.field = Field::RouterBias,
         .label = tr("Router bias"),
         .tooltip = tr("The router's linear layer has a bias (gpt-oss)."),
         .applies = isMoe,
         .editor = ToggleEditor{moeMember(&MoE::routerBias)}},
        {.field = Field::ExpertBias,
         .label = tr("Expert biases"),
         .tooltip = tr("Every expert projection has a bias (gpt-oss)."),
         .applies = isMoe,
         .editor = ToggleEditor{moeMember(&MoE::expertBias)}},
        {.field = Field::CorrectionBiasParameter,
         .label = tr("Counted correction bias"),
         .tooltip = tr("The router's score-correction bias is a parameter (counted, ERNIE 4.5 MoE), not a buffer "
                       "(DeepSeek-V3, GLM-4.5: not counted)."),
         .applies = isMoe,
         .editor = ToggleEditor{moeMember(&MoE::correctionBiasParameter)}},
    };
}

} // namespace archplay::ui::panels::fieldtables
