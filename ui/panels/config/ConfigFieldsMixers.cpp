// SPDX-License-Identifier: GPL-3.0-or-later
// The "Linear attention and SSM" fields of the config panel: which layers mix tokens without softmax
// attention, and the dimensions of those mixers.
#include "core/config/ConfigEdits.h"
#include "ui/panels/config/ConfigFieldBuilders.h"
#include "ui/panels/config/ConfigFields.h"

namespace archplay::ui::panels {

using namespace fieldbuilders;

namespace {

constexpr auto M = FieldSection::Mixers;

bool usesDeltaNet(const core::ModelConfig& c) {
    return c.usesMixer(core::TokenMixer::GatedDeltaNet);
}
bool usesMamba(const core::ModelConfig& c) {
    return c.usesMixer(core::TokenMixer::Mamba2) || c.usesMixer(core::TokenMixer::AttentionWithMamba2);
}
bool usesShortConv(const core::ModelConfig& c) {
    return c.usesMixer(core::TokenMixer::ShortConv);
}

template <typename Mixer>
FieldSpec mixerInteger(QString key, QString label, QString tooltip, qint64 minimum, qint64 maximum,
                       widgets::SliderScale scale, core::Snap snap, Mixer core::ModelConfig::*mixer,
                       std::int64_t Mixer::*member, FieldSpec::Predicate applies) {
    FieldSpec spec = integer(M, std::move(key), std::move(label), std::move(tooltip), minimum, maximum, scale, snap,
                             nullptr, 1 << 20);
    spec.get = [mixer, member](const core::ModelConfig& c, const core::Scenario&) {
        return qint64((c.*mixer).*member);
    };
    spec.set = [mixer, member](core::ModelConfig& c, core::Scenario&, qint64 v, const core::edits::EditContext&) {
        (c.*mixer).*member = v;
    };
    spec.applies = std::move(applies);
    return spec;
}

} // namespace

std::vector<FieldSpec> mixerFields() {
    std::vector<FieldSpec> fields;
    {
        FieldSpec spec;
        spec.section = M;
        spec.key = QStringLiteral("token_mixers");
        spec.jsonKey = QStringLiteral("token_mixers, layer_types, layers_block_type");
        spec.label = tr("Mixer per layer");
        spec.tooltip = tr("One letter per layer, repeated when shorter than the stack: A attention, D Gated "
                          "DeltaNet, L lightning attention, M Mamba-2, C short convolution, P attention and "
                          "Mamba-2 in parallel. Only attention keeps a per-token KV cache; the others keep a "
                          "fixed state per sequence. Empty: attention in every layer.");
        spec.kind = FieldKind::Text;
        spec.getText = [](const core::ModelConfig& c) {
            return QString::fromStdString(core::edits::formatMixers(c.mixers));
        };
        spec.setText = [](core::ModelConfig& c, const QString& text) {
            auto mixers = core::edits::parseMixers(text.toStdString());
            if (!mixers) {
                return false;
            }
            c.mixers = std::move(*mixers);
            return true;
        };
        spec.applies = [](const core::ModelConfig& c) {
            return c.architecture == core::ArchitectureKind::DecoderOnly;
        };
        fields.push_back(std::move(spec));
    }

    using GDN = core::GatedDeltaNet;
    fields.push_back(mixerInteger(QStringLiteral("linear_num_key_heads"), tr("DeltaNet K heads"),
                                  tr("Query/key heads of a Gated DeltaNet layer."), 1, 128,
                                  widgets::SliderScale::Linear, core::Snap::None, &core::ModelConfig::deltaNet,
                                  &GDN::numKeyHeads, usesDeltaNet));
    fields.push_back(mixerInteger(QStringLiteral("linear_num_value_heads"), tr("DeltaNet V heads"),
                                  tr("Value heads of a Gated DeltaNet layer, a multiple of the key heads; each "
                                     "keeps a key-dim x value-dim recurrent state."),
                                  1, 256, widgets::SliderScale::Linear, core::Snap::None, &core::ModelConfig::deltaNet,
                                  &GDN::numValueHeads, usesDeltaNet));
    fields.push_back(mixerInteger(QStringLiteral("linear_key_head_dim"), tr("DeltaNet K dim"),
                                  tr("Width of one Gated DeltaNet query/key head."), 16, 512,
                                  widgets::SliderScale::Linear, core::Snap::Multiple16, &core::ModelConfig::deltaNet,
                                  &GDN::keyHeadDim, usesDeltaNet));
    fields.push_back(mixerInteger(QStringLiteral("linear_value_head_dim"), tr("DeltaNet V dim"),
                                  tr("Width of one Gated DeltaNet value head."), 16, 512, widgets::SliderScale::Linear,
                                  core::Snap::Multiple16, &core::ModelConfig::deltaNet, &GDN::valueHeadDim,
                                  usesDeltaNet));
    fields.push_back(mixerInteger(QStringLiteral("linear_conv_kernel_dim"), tr("DeltaNet conv"),
                                  tr("Kernel of the causal convolution over q, k and v; its state holds kernel "
                                     "inputs per channel, as transformers allocates it."),
                                  1, 16, widgets::SliderScale::Linear, core::Snap::None, &core::ModelConfig::deltaNet,
                                  &GDN::convKernel, usesDeltaNet));

    using Mamba = core::Mamba2Mixer;
    fields.push_back(mixerInteger(QStringLiteral("mamba_n_heads"), tr("Mamba heads"),
                                  tr("Heads of a Mamba-2 layer; heads x head dim is the SSM width."), 1, 1024,
                                  widgets::SliderScale::Logarithmic, core::Snap::PowerOfTwo, &core::ModelConfig::mamba,
                                  &Mamba::numHeads, usesMamba));
    fields.push_back(mixerInteger(QStringLiteral("mamba_d_head"), tr("Mamba head dim"),
                                  tr("Width of one Mamba-2 head."), 8, 512, widgets::SliderScale::Linear,
                                  core::Snap::Multiple16, &core::ModelConfig::mamba, &Mamba::headDim, usesMamba));
    fields.push_back(mixerInteger(QStringLiteral("mamba_d_state"), tr("SSM state"),
                                  tr("State size N per head: the recurrent state is heads x head dim x N."), 8, 1024,
                                  widgets::SliderScale::Logarithmic, core::Snap::PowerOfTwo, &core::ModelConfig::mamba,
                                  &Mamba::stateSize, usesMamba));
    fields.push_back(mixerInteger(QStringLiteral("mamba_n_groups"), tr("SSM groups"),
                                  tr("Groups sharing the B and C projections; they divide the heads."), 1, 64,
                                  widgets::SliderScale::Linear, core::Snap::None, &core::ModelConfig::mamba,
                                  &Mamba::numGroups, usesMamba));
    fields.push_back(mixerInteger(QStringLiteral("mamba_d_conv"), tr("Mamba conv"),
                                  tr("Kernel of the causal convolution over x, B and C; its state holds kernel "
                                     "inputs per channel, as transformers allocates it."),
                                  1, 16, widgets::SliderScale::Linear, core::Snap::None, &core::ModelConfig::mamba,
                                  &Mamba::convKernel, usesMamba));

    fields.push_back(mixerInteger(QStringLiteral("conv_L_cache"), tr("Short conv"),
                                  tr("Kernel of LFM2's gated short convolution over the hidden width; its state "
                                     "holds kernel inputs per channel."),
                                  1, 64, widgets::SliderScale::Linear, core::Snap::None, &core::ModelConfig::shortConv,
                                  &core::ShortConvMixer::kernel, usesShortConv));
    return fields;
}

} // namespace archplay::ui::panels
