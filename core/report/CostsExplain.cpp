// SPDX-License-Identifier: GPL-3.0-or-later
// explainCosts(): every cost formula with this configuration's values substituted.
#include "core/derivation/DerivationText.h"
#include "core/report/Costs.h"
#include "core/report/CostsText.h"
#include "core/util/Format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace archplay::core {

using namespace coststext;
using derivation::num;
using derivation::scientific;

Derivation explainCosts(const Analysis& a) {
    Derivation d;
    d.title = "What this configuration costs";
    d.notation = "FLOPs count a multiply-add as 2. $S$ is the sequence length, $B$ the batch, $D$ the training "
                 "tokens. The token at position $p$ attends to the $p$ keys up to itself (or its window).";
    if (!a.valid || !a.costsValid) {
        return d;
    }
    const ComputeReport& c = a.compute;
    const Scenario& s = a.scenario;
    const std::int64_t S = static_cast<std::int64_t>(c.context);

    DerivationSection compute{"Compute", "Sources: Kaplan et al. 2020, Hoffmann et al. 2022, FORMULAS.md §5.", {}};
    compute.steps.push_back(
        {"Weights",
         "Twice every weight a token multiplies: the active experts only, the LM head even when "
         "tied, not the embedding lookup.",
         {fmt::format("F_{{\\text{{weights}}}} = 2 P_{{\\text{{mm}}}} = 2 \\cdot {} = {}",
                      num(static_cast<std::int64_t>(c.weights / 2)), num(static_cast<std::int64_t>(c.weights)))}});
    std::vector<std::string> attention;
    // The kinds a token runs through, in the order flopsByLayerKind() lists them.
    const std::vector<KindFlops> byKind = flopsByLayerKind(a.config, c);
    std::size_t next = 0;
    for (const LayerKindCompute& kind : c.kinds) {
        if (c.encoderDecoder && kind.kind.stack == Stack::Encoder) {
            continue; // runs once per source token, in the prefill
        }
        const KindFlops& flops = byKind[next++];
        if (flops.attention == 0) {
            continue;
        }
        std::vector<std::string> terms;
        const auto term = [&](std::uint64_t perKey, std::uint64_t keys) {
            terms.push_back(fmt::format("{} \\times {} \\times {}", kind.layers, num(static_cast<std::int64_t>(perKey)),
                                        num(static_cast<std::int64_t>(keys))));
        };
        if (kind.kind.causal) {
            if (kind.perKey > 0) {
                term(kind.perKey, attendedKeyCount(kind, c.context));
            }
            if (kind.indexerPerKey > 0 && c.context > 0) {
                term(kind.indexerPerKey, attendedKeys(kind.mask, c.context - 1, c.context).size());
            }
            if (kind.crossPerKey > 0 && c.sourceTokens > 0) {
                term(kind.crossPerKey, c.sourceTokens);
            }
        } else if (kind.mask.kind == MaskKind::Bidirectional) {
            term(kind.perKey, c.context); // every token sees all S keys
        }
        std::string sum;
        for (const std::string& each : terms) {
            sum += (sum.empty() ? "" : " + ") + each;
        }
        attention.push_back(fmt::format("\\text{{{}}}: {}{}", flops.name, sum.empty() ? "" : sum + " = ",
                                        num(static_cast<std::int64_t>(flops.attention))));
    }
    attention.push_back(fmt::format("F_{{\\text{{attention}}}} = \\sum_\\ell 2 n_h (d_{{qk}} + d_v)\\, c_\\ell = {}",
                                    num(static_cast<std::int64_t>(c.attention))));
    compute.steps.push_back({"Attention at position $" + num(S) + "$",
                             "Per layer kind: layers x FLOPs per key x keys seen (windows, chunks and index_topk "
                             "applied; MLA as transformers computes it, with $d_{qk}$ = nope + rope).",
                             attention});
    compute.steps.push_back(
        {"Per token",
         "",
         {fmt::format("F_{{\\text{{token}}}} = {} + {} + {} = {}", num(static_cast<std::int64_t>(c.weights)),
                      num(static_cast<std::int64_t>(c.attention)), num(static_cast<std::int64_t>(c.state)),
                      num(static_cast<std::int64_t>(c.perToken)))}});
    compute.steps.push_back({"Prefill",
                             "Every token's weights, plus attention summed over positions $p = 1..S$.",
                             {fmt::format("F_{{\\text{{prefill}}}} = S\\, F_{{\\text{{weights}}}} + "
                                          "\\sum_{{p=1}}^{{S}} F_{{\\text{{attention}}}}(p) = {}",
                                          big(c.prefill))}});
    const char* recompute = c.recompute == Recompute::Full        ? " + F_{\\text{prefill}}"
                            : c.recompute == Recompute::Selective ? " + F_{\\text{attention, prefill}}"
                                                                  : "";
    compute.steps.push_back(
        {"Training",
         "The backward pass costs twice the forward; recomputation adds a forward (full) or the attention core "
         "(selective).",
         {fmt::format(
              "C = \\frac{{D}}{{S}} \\left(3 F_{{\\text{{prefill}}}}{}\\right) = \\frac{{{}}}{{{}}} \\cdot ({}) = {}",
              recompute, big(double(c.trainingTokens)), num(S),
              big(c.trainingTokens > 0 && S > 0 ? c.trainingFlops * double(S) / double(c.trainingTokens) : 0),
              big(c.trainingFlops)),
          fmt::format("6ND = 6 \\cdot {} \\cdot {} = {}", big(double(c.weights) / 2), big(double(c.trainingTokens)),
                      big(c.sixND))}});
    compute.steps.push_back(
        {"Compute-optimal",
         "Chinchilla's rule of thumb, about 20 tokens per parameter.",
         {fmt::format("D_{{\\text{{opt}}}} = 20 N = 20 \\cdot {} = {}", num(static_cast<std::int64_t>(a.params.total)),
                      big(double(c.chinchillaTokens)))}});
    compute.steps.push_back(
        {"Training time",
         "",
         {fmt::format("T = \\frac{{C}}{{n_{{\\text{{GPU}}}}\\, \\text{{peak}}\\, \\text{{MFU}}}} = \\frac{{{}}}{{{} "
                      "\\cdot {} \\cdot {}}} = {}\\,\\text{{s}}",
                      big(c.trainingFlops), s.gpuCount, big(s.gpu.peakFlops(s.activationDType == DType::FP8)),
                      fmt::format("{:g}", s.mfu), big(c.trainingSeconds))}});
    d.sections.push_back(std::move(compute));

    const ServingMemory& m = a.serving;
    const TrainingMemory& t = a.training;
    DerivationSection memory{
        "Memory", "Sources: FORMULAS.md §6, Rajbhandari et al. 2020, Korthikanti et al. 2022.", {}};
    memory.steps.push_back(
        {"Serving",
         std::string(formatInfo(s.weightFormat).layout) + ".",
         {fmt::format("M = W + KV + \\text{{workspace}} = {} + {} + {} = {}",
                      num(static_cast<std::int64_t>(m.weightBytes)), num(static_cast<std::int64_t>(m.kvBytes)),
                      num(static_cast<std::int64_t>(m.workspaceBytes)), big(double(m.totalBytes)))}});
    memory.steps.push_back(
        {"Training state",
         fmt::format("Mixed-precision Adam: {} bytes per parameter; ZeRO-{} over {} data-parallel GPUs, TP {}.",
                     t.bytesPerParam, s.zeroStage, t.dataParallel, s.tensorParallel),
         {fmt::format("({} + {} + 12) \\cdot {} = {}", kWeightBytesPerParam, gradientBytesPerParam(s.optimizer),
                      num(static_cast<std::int64_t>(t.params)),
                      big(double(t.weightBytes) + double(t.gradientBytes) + double(t.optimizerBytes))),
          fmt::format("\\text{{per GPU}}: {} + {} + {} = {}", big(double(t.gpuWeightBytes)),
                      big(double(t.gpuGradientBytes)), big(double(t.gpuOptimizerBytes)),
                      big(double(t.gpuWeightBytes) + double(t.gpuGradientBytes) + double(t.gpuOptimizerBytes)))}});
    std::vector<std::string> perLayer;
    for (const LayerActivations& layer : t.layers) {
        perLayer.push_back(fmt::format("\\text{{{}}}: {} \\times {} = {}", layerKindName(a.config, layer.kind),
                                       layer.layers, num(static_cast<std::int64_t>(layer.perLayer)),
                                       big(double(layer.perLayer) * double(layer.layers))));
    }
    perLayer.push_back(fmt::format("\\text{{activations per GPU}} = {}", big(double(t.gpuActivationBytes))));
    memory.steps.push_back(
        {"Activations",
         "Per layer after Korthikanti et al. (2022), generalised to this config's heads, KV heads and FFN: "
         "$sbh(34 + 5as/h)$ for GPT-3; without dropout, with FlashAttention or selective recompute no scores.",
         perLayer});
    d.sections.push_back(std::move(memory));

    const RooflineReport& r = a.speed;
    DerivationSection speed{
        "Speed", std::string(speedBoundLabel()) + ". Sources: Williams et al. 2009, FORMULAS.md §7.", {}};
    if (!a.config.hasDecoder()) {
        speed.steps.push_back(
            {"Forward pass",
             noDecodeNote(a.config),
             {fmt::format("t = \\max\\left(\\frac{{{}}}{{{}}}, \\frac{{{}}}{{{}}}\\right) = {}\\,\\text{{s}}",
                          big(r.prefillFlops), big(r.peakFlops), big(r.prefillBytes), big(r.bandwidth),
                          scientific(r.prefillSeconds))}});
        d.sections.push_back(std::move(speed));
        return d;
    }
    speed.steps.push_back(
        {"Largest batch",
         "The sequences whose caches fit in the devices' memory $M$ beside the weights $W$, each holding $KV$ "
         "bytes at position $S$ (weights plus cache, as the device fit counts them).",
         {r.cacheBytesPerSequence > 0
              ? fmt::format("B_{{\\max}} = \\left\\lfloor \\frac{{M - W}}{{KV}} \\right\\rfloor = "
                            "\\left\\lfloor \\frac{{{} - {}}}{{{}}} \\right\\rfloor = {}",
                            big(asDouble(a.devices.capacityBytes)), big(asDouble(a.weightBytes)),
                            big(asDouble(r.cacheBytesPerSequence)), withThousands(r.largestBatch))
              : fmt::format("KV = 0:\\ B_{{\\max}} = \\text{{{}}}", batchLimitText(r.largestBatch))}});
    if (!r.fits) {
        speed.steps.push_back({"No speed", notFitText(a), {}});
        d.sections.push_back(std::move(speed));
        return d;
    }
    speed.steps.push_back(
        {"Decode step",
         "Weights are read once per step for the batch (routed experts only where a token goes: "
         "$E(1 - (1 - k/E)^B)$ per layer), every sequence reads its cache.",
         {fmt::format("t = \\max\\left(\\frac{{W_{{\\text{{read}}}} + B \\cdot KV}}{{\\text{{BW}}}}, "
                      "\\frac{{B F_{{\\text{{token}}}}}}{{\\text{{peak}}}}\\right) = \\max\\left(\\frac{{{} + "
                      "{}}}{{{}}}, \\frac{{{}}}{{{}}}\\right) = {}\\,\\text{{s}}",
                      big(r.scenario.weightBytes), big(r.scenario.cacheBytes), big(r.bandwidth), big(r.scenario.flops),
                      big(r.peakFlops), scientific(r.scenario.seconds))}});
    speed.steps.push_back(
        {"Prefill and first token",
         "",
         {fmt::format(
              "t_{{\\text{{prefill}}}} = \\max\\left(\\frac{{{}}}{{{}}}, \\frac{{{}}}{{{}}}\\right) = {}\\,\\text{{s}}",
              big(r.prefillFlops), big(r.peakFlops), big(r.prefillBytes), big(r.bandwidth),
              scientific(r.prefillSeconds)),
          fmt::format("\\text{{TTFT}} = t_{{\\text{{prefill}}}} + t_{{\\text{{step}}}} = {}\\,\\text{{s}}",
                      scientific(r.timeToFirstToken))}});
    d.sections.push_back(std::move(speed));
    return d;
}

Derivation explainCosts(const Analysis& analysis, CostTopic topic) {
    Derivation whole = explainCosts(analysis);
    const auto index = static_cast<std::size_t>(topic);
    Derivation part;
    part.notation = whole.notation;
    if (index < whole.sections.size()) {
        part.title = fmt::format("{}: {}", whole.title, whole.sections[index].title);
        part.sections.push_back(std::move(whole.sections[index]));
    } else {
        part.title = whole.title;
    }
    return part;
}

} // namespace archplay::core
