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
    m_views = views::createViews(m_host.get());
    const auto shared = std::make_shared<const core::Analysis>(analysis);
    for (views::AnalysisView* view : m_views.views) {
        view->resize(m_host->size());
        view->setSharedAnalysis(shared);
    }
    // The views that show one layer share one selection.
    m_views.layerSelection->setLayer(layer.value_or(-1));
    m_layer = m_views.layerSelection->resolve(analysis.plan);
}

OffscreenViews::~OffscreenViews() = default;

views::AnalysisView* OffscreenViews::view(core::ViewKind kind, const QSize& size) const {
    views::AnalysisView* view = m_views.find(kind);
    if (view && view->size() != size) {
        view->resize(size);
    }
    if (view) {
        view->ensureCurrent();
    }
    return view;
}

const QPalette& OffscreenViews::palette() const {
    return m_host->palette();
}

} // namespace archplay::ui::exports
