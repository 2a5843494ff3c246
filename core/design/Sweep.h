// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Sweeps: the design figures (DesignFigures.h) of a config as one or two of its fields vary. Every
// point is one core::analyze() of the config with the field written through its edit rule
// (SweepFields.h): no second formula, so a point shows what the window shows at that value.

#include "core/analysis/Analysis.h"
#include "core/analysis/DesignFigures.h"
#include "core/config/ConfigEdits.h"
#include "core/design/IsoLines.h"
#include "core/design/SweepFields.h"
#include "core/validate/Diagnostic.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace archplay::core {

/// How the values of a sweep are spaced between its ends.
enum class SweepSpacing {
    Linear, ///< from + (to - from) x i / (steps - 1)
    Log,    ///< from x (to / from)^(i / (steps - 1)), geometric; needs from >= 1
};

/// Most points of one axis.
inline constexpr std::size_t kMaxSweepSteps = 1000;
/// Most points of one axis of a two-field grid (a 200 x 200 grid is 40,000 analyses).
inline constexpr std::size_t kMaxGridSteps = 200;

/// One axis of a sweep: a field and the values it takes.
struct SweepAxis {
    std::string field;      ///< a SweepField key: "num_hidden_layers", "sequence_length"
    std::int64_t from = 1;  ///< first value, within the field's minimum and maximum
    std::int64_t to = 1;    ///< last value, at least `from`
    std::size_t steps = 50; ///< values asked for, both ends included: 2 to kMaxSweepSteps (kMaxGridSteps in a grid)
    SweepSpacing spacing = SweepSpacing::Linear;
};

/// The whole values of an axis: `steps` values spaced from `from` to `to`, rounded to the nearest
/// integer, repeats removed (so there may be fewer than `steps`), increasing, both ends exact.
/// Empty when the axis is malformed (steps outside 2 to kMaxSweepSteps, from above to, log spacing
/// from below 1; see validateSweepAxis()).
[[nodiscard]] std::vector<std::int64_t> sweepValues(const SweepAxis& axis);

/// Errors in an axis for `config`, each naming its part: "field", "from", "to", "steps" or "spacing"
/// followed by `suffix` (the second axis of a grid passes "2": "from2"), the message naming the swept
/// field: an unknown field, a field that does not apply to the config, an end beyond the field's
/// limits, from above to, steps out of range, log spacing from 0.
[[nodiscard]] Diagnostics validateSweepAxis(const SweepAxis& axis, const ModelConfig& config,
                                            std::size_t maxSteps = kMaxSweepSteps, const std::string& suffix = "");

/// The figures of one analysis, indexed by DesignFigure (designFigures() order); nullopt where
/// figureValue() gives none.
using FigureValues = std::vector<std::optional<double>>;
/// figureValue() of every figure of `analysis`.
[[nodiscard]] FigureValues figureValues(const Analysis& analysis);

/// One point of a one-field sweep.
struct SweepPoint {
    std::int64_t value = 0; ///< the field's value
    bool valid = false;     ///< the edited config is valid: figures are read from its analysis
    FigureValues figures;   ///< indexed by DesignFigure; all nullopt when not valid
    /// Why there are no figures: the first error of the edited config's analysis (field and message).
    std::optional<Diagnostic> error;
};

/// A one-field sweep.
struct SweepResult {
    Diagnostics diagnostics;           ///< errors in the request: nothing was swept
    const SweepField* field = nullptr; ///< the swept field (set when the request names a known one)
    std::vector<SweepPoint> points;    ///< in increasing value
    std::int64_t currentValue = 0;     ///< the field's value in the config as given
    FigureValues currentFigures;       ///< the figures of the config as given (nullopt: none, or it is invalid)
    /// Index of the point whose value is currentValue, or nullopt when the sweep does not pass it.
    std::optional<std::size_t> currentIndex;
    /// Where the current value sits among the points, as a fractional index (2.5: half way between
    /// points 2 and 3, linear in the field's value); nullopt when outside the swept range.
    std::optional<double> currentPosition;
    /// The config carries ignored fields (!config.exact()): every figure is an estimate and must be labelled so.
    bool estimate = false;
};

/// Sweeps one field of `config` in `scenario`: each point is analyze() of the config (and scenario)
/// with the field set to the point's value through the field's edit rule, in `context` (the
/// panel's snapping and FFN-ratio lock; the default: neither).
[[nodiscard]] SweepResult sweep(const ModelConfig& config, const Scenario& scenario, const SweepAxis& axis,
                                const edits::EditContext& context = {});

/// A built-in preset placed on a sweep: its coordinates on the swept fields and its figures.
struct PlacedPreset {
    std::string id;   ///< preset id: "llama-3-8b"
    std::string name; ///< "Llama 3 8B"
    std::int64_t x = 0;
    std::int64_t y = 0;   ///< 0 for a one-field sweep
    FigureValues figures; ///< every figure of the preset in the same scenario, indexed by DesignFigure
    bool inRange = false; ///< the coordinates lie within the swept ranges

    /// The preset's value of `figure`, or nullopt when it has none.
    [[nodiscard]] std::optional<double> value(DesignFigure figure) const {
        return figures[static_cast<std::size_t>(figure)];
    }
};

/// The built-in presets of the same kind as `config` that a sweep of `x` (and `y`, when not null)
/// can place: the same architecture (decoder-only, encoder-only, encoder-decoder) and the same FFN
/// kind (MLP, gated, mixture of experts), to which both fields apply. Each is analyzed in `scenario`
/// (for a scenario field, every preset sits at the scenario's value). Ordered as builtinPresets().
[[nodiscard]] std::vector<PlacedPreset> placedPresets(const ModelConfig& config, const Scenario& scenario,
                                                      const SweepField& x, const SweepField* y,
                                                      const std::vector<std::int64_t>& xValues,
                                                      const std::vector<std::int64_t>& yValues);

/// A two-field sweep: a grid of one figure.
struct SweepGridRequest {
    SweepAxis x;
    SweepAxis y;
    DesignFigure figure = DesignFigure::TotalParams;
    std::vector<double> levels; ///< iso-line levels in the figure's unit; empty: defaultIsoLevels()
};

/// One cell of a grid.
struct SweepCell {
    std::optional<double> value;     ///< the figure; nullopt when the config is invalid or has none
    std::optional<Diagnostic> error; ///< the first error of an invalid config
};

struct SweepGrid {
    Diagnostics diagnostics; ///< errors in the request, naming "field", "from", ... and "field2", "from2", ...
    const SweepField* xField = nullptr;
    const SweepField* yField = nullptr;
    DesignFigure figure = DesignFigure::TotalParams;
    std::vector<std::int64_t> xValues;
    std::vector<std::int64_t> yValues;
    std::vector<SweepCell> cells;  ///< the cell at (xValues[i], yValues[j]) is cells[j * xValues.size() + i]
    std::vector<IsoLine> isoLines; ///< one per level, in the levels' order, in field coordinates
    std::vector<PlacedPreset> presets;
    std::int64_t currentX = 0; ///< the fields' values in the config as given
    std::int64_t currentY = 0;
    std::optional<double> currentValue; ///< the figure of the config as given
    bool estimate = false;              ///< !config.exact(): every value is an estimate

    [[nodiscard]] const SweepCell& at(std::size_t i, std::size_t j) const { return cells[j * xValues.size() + i]; }
};

/// Sweeps two fields of `config` in `scenario`: each cell is analyze() of the config with the x
/// field set, then the y field (so a rule of the y field has the last word: heads then KV heads).
/// Adds the iso-lines of the figure at the request's levels and the presets of the same kind.
[[nodiscard]] SweepGrid sweepGrid(const ModelConfig& config, const Scenario& scenario, const SweepGridRequest& request,
                                  const edits::EditContext& context = {});

/// Iso-line levels for a figure whose values span [minimum, maximum]: for parameter counts the
/// usual model sizes 1B, 3B, 7B, 13B and 70B (whatever the range); for the others the powers of ten
/// (bytes: of 1024, so 1 MiB, 1 GiB...) strictly inside the range, or when there are fewer than
/// two, the powers of two inside it, at most 8 (thinned evenly).
[[nodiscard]] std::vector<double> defaultIsoLevels(DesignFigure figure, double minimum, double maximum);

} // namespace archplay::core
