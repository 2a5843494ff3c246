// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/export/ReportLayout.h"

#include <algorithm>

namespace archplay::ui::exports {
namespace {

/// Height from the start of item `first` through the end of the first item that is not kept with
/// its next, as if `first` started a page.
qreal chainHeight(const std::vector<FlowItem>& items, std::size_t first) {
    qreal height = items[first].height + items[first].repeatedHeader;
    for (std::size_t i = first; i + 1 < items.size() && items[i].keepWithNext; ++i) {
        // A figure that may shrink needs only its least height to follow its heading.
        const FlowItem& next = items[i + 1];
        height += next.spaceBefore + (next.minHeight > 0 ? std::min(next.minHeight, next.height) : next.height);
    }
    return height;
}

} // namespace

std::vector<FlowPlacement> paginate(const std::vector<FlowItem>& items, qreal pageHeight) {
    std::vector<FlowPlacement> placements;
    placements.reserve(items.size());
    int page = 0;
    qreal y = 0;
    bool pageEmpty = true;
    auto newPage = [&] {
        ++page;
        y = 0;
        pageEmpty = true;
    };
    for (std::size_t i = 0; i < items.size(); ++i) {
        const FlowItem& item = items[i];
        if (item.pageBreakBefore && !pageEmpty) {
            newPage();
        }
        qreal top = pageEmpty ? 0 : y + item.spaceBefore;
        const bool fits = top + item.height <= pageHeight;
        // A figure shrinks to finish the page when it keeps most of its size.
        const bool shrinks = !fits && !pageEmpty && item.minHeight > 0 && top + item.minHeight <= pageHeight;
        bool breakHere = !pageEmpty && !fits && !shrinks;
        if (!breakHere && !pageEmpty && item.keepWithNext) {
            // Move a heading (and whatever it is kept with) to the next page rather than strand it.
            const qreal chain = chainHeight(items, i);
            breakHere = top + chain - item.repeatedHeader > pageHeight && chain <= pageHeight;
        }
        if (breakHere) {
            newPage();
            top = 0;
        }
        FlowPlacement placement{page, top, false, item.height};
        if (pageEmpty && item.repeatedHeader > 0 && i > 0) {
            placement.top = item.repeatedHeader;
            placement.headerRepeated = true;
        }
        if (!breakHere && shrinks) {
            placement.height = pageHeight - top;
        }
        placements.push_back(placement);
        y = placement.top + placement.height;
        pageEmpty = false;
        if (y > pageHeight) {
            // An item taller than a page keeps its page to itself.
            newPage();
        }
    }
    return placements;
}

int pageCount(const std::vector<FlowPlacement>& placements) {
    int pages = 1;
    for (const FlowPlacement& placement : placements) {
        pages = std::max(pages, placement.page + 1);
    }
    return pages;
}

} // namespace archplay::ui::exports
