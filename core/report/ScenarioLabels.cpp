// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/ScenarioLabels.h"

#include <fmt/format.h>

namespace archplay::core {

std::string gpuChoiceLabel(const Gpu& gpu) {
    return fmt::format("{} · {} GiB", gpu.name.empty() ? gpu.id : gpu.name, gpu.memoryGiB);
}

int optimizerBytesPerParam(Optimizer optimizer) {
    return kWeightBytesPerParam + gradientBytesPerParam(optimizer) + kOptimizerBytesPerParam;
}

std::string optimizerLabel(Optimizer optimizer) {
    const char* gradients = gradientBytesPerParam(optimizer) == 4 ? "fp32" : "bf16";
    return fmt::format("Adam, {} gradients: {} B/param", gradients, optimizerBytesPerParam(optimizer));
}

std::string recomputeLabel(Recompute recompute) {
    switch (recompute) {
    case Recompute::None:
        return "None";
    case Recompute::Selective:
        return "Selective: attention core";
    case Recompute::Full:
        return "Full: layer inputs only";
    }
    return "None";
}

std::string zeroStageLabel(int stage) {
    switch (stage) {
    case 0:
        return "0: nothing sharded";
    case 1:
        return "1: optimizer state";
    case 2:
        return "2: optimizer state, gradients";
    case 3:
        return "3: optimizer state, gradients, weights";
    default:
        return fmt::format("stage {}", stage);
    }
}

} // namespace archplay::core
