// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace archplay::ui::design {

/// The columns of the Search page's results table (SearchPage.cpp fills it; the scatter,
/// SearchScatter.cpp, selects by its Rank column).
enum Column {
    Rank,
    Layers,
    Hidden,
    Attention,
    HeadDim,
    Ffn,
    Total,
    Active,
    KvPerToken,
    Weights,
    Flops,
    Plausibility,
    Distance,
    Pareto,
    Why,
    ColumnCount
};

} // namespace archplay::ui::design
