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
/// Decode at the scenario's batch and at batch 1, the batch where decode turns compute-bound,
/// prefill and time to first token, the ridge point: roofline upper bounds.
[[nodiscard]] std::vector<SummaryRow> speedRows(const Analysis& analysis);

/// "upper bound: the device's peak bandwidth and throughput, perfect overlap and split": the one
/// label every speed figure carries.
std::string_view speedBoundLabel();

/// Every cost figure explained: its formula, this config's values substituted and the result, in
/// three sections (compute, memory, speed), with the sources. Copyable as LaTeX and Markdown through
/// toLatex() and toMarkdown() like the forward pass.
[[nodiscard]] Derivation explainCosts(const Analysis& analysis);

} // namespace archplay::core
