// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/Views.h"

#include "ui/views/AttentionMaskView.h"
#include "ui/views/BreakdownTableView.h"
#include "ui/views/ComputeView.h"
#include "ui/views/DerivationView.h"
#include "ui/views/KvCacheView.h"
#include "ui/views/LayerSelection.h"
#include "ui/views/LayerStackView.h"
#include "ui/views/LayerWeightsView.h"
#include "ui/views/MemoryView.h"
#include "ui/views/MoeRoutingView.h"
#include "ui/views/OverviewPage.h"
#include "ui/views/SpeedView.h"
#include "ui/views/charts/ParameterChartView.h"

namespace archplay::ui::views {

AnalysisView* ViewSet::find(core::ViewKind kind) const {
    for (AnalysisView* view : views) {
        if (view->kind() == kind) {
            return view;
        }
    }
    return nullptr;
}

ViewSet createViews(QWidget* parent) {
    // The views that show one layer follow the layer picked in the stack.
    auto* stack = new LayerStackView(parent);
    auto* selection = new LayerSelection(parent ? static_cast<QObject*>(parent) : stack);
    stack->setLayerSelection(selection);
    auto* weights = new LayerWeightsView(parent);
    weights->setLayerSelection(selection);
    auto* masks = new AttentionMaskView(parent);
    masks->setLayerSelection(selection);
    auto* routing = new MoeRoutingView(parent);
    routing->setLayerSelection(selection);
    auto* overview = new OverviewPage(parent);
    overview->setLayerSelection(selection);
    ViewSet set;
    set.layerSelection = selection;
    set.views = {
        overview,
        new BreakdownTableView(parent),
        new ParameterChartView(parent),
        stack,
        weights,
        masks,
        new KvCacheView(parent),
        routing,
        new DerivationView(parent),
        new ComputeView(parent),
        new MemoryView(parent),
        new SpeedView(parent),
    };
    return set;
}

} // namespace archplay::ui::views
