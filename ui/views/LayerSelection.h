// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/LayerPlan.h"

#include <QObject>

#include <cstdint>

namespace archplay::ui::views {

/// The layer the user is looking at, shared by the views that show one layer (the stack picks it,
/// the weight matrices, mask and routing views follow). View state, not model state: it is not
/// undoable and not part of the analysis.
class LayerSelection : public QObject {
    Q_OBJECT

public:
    using QObject::QObject;

    /// Position in ModelPlan::layers, or -1 for "the default layer".
    std::int64_t layer() const { return m_layer; }
    void setLayer(std::int64_t layer);

    /// The selected layer if it exists in `plan`, else defaultLayer(plan); -1 for an empty plan.
    std::int64_t resolve(const core::ModelPlan& plan) const;
    /// The most telling layer of a plan: the first MoE layer, else the first decoder layer, else 0.
    static std::int64_t defaultLayer(const core::ModelPlan& plan);

signals:
    void layerChanged(std::int64_t layer);

private:
    std::int64_t m_layer = -1;
};

} // namespace archplay::ui::views
