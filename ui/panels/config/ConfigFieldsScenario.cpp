// SPDX-License-Identifier: GPL-3.0-or-later
// The Scenario fields of the config panel: how the model is served, not part of config.json.
#include "core/memory/GpuFit.h"
#include "ui/panels/config/ConfigFieldAccess.h"

#include <climits>

namespace archplay::ui::panels::fieldtables {

using namespace Qt::StringLiterals;

namespace {

std::vector<FieldChoice> dtypeChoices() {
    std::vector<FieldChoice> choices;
    for (core::DType dtype : core::kAllDTypes) {
        const std::string_view name = core::toString(dtype);
        choices.push_back({QString::fromLatin1(name.data(), qsizetype(name.size())).toUpper(), qint64(dtype)});
    }
    return choices;
}

std::vector<FieldChoice> gpuChoices() {
    std::vector<FieldChoice> choices;
    for (const core::GpuMemorySize& gpu : core::gpuMemorySizes()) {
        choices.push_back(
            {QStringLiteral("%1 · %2").arg(QString::fromStdString(gpu.label), QString::fromStdString(gpu.examples)),
             qint64(gpu.bytes >> 30)});
    }
    return choices;
}

} // namespace

std::vector<FieldSpec> scenarioFields() {
    using Scale = widgets::SliderScale;
    std::vector<FieldChoice> stateChoices = dtypeChoices();
    stateChoices.insert(stateChoices.begin(), {tr("As implemented"), -1});
    return {
        {.key = u"sequence_length"_s,
         .label = tr("Sequence length"),
         .tooltip = tr("Tokens of context per sequence the KV cache is sized for."),
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 1 << 24,
                                 .spinMaximum = INT_MAX,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::Snap::PowerOfTwo,
                                 .value = scenarioMember(&Scenario::sequenceLength)}},
        {.key = u"encoder_sequence_length"_s,
         .label = tr("Source length"),
         .tooltip = tr("Encoder tokens whose cross-attention keys and values the decoder caches."),
         .applies = isEncoderDecoder,
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 1 << 20,
                                 .spinMaximum = INT_MAX,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::Snap::PowerOfTwo,
                                 .value = scenarioMember(&Scenario::encoderSequenceLength)}},
        {.key = u"batch_size"_s,
         .label = tr("Batch"),
         .tooltip = tr("Sequences served at once; the KV cache grows with it."),
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 4096,
                                 .spinMaximum = 1 << 20,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::Snap::PowerOfTwo,
                                 .value = scenarioMember(&Scenario::batch)}},
        {.key = u"weight_dtype"_s,
         .label = tr("Weights"),
         .tooltip = tr("Number format of the weights; it sets the weight memory."),
         .editor = ChoiceEditor{.choices = dtypeChoices(), .value = scenarioMember(&Scenario::weightDType)}},
        {.key = u"kv_dtype"_s,
         .label = tr("KV cache"),
         .tooltip = tr("Number format of the cached keys and values."),
         .applies = [](const ModelConfig& c) { return c.hasDecoder(); },
         .editor = ChoiceEditor{.choices = dtypeChoices(), .value = scenarioMember(&Scenario::kvDType)}},
        {.key = u"state_dtype"_s,
         .label = tr("Fixed state"),
         .tooltip = tr("Number format of the convolution and recurrent states of linear-attention and "
                       "state-space layers. As implemented: the KV format, except the Gated DeltaNet recurrent "
                       "state, which transformers keeps in FP32."),
         .applies = [](const ModelConfig& c) { return c.hybrid(); },
         .editor =
             ChoiceEditor{.choices = stateChoices,
                          // -1 stands for "as implemented", an absent state precision.
                          .value = {.get = [](const ModelConfig&,
                                              const Scenario& s) { return s.stateDType ? qint64(*s.stateDType) : -1; },
                                    .set =
                                        [](ModelConfig&, Scenario& s, qint64 v, const EditContext&) {
                                            s.stateDType = v < 0 ? std::nullopt : std::optional(core::DType(v));
                                        }}}},
        {.key = u"gpu_memory_gib"_s,
         .label = tr("GPU"),
         .tooltip = tr("Memory of each device the model is served on; the summary and the KV view show whether "
                       "weights and cache fit."),
         .editor = ChoiceEditor{.choices = gpuChoices(), .value = scenarioMember(&Scenario::gpuMemoryGiB)}},
        {.key = u"gpu_count"_s,
         .label = tr("GPUs"),
         .tooltip = tr("Devices sharing the weights and the cache evenly (tensor parallel)."),
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 1024,
                                 .spinMaximum = 1 << 16,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::Snap::PowerOfTwo,
                                 .value = scenarioMember(&Scenario::gpuCount)}},
    };
}

} // namespace archplay::ui::panels::fieldtables
