// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Up to four configs side by side in one scenario: their figures (DesignFigures), their parameters by
// component, their layer stacks and the config.json fields in which they differ. Every number is read
// from each config's own Analysis; the differences and ratios are formed from those numbers only.

#include "core/analysis/Analysis.h"
#include "core/analysis/DesignFigures.h"
#include "core/params/Tensors.h"
#include "core/scenario/KvCurve.h"

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace archplay::core {

/// Most configs compared at once (the baseline included).
inline constexpr std::size_t kMaxCompared = 4;

/// One config to compare: a display name and its analysis in the shared scenario.
struct CompareInput {
    std::string name; ///< "Llama 3 8B", a file name, "current"
    AnalysisPtr analysis;
};

/// One config's value of a row, and how it stands against the baseline's (the first config's).
struct CompareCell {
    std::optional<double> value; ///< none: the config has no such figure (invalid, no cache, refused cost)
    std::string text;            ///< "8.03B", "128 KiB"; "—" without a value
    std::string exact;           ///< "8,030,261,248" for whole counts and bytes, else `text`
    /// value - baseline value, exactly the difference of the two analyses' figures; none for the
    /// baseline itself or when either value is missing.
    std::optional<double> difference;
    std::string differenceText;  ///< "+1.2B", "-64 KiB", "0"; empty for the baseline; "—" when none
    std::string differenceExact; ///< "+1,234,567" for whole counts and bytes, else differenceText
    /// value / baseline value; none for the baseline, when either value is missing or the baseline is 0.
    std::optional<double> ratio;
    /// "1.25×"; empty for the baseline; else why there is none: "n/a: baseline is 0",
    /// "n/a: no baseline value", "n/a: no value".
    std::string ratioText;
};

/// A row of figures, one cell per config, the baseline first.
struct CompareRow {
    std::string key;   ///< a DesignFigure key ("total_params"), or "params.<component>" ("params.attention")
    std::string label; ///< "Total parameters", "Attention"
    FigureUnit unit = FigureUnit::Count;
    bool lowerIsBetter = true;
    bool isBound = false; ///< a roofline bound, labelled so in `label`
    std::vector<CompareCell> cells;
};

/// A run of identical layers of one config's stack, named for a view to draw.
struct CompareLayerRun {
    LayerRun run;     ///< the kind (its first layer), its first index in its stack and its length
    std::string name; ///< layerKindName(): "sliding 4096 · MoE 8 × top-2"
};

/// One config's layer stack.
struct CompareStack {
    std::string kindsLabel;            ///< layerKindsLabel(): "52 sliding 1024 + 10 global"
    std::int64_t layerCount = 0;       ///< planned layers, encoder and decoder
    std::string attention;             ///< the attention family: "GQA", "MLA", ...
    std::vector<CompareLayerRun> runs; ///< in order, encoder layers first
};

/// A config.json key whose value differs between the baseline and at least one other config.
struct ConfigFieldRow {
    std::string key; ///< flattened: nested objects as dotted paths ("rope_scaling.factor"); arrays whole
    /// The value in each config as compact JSON text ("4096", "\"llama3\"", "[0,3]"); none when absent.
    std::vector<std::optional<std::string>> values;
    std::vector<bool> differs; ///< per config: its value differs from the baseline's (false for the baseline)
};

/// One compared config: its name, whether it counts, and its stack.
struct CompareColumn {
    std::string name;
    bool valid = false;   ///< false: an invalid config, with no figures
    std::string error;    ///< the first error ("num_key_value_heads: ...") when not valid
    std::string estimate; ///< estimateLabel(): non-empty when every figure of this config is an estimate
    std::string modelType;
    CompareStack stack;
};

/// The comparison of up to four configs in one scenario.
struct Comparison {
    Diagnostics diagnostics; ///< errors: nothing was compared (no configs, more than four, mixed scenarios)
    Scenario scenario;
    std::string scenarioText;                 ///< scenarioLine(): "4,096 tokens, batch 1, weights bf16, KV cache bf16"
    std::vector<CompareColumn> columns;       ///< the baseline first
    std::vector<CompareRow> figures;          ///< one row per DesignFigure, in designFigures() order
    std::vector<CompareRow> components;       ///< parameters by Component, rows where some config has any
    std::vector<ConfigFieldRow> configFields; ///< keys differing from the baseline, in key order
    /// Each config's cache over context length at the scenario's KV precision (kvCurves()), from 1 to
    /// the longest of the scenario's length and every valid config's context, so that the curves share
    /// an axis; none for a config that keeps no cache (invalid, encoder-only, overflowing).
    std::vector<std::optional<KvCurve>> kvCurves;
    std::uint64_t kvLongest = 0; ///< where the curves end
    /// True when some config's model_type differs from the baseline's: its config.json is then written
    /// with other key names, so the field list compares names as well as values.
    bool modelTypeDiffers = false;
};

/// Compares analyses that share one scenario; the first is the baseline. Errors (field "compare"):
/// no input, more than kMaxCompared, a missing analysis; (field "scenario"): analyses of different
/// scenarios. An invalid config is compared with no figures. Never throws.
[[nodiscard]] Comparison compareAnalyses(const std::vector<CompareInput>& inputs);

/// Analyzes each named config in `scenario`, then compareAnalyses().
[[nodiscard]] Comparison compareConfigs(const std::vector<std::pair<std::string, ModelConfig>>& configs,
                                        const Scenario& scenario);

/// config.json flattened to one level: nested objects as dotted keys ("rope_scaling.factor"), arrays
/// and scalars as they are. The config is written with exportConfig().
[[nodiscard]] nlohmann::json flattenedConfigJson(const ModelConfig& config);

/// The compare table as text rows for a table: a header row (column titles), then the figure rows, the component rows
/// (labels "Parameters: Attention"), the stack rows ("Layers", "Layer kinds", "Attention") and the
/// config field rows ("config: rope_scaling.factor"). Columns: quantity, then for each config its
/// value, and for each config after the baseline its difference and ratio to the baseline.
[[nodiscard]] std::vector<std::vector<std::string>> compareTableRows(const Comparison& comparison);

/// The lines that go with the table: errors, each invalid config and its first error, each config
/// whose figures are estimates, and a differing model_type.
[[nodiscard]] std::vector<std::string> compareNotes(const Comparison& comparison);

/// CSV with one header row: section, key, label, then per config "<name>" and, after the baseline,
/// "<name> - <baseline>" and "<name> / <baseline>". Values are plain numbers (whole numbers in full,
/// others to 6 significant digits); empty where there is none. Stack and config rows hold text.
[[nodiscard]] std::string compareCsv(const Comparison& comparison);
/// compareTableRows() as a Markdown table, then the scenario and compareNotes() as a list.
[[nodiscard]] std::string compareMarkdown(const Comparison& comparison);
/// compareTableRows() as a booktabs table (latexTable()) captioned with the names and the scenario,
/// with compareNotes() as text after it.
[[nodiscard]] std::string compareLatex(const Comparison& comparison);
/// {"scenario": scenarioText, "configs": [{"name", "valid", "error", "estimate", "model_type", "layers", "layer_kinds",
/// "attention", "runs": [{"name", "stack", "first", "count"}]}], "figures": [{"key", "label", "unit",
/// "lower_is_better", "bound", "cells": [{"value", "text", "exact", "difference", "difference_text",
/// "difference_exact", "ratio", "ratio_text"}]}] (unit: "count", "bytes", "flops", "tokens_per_second", "seconds"),
/// "components": [...], "config_fields": [{"key", "values", "differs"}], "model_type_differs", "diagnostics"}. Missing
/// numbers are null.
[[nodiscard]] nlohmann::json compareJson(const Comparison& comparison);

} // namespace archplay::core
