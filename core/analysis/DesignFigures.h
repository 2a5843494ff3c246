// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The figures of one analysis that designs are compared, swept and searched by: one list, read from
// the Analysis (never computed again), so that the compare table, the sweep charts, the search and
// their exports show the same numbers as the summary cards and the cost views.

#include "core/analysis/Analysis.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace archplay::core {

/// A figure a design is judged by.
enum class DesignFigure {
    TotalParams,           ///< unique trainable parameters (FORMULAS.md §0)
    ActiveParams,          ///< parameters one token uses
    KvBytesPerToken,       ///< KV cache one more token of context costs, at the scenario's KV precision
    KvBytesScenario,       ///< the scenario's whole cache: windows, fixed states and batch included
    WeightBytes,           ///< every parameter in the scenario's weight format
    FlopsPerToken,         ///< forward FLOPs of one decode step at the scenario's sequence length
    PrefillFlops,          ///< forward FLOPs of the scenario's prompt
    TrainingFlops,         ///< training compute over the scenario's training tokens
    ServingBytes,          ///< weights + cache + prefill workspace on the scenario's GPUs
    TrainingBytesPerGpu,   ///< training state and activations on one GPU
    DecodeTokensPerSecond, ///< roofline upper bound at the scenario's batch (aggregate)
    TimeToFirstToken,      ///< roofline lower bound: prefill plus one decode step
};

/// How a figure's value reads.
enum class FigureUnit { Count, Bytes, Flops, TokensPerSecond, Seconds };

/// What the program says about a figure.
struct DesignFigureInfo {
    DesignFigure figure;
    std::string_view key;   ///< stable machine name: "total_params", "kv_bytes_per_token"
    std::string_view label; ///< "Total parameters"
    FigureUnit unit;
    bool lowerIsBetter; ///< every figure but the speed: less is cheaper
    bool isCost;        ///< from the cost model (shown only when Analysis::costsValid)
    bool isBound;       ///< an upper or lower bound (roofline), labelled so wherever it is shown
};

/// Every figure, in display order.
[[nodiscard]] const std::vector<DesignFigureInfo>& designFigures();
[[nodiscard]] const DesignFigureInfo& figureInfo(DesignFigure figure);
/// The figure whose key is `key`, or nullopt.
[[nodiscard]] std::optional<DesignFigure> figureFromKey(std::string_view key);

/// The figure's value for an analysis, or nullopt when it has none: an invalid analysis, a cost
/// figure when the costs are refused (beyond 2^64 - 1), the KV cache of a model that keeps none.
[[nodiscard]] std::optional<double> figureValue(const Analysis& analysis, DesignFigure figure);
/// What every surface shows in place of a figure of a setup the devices cannot hold.
inline constexpr std::string_view kDoesNotFit = "does not fit";
/// What a figure the analysis has no value for reads as: "does not fit" for the speed of a batch the
/// devices cannot hold (RooflineReport::fits), else "\u2014".
[[nodiscard]] std::string absentFigureText(const Analysis& analysis, DesignFigure figure);

/// The value as the program writes it: "8.03B", "128 KiB", "1.2 TFLOP", "215 tok/s", "35 ms".
[[nodiscard]] std::string figureText(DesignFigure figure, double value);
/// The exact value where it is a whole number ("8,030,261,248"), else figureText().
[[nodiscard]] std::string figureExactText(DesignFigure figure, double value);

/// A difference as the figure reads, signed: "+1.2B", "-64 KiB", "0".
[[nodiscard]] std::string figureDifferenceText(DesignFigure figure, double difference);
/// The exact signed difference for whole counts and bytes ("+1,234,567"), else figureDifferenceText().
[[nodiscard]] std::string figureDifferenceExactText(DesignFigure figure, double difference);

} // namespace archplay::core
