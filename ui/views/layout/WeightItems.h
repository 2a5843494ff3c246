// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/LayerPlan.h"
#include "core/config/ModelConfig.h"
#include "ui/views/layout/WeightLayout.h"

#include <QString>

#include <vector>

namespace archplay::ui::views::layout {

/// What a drawn weight is, for its colour.
enum class WeightRole { Attention, CrossAttention, Mixer, Router, Experts, SharedExperts, Ffn, Vector };

/// The drawable weights of one layer, from core::layerTensors().
struct WeightItems {
    std::vector<WeightItem> items;
    std::vector<WeightGroup> groups;
    std::vector<WeightRole> roles; ///< aligned with items
    std::vector<QString> toolTips; ///< aligned with items: the Hugging Face names, stored shapes, exact counts
    bool expertsAsBlock = false;   ///< too many routed experts for a grid: one block of their total area
};

/// Turns the layer's tensors into items: matrices drawn d_in rows by d_out columns, the three
/// matrices of a routed expert merged into one cell per expert, norms and biases as vectors.
/// Counts and shapes are the core's; only the drawing's aspect is derived here.
WeightItems weightItems(const core::ModelConfig& config, const core::LayerPlan& layer);

} // namespace archplay::ui::views::layout
