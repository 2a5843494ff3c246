// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/CostCommands.h"

#include "app/cli/ConfigSource.h"
#include "app/cli/Flags.h"
#include "core/analysis/Capacity.h"
#include "core/io/GpuJson.h"
#include "core/report/Costs.h"
#include "core/report/Fit.h"
#include "core/report/ReportJson.h"
#include "core/report/Summary.h"
#include "core/util/Format.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <ostream>

namespace archplay::cli {

const char* const kCostUsage =
    R"(  compute CONFIG [--seq N] [--tokens T] [--recompute none|selective|full] [--gpu ID --gpus N --mfu F] [--json]
                                         FLOPs per token (weights, attention, states),
                                         prefill of N tokens, training on T tokens,
                                         Chinchilla tokens, training time
  memory CONFIG [--weights-dtype FORMAT] [--kv-dtype D] [--seq N] [--batch B] [--training]
         [--zero 0-3] [--gpu ID] [--gpus N] [--tp N] [--recompute none|selective|full]
         [--micro-batch B] [--optimizer adam16|adam18] [--allocator A] [--json]
                                         serving memory (weights in a format, KV cache,
                                         workspace) or, with --training, weights, gradients,
                                         optimizer and activations per GPU; GPUs needed
  roofline CONFIG --gpu ID [--batch B] [--seq N] [--gpus N] [--weights-dtype FORMAT] [--json]
                                         decode tokens/s, prefill time, time to first token:
                                         upper bounds on the device
  fit CONFIG --gpu ID [--gpus N] [--seq N] [--batch B] [--weights-dtype FORMAT] [--kv-dtype D]
      [--allocator architecture|transformers|vllm|llama.cpp] [--gpu-memory-utilization U]
      [--kv-cache-memory BYTES] [--json]
                                         will it run: whether the batch fits, the largest
                                         batch at N tokens, the longest sequence at batch B,
                                         the fewest devices, every weight format against them;
                                         --allocator vllm adds vLLM's cache per GPU (its share
                                         U, 0.9, less weights and an estimated profile; or
                                         BYTES exactly), token capacity and concurrency.
                                         A model whose config.json ships a quantization_config
                                         is counted as shipped unless --weights-dtype is given
  gpus [--json]                          the device catalogue, each figure with its source
                                         FORMAT: fp32 fp16 bf16 fp8 fp8-block128 int8 gptq-int4-g128
                                         gptq-int4-g32 nf4 mxfp4 nvfp4 q8_0 q6_k q5_k_m q4_k_m q4_0
)";

namespace {

void requireGpu(const std::vector<std::string>& args) {
    if (std::find(args.begin(), args.end(), "--gpu") == args.end()) {
        throw UsageError{fmt::format("--gpu is required: one of {}", core::gpuIdList(core::builtinGpus()))};
    }
}

/// A command's JSON for `analysis`, with whether its counts are exact.
void printJson(nlohmann::json json, const core::Analysis& analysis, std::ostream& out) {
    core::addExactness(json, analysis.config);
    out << json.dump(2) << "\n";
}

/// Loads and analyzes CONFIG in `scenario`, then prints with `print`; the exit code of a bad config.
template <typename Print>
int withAnalysis(const Options& options, const core::Scenario& scenario, std::ostream& out, std::ostream& err,
                 Print print) {
    AnalyzedConfig analyzed = analyzeConfig(options.positional.front(), options.bestEffort, scenario);
    if (!analyzed.ok()) {
        return reportInvalid(analyzed.loaded.origin, analyzed.diagnostics(), err);
    }
    const core::Analysis& analysis = *analyzed.analysis;
    if (!analysis.costsValid) {
        const core::Diagnostic& why = analysis.diagnostics.back();
        fmt::print(err, "archplay-cli: {}: {}: {}\n", analyzed.loaded.origin, why.field, why.message);
        return InvalidConfig;
    }
    if (!analysis.config.exact()) {
        err << core::estimateLabel(analysis.config) << "\n";
    }
    print(analysis, out);
    return Success;
}

void printRows(const std::vector<core::SummaryRow>& rows, std::ostream& out) {
    for (const core::SummaryRow& row : rows) {
        fmt::print(out, "{:<32} {:>16}  {}\n", row.label, row.value, row.detail);
    }
}

template <typename Run>
CommandRunner costCommand(const std::vector<std::string>& args, std::vector<std::string> switches, Run run) {
    Options options = parseOptions(args, scenarioFlags(), std::move(switches));
    requireOneConfig(options);
    const core::Scenario scenario = scenarioFromFlags(options.values);
    return [options, scenario, run](std::ostream& out, std::ostream& err) {
        return run(options, scenario, out, err);
    };
}

} // namespace

CommandRunner parseCompute(const std::vector<std::string>& args) {
    return costCommand(
        args, {}, [](const Options& options, const core::Scenario& scenario, std::ostream& out, std::ostream& err) {
            return withAnalysis(options, scenario, out, err, [&](const core::Analysis& a, std::ostream& o) {
                if (options.json) {
                    printJson(core::computeJson(a), a, o);
                    return;
                }
                printRows(core::computeRows(a), o);
            });
        });
}

CommandRunner parseMemory(const std::vector<std::string>& args) {
    return costCommand(
        args, {"--training"},
        [](const Options& options, const core::Scenario& scenario, std::ostream& out, std::ostream& err) {
            const bool training = options.switches.count("--training") > 0;
            return withAnalysis(options, scenario, out, err, [&](const core::Analysis& a, std::ostream& o) {
                if (options.json) {
                    printJson(core::memoryJson(a, training), a, o);
                    return;
                }
                printRows(training ? core::trainingMemoryRows(a) : core::servingMemoryRows(a), o);
            });
        });
}

CommandRunner parseFit(const std::vector<std::string>& args) {
    requireGpu(args);
    return costCommand(
        args, {}, [](const Options& options, const core::Scenario& scenario, std::ostream& out, std::ostream& err) {
            return withAnalysis(options, scenario, out, err, [&](const core::Analysis& a, std::ostream& o) {
                if (options.json) {
                    printJson(core::fitJson(a), a, o);
                    return;
                }
                printRows(core::fitRows(a), o);
                printRows(core::vllmRows(a), o);
                fmt::print(o, "\n{:<16} {:>12} {:>12}  {}\n", "weights", "bytes", "with cache", "on the devices");
                for (const core::FormatFit& each : core::capacity(a).formats) {
                    fmt::print(o, "{:<16} {:>12} {:>12}  {}\n", core::formatInfo(each.format).id,
                               core::binaryBytes(each.weightBytes), core::binaryBytes(each.devices.requiredBytes),
                               core::fitVerdict(each.devices));
                }
                fmt::print(o, "\nFits: {}.\n", core::fitRuleLabel(a.scenario.kvAllocator));
            });
        });
}

CommandRunner parseRoofline(const std::vector<std::string>& args) {
    requireGpu(args);
    return costCommand(
        args, {}, [](const Options& options, const core::Scenario& scenario, std::ostream& out, std::ostream& err) {
            return withAnalysis(options, scenario, out, err, [&](const core::Analysis& a, std::ostream& o) {
                if (options.json) {
                    printJson(core::rooflineJson(a), a, o);
                    return;
                }
                fmt::print(o, "{}\n\n", core::speedBoundLabel());
                printRows(core::speedRows(a), o);
                if (!a.config.hasDecoder()) {
                    fmt::print(o, "\n{}\n", core::noDecodeNote(a.config));
                    return;
                }
                fmt::print(o, "\n{:>6} {:>14} {:>16} {:>12}  {}\n", "batch", "tokens/s", "per sequence", "step",
                           "bound");
                for (const core::DecodeStep& step : a.speed.curve) {
                    fmt::print(o, "{:>6} {:>14} {:>16} {:>12}  {}\n", step.batch,
                               core::tokenRateText(step.tokensPerSecond), core::tokenRateText(step.perSequence),
                               core::durationText(step.seconds), step.computeBound ? "compute" : "memory");
                }
                fmt::print(o, "{}\n", core::curveEndText(a.speed));
            });
        });
}

CommandRunner parseGpus(const std::vector<std::string>& args) {
    Options options = parseOptions(args, {});
    if (!options.positional.empty()) {
        throw UsageError{"gpus takes no arguments"};
    }
    return [options](std::ostream& out, std::ostream&) {
        const std::vector<core::Gpu>& gpus = core::builtinGpus();
        if (options.json) {
            out << core::gpuCatalogueToJson(gpus);
            return int(Success);
        }
        fmt::print(out, "{:<11} {:<16} {:>8} {:>11} {:>14} {:>14}  {}\n", "id", "name", "memory", "bandwidth", "BF16",
                   "FP8", "source");
        for (const core::Gpu& gpu : gpus) {
            fmt::print(out, "{:<11} {:<16} {:>8} {:>11} {:>14} {:>14}  {}\n", gpu.id, gpu.name,
                       fmt::format("{} GiB", gpu.memoryGiB), core::bandwidthText(gpu.bandwidth),
                       core::flopRateText(gpu.bf16Flops) + (gpu.estimated ? "*" : ""),
                       gpu.fp8Flops > 0 ? core::flopRateText(gpu.fp8Flops) : std::string("-"), gpu.source);
        }
        fmt::print(out,
                   "\n* estimated from cores and clock, not a vendor figure. Peaks are dense (no 2:4 sparsity).\n");
        return int(Success);
    };
}

} // namespace archplay::cli
