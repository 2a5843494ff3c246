// SPDX-License-Identifier: GPL-3.0-or-later
// The Scenario fields of the config panel: how the model is served, not part of config.json.
#include "core/cost/Gpus.h"
#include "core/cost/WeightFormats.h"
#include "ui/panels/config/ConfigFieldAccess.h"

#include <algorithm>
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

std::vector<FieldChoice> weightFormatChoices() {
    std::vector<FieldChoice> choices;
    for (const core::WeightFormatInfo& format : core::weightFormats()) {
        choices.push_back({QStringLiteral("%1 · %2 bits")
                               .arg(QString::fromLatin1(format.name.data(), qsizetype(format.name.size())))
                               .arg(format.bitsPerWeight, 0, 'g', 5),
                           qint64(format.format)});
    }
    return choices;
}

/// The built-in devices by their index in core::builtinGpus(); a device the user added reads as -1
/// and shows by name (the placeholder).
std::vector<FieldChoice> gpuChoices() {
    std::vector<FieldChoice> choices;
    const std::vector<core::Gpu>& gpus = core::builtinGpus();
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        choices.push_back(
            {QStringLiteral("%1 · %2 GiB").arg(QString::fromStdString(gpus[i].name)).arg(gpus[i].memoryGiB),
             qint64(i)});
    }
    return choices;
}

IntegerValue gpuValue() {
    return {.get =
                [](const ModelConfig&, const Scenario& s) {
                    const std::vector<core::Gpu>& gpus = core::builtinGpus();
                    const auto found = std::find(gpus.begin(), gpus.end(), s.gpu);
                    return found == gpus.end() ? qint64(-1) : qint64(found - gpus.begin());
                },
            .set =
                [](ModelConfig&, Scenario& s, qint64 v, const EditContext&) {
                    const std::vector<core::Gpu>& gpus = core::builtinGpus();
                    if (v >= 0 && std::size_t(v) < gpus.size()) {
                        s.gpu = gpus[std::size_t(v)];
                    }
                }};
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
        {.key = u"weight_format"_s,
         .label = tr("Weights"),
         .tooltip = tr("How the weights are stored: a precision or a quantisation format, with its real bits per "
                       "weight including scales and zero points. Quantised formats keep embeddings, the output "
                       "head and norms in 16 bits (GGUF: 1-D tensors in FP32)."),
         .editor = ChoiceEditor{.choices = weightFormatChoices(), .value = scenarioMember(&Scenario::weightFormat)}},
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
        {.key = u"gpu"_s,
         .label = tr("GPU"),
         .tooltip = tr("The device the model is served and trained on, from the catalogue (Tools > Devices adds "
                       "your own): its memory decides what fits, its bandwidth and throughput the speed."),
         .editor = ChoiceEditor{.choices = gpuChoices(), .value = gpuValue()}},
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
