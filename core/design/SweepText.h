// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Sweeps written out: CSV and JSON, for the command line and exports. Figures are written exactly
// (whole numbers in full, others with the shortest text that reads back the same double).

#include "core/design/Sweep.h"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace archplay::core {

/// One header line (the field's key, every figure's key, "error"), then one line per point; a figure
/// the point has none of is empty, "error" holds "field: message" for an invalid point.
[[nodiscard]] std::string sweepCsv(const SweepResult& result);

/// {"field", "label", "from", "to", "steps", "spacing", "estimate", "current_value", "current_index",
/// "current_position", "current": {figure key: value}, "points": [{"value", "valid", figure key:
/// value or null..., "error": {"field", "message"}}], "presets": [{"id", "name", "value", "in_range",
/// figure key: value or null...}]}.
[[nodiscard]] nlohmann::json sweepJson(const SweepResult& result, const SweepAxis& axis,
                                       const std::vector<PlacedPreset>& presets);

/// The grid in long form: a header "X_KEY,Y_KEY,FIGURE_KEY", then one line "x,y,value" per cell, x
/// fastest; an empty value where the cell has none.
[[nodiscard]] std::string sweepGridCsv(const SweepGrid& grid);

/// {"x": {"field", "label", "from", "to", "steps", "spacing", "values"}, "y": {...}, "figure",
/// "estimate", "current": {"x", "y", "value"}, "values": [[row at y[0]], ...] (null where none),
/// "iso_lines": [{"level", "label", "polylines": [[[x, y], ...], ...]}],
/// "presets": [{"id", "name", "x", "y", "value", "in_range"}]}.
[[nodiscard]] nlohmann::json sweepGridJson(const SweepGrid& grid, const SweepGridRequest& request);

/// A figure's value as JSON: a whole number as an integer, else a double; null for nullopt.
[[nodiscard]] nlohmann::json figureJson(const std::optional<double>& value);

} // namespace archplay::core
