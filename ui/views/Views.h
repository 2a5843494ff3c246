// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/io/ViewKind.h"

#include <vector>

class QWidget;

namespace archplay::ui::views {

class AnalysisView;
class LayerSelection;

/// Every live view, with the layer selection the one-layer views share.
struct ViewSet {
    std::vector<AnalysisView*> views; ///< in tab order (core::kAllViewKinds)
    LayerSelection* layerSelection = nullptr;

    /// The view of this kind (every kind has one).
    AnalysisView* find(core::ViewKind kind) const;
};

/// Creates every view, parented to `parent`, the overview first. The layer stack picks the layer;
/// the weight matrices, masks and routing views, and every tile of the overview, follow the same
/// selection.
ViewSet createViews(QWidget* parent);

} // namespace archplay::ui::views
