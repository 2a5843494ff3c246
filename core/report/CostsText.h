// SPDX-License-Identifier: GPL-3.0-or-later
// The building blocks of the cost rows (Costs.cpp) and their explanation (CostsExplain.cpp), so both
// word a figure the same way. Internal to core/report.
#pragma once

#include "core/analysis/Analysis.h"
#include "core/report/Summary.h"

#include <cstdint>
#include <string>

namespace archplay::core::coststext {

SummaryRow row(std::string key, std::string label, std::string value, std::string exact, std::string detail = {},
               Tone tone = Tone::Normal);
/// "8,030,261,248 FLOP", or in scientific notation beyond 9e15.
std::string flopsExact(double flops);
/// "14,957,608,960 bytes".
std::string bytesRow(std::uint64_t bytes);
/// "2 x H100 SXM": the scenario's devices.
std::string gpusText(const Scenario& s);
/// "3 x H100 SXM": how many of the scenario's device a total needs ("no number of ..." for 0).
std::string neededText(std::uint64_t needed, const Gpu& gpu);
/// \mathrm{S} = 4{,}096 style numbers for doubles that may be large.
std::string big(double value);
/// Why the scenario's batch has no speed: what its weights and caches need on the devices.
std::string notFitText(const Analysis& a);
/// "1 token", "8K tokens".
std::string tokensText(std::uint64_t tokens);
/// RooflineReport::largestBatch as text: "126", "none", "any" (no cache grows with the batch).
std::string batchLimitText(std::uint64_t largestBatch);

} // namespace archplay::core::coststext
