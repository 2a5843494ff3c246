// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/ViewKind.h"

namespace archplay::core {

std::string_view toString(ViewKind kind) {
    switch (kind) {
    case ViewKind::Overview:
        return "overview";
    case ViewKind::Breakdown:
        return "breakdown";
    case ViewKind::ParameterChart:
        return "param-chart";
    case ViewKind::LayerStack:
        return "layer-stack";
    case ViewKind::LayerWeights:
        return "layer-weights";
    case ViewKind::AttentionMask:
        return "attention-mask";
    case ViewKind::KvCache:
        return "kv-cache";
    case ViewKind::MoeRouting:
        return "moe-routing";
    case ViewKind::Derivation:
        return "derivation";
    case ViewKind::Compute:
        return "compute";
    case ViewKind::Memory:
        return "memory";
    case ViewKind::Speed:
        return "speed";
    }
    return {};
}

std::optional<ViewKind> parseViewKind(std::string_view name) {
    for (ViewKind kind : kAllViewKinds) {
        if (toString(kind) == name) {
            return kind;
        }
    }
    return std::nullopt;
}

} // namespace archplay::core
