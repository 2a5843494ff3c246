// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/design/SweepFields.h"

#include <algorithm>
#include <climits>

namespace archplay::core {
namespace {

using edits::EditContext;

bool isMoe(const ModelConfig& c) {
    return c.ffnKind == FfnKind::Moe;
}
bool isLatent(const ModelConfig& c) {
    return c.latent.has_value();
}
bool notLatent(const ModelConfig& c) {
    return !c.latent.has_value();
}

/// Reads and writes config.*field without a rule, as the panel's plain fields do.
template <auto field> std::int64_t configGet(const ModelConfig& c, const Scenario& /*scenario*/) {
    return std::int64_t(c.*field);
}
template <auto field>
void configSet(ModelConfig& c, Scenario& /*scenario*/, std::int64_t v, const EditContext& /*context*/) {
    c.*field = v;
}
/// config.moe.*field.
template <auto field> std::int64_t moeGet(const ModelConfig& c, const Scenario& /*scenario*/) {
    return std::int64_t(c.moe.*field);
}
template <auto field>
void moeSet(ModelConfig& c, Scenario& /*scenario*/, std::int64_t v, const EditContext& /*context*/) {
    c.moe.*field = v;
}
/// scenario.*field.
template <auto field> std::int64_t scenarioGet(const ModelConfig& /*config*/, const Scenario& s) {
    return std::int64_t(s.*field);
}
template <auto field>
void scenarioSet(ModelConfig& /*config*/, Scenario& s, std::int64_t v, const EditContext& /*context*/) {
    s.*field = std::uint64_t(v);
}

} // namespace

const std::vector<SweepField>& sweepFields() {
    // Limits are the config panel's spin box limits (ui/panels/config/ConfigFields*.cpp), setters the
    // rules its fields write through.
    static const std::vector<SweepField> fields = {
        {.key = "num_hidden_layers",
         .label = "Layers",
         .scenario = false,
         .logScale = false,
         .minimum = 1,
         .maximum = 4096,
         .get = configGet<&ModelConfig::numLayers>,
         .set = configSet<&ModelConfig::numLayers>},
        {.key = "num_encoder_layers",
         .label = "Encoder layers",
         .scenario = false,
         .logScale = false,
         .minimum = 1,
         .maximum = 4096,
         .requirement = "an encoder-decoder model",
         .appliesTo = [](const ModelConfig& c) { return c.architecture == ArchitectureKind::EncoderDecoder; },
         .get = configGet<&ModelConfig::numEncoderLayers>,
         .set = configSet<&ModelConfig::numEncoderLayers>},
        {.key = "hidden_size",
         .label = "Hidden size",
         .scenario = false,
         .logScale = true,
         .minimum = 64,
         .maximum = 1 << 20,
         .get = [](const ModelConfig& c, const Scenario&) { return c.hiddenSize; },
         .set =
             [](ModelConfig& c, Scenario&, std::int64_t v, const EditContext& context) {
                 edits::setHiddenSize(c, v, context);
             }},
        {.key = "num_attention_heads",
         .label = "Heads",
         .scenario = false,
         .logScale = false,
         .minimum = 1,
         .maximum = 4096,
         .get = [](const ModelConfig& c, const Scenario&) { return c.numHeads; },
         .set =
             [](ModelConfig& c, Scenario&, std::int64_t v, const EditContext&) {
                 edits::setNumHeads(c, v);
             }},
        {.key = "num_key_value_heads",
         .label = "KV heads",
         .scenario = false,
         .logScale = false,
         .minimum = 1,
         .maximum = 4096,
         .requirement = "attention without a latent (MLA's KV heads follow the heads)",
         .appliesTo = notLatent,
         .maximumFor = [](const ModelConfig& c) { return std::max<std::int64_t>(1, c.numHeads); },
         .get = configGet<&ModelConfig::numKvHeads>,
         .set = configSet<&ModelConfig::numKvHeads>},
        {.key = "head_dim",
         .label = "Head dim",
         .scenario = false,
         .logScale = false,
         .minimum = 8,
         .maximum = 4096,
         .requirement = "attention without a latent",
         .appliesTo = notLatent,
         // A head_dim that followed hidden / heads is written explicitly, as the panel's field does.
         .get = [](const ModelConfig& c, const Scenario&) { return c.effectiveHeadDim(); },
         .set =
             [](ModelConfig& c, Scenario&, std::int64_t v, const EditContext&) {
                 c.headDim = v;
             }},
        {.key = "intermediate_size",
         .label = "FFN width",
         .scenario = false,
         .logScale = true,
         .minimum = 64,
         .maximum = 1 << 24,
         .requirement = "dense feed-forward layers",
         .appliesTo = [](const ModelConfig& c) { return c.hasDenseFfnLayers(); },
         .get = configGet<&ModelConfig::intermediateSize>,
         .set = configSet<&ModelConfig::intermediateSize>},
        {.key = "vocab_size",
         .label = "Vocabulary",
         .scenario = false,
         .logScale = true,
         .minimum = 256,
         .maximum = 1 << 26,
         .get = configGet<&ModelConfig::vocabSize>,
         .set = configSet<&ModelConfig::vocabSize>},
        {.key = "max_position_embeddings",
         .label = "Context length",
         .scenario = false,
         .logScale = true,
         .minimum = 128,
         .maximum = INT_MAX,
         .get = configGet<&ModelConfig::maxPositions>,
         .set = configSet<&ModelConfig::maxPositions>},
        {.key = "kv_lora_rank",
         .label = "KV latent rank",
         .scenario = false,
         .logScale = false,
         .minimum = 16,
         .maximum = 4096,
         .requirement = "multi-head latent attention",
         .appliesTo = isLatent,
         .get = [](const ModelConfig& c, const Scenario&) { return c.latent ? c.latent->kvLoraRank : 0; },
         .set =
             [](ModelConfig& c, Scenario&, std::int64_t v, const EditContext&) {
                 if (c.latent) {
                     c.latent->kvLoraRank = v;
                 }
             }},
        {.key = "q_lora_rank",
         .label = "Q latent rank",
         .scenario = false,
         .logScale = true,
         .minimum = 0,
         .maximum = 8192,
         .requirement = "multi-head latent attention",
         .appliesTo = isLatent,
         // 0 stands for an absent q_lora_rank (a plain q_proj), as in the panel.
         .get = [](const ModelConfig& c,
                   const Scenario&) { return c.latent && c.latent->qLoraRank ? *c.latent->qLoraRank : 0; },
         .set =
             [](ModelConfig& c, Scenario&, std::int64_t v, const EditContext&) {
                 if (c.latent) {
                     c.latent->qLoraRank = v > 0 ? std::optional<std::int64_t>(v) : std::nullopt;
                 }
             }},
        {.key = "sliding_window",
         .label = "Window",
         .scenario = false,
         .logScale = true,
         .minimum = 16,
         .maximum = INT_MAX,
         .requirement = "sliding-window layers",
         .appliesTo = [](const ModelConfig& c) { return c.slidingPattern != SlidingPattern::None; },
         .get = configGet<&ModelConfig::slidingWindow>,
         .set = configSet<&ModelConfig::slidingWindow>},
        {.key = "num_experts",
         .label = "Experts",
         .scenario = false,
         .logScale = true,
         .minimum = 1,
         .maximum = 65536,
         .requirement = "a mixture of experts",
         .appliesTo = isMoe,
         .get = [](const ModelConfig& c, const Scenario&) { return c.moe.numExperts; },
         .set =
             [](ModelConfig& c, Scenario&, std::int64_t v, const EditContext&) {
                 edits::setNumExperts(c, v);
             }},
        {.key = "num_experts_per_tok",
         .label = "Top-k",
         .scenario = false,
         .logScale = false,
         .minimum = 1,
         .maximum = 65536,
         .requirement = "a mixture of experts",
         .appliesTo = isMoe,
         .maximumFor = [](const ModelConfig& c) { return std::max<std::int64_t>(1, c.moe.numExperts); },
         .get = moeGet<&MixtureOfExperts::topK>,
         .set = moeSet<&MixtureOfExperts::topK>},
        {.key = "moe_intermediate_size",
         .label = "Expert width",
         .scenario = false,
         .logScale = true,
         .minimum = 64,
         .maximum = 1 << 22,
         .requirement = "a mixture of experts",
         .appliesTo = isMoe,
         .get = moeGet<&MixtureOfExperts::expertIntermediateSize>,
         .set = moeSet<&MixtureOfExperts::expertIntermediateSize>},
        {.key = "n_shared_experts",
         .label = "Shared experts",
         .scenario = false,
         .logScale = false,
         .minimum = 0,
         .maximum = 256,
         .requirement = "a mixture of experts",
         .appliesTo = isMoe,
         .get = moeGet<&MixtureOfExperts::numSharedExperts>,
         .set = moeSet<&MixtureOfExperts::numSharedExperts>},
        {.key = "first_k_dense_replace",
         .label = "Dense first",
         .scenario = false,
         .logScale = false,
         .minimum = 0,
         .maximum = 4096,
         .requirement = "a mixture of experts",
         .appliesTo = isMoe,
         .maximumFor = [](const ModelConfig& c) { return std::max<std::int64_t>(0, c.numLayers); },
         .get = moeGet<&MixtureOfExperts::firstDenseLayers>,
         .set = moeSet<&MixtureOfExperts::firstDenseLayers>},
        {.key = "sequence_length",
         .label = "Sequence length",
         .scenario = true,
         .logScale = true,
         .minimum = 1,
         .maximum = INT_MAX,
         .get = scenarioGet<&Scenario::sequenceLength>,
         .set = scenarioSet<&Scenario::sequenceLength>},
        {.key = "batch_size",
         .label = "Batch",
         .scenario = true,
         .logScale = true,
         .minimum = 1,
         .maximum = 1 << 20,
         .get = scenarioGet<&Scenario::batch>,
         .set = scenarioSet<&Scenario::batch>},
    };
    return fields;
}

const SweepField* findSweepField(std::string_view key) {
    const auto& fields = sweepFields();
    const auto it = std::find_if(fields.begin(), fields.end(), [key](const SweepField& f) { return f.key == key; });
    return it == fields.end() ? nullptr : &*it;
}

std::vector<const SweepField*> sweepFieldsFor(const ModelConfig& config) {
    std::vector<const SweepField*> fields;
    for (const SweepField& field : sweepFields()) {
        if (field.applies(config)) {
            fields.push_back(&field);
        }
    }
    return fields;
}

} // namespace archplay::core
