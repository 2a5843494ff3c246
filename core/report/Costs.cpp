// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/Costs.h"

#include "core/analysis/DesignFigures.h"
#include "core/derivation/DerivationText.h"
#include "core/report/CostsText.h"
#include "core/report/Fit.h"
#include "core/report/Summary.h"
#include "core/scenario/GpuFit.h"
#include "core/util/Format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace archplay::core {
namespace coststext {

using derivation::num;
using derivation::scientific;

SummaryRow row(std::string key, std::string label, std::string value, std::string exact, std::string detail,
               Tone tone) {
    return {std::move(key), std::move(label), std::move(value), std::move(exact), std::move(detail), tone, {}};
}

std::string flopsExact(double flops) {
    return flops < 9e15 ? withThousands(static_cast<std::uint64_t>(std::llround(flops))) + " FLOP"
                        : fmt::format("{:.6e} FLOP", flops);
}

std::string bytesRow(std::uint64_t bytes) {
    return withThousands(bytes) + " bytes";
}

std::string gpusText(const Scenario& s) {
    return fmt::format("{} x {}", s.gpuCount, s.gpu.name);
}

std::string neededText(std::uint64_t needed, const Gpu& gpu) {
    return needed == 0 ? fmt::format("no number of {} fits", gpu.name) : fmt::format("{} x {}", needed, gpu.name);
}

std::string big(double value) {
    return value < 9e15 ? num(static_cast<std::int64_t>(std::llround(value))) : scientific(value);
}

std::string notFitText(const Analysis& a) {
    const RooflineReport& r = a.speed;
    if (r.largestBatch == 0) {
        return fmt::format(
            "weights and one sequence's cache do not fit on {}: {}", devicesLabel(a.devices),
            fitVerdict(deviceFit(a.devices.gpu, a.devices.devices, a.weightBytes, r.cacheBytesPerSequence)));
    }
    return fmt::format("{} sequences do not fit on {} ({}); at most {} do", withThousands(r.scenario.batch),
                       devicesLabel(a.devices), fitVerdict(a.devices), withThousands(r.largestBatch));
}

std::string tokensText(std::uint64_t tokens) {
    return tokens == 1 ? "1 token" : tokenCount(tokens) + " tokens";
}

std::string batchLimitText(std::uint64_t largestBatch) {
    return largestBatch == kSaturated ? "any" : largestBatch == 0 ? "none" : withThousands(largestBatch);
}

} // namespace coststext

using namespace coststext;

std::string_view speedBoundLabel() {
    return "upper bound: peak bandwidth and throughput, perfect overlap, GPUs splitting the work evenly";
}

std::string noDecodeNote(const ModelConfig& config) {
    return config.hasDecoder() ? std::string()
                               : "An encoder-only model reads its whole input in one forward pass: it has no decode "
                                 "step, so no tokens per second to bound.";
}

namespace {

/// Why no number of the scenario's GPUs holds its training: what one GPU keeps however many share
/// the work (the data-parallel degree as large as trainingGpusNeeded() searches).
std::string trainingNoFitReason(const Analysis& a) {
    const Scenario& s = a.scenario;
    TrainingShape shape = s.trainingShape();
    const std::uint64_t tp = std::max<std::uint64_t>(shape.tensorParallel, 1);
    shape.gpus = std::max<std::uint64_t>((std::uint64_t{1} << 20) / tp, 1) * tp;
    const TrainingMemory floor = trainingMemory(a.config, a.plan, a.params.total, shape);
    if (floor.gpuActivationBytes > s.gpu.memoryBytes()) {
        return "one GPU's activations alone exceed its memory (raise TP or recompute)";
    }
    return fmt::format("with ZeRO-{} every GPU keeps {}, however many share the work (raise the ZeRO stage or TP)",
                       s.zeroStage, binaryBytes(floor.gpuTotalBytes));
}

std::uint64_t perGpu(std::uint64_t bytes, std::uint64_t gpus) {
    gpus = std::max<std::uint64_t>(gpus, 1);
    return bytes / gpus + (bytes % gpus != 0 ? 1 : 0);
}

std::string capacityLabel(const Gpu& gpu) {
    return fmt::format("{} {}", binaryBytes(gpu.memoryBytes()), gpu.name);
}

} // namespace

MemoryStack servingStack(const Analysis& a) {
    MemoryStack stack;
    stack.title = "Serving, per GPU";
    if (!a.valid || !a.costsValid) {
        return stack;
    }
    const ServingMemory& m = a.serving;
    const Scenario& s = a.scenario;
    const std::pair<MemorySegment, std::uint64_t> parts[] = {
        {{MemoryPart::Weights, fmt::format("Weights ({})", weightFormatLabel(a.config, s.weightFormat)),
          "weights_bytes", 0},
         m.weightBytes},
        {{MemoryPart::KvCache, "KV cache and states", "kv_bytes", 0}, m.kvBytes},
        {{MemoryPart::Workspace, "Prefill workspace", "activation_bytes", 0}, m.workspaceBytes}};
    for (const auto& [segment, bytes] : parts) {
        if (bytes > 0) {
            stack.segments.push_back(segment);
            stack.segments.back().bytes = perGpu(bytes, m.gpus);
        }
    }
    stack.totalBytes = m.perGpuBytes;
    stack.capacityBytes = s.gpu.memoryBytes();
    stack.capacityLabel = capacityLabel(s.gpu);
    stack.fits = m.fits;
    stack.fewestGpus = m.gpusNeeded;
    stack.verdict =
        m.fits ? fmt::format("fits on {}: {} used", gpusText(s), deviceUseText(m.perGpuBytes, stack.capacityBytes))
               : fmt::format("needs {}", neededText(m.gpusNeeded, s.gpu));
    stack.shortVerdict = m.fits ? fmt::format("fits on {}", gpusText(s)) : stack.verdict;
    stack.tone = m.fits ? Tone::Good : Tone::Caution;
    return stack;
}

MemoryStack trainingStack(const Analysis& a) {
    MemoryStack stack;
    stack.title = "Training, per GPU";
    if (!a.valid) {
        return stack;
    }
    const TrainingMemory& t = a.training;
    const Scenario& s = a.scenario;
    const std::pair<MemorySegment, std::uint64_t> parts[] = {
        {{MemoryPart::Weights, "Weights (bf16)", "gpu_weight_bytes", 0}, t.gpuWeightBytes},
        {{MemoryPart::Gradients, gradientBytesPerParam(s.optimizer) == 4 ? "Gradients (fp32)" : "Gradients (bf16)",
          "gradient_bytes", 0},
         t.gpuGradientBytes},
        {{MemoryPart::Optimizer, "Optimizer (fp32 master, m, v)", "optimizer_bytes", 0}, t.gpuOptimizerBytes},
        {{MemoryPart::Activations, "Activations", "training_activation_bytes", 0}, t.gpuActivationBytes}};
    for (const auto& [segment, bytes] : parts) {
        if (bytes > 0) {
            stack.segments.push_back(segment);
            stack.segments.back().bytes = bytes;
        }
    }
    stack.totalBytes = t.gpuTotalBytes;
    stack.capacityBytes = s.gpu.memoryBytes();
    stack.capacityLabel = capacityLabel(s.gpu);
    stack.fits = !t.overflow && t.gpuTotalBytes <= stack.capacityBytes;
    stack.fewestGpus = a.trainingGpusNeeded;
    if (stack.fits) {
        stack.shortVerdict = fmt::format("fits on {}", gpusText(s));
        stack.verdict =
            fmt::format("fits on {}: {} used", gpusText(s), deviceUseText(t.gpuTotalBytes, stack.capacityBytes));
    } else if (a.trainingGpusNeeded > 0) {
        stack.shortVerdict = fmt::format("needs {}", neededText(a.trainingGpusNeeded, s.gpu));
        stack.verdict = fmt::format("needs {} with TP {} and ZeRO-{}", neededText(a.trainingGpusNeeded, s.gpu),
                                    s.tensorParallel, s.zeroStage);
    } else {
        stack.shortVerdict = neededText(a.trainingGpusNeeded, s.gpu);
        stack.verdict = fmt::format("{}: {}", stack.shortVerdict, trainingNoFitReason(a));
    }
    stack.tone = stack.fits ? Tone::Good : (a.trainingGpusNeeded > 0 ? Tone::Caution : Tone::Bad);
    return stack;
}

std::vector<SummaryRow> computeRows(const Analysis& a) {
    std::vector<SummaryRow> rows;
    if (!a.valid || !a.costsValid) {
        return rows;
    }
    const ComputeReport& c = a.compute;
    const Scenario& s = a.scenario;
    const bool encoderOnly = a.config.architecture == ArchitectureKind::EncoderOnly;
    const std::string at = encoderOnly ? fmt::format("average over {} tokens", tokenCount(c.context))
                                       : fmt::format("at position {}", tokenCount(c.context));
    rows.push_back(row(
        "flops_per_token", "FLOPs per token", flopText(double(c.perToken)), flopsExact(double(c.perToken)),
        fmt::format("{}: weights {} + attention {}{}", at, flopText(double(c.weights)), flopText(double(c.attention)),
                    c.state > 0 ? " + states " + flopText(double(c.state)) : std::string())));
    rows.push_back(row("weight_flops_per_token", "Weights (2 x multiplied)", flopText(double(c.weights)),
                       flopsExact(double(c.weights)), "active experts only, LM head included, no embedding lookup"));
    rows.push_back(row("attention_flops_per_token", "Attention per token", flopText(double(c.attention)),
                       flopsExact(double(c.attention)),
                       fmt::format("QK^T and AV over the keys each layer sees, {}",
                                   percentText(fractionOf(c.attention, c.perToken)) + " of the token")));
    if (c.state > 0) {
        rows.push_back(row("state_flops_per_token", "Recurrent states per token", flopText(double(c.state)),
                           flopsExact(double(c.state)), "linear-attention and state-space layers, constant in S"));
    }
    rows.push_back(
        row("prefill_flops", fmt::format("Prefill of {} tokens", tokenCount(c.context)), flopText(c.prefill),
            flopsExact(c.prefill),
            fmt::format("attention {} of it ({})", percentText(c.prefill > 0 ? c.prefillAttention / c.prefill : 0),
                        encoderOnly ? "bidirectional: every token sees every key" : "causal: token p sees p keys")));
    rows.push_back(row("training_flops",
                       fmt::format("Training on {} tokens", tokenBudgetText(double(c.trainingTokens))),
                       flopText(c.trainingFlops), flopsExact(c.trainingFlops),
                       fmt::format("6ND gives {}; recompute {}", flopText(c.sixND), toString(c.recompute))));
    rows.push_back(row("chinchilla_tokens", "Compute-optimal tokens", tokenBudgetText(double(c.chinchillaTokens)),
                       withThousands(c.chinchillaTokens) + " tokens",
                       "20 per parameter (Hoffmann et al. 2022; fit on dense models)"));
    rows.push_back(row("chinchilla_flops", "Compute-optimal training", flopText(c.chinchillaFlops),
                       flopsExact(c.chinchillaFlops), "at the compute-optimal tokens"));
    rows.push_back(row("training_time", "Training time", durationText(c.trainingSeconds),
                       fmt::format("{:.0f} s", c.trainingSeconds),
                       fmt::format("{} at {} MFU ({})", gpusText(s), percentText(s.mfu),
                                   flopRateText(s.gpu.peakFlops(s.activationDType == DType::FP8)) + " peak each")));
    return rows;
}

std::vector<SummaryRow> servingMemoryRows(const Analysis& a) {
    std::vector<SummaryRow> rows;
    if (!a.valid || !a.costsValid) {
        return rows;
    }
    const ServingMemory& m = a.serving;
    const Scenario& s = a.scenario;
    const double bits = a.params.total > 0 ? 8.0 * double(a.weightBytes) / double(a.params.total) : 0;
    rows.push_back(row("weights_bytes", fmt::format("Weights ({})", weightFormatLabel(a.config, s.weightFormat)),
                       binaryBytes(m.weightBytes), bytesRow(m.weightBytes),
                       fmt::format("{:.3f} bits per parameter over the model", bits)));
    rows.push_back(row("kv_bytes", "KV cache and states", binaryBytes(m.kvBytes), bytesRow(m.kvBytes),
                       fmt::format("{} tokens x {} sequence{}, {}", tokenCount(s.sequenceLength), s.batch,
                                   s.batch == 1 ? "" : "s", toString(s.kvDType))));
    rows.push_back(row(
        "activation_bytes", "Prefill workspace (estimate)", binaryBytes(m.workspaceBytes), bytesRow(m.workspaceBytes),
        fmt::format("one layer's activations for a chunk of {} tokens, and the logits", tokenCount(m.chunkTokens))));
    rows.push_back(row("total_bytes", "Serving memory", binaryBytes(m.totalBytes), bytesRow(m.totalBytes),
                       m.fits ? fmt::format("{} per GPU on {}: fits", binaryBytes(m.perGpuBytes), gpusText(s))
                              : fmt::format("{} per GPU on {}: needs {}", binaryBytes(m.perGpuBytes), gpusText(s),
                                            neededText(m.gpusNeeded, s.gpu)),
                       m.fits ? Tone::Good : Tone::Caution));
    // vLLM's own answer beside archplay's when the cache is vLLM's (Fit.cpp).
    for (SummaryRow& each : vllmRows(a)) {
        rows.push_back(std::move(each));
    }
    return rows;
}

std::vector<SummaryRow> trainingMemoryRows(const Analysis& a) {
    std::vector<SummaryRow> rows;
    if (!a.valid || !a.costsValid) {
        return rows;
    }
    const TrainingMemory& t = a.training;
    const Scenario& s = a.scenario;
    const std::string shards = fmt::format("TP {} x DP {}, ZeRO-{}", s.tensorParallel, t.dataParallel, s.zeroStage);
    rows.push_back(
        row("training_state_bytes", fmt::format("Training state ({} B/param)", t.bytesPerParam),
            binaryBytes(t.weightBytes + t.gradientBytes + t.optimizerBytes),
            bytesRow(t.weightBytes + t.gradientBytes + t.optimizerBytes),
            fmt::format("2 weights + {} gradients + 12 optimizer, whole model", gradientBytesPerParam(s.optimizer))));
    rows.push_back(
        row("gpu_weight_bytes", "Weights per GPU", binaryBytes(t.gpuWeightBytes), bytesRow(t.gpuWeightBytes), shards));
    rows.push_back(row("gradient_bytes", "Gradients per GPU", binaryBytes(t.gpuGradientBytes),
                       bytesRow(t.gpuGradientBytes), shards));
    rows.push_back(row("optimizer_bytes", "Optimizer per GPU", binaryBytes(t.gpuOptimizerBytes),
                       bytesRow(t.gpuOptimizerBytes), "fp32 master weights, Adam m and v"));
    rows.push_back(
        row("training_activation_bytes", "Activations per GPU", binaryBytes(t.gpuActivationBytes),
            bytesRow(t.gpuActivationBytes),
            fmt::format("micro-batch {} x {} tokens, recompute {}{}", s.microBatch, tokenCount(s.sequenceLength),
                        toString(s.recompute), s.flashAttention ? ", FlashAttention" : "")));
    const bool fits = !t.overflow && t.gpuTotalBytes <= s.gpu.memoryBytes();
    rows.push_back(row(
        "training_per_gpu_bytes", "Training memory per GPU", binaryBytes(t.gpuTotalBytes), bytesRow(t.gpuTotalBytes),
        fmt::format("{} the {} of one {}", fits ? "fits in" : "exceeds", binaryBytes(s.gpu.memoryBytes()), s.gpu.name),
        fits ? Tone::Good : Tone::Caution));
    rows.push_back(row("training_gpus_needed", "Fewest GPUs to train",
                       a.trainingGpusNeeded > 0 ? std::to_string(a.trainingGpusNeeded) : "none",
                       a.trainingGpusNeeded > 0 ? std::to_string(a.trainingGpusNeeded) : "none",
                       a.trainingGpusNeeded > 0
                           ? fmt::format("{} with TP {} and ZeRO-{}", neededText(a.trainingGpusNeeded, s.gpu),
                                         s.tensorParallel, s.zeroStage)
                           : trainingNoFitReason(a),
                       a.trainingGpusNeeded > 0 ? Tone::Normal : Tone::Bad));
    return rows;
}

namespace {

/// A figure the devices cannot hold: its row says so and why.
SummaryRow notFitRow(std::string key, std::string label, std::string why) {
    return row(std::move(key), std::move(label), std::string(kDoesNotFit), std::string(kDoesNotFit), std::move(why));
}

/// How the largest batch is reached: the room beside the weights over one sequence's cache.
std::string largestBatchText(const Analysis& a) {
    const RooflineReport& r = a.speed;
    if (r.largestBatch == 0) {
        return notFitText(a);
    }
    if (r.largestBatch == kSaturated) {
        return "no cache grows with the batch: the weights fit, and so does any batch";
    }
    return fmt::format("{} of {} beside the weights' {}, {} a sequence",
                       binaryBytes(a.devices.capacityBytes - std::min(a.devices.capacityBytes, a.weightBytes)),
                       devicesLabel(a.devices), binaryBytes(a.weightBytes), binaryBytes(r.cacheBytesPerSequence));
}

} // namespace

std::vector<SummaryRow> speedRows(const Analysis& a) {
    std::vector<SummaryRow> rows;
    if (!a.valid || !a.costsValid) {
        return rows;
    }
    const RooflineReport& r = a.speed;
    const Scenario& s = a.scenario;
    const DecodeStep& step = r.scenario;
    const auto bound = [](const DecodeStep& d) {
        return d.computeBound ? "compute-bound" : "memory-bound";
    };
    const auto forAll = [&] {
        for (SummaryRow& each : rows) {
            each.notes.emplace_back(speedBoundLabel());
        }
        return rows;
    };
    const auto deviceRow = [&] {
        return row("device", gpusText(s), fmt::format("{} · {}", bandwidthText(r.bandwidth), flopRateText(r.peakFlops)),
                   fmt::format("{} · {}", bandwidthText(r.bandwidth), flopRateText(r.peakFlops)),
                   fmt::format("{} peak{}", r.fp8 ? "FP8" : "BF16", s.gpu.estimated ? " (estimated)" : ""));
    };
    if (!a.config.hasDecoder()) {
        // No decode step: one forward pass over the whole input is all there is to time.
        const std::string label =
            fmt::format("Forward pass, {} x {}", withThousands(step.batch), tokensText(r.context));
        if (r.fits) {
            rows.push_back(row("prefill_seconds", label, durationText(r.prefillSeconds),
                               fmt::format("{:.6f} s", r.prefillSeconds),
                               fmt::format("intensity {:.0f} FLOP/byte, {}", r.prefillIntensity,
                                           r.prefillIntensity > r.ridge ? "compute-bound" : "memory-bound")));
        } else {
            rows.push_back(notFitRow("prefill_seconds", label, notFitText(a)));
        }
        rows.push_back(deviceRow());
        return forAll();
    }
    // No speed for what does not fit: the decode of the scenario's batch, its prefill and first token
    // need every sequence's cache beside the weights; one sequence needs its own.
    const std::string tooBig = notFitText(a);
    if (r.fits) {
        rows.push_back(row("decode_tokens_per_s", fmt::format("Decode, batch {}", withThousands(step.batch)),
                           tokenRateText(step.tokensPerSecond), fmt::format("{:.1f} tokens/s", step.tokensPerSecond),
                           fmt::format("{} per sequence, {}, {} per step", tokenRateText(step.perSequence), bound(step),
                                       durationText(step.seconds))));
    } else {
        rows.push_back(
            notFitRow("decode_tokens_per_s", fmt::format("Decode, batch {}", withThousands(step.batch)), tooBig));
    }
    if (r.expectedDecode) {
        rows.push_back(row("decode_expected", fmt::format("Decode, batch {}, expected", withThousands(step.batch)),
                           tokenRateRangeText(r.expectedDecode->low, r.expectedDecode->high),
                           fmt::format("{:.1f}-{:.1f} tokens/s", r.expectedDecode->low, r.expectedDecode->high),
                           "at the bandwidth measured on the device: " + r.expectedDecode->source));
    } else if (r.fits) {
        rows.push_back(row("decode_expected", fmt::format("Decode, batch {}, expected", withThousands(step.batch)),
                           "bound only", "bound only",
                           step.computeBound ? "compute-bound: no measured FLOP rate to scale the bound by"
                                             : "no bandwidth measured on this device; add one in Tools > Devices"));
    }
    if (r.curve.empty()) {
        rows.push_back(notFitRow("decode_batch_1", "Decode, one sequence", tooBig));
    } else {
        const DecodeStep& one = r.curve.front();
        rows.push_back(row("decode_batch_1", "Decode, one sequence", tokenRateText(one.perSequence),
                           fmt::format("{:.1f} tokens/s", one.perSequence),
                           fmt::format("reads {} per token", binaryBytes(static_cast<std::uint64_t>(std::min(
                                                                 one.weightBytes + one.cacheBytes, 1.8e19))))));
    }
    rows.push_back(row("largest_batch", fmt::format("Largest batch at {}", tokensText(r.context)),
                       batchLimitText(r.largestBatch),
                       r.largestBatch == kSaturated ? "any" : std::to_string(r.largestBatch), largestBatchText(a)));
    const bool beyondMemory = r.computeBoundBatch > r.largestBatch;
    const std::string computeBoundDetail =
        r.computeBoundBatch == 0 ? "every sequence's cache reads keep decode memory-bound"
        : r.largestBatch == 0    ? fmt::format("ridge {:.0f} FLOP/byte; no batch fits on the devices", r.ridge)
        : beyondMemory ? fmt::format("ridge {:.0f} FLOP/byte; beyond the {} sequences that fit, so decode stays "
                                     "memory-bound here",
                                     r.ridge, withThousands(r.largestBatch))
                       : fmt::format("ridge {:.0f} FLOP/byte", r.ridge);
    rows.push_back(row("compute_bound_batch", "Decode turns compute-bound",
                       r.computeBoundBatch > 0 ? fmt::format("batch {}", withThousands(r.computeBoundBatch)) : "never",
                       r.computeBoundBatch > 0 ? withThousands(r.computeBoundBatch) : "never", computeBoundDetail));
    if (r.fits) {
        rows.push_back(row("prefill_seconds",
                           fmt::format("Prefill, {} x {}", withThousands(step.batch), tokensText(r.context)),
                           durationText(r.prefillSeconds), fmt::format("{:.6f} s", r.prefillSeconds),
                           fmt::format("intensity {:.0f} FLOP/byte, {}", r.prefillIntensity,
                                       r.prefillIntensity > r.ridge ? "compute-bound" : "memory-bound")));
        rows.push_back(row("time_to_first_token_s", "Time to first token", durationText(r.timeToFirstToken),
                           fmt::format("{:.6f} s", r.timeToFirstToken), "prefill plus one decode step"));
    } else {
        rows.push_back(notFitRow("prefill_seconds",
                                 fmt::format("Prefill, {} x {}", withThousands(step.batch), tokensText(r.context)),
                                 tooBig));
        rows.push_back(notFitRow("time_to_first_token_s", "Time to first token", tooBig));
    }
    rows.push_back(deviceRow());
    return forAll();
}

std::string noDecodeCurveNote(const Analysis& a) {
    if (!a.config.hasDecoder()) {
        return noDecodeNote(a.config);
    }
    if (a.valid && a.costsValid && a.speed.curve.empty()) {
        return "No batch has a decode speed: the " + notFitText(a) + ".";
    }
    return {};
}

std::string curveEndText(const RooflineReport& report) {
    if (report.largestBatch == 0) {
        return "no batch: the weights and one sequence's cache do not fit on the devices";
    }
    if (report.largestBatch == kSaturated) {
        return "no cache grows with the batch: any batch fits beside the weights";
    }
    if (report.curve.empty() || report.curve.back().batch == report.largestBatch) {
        return fmt::format("stops at batch {}, the most sequences whose caches fit beside the weights",
                           withThousands(report.largestBatch));
    }
    return fmt::format("{} sequences fit beside the weights", withThousands(report.largestBatch));
}

} // namespace archplay::core
