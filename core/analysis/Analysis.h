// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/LayerPlan.h"
#include "core/config/ModelConfig.h"
#include "core/cost/Compute.h"
#include "core/cost/Memory.h"
#include "core/cost/Roofline.h"
#include "core/cost/WeightFormats.h"
#include "core/memory/KvCache.h"
#include "core/params/ParamCount.h"
#include "core/scenario/GpuFit.h"
#include "core/scenario/Scenario.h"
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
    WeightMemory weights;                 ///< the weights in the scenario's format
    std::uint64_t weightBytes = 0;        ///< weights.bytes: every parameter in the scenario's format. Units: bytes.
    DeviceFit devices;                    ///< weights + cache against the scenario's GPUs
    ComputeReport compute;                ///< FLOPs of the forward pass and of training
    ServingMemory serving;                ///< weights, cache and a prefill chunk's workspace on the scenario's GPUs
    TrainingMemory training;              ///< training state and activations per GPU
    std::uint64_t trainingGpusNeeded = 0; ///< fewest scenario GPUs training fits on; 0: none up to 2^20
    RooflineReport speed;                 ///< decode and prefill speed on the scenario's GPUs (upper bounds)
    /// The compute, memory and speed figures above are shown: none exceeds 2^64 - 1 (else a warning
    /// says which scenario field to reduce, and every cost view and command refuses them).
    bool costsValid = false;
};

/// One analysis shared by everything that shows it: computed once per change, never copied per view.
using AnalysisPtr = std::shared_ptr<const Analysis>;

/// Validates, plans and counts a config. Pure and fast (microseconds).
Analysis analyze(const ModelConfig& config, const Scenario& scenario);

} // namespace archplay::core
