// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Iso-lines (contours) of a value sampled on a rectangular grid, by marching squares.

#include <cstddef>
#include <optional>
#include <vector>

namespace archplay::core {

/// A point in the grid's coordinates (the swept fields' values, not indices).
struct IsoPoint {
    double x = 0;
    double y = 0;

    bool operator==(const IsoPoint&) const = default;
};

/// One connected piece of an iso-line. A closed loop repeats its first point at the end.
using IsoPolyline = std::vector<IsoPoint>;

/// The iso-line of a value at one level.
struct IsoLine {
    double level = 0;
    std::vector<IsoPolyline> polylines;
};

/// The polylines where a grid's value equals `level`, by marching squares: a grid cell whose four
/// corners are not all on one side of the level (a corner at or above it counts as above) is crossed
/// on each edge whose ends differ, at the point linear interpolation along that edge puts the level;
/// the two crossings of a saddle cell are paired by the mean of its corners. Crossings shared by
/// neighbouring cells are joined into polylines. Cells with a missing corner (nullopt) are skipped,
/// so a line stops at the border of the region where the value exists.
/// `xs` (size nx) and `ys` (size ny) are the grid's coordinates, increasing; `values` holds the value
/// at (xs[i], ys[j]) at index j * nx + i. Empty when the sizes disagree or the grid has fewer than
/// 2 x 2 points.
[[nodiscard]] std::vector<IsoPolyline> isoPolylines(const std::vector<double>& xs, const std::vector<double>& ys,
                                                    const std::vector<std::optional<double>>& values, double level);

} // namespace archplay::core
