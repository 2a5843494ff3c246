// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/LayerSelection.h"

namespace archplay::ui::views {

void LayerSelection::setLayer(std::int64_t layer) {
    if (layer == m_layer) {
        return;
    }
    m_layer = layer;
    emit layerChanged(layer);
}

std::int64_t LayerSelection::resolve(const core::ModelPlan& plan) const {
    if (m_layer >= 0 && m_layer < static_cast<std::int64_t>(plan.layers.size())) {
        return m_layer;
    }
    return defaultLayer(plan);
}

std::int64_t LayerSelection::defaultLayer(const core::ModelPlan& plan) {
    if (plan.layers.empty()) {
        return -1;
    }
    std::int64_t firstDecoder = -1;
    for (std::size_t i = 0; i < plan.layers.size(); ++i) {
        if (plan.layers[i].ffn == core::FfnKind::Moe) {
            return static_cast<std::int64_t>(i);
        }
        if (firstDecoder < 0 && plan.layers[i].stack == core::Stack::Decoder) {
            firstDecoder = static_cast<std::int64_t>(i);
        }
    }
    return firstDecoder >= 0 ? firstDecoder : 0;
}

} // namespace archplay::ui::views
