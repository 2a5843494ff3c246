// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/layout/WeightItems.h"

#include "core/params/Tensors.h"
#include "core/util/Format.h"
#include "ui/Strings.h"

#include <QCoreApplication>

namespace archplay::ui::views::layout {
namespace {

constexpr std::int64_t kMaxDrawnExperts = 1024;

QString weightTr(const char* text) {
    return QCoreApplication::translate("archplay::ui::views::LayerWeightsView", text);
}
QString exact(std::int64_t value) {
    return qs(core::withThousands(static_cast<std::uint64_t>(value)));
}
QString exact(core::Checked value) {
    return qs(core::withThousands(value.value()));
}
QString count(core::Checked value) {
    return qs(core::shortCount(value.value()));
}

bool startsWith(const std::string& text, const char* prefix) {
    return text.rfind(prefix, 0) == 0;
}

/// "self_attn.q_proj.weight" -> "q_proj"; "mlp.shared_experts.up_proj.weight" -> "up_proj"; biases keep ".bias".
/// A scope is dropped only when what is left names the tensor alone: BERT's "attention.output.dense"
/// and "output.dense" stay whole. T5's "layer.N." sub-layer index is dropped ("SelfAttention.q").
QString shortName(const std::string& name) {
    std::string text = name;
    const std::string suffix = ".weight";
    if (text.size() > suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0) {
        text.erase(text.size() - suffix.size());
    }
    if (startsWith(text, "layer.") && text.size() > 8 && text[7] == '.') {
        text.erase(0, 8);
    }
    for (const char* scope : {"self_attn.", "cross_attn.", "encoder_attn.", "attn.", "attention.", "self_attention.",
                              "mlp.shared_experts.", "mlp.experts.", "mlp."}) {
        if (!startsWith(text, scope)) {
            continue;
        }
        const std::string rest = text.substr(std::string(scope).size());
        const std::string module = rest.ends_with(".bias") ? rest.substr(0, rest.size() - 5) : rest;
        if (module.find('.') == std::string::npos) {
            text = rest;
        }
        break;
    }
    if (text == "gate") {
        return weightTr("router");
    }
    return qs(text);
}

QString storedShape(const core::TensorSpec& tensor) {
    QStringList dims;
    for (core::Checked d : tensor.shape) {
        dims << exact(d);
    }
    return QStringLiteral("[%1]").arg(dims.join(QStringLiteral(", ")));
}

} // namespace

WeightItems weightItems(const core::ModelConfig& config, const core::LayerPlan& layer) {
    WeightItems result;
    enum Group { Attention, Cross, Mixer, Router, Experts, Shared, Ffn, Vectors, GroupCount };
    result.groups.resize(GroupCount);
    result.groups[Attention].title = layer.latent           ? weightTr("Latent attention (MLA)")
                                     : layer.crossAttention ? weightTr("Self-attention")
                                                            : weightTr("Attention");
    result.groups[Cross].title = weightTr("Cross-attention");
    const std::string_view mixer =
        core::mixerName(layer.mixer == core::TokenMixer::AttentionWithMamba2 ? core::TokenMixer::Mamba2 : layer.mixer);
    result.groups[Mixer].title = QString::fromUtf8(mixer.data(), static_cast<qsizetype>(mixer.size()));
    result.groups[Router].title = weightTr("Router");
    result.groups[Experts].title = weightTr("Routed experts");
    result.groups[Shared].title = weightTr("Shared experts");
    result.groups[Ffn].title = weightTr("Feed-forward");
    result.groups[Vectors].title = weightTr("Norms and biases (length to scale)");

    double expertElements = 0;
    core::Checked expertTotal;
    std::int64_t expertCopies = 0;
    core::Checked expertIn;
    core::Checked expertOut;
    QStringList expertTips;
    for (const core::TensorSpec& tensor : core::layerTensors(config, layer)) {
        if (tensor.component == core::Component::Experts) {
            expertElements += static_cast<double>(tensor.elements().value());
            expertTotal += tensor.total();
            expertCopies = tensor.copies;
            if (tensor.shape.size() == 2 && expertIn.value() == 0) {
                expertOut = tensor.shape[0];
                expertIn = tensor.shape[1];
            }
            expertTips << QStringLiteral("%1  %2 each").arg(qs(tensor.name), storedShape(tensor));
            continue;
        }
        WeightItem item;
        item.name = shortName(tensor.name);
        QString tip = weightTr("%1\nstored %2 (%3)\n%4 parameters")
                          .arg(qs(tensor.name), storedShape(tensor),
                               tensor.inFirst ? weightTr("[in, out], Conv1D") : weightTr("[out, in]"),
                               qs(core::withThousands(tensor.total().value())));
        WeightRole role = WeightRole::Vector;
        if (tensor.shape.size() == 1) {
            item.vector = true;
            item.elements = static_cast<double>(tensor.shape[0].value());
            item.group = Vectors;
            item.detail = QStringLiteral("%1 · %2").arg(exact(tensor.shape[0]), count(tensor.total()));
        } else {
            // Drawn as [out, in] whatever the storage: a Conv1D weight is the transposed matrix.
            const bool inFirst = tensor.inFirst && tensor.shape.size() > 1;
            const core::Checked out = inFirst ? tensor.shape[1] : tensor.shape[0];
            const core::Checked in = inFirst                   ? tensor.shape[0]
                                     : tensor.shape.size() > 1 ? tensor.shape[1]
                                                               : core::Checked(1);
            item.elements = static_cast<double>(tensor.elements().value());
            item.aspect = in.value() > 0 ? static_cast<double>(out.value()) / static_cast<double>(in.value()) : 1.0;
            item.detail = QStringLiteral("%1 × %2 · %3").arg(exact(in), exact(out), count(tensor.total()));
            if (tensor.crossAttention) {
                item.group = Cross;
                role = WeightRole::CrossAttention;
            } else if (tensor.component == core::Component::Mixer) {
                item.group = Mixer;
                role = WeightRole::Mixer;
            } else if (tensor.component == core::Component::Attention) {
                item.group = Attention;
                role = WeightRole::Attention;
            } else if (tensor.component == core::Component::Router) {
                item.group = Router;
                role = WeightRole::Router;
            } else if (tensor.component == core::Component::SharedExperts) {
                item.group = Shared;
                role = WeightRole::SharedExperts;
            } else {
                item.group = Ffn;
                role = WeightRole::Ffn;
            }
        }
        result.items.push_back(item);
        result.roles.push_back(role);
        result.toolTips.push_back(tip);
    }
    if (expertCopies > 0) {
        WeightItem experts;
        experts.name = weightTr("%1 experts: gate | up | down").arg(expertCopies);
        // Beyond a thousand cells the grid is noise and slow to draw: one block of the same area.
        const bool oneBlock = expertCopies > kMaxDrawnExperts;
        experts.detail = weightTr("%1 × 3 × (%2 × %3) · %4")
                             .arg(exact(expertCopies), exact(expertIn), exact(expertOut), count(expertTotal));
        experts.elements = oneBlock ? expertElements * static_cast<double>(expertCopies) : expertElements;
        experts.aspect = 1.0;
        experts.copies = oneBlock ? 1 : static_cast<int>(expertCopies);
        if (oneBlock) {
            experts.name = weightTr("%1 experts (one block)").arg(expertCopies);
            result.expertsAsBlock = true;
        }
        experts.group = Experts;
        result.items.push_back(experts);
        result.roles.push_back(WeightRole::Experts);
        result.toolTips.push_back(
            weightTr("Routed experts, each a gated MLP:\n%1\n%2 parameters in all")
                .arg(expertTips.join(QLatin1Char('\n')), qs(core::withThousands(expertTotal.value()))));
    }
    return result;
}

} // namespace archplay::ui::views::layout
