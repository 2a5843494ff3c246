// SPDX-License-Identifier: GPL-3.0-or-later
// What the layer stack draws, item by item (PaintedView::drawnItems()): after an edit the tile
// repaints only the items that changed.
#include "ui/views/KindNames.h"
#include "ui/views/LayerStackView.h"
#include "ui/views/ViewColors.h"
#include "ui/widgets/ShapedText.h"

#include <utility>

namespace archplay::ui::views {

std::vector<PaintedView::DrawnItem> LayerStackView::drawnItems(const QRectF& target) const {
    // Each item as paintContent() draws it, with a digest of what decides its pixels (colours
    // follow from the palette, which repaints everything when it changes, and the layer's kinds).
    std::vector<DrawnItem> items;
    paintChrome(nullptr, target, &items);
    const layout::LayerStackLayout& stack = cachedLayout(target);
    const core::Analysis& a = analysis();
    const QPalette pal = snapshot().palette;
    const std::int64_t selected = selectedLayer();
    const widgets::TextMetrics smallMetrics(smallFont());
    if (!stack.crossLinks.empty()) {
        QRectF lines = QRectF(stack.crossFeed.p1(), stack.crossFeed.p2()).normalized();
        size_t digest = 0;
        for (const QLineF& link : stack.crossLinks) {
            lines |= QRectF(link.p1(), link.p2()).normalized();
            digest = qHashMulti(digest, link.x1(), link.y1(), link.x2(), link.y2());
        }
        lines |= QRectF(stack.crossBus.p1(), stack.crossBus.p2()).normalized();
        items.push_back(drawnItem(
            lines,
            qHashMulti(digest, stack.crossFeed.x1(), stack.crossFeed.y1(), stack.crossBus.x1(), stack.crossBus.y2()),
            8));
    }
    for (std::size_t c = 0; c < stack.columns.size(); ++c) {
        const layout::StackColumn& column = stack.columns[c];
        const layout::StackColumnInput& input = m_columns[c];
        if (!column.title.isEmpty()) {
            items.push_back(drawnItem(column.title, qHash(input.title)));
        }
        for (const auto& [box, label] : {std::pair{column.top, input.topLabel}, std::pair{column.norm, input.normLabel},
                                         std::pair{column.bottom, input.bottomLabel}}) {
            if (!box.isEmpty()) {
                items.push_back(drawnItem(box, qHashMulti(0, label, a.config.outputHead)));
            }
        }
        const bool roomForWords =
            !column.slabs.empty() && column.slabs.front().rect.height() >= smallMetrics.height() * 1.4;
        for (const layout::StackSlab& slab : column.slabs) {
            const core::LayerPlan& layer = a.plan.layers[static_cast<std::size_t>(slab.planIndex)];
            size_t digest = qHashMulti(0, colors::attention(layer, pal).rgba(), colors::ffn(layer.ffn, pal).rgba(),
                                       slab.cross.isEmpty(), slab.planIndex == m_hover, slab.attention.width(),
                                       slab.ffn.width(), roomForWords);
            if (roomForWords) {
                digest = qHashMulti(digest, attentionName(layer), ffnName(a.config, layer.ffn));
            }
            items.push_back(drawnItem(slab.rect, digest));
            if (slab.planIndex == selected) {
                items.push_back(drawnItem(slab.rect.adjusted(-2, -2, 2, 2), 1, 3));
            }
            if (!column.parameterHeader.isEmpty()) {
                items.push_back(drawnItem(slab.parameterBar, 2));
                items.push_back(drawnItem(slab.cacheBar, qHash(colors::dtype(a.kv.dtype, pal).rgba())));
            }
        }
        if (!column.parameterHeader.isEmpty()) {
            items.push_back(drawnItem(column.parameterHeader, qHash(m_parameterHeader)));
            items.push_back(drawnItem(column.cacheHeader, qHash(m_cacheHeader)));
        }
        for (const QLineF& bracket : column.brackets) {
            items.push_back(drawnItem(QRectF(bracket.p1(), bracket.p2()).normalized().adjusted(-3, 0, 0, 0),
                                      qHashMulti(3, bracket.x1(), bracket.y1(), bracket.x2(), bracket.y2()), 2));
        }
        for (const layout::StackRunLabel& label : column.labels) {
            items.push_back(drawnItem(label.text, qHash(label.lines.join(QChar(0x1f)))));
        }
        for (const layout::StackTick& tick : column.ticks) {
            items.push_back(drawnItem(tick.text, qHashMulti(4, tick.layer, c > 0)));
        }
    }
    return items;
}

} // namespace archplay::ui::views
