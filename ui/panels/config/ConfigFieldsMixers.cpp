// SPDX-License-Identifier: GPL-3.0-or-later
// The "Linear attention and SSM" fields of the config panel: which layers mix tokens without softmax
// attention, and the dimensions of those mixers.
#include "ui/panels/config/ConfigFieldAccess.h"

namespace archplay::ui::panels::fieldtables {

using namespace Qt::StringLiterals;
using core::Field;

namespace {

using DeltaNet = core::GatedDeltaNet;
using Mamba = core::Mamba2Mixer;
using Mamba1 = core::Mamba1Mixer;

bool usesDeltaNet(const ModelConfig& c) {
    return c.usesMixer(core::TokenMixer::GatedDeltaNet);
}
bool usesMamba(const ModelConfig& c) {
    return c.usesMixer(core::TokenMixer::Mamba2) || c.usesMixer(core::TokenMixer::AttentionWithMamba2);
}
bool usesMamba1(const ModelConfig& c) {
    return c.usesMixer(core::TokenMixer::Mamba);
}

} // namespace

std::vector<FieldSpec> mixerFields() {
    constexpr auto deltaNet = &ModelConfig::deltaNet;
    constexpr auto mamba = &ModelConfig::mamba;
    constexpr auto mamba1 = &ModelConfig::mamba1;
    return {
        {.field = Field::TokenMixers,
         .jsonKey = u"token_mixers, layer_types, layers_block_type"_s,
         .label = tr("Mixer per layer"),
         .tooltip = tr("One letter per layer, repeated when shorter than the stack: A attention, D Gated "
                       "DeltaNet, L lightning attention, M Mamba-2, S Mamba (Mamba-1), C short convolution, P "
                       "attention and Mamba-2 in parallel. Only attention keeps a per-token KV cache; the others "
                       "keep a fixed state per sequence. Empty: attention in every layer."),
         .applies = [](const ModelConfig& c) { return c.architecture == core::ArchitectureKind::DecoderOnly; },
         .editor = listText(&ModelConfig::mixers, core::edits::formatMixers, core::edits::parseMixers)},
        {.field = Field::LinearNumKeyHeads,
         .label = tr("DeltaNet K heads"),
         .tooltip = tr("Query/key heads of a Gated DeltaNet layer."),
         .applies = usesDeltaNet,
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 128,
                                 .spinMaximum = 1 << 20,
                                 .value = member(deltaNet, &DeltaNet::numKeyHeads)}},
        {.field = Field::LinearNumValueHeads,
         .label = tr("DeltaNet V heads"),
         .tooltip = tr("Value heads of a Gated DeltaNet layer, a multiple of the key heads; each keeps a "
                       "key-dim x value-dim recurrent state."),
         .applies = usesDeltaNet,
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 256,
                                 .spinMaximum = 1 << 20,
                                 .value = member(deltaNet, &DeltaNet::numValueHeads)}},
        {.field = Field::LinearKeyHeadDim,
         .label = tr("DeltaNet K dim"),
         .tooltip = tr("Width of one Gated DeltaNet query/key head."),
         .applies = usesDeltaNet,
         .editor = IntegerEditor{.minimum = 16,
                                 .maximum = 512,
                                 .spinMaximum = 1 << 20,
                                 .snap = core::Snap::Multiple16,
                                 .value = member(deltaNet, &DeltaNet::keyHeadDim)}},
        {.field = Field::LinearValueHeadDim,
         .label = tr("DeltaNet V dim"),
         .tooltip = tr("Width of one Gated DeltaNet value head."),
         .applies = usesDeltaNet,
         .editor = IntegerEditor{.minimum = 16,
                                 .maximum = 512,
                                 .spinMaximum = 1 << 20,
                                 .snap = core::Snap::Multiple16,
                                 .value = member(deltaNet, &DeltaNet::valueHeadDim)}},
        {.field = Field::LinearConvKernelDim,
         .label = tr("DeltaNet conv"),
         .tooltip = tr("Kernel of the causal convolution over q, k and v; its state holds kernel inputs per "
                       "channel, as transformers allocates it."),
         .applies = usesDeltaNet,
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 16,
                                 .spinMaximum = 1 << 20,
                                 .value = member(deltaNet, &DeltaNet::convKernel)}},
        {.field = Field::MambaNHeads,
         .label = tr("Mamba heads"),
         .tooltip = tr("Heads of a Mamba-2 layer; heads x head dim is the SSM width."),
         .applies = usesMamba,
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 1024,
                                 .spinMaximum = 1 << 20,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::Snap::PowerOfTwo,
                                 .value = member(mamba, &Mamba::numHeads)}},
        {.field = Field::MambaDHead,
         .label = tr("Mamba head dim"),
         .tooltip = tr("Width of one Mamba-2 head."),
         .applies = usesMamba,
         .editor = IntegerEditor{.minimum = 8,
                                 .maximum = 512,
                                 .spinMaximum = 1 << 20,
                                 .snap = core::Snap::Multiple16,
                                 .value = member(mamba, &Mamba::headDim)}},
        {.field = Field::MambaDState,
         .label = tr("SSM state"),
         .tooltip = tr("State size N per head: the recurrent state is heads x head dim x N."),
         .applies = usesMamba,
         .editor = IntegerEditor{.minimum = 8,
                                 .maximum = 1024,
                                 .spinMaximum = 1 << 20,
                                 .scale = Scale::Logarithmic,
                                 .snap = core::Snap::PowerOfTwo,
                                 .value = member(mamba, &Mamba::stateSize)}},
        {.field = Field::MambaNGroups,
         .label = tr("SSM groups"),
         .tooltip = tr("Groups sharing the B and C projections; they divide the heads."),
         .applies = usesMamba,
         .editor =
             IntegerEditor{
                 .minimum = 1, .maximum = 64, .spinMaximum = 1 << 20, .value = member(mamba, &Mamba::numGroups)}},
        {.field = Field::MambaDConv,
         .label = tr("Mamba conv"),
         .tooltip = tr("Kernel of the causal convolution over x, B and C; its state holds kernel inputs per "
                       "channel, as transformers allocates it."),
         .applies = usesMamba,
         .editor =
             IntegerEditor{
                 .minimum = 1, .maximum = 16, .spinMaximum = 1 << 20, .value = member(mamba, &Mamba::convKernel)}},
        {.field = Field::MambaInnerSize,
         .jsonKey = u"intermediate_size, expand"_s,
         .label = tr("Mamba width"),
         .tooltip = tr("Inner width of a Mamba (Mamba-1) layer, expand x hidden size: in_proj makes x and the gate "
                       "z of this width, and the SSM state holds N per channel."),
         .applies = usesMamba1,
         .editor = IntegerEditor{.minimum = 16,
                                 .maximum = 65536,
                                 .spinMaximum = 1 << 24,
                                 .scale = Scale::Logarithmic,
                                 .value = member(mamba1, &Mamba1::innerWidth)}},
        {.field = Field::MambaStateSize,
         .jsonKey = u"state_size"_s,
         .label = tr("Mamba state"),
         .tooltip = tr("State size N per channel of a Mamba (Mamba-1) layer: the recurrent state is width x N."),
         .applies = usesMamba1,
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 1024,
                                 .spinMaximum = 1 << 20,
                                 .scale = Scale::Logarithmic,
                                 .value = member(mamba1, &Mamba1::stateSize)}},
        {.field = Field::MambaTimeStepRank,
         .jsonKey = u"time_step_rank"_s,
         .label = tr("Time-step rank"),
         .tooltip = tr("Rank of the low-rank time-step projection (x_proj, dt_proj) of a Mamba layer; \"auto\" "
                       "in config.json is hidden size / 16, rounded up."),
         .applies = usesMamba1,
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 4096,
                                 .spinMaximum = 1 << 20,
                                 .scale = Scale::Logarithmic,
                                 .value = member(mamba1, &Mamba1::timeStepRank)}},
        {.field = Field::MambaConvKernel,
         .jsonKey = u"conv_kernel"_s,
         .label = tr("Mamba conv"),
         .tooltip = tr("Kernel of a Mamba layer's causal convolution over x; its state holds kernel inputs per "
                       "channel."),
         .applies = usesMamba1,
         .editor =
             IntegerEditor{
                 .minimum = 1, .maximum = 16, .spinMaximum = 1 << 20, .value = member(mamba1, &Mamba1::convKernel)}},
        {.field = Field::ConvLCache,
         .label = tr("Short conv"),
         .tooltip = tr("Kernel of LFM2's gated short convolution over the hidden width; its state holds kernel "
                       "inputs per channel."),
         .applies = [](const ModelConfig& c) { return c.usesMixer(core::TokenMixer::ShortConv); },
         .editor = IntegerEditor{.minimum = 1,
                                 .maximum = 64,
                                 .spinMaximum = 1 << 20,
                                 .value = member(&ModelConfig::shortConv, &core::ShortConvMixer::kernel)}},
    };
}

} // namespace archplay::ui::panels::fieldtables
