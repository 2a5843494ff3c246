// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

#include <vector>

namespace archplay::ui::exports {

/// One unbreakable piece of a paged report as the paginator sees it: a heading, a paragraph, a
/// table row, a figure, a block of the derivation. Units: device-independent pixels.
struct FlowItem {
    qreal height = 0;
    qreal spaceBefore = 0;     ///< gap above the item; dropped at the top of a page
    bool keepWithNext = false; ///< never the last item on a page (headings, table headers)
    bool pageBreakBefore = false;
    qreal repeatedHeader = 0; ///< a table row: height of the header drawn again above it when it starts a page
    qreal minHeight = 0;      ///< a figure: the least it may shrink to so as to finish a page; 0: it does not
};

/// Where an item landed.
struct FlowPlacement {
    int page = 0;                ///< from 0
    qreal top = 0;               ///< from the top of the page's content area
    bool headerRepeated = false; ///< the item's table header is drawn at the top of the page, above `top`
    qreal height = 0;            ///< the height it is drawn at: its own, or less for a shrunk figure
};

/// Places `items` top to bottom on pages whose content area is `pageHeight` tall. An item that does
/// not fit below the previous one starts a new page; a chain of keep-with-next items moves to the
/// next page together with the item that follows it when the chain fits on a fresh page; an item
/// taller than a page gets a page of its own (the caller shrinks it to fit). A shrinkable item
/// (minHeight > 0) that does not fit below the previous one but would at minHeight is shrunk to the
/// room left rather than leave the rest of the page empty. Items never overlap and, except for
/// those taller than a page, never cross the bottom of the content area.
std::vector<FlowPlacement> paginate(const std::vector<FlowItem>& items, qreal pageHeight);

/// Pages used by a pagination: 1 for no items.
int pageCount(const std::vector<FlowPlacement>& placements);

} // namespace archplay::ui::exports
