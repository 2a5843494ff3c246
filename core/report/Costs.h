// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a config costs: the rows of the compute, memory and speed views, the CLI and every export,
// and the explanation of each figure with this config's values substituted.

#include "core/analysis/Analysis.h"
#include "core/derivation/Derivation.h"
#include "core/report/Summary.h"

#include <string>
#include <vector>

namespace archplay::core {

/// FLOPs per token (weights, attention, states), prefill, training, Chinchilla, training time.
[[nodiscard]] std::vector<SummaryRow> computeRows(const Analysis& analysis);
/// Serving: weights in the format, cache, workspace, total and GPUs; training: each part per GPU,
/// the total and the fewest GPUs.
[[nodiscard]] std::vector<SummaryRow> servingMemoryRows(const Analysis& analysis);
[[nodiscard]] std::vector<SummaryRow> trainingMemoryRows(const Analysis& analysis);
/// Decode at the scenario's batch and at batch 1, the largest batch that fits, the batch where decode
/// turns compute-bound, prefill and time to first token, the ridge point: roofline upper bounds, each
/// "does not fit" (with the devices it needs) where the devices cannot hold it.
[[nodiscard]] std::vector<SummaryRow> speedRows(const Analysis& analysis);
/// Where the decode curve stops and why: "stops at batch 116, the most sequences whose caches fit
/// beside the weights".
[[nodiscard]] std::string curveEndText(const RooflineReport& report);

/// "upper bound: the device's peak bandwidth and throughput, perfect overlap and split": the one
/// label every speed figure carries.
std::string_view speedBoundLabel();

/// Why a model has no decode step to time, in one line; empty when it has one (a decoder).
std::string noDecodeNote(const ModelConfig& config);
/// Why an analysis has no decode curve, in one line: a model without a decode step (noDecodeNote()),
/// or weights and one sequence's cache that do not fit on the devices; empty when it has one.
std::string noDecodeCurveNote(const Analysis& analysis);

/// What fills one GPU's memory, as the memory view stacks it.
enum class MemoryPart { Weights, KvCache, Workspace, Gradients, Optimizer, Activations };

/// One part of a GPU's memory.
struct MemorySegment {
    MemoryPart part = MemoryPart::Weights;
    std::string label;       ///< "Weights (bf16)", "KV cache and states", "Optimizer (fp32 master, m, v)"
    std::string rowKey;      ///< the key of the row of servingMemoryRows() or trainingMemoryRows() it is
    std::uint64_t bytes = 0; ///< on one GPU. Units: bytes.
};

/// One GPU's memory when serving or training, against the device's.
struct MemoryStack {
    std::string title; ///< "Serving, per GPU", "Training, per GPU"
    std::vector<MemorySegment> segments;
    std::uint64_t totalBytes = 0;    ///< one GPU's whole use. Units: bytes.
    std::uint64_t capacityBytes = 0; ///< the device's memory. Units: bytes.
    std::string capacityLabel;       ///< "80 GiB H100 SXM"
    bool fits = false;
    std::uint64_t fewestGpus = 0; ///< the fewest of the scenario's device it fits on; 0 for none
    std::string verdict;          ///< "fits on 1 x H100 SXM: 31% used", "needs 3 x H100 SXM with TP 1 and ZeRO-1"
    std::string shortVerdict;     ///< its first clause, for narrow room: "fits on 1 x H100 SXM", "needs 3 x H100 SXM"
    Tone tone = Tone::Normal;
};

/// Serving on the scenario's GPUs: weights, cache and workspace split evenly (each part rounded up),
/// the fewest GPUs it fits on (ServingMemory::gpusNeeded).
[[nodiscard]] MemoryStack servingStack(const Analysis& analysis);
/// Training: one GPU's weights, gradients, optimizer state and activations after TP and ZeRO, the
/// fewest GPUs it fits on (Analysis::trainingGpusNeeded).
[[nodiscard]] MemoryStack trainingStack(const Analysis& analysis);

/// The three parts of explainCosts(), one per cost view.
enum class CostTopic { Compute, Memory, Speed };

/// Every cost figure explained: its formula, this config's values substituted and the result, in
/// three sections (compute, memory, speed), with the sources. Copyable as LaTeX and Markdown through
/// toLatex() and toMarkdown() like the forward pass.
[[nodiscard]] Derivation explainCosts(const Analysis& analysis);
/// The part of explainCosts() about one topic: its notation and its one section.
[[nodiscard]] Derivation explainCosts(const Analysis& analysis, CostTopic topic);

} // namespace archplay::core
