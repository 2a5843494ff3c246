// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/export/OffscreenViews.h"

#include "ui/views/AnalysisView.h"
#include "ui/views/LayerSelection.h"
#include "ui/views/PaintedView.h"
#include "ui/views/Views.h"

#include <QWidget>

namespace archplay::ui::exports {

OffscreenViews::OffscreenViews(const core::Analysis& analysis, const QPalette& palette,
                               std::optional<std::int64_t> layer)
    : m_host(std::make_unique<QWidget>()) {
    m_host->setAttribute(Qt::WA_DontShowOnScreen);
    m_host->setPalette(palette);
    m_host->resize(1280, 800);
    m_views = createViews(m_host.get());
    for (AnalysisView* view : m_views) {
        view->resize(m_host->size());
        view->setAnalysis(analysis);
        // The views that show one layer share the stack view's selection.
        if (auto* painted = dynamic_cast<PaintedView*>(view);
            painted && view->viewId() == QLatin1String("layer-stack")) {
            LayerSelection* selection = painted->layerSelection();
            selection->setLayer(layer.value_or(-1));
            m_layer = selection->resolve(analysis.plan);
        }
    }
}

OffscreenViews::~OffscreenViews() = default;

AnalysisView* OffscreenViews::view(const QString& viewId, const QSize& size) const {
    for (AnalysisView* view : m_views) {
        if (view->viewId() == viewId) {
            if (view->size() != size) {
                view->resize(size);
            }
            return view;
        }
    }
    return nullptr;
}

const QPalette& OffscreenViews::palette() const {
    return m_host->palette();
}

} // namespace archplay::ui::exports
