// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "ui/views/Views.h"

#include <QPalette>
#include <QSize>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

class QWidget;

namespace archplay::ui::views {
class AnalysisView;
}

namespace archplay::ui::exports {

/// A private set of every live view (createViews()) in a hidden host, for exports that do not come
/// from the window: the command line, the reports. One analysis, one palette, one selected layer.
class OffscreenViews {
public:
    /// `layer` is a position in the plan; absent or out of range: the views' default layer.
    OffscreenViews(const core::Analysis& analysis, const QPalette& palette, std::optional<std::int64_t> layer);
    ~OffscreenViews();
    OffscreenViews(const OffscreenViews&) = delete;
    OffscreenViews& operator=(const OffscreenViews&) = delete;

    /// The view of this kind, resized to `size` (some views place child widgets on resize).
    views::AnalysisView* view(core::ViewKind kind, const QSize& size) const;
    /// The layer the views show, as a position in the plan; -1 for an empty plan.
    std::int64_t layer() const { return m_layer; }
    const QPalette& palette() const;

private:
    std::unique_ptr<QWidget> m_host;
    views::ViewSet m_views;
    std::int64_t m_layer = -1;
};

} // namespace archplay::ui::exports
