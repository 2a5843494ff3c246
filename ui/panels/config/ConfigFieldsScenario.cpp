// SPDX-License-Identifier: GPL-3.0-or-later
// The Scenario and Training fields of the config panel: how the model is served and trained, not part
// of config.json.
#include "core/cost/Gpus.h"
#include "core/cost/WeightFormats.h"
#include "core/report/ScenarioLabels.h"
#include "ui/Strings.h"
#include "ui/panels/config/ConfigFieldAccess.h"

#include <climits>
#include <string>

namespace archplay::ui::panels::fieldtables {

using namespace Qt::StringLiterals;
using core::Field;

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

template <typename Enum, std::size_t N>
std::vector<FieldChoice> namedChoices(const Enum (&values)[N], std::string (*label)(Enum)) {
    std::vector<FieldChoice> choices;
    for (Enum value : values) {
        choices.push_back({qs(label(value)), qint64(value)});
    }
    return choices;
}

std::vector<FieldChoice> zeroStageChoices() {
    std::vector<FieldChoice> choices;
    for (int stage = 0; stage < core::kZeroStages; ++stage) {
        choices.push_back({qs(core::zeroStageLabel(stage)), stage});
    }
    return choices;
}

} // namespace

std::vector<FieldSpec> scenarioFields() {
    std::vector<FieldChoice> stateChoices = dtypeChoices();
    stateChoices.insert(stateChoices.begin(), {tr("As implemented"), -1});
    return {
        {.field = Field::SequenceLength,
         .label = tr("Sequence length"),
         .tooltip = tr("Tokens of context per sequence the KV cache is sized for."),
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 1 << 24,
                                 .spinMaximum = INT_MAX,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::Snap::PowerOfTwo,
                                 .value = scenarioMember(&Scenario::sequenceLength)}},
        {.field = Field::EncoderSequenceLength,
         .label = tr("Source length"),
         .tooltip = tr("Encoder tokens whose cross-attention keys and values the decoder caches."),
         .applies = isEncoderDecoder,
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 1 << 20,
                                 .spinMaximum = INT_MAX,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::Snap::PowerOfTwo,
                                 .value = scenarioMember(&Scenario::encoderSequenceLength)}},
        {.field = Field::BatchSize,
         .label = tr("Batch"),
         .tooltip = tr("Sequences served at once; the KV cache grows with it."),
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 4096,
                                 .spinMaximum = 1 << 20,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::Snap::PowerOfTwo,
                                 .value = scenarioMember(&Scenario::batch)}},
        {.field = Field::WeightFormat,
         .label = tr("Weights"),
         .tooltip = tr("How the weights are stored: a precision or a quantisation format, with its real bits per "
                       "weight including scales and zero points. Quantised formats keep embeddings, the output "
                       "head and norms in 16 bits (GGUF: 1-D tensors in FP32)."),
         .editor = ChoiceEditor{.choices = weightFormatChoices(), .value = scenarioMember(&Scenario::weightFormat)}},
        {.field = Field::KvDtype,
         .label = tr("KV cache"),
         .tooltip = tr("Number format of the cached keys and values."),
         .applies = [](const ModelConfig& c) { return c.hasDecoder(); },
         .editor = ChoiceEditor{.choices = dtypeChoices(), .value = scenarioMember(&Scenario::kvDType)}},
        {.field = Field::KvAllocator,
         .label = tr("Cache as"),
         .tooltip = tr("Whose cache the KV figures are. The architecture: its own cache, the least any engine "
                       "keeps (W tokens on a sliding layer, MLA's latent). transformers: what transformers 5.17's "
                       "cache classes hold (W - 1 tokens on a sliding layer, per-head K and V for DeepSeek-V3.2 "
                       "and GLM-5, K and V repeated per query head for Falcon's new decoder, Mamba-2 states in "
                       "FP32). vLLM 0.11: the pages it reserves per request (16 tokens, 64 with MLA; a window plus "
                       "the prefill chunk on sliding layers; hybrid groups padded), and its token capacity and "
                       "concurrency in Fit. llama.cpp: its cells (padded to 256 per sequence; a window plus 512 on "
                       "sliding layers), INT8 and INT4 as q8_0 and q4_0, recurrent states in FP32. An engine "
                       "without a rule for the model or format says so instead of a figure."),
         .applies = [](const ModelConfig& c) { return c.hasDecoder(); },
         .editor = ChoiceEditor{.choices = {{tr("Architecture"), qint64(core::KvAllocator::Architecture)},
                                            {tr("transformers 5.17"), qint64(core::KvAllocator::Transformers)},
                                            {tr("vLLM 0.11"), qint64(core::KvAllocator::Vllm)},
                                            {tr("llama.cpp"), qint64(core::KvAllocator::LlamaCpp)}},
                                .value = scenarioMember(&Scenario::kvAllocator)}},
        {.field = Field::StateDtype,
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
        {.field = Field::ActivationDtype,
         .label = tr("Activations"),
         .tooltip =
             tr("Number format of the activations: what training stores for the backward pass and what a "
                "prefill chunk's workspace holds. FP8 activations also let training run at the device's FP8 peak."),
         .editor = ChoiceEditor{.choices = dtypeChoices(), .value = scenarioMember(&Scenario::activationDType)}},
        {.field = Field::PrefillChunk,
         .label = tr("Prefill chunk"),
         .tooltip = tr("Prompt tokens processed in one forward pass while prefilling. Sizes the activation workspace "
                       "that serving memory adds to the weights and the cache."),
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 1 << 20,
                                 .spinMaximum = INT_MAX,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::Snap::PowerOfTwo,
                                 .value = scenarioMember(&Scenario::prefillChunk)}},
        {.field = Field::Gpu,
         .label = tr("GPU"),
         .tooltip = tr("The device the model is served and trained on, from the catalogue (Tools > Devices adds "
                       "your own): its memory decides what fits, its bandwidth and throughput the speed."),
         .editor = DeviceEditor{.get = [](const Scenario& s) -> const core::Gpu& { return s.gpu; },
                                .set =
                                    [](Scenario& s, const core::Gpu& gpu) {
                                        s.gpu = gpu;
                                    }}},
        {.field = Field::GpuCount,
         .label = tr("GPUs"),
         .tooltip = tr("Devices sharing the weights and the cache evenly (tensor parallel) when serving; in "
                       "training, the tensor-parallel groups times the data-parallel replicas."),
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 1024,
                                 .spinMaximum = 1 << 16,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::Snap::PowerOfTwo,
                                 .value = scenarioMember(&Scenario::gpuCount)}},
    };
}

std::vector<FieldSpec> trainingFields() {
    return {
        {.field = Field::TrainingTokens,
         .label = tr("Training tokens"),
         .tooltip = tr("Tokens the model sees in training (D; type 15T or 360B). With the parameters it sets the "
                       "training FLOPs (about 6ND) and, with the GPUs and MFU, the training time."),
         .editor = IntegerEditor{.minimum = 1'000'000,
                                 .maximum = 100'000'000'000'000,
                                 .spinMaximum = 10'000'000'000'000'000,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::Snap::TwoDigits,
                                 .numbers = widgets::NumberStyle::Count,
                                 .value = scenarioMember(&Scenario::trainingTokens)}},
        {.field = Field::MicroBatch,
         .label = tr("Micro-batch"),
         .tooltip = tr("Sequences of the sequence length each GPU holds per step. The stored activations grow "
                       "with it."),
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 256,
                                 .spinMaximum = 1 << 16,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::Snap::PowerOfTwo,
                                 .value = scenarioMember(&Scenario::microBatch)}},
        {.field = Field::TensorParallel,
         .label = tr("Tensor parallel"),
         .tooltip = tr("GPUs that split each layer's heads and FFN width (Megatron); it must divide the GPUs, the "
                       "heads and the FFN width. Weights, gradients and most activations are divided by it."),
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 64,
                                 .spinMaximum = 1 << 16,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::Snap::PowerOfTwo,
                                 .value = scenarioMember(&Scenario::tensorParallel)}},
        {.field = Field::ZeroStage,
         .label = tr("ZeRO"),
         .tooltip = tr("What ZeRO shards across the data-parallel GPUs instead of copying it to each: stage 1 the "
                       "optimizer state, 2 also the gradients, 3 also the weights."),
         .editor = ChoiceEditor{.choices = zeroStageChoices(), .value = scenarioMember(&Scenario::zeroStage)}},
        {.field = Field::Recompute,
         .label = tr("Recompute"),
         .tooltip = tr("Activations the backward pass recomputes instead of storing: selective redoes the attention "
                       "core, full reruns each layer from its input. Less memory, more FLOPs."),
         .editor = ChoiceEditor{.choices = namedChoices(core::kAllRecomputes, core::recomputeLabel),
                                .value = scenarioMember(&Scenario::recompute)}},
        {.field = Field::Optimizer,
         .label = tr("Optimizer"),
         .tooltip = tr("Mixed-precision Adam: 16-bit weights, the gradients, and fp32 master weights, momentum and "
                       "variance. Sets the training state per parameter."),
         .editor = ChoiceEditor{.choices = namedChoices(core::kAllOptimizers, core::optimizerLabel),
                                .value = scenarioMember(&Scenario::optimizer)}},
        {.field = Field::Mfu,
         .label = tr("MFU"),
         .tooltip = tr("Model FLOPs utilisation: the share of the GPUs' peak throughput training achieves (30-50% "
                       "is typical). Divides the training time."),
         .editor = RealEditor{.get = [](const ModelConfig&, const Scenario& s) { return s.mfu; },
                              .set = [](ModelConfig&, Scenario& s, double v) { s.mfu = v; },
                              .minimum = 0.01,
                              .percent = true}},
        {.field = Field::FlashAttention,
         .label = tr("FlashAttention"),
         .tooltip = tr("Attention in tiles that never stores the score matrix: training keeps only the softmax "
                       "statistics instead of the s² probabilities per head."),
         .editor = ToggleEditor{.value = scenarioMember(&Scenario::flashAttention)}},
        {.field = Field::Dropout,
         .label = tr("Dropout"),
         .tooltip = tr("Dropout in training, which stores 1-byte masks of the attention probabilities and of the "
                       "attention and FFN outputs. Modern pretraining runs without it."),
         .editor = ToggleEditor{.value = scenarioMember(&Scenario::dropout)}},
    };
}

} // namespace archplay::ui::panels::fieldtables
