// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/LayerPlan.h"
#include "core/config/ModelConfig.h"
#include "core/config/Scenario.h"
#include "core/memory/GpuFit.h"
#include "core/memory/KvCache.h"
#include "core/params/ParamCount.h"
#include "core/validate/Diagnostic.h"

#include <cstdint>
#include <memory>
#include <optional>

namespace archplay::core {

/// Everything the program shows about one config in one scenario, computed once per change and
/// handed to every view, so two views can never disagree.
struct Analysis {
    ModelConfig config;
    Scenario scenario;
    Diagnostics diagnostics;
    bool valid = false; ///< no errors; the figures below are computed only when valid
    ModelPlan plan;
    ParamReport params;
    KvCacheReport kv;
    std::uint64_t weightBytes = 0; ///< total parameters at the scenario's weight precision. Units: bytes.
    DeviceFit devices;             ///< weights + cache against the scenario's GPUs
};

/// One analysis shared by everything that shows it: computed once per change, never copied per view.
using AnalysisPtr = std::shared_ptr<const Analysis>;

/// Validates, plans and counts a config. Pure and fast (microseconds).
Analysis analyze(const ModelConfig& config, const Scenario& scenario);

} // namespace archplay::core
