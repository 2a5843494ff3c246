// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string_view>

namespace archplay::core {

/// The views of a config: the window's tabs, the figures of reports and image exports. The names
/// are stable (command lines, settings, figure file names).
enum class ViewKind {
    Overview,
    Breakdown,
    ParameterChart,
    LayerStack,
    LayerWeights,
    AttentionMask,
    KvCache,
    MoeRouting,
    Derivation,
    Compute,
    Memory,
    Speed
};

/// In tab order.
inline constexpr ViewKind kAllViewKinds[] = {ViewKind::Overview,   ViewKind::Breakdown,    ViewKind::ParameterChart,
                                             ViewKind::LayerStack, ViewKind::LayerWeights, ViewKind::AttentionMask,
                                             ViewKind::KvCache,    ViewKind::MoeRouting,   ViewKind::Derivation,
                                             ViewKind::Compute,    ViewKind::Memory,       ViewKind::Speed};

/// "overview", "breakdown", "param-chart", "layer-stack", "layer-weights", "attention-mask", "kv-cache",
/// "moe-routing", "derivation", "compute", "memory", "speed".
std::string_view toString(ViewKind kind);
/// Parses the names above; nullopt for anything else.
std::optional<ViewKind> parseViewKind(std::string_view name);

} // namespace archplay::core
