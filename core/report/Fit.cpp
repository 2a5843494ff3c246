// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/Fit.h"

#include "core/analysis/Capacity.h"
#include "core/analysis/DesignFigures.h"
#include "core/report/Costs.h"
#include "core/report/CostsText.h"
#include "core/report/ReportJson.h"
#include "core/util/Format.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace archplay::core {

using coststext::row;

namespace {

using coststext::batchLimitText;
using coststext::tokensText;

std::string longestText(const Capacity& answers) {
    switch (answers.lengthLimit) {
    case Capacity::Length::NoCache:
    case Capacity::Length::StopsGrowing:
        return "any length";
    case Capacity::Length::Beyond:
        return "over " + tokenCount(answers.longestSequence);
    case Capacity::Length::Tokens:
        break;
    }
    return answers.longestSequence > 0 ? tokenCount(answers.longestSequence) : "none";
}

std::string longestDetail(const Analysis& a, const Capacity& answers) {
    if (answers.longestSequence == 0) {
        return coststext::notFitText(a);
    }
    const std::string context = fmt::format("the model reads up to {}", tokensText(answers.modelContext));
    switch (answers.lengthLimit) {
    case Capacity::Length::NoCache:
        return "the model keeps no cache; " + context;
    case Capacity::Length::StopsGrowing:
        return "sliding windows or fixed states stop the cache growing, and it fits; " + context;
    case Capacity::Length::Beyond:
        return "the cache still fits at 2^40 tokens, the longest searched; " + context;
    case Capacity::Length::Tokens:
        break;
    }
    if (answers.longestSequence > answers.modelContext) {
        return fmt::format("beyond the {} the model reads (max_position_embeddings)", tokensText(answers.modelContext));
    }
    return context;
}

std::string_view lengthLimitId(Capacity::Length limit) {
    switch (limit) {
    case Capacity::Length::NoCache:
        return "no_cache";
    case Capacity::Length::StopsGrowing:
        return "cache_stops_growing";
    case Capacity::Length::Beyond:
        return "beyond_search";
    case Capacity::Length::Tokens:
        break;
    }
    return "tokens";
}

/// Says when the scenario's length is beyond what the model reads.
std::string beyondContext(const Analysis& a, const Capacity& answers) {
    return a.scenario.sequenceLength > answers.modelContext
               ? fmt::format("; {} is beyond the {} the model reads", tokensText(a.scenario.sequenceLength),
                             tokensText(answers.modelContext))
               : std::string();
}

/// vllmRows() as JSON; null under other allocators.
nlohmann::json vllmJson(const Analysis& a) {
    using json = nlohmann::json;
    if (a.scenario.kvAllocator != KvAllocator::Vllm || !a.valid) {
        return json();
    }
    if (!a.kv.unsupported.empty()) {
        return {{"unsupported", a.kv.unsupported}};
    }
    const VllmServing serving = vllmServing(a);
    const VllmCapacity& capacity = serving.capacity;
    json out = {{"cache_bytes", capacity.cacheBytes},
                {"cache_bytes_given", serving.given},
                {"gpu_memory_utilization", a.scenario.gpuMemoryUtilization},
                {"reserved_bytes", serving.reservedBytes},
                {"weight_bytes_per_gpu", serving.weightBytes},
                {"profiled_bytes_estimate", serving.workspaceBytes}};
    if (!capacity.unsupported.empty()) {
        out["unsupported"] = capacity.unsupported;
        return out;
    }
    out["page_bytes"] = capacity.pageBytes;
    out["num_gpu_blocks"] = capacity.blocks;
    out["block_tokens"] = a.kv.engine.blockTokens;
    out["kv_cache_tokens"] = capacity.tokens;
    out["max_concurrency"] = capacity.maxConcurrency;
    out["starts"] = serving.starts();
    return out;
}

} // namespace

std::string fitRuleLabel(KvAllocator allocator) {
    return fmt::format("weights plus {}, split evenly over the devices; activations and an engine's own overhead "
                       "are not included",
                       allocator == KvAllocator::Architecture ? std::string_view("the architecture's own cache")
                                                              : allocatorLabel(allocator));
}

std::vector<SummaryRow> willItRunRows(const Analysis& a) {
    std::vector<SummaryRow> rows;
    if (!a.valid || !a.costsValid) {
        return rows;
    }
    const auto take = [&rows](const std::vector<SummaryRow>& from, std::string_view key) {
        const auto it = std::find_if(from.begin(), from.end(), [&](const SummaryRow& r) { return r.key == key; });
        if (it != from.end()) {
            rows.push_back(*it);
        }
        return it != from.end() ? &rows.back() : nullptr;
    };
    const std::vector<SummaryRow> vllm = vllmRows(a);
    for (const std::string_view key : {"vllm", "vllm_max_concurrency"}) {
        take(vllm, key);
    }
    if (const SummaryRow* tokens = take(vllm, "vllm_tokens"); tokens && tokens->tone != Tone::Bad) {
        rows.pop_back(); // its figure is in the concurrency; only a refusal stays
    }
    const std::vector<SummaryRow> fit = fitRows(a);
    const std::vector<SummaryRow> speed = speedRows(a);
    const auto bound = [](SummaryRow* r) {
        if (r) {
            r->label += " (bound)";
        }
    };
    take(fit, "largest_batch");
    take(fit, "longest_sequence");
    bound(take(speed, "decode_tokens_per_s"));
    take(speed, "decode_expected");
    take(fit, "devices_needed");
    bound(take(speed, "time_to_first_token_s"));
    return rows;
}

std::vector<SummaryRow> vllmRows(const Analysis& a) {
    std::vector<SummaryRow> rows;
    if (!a.valid || a.scenario.kvAllocator != KvAllocator::Vllm) {
        return rows;
    }
    if (!a.kv.unsupported.empty()) {
        rows.push_back(row("vllm", "vLLM", "no rule", "no rule", a.kv.unsupported, Tone::Bad));
        return rows;
    }
    const VllmServing serving = vllmServing(a);
    const VllmCapacity& capacity = serving.capacity;
    const Scenario& s = a.scenario;
    rows.push_back(row(
        "vllm_cache_bytes", "vLLM: cache on each GPU", binaryBytes(capacity.cacheBytes),
        withThousands(capacity.cacheBytes),
        serving.given ? std::string("as set (--kv-cache-memory-bytes)")
                      : fmt::format("estimate: {} x {} = {}, less weights {} and about {} vLLM profiles at start-up",
                                    percentText(s.gpuMemoryUtilization), binaryBytes(s.gpu.memoryBytes()),
                                    binaryBytes(serving.reservedBytes), binaryBytes(serving.weightBytes),
                                    binaryBytes(serving.workspaceBytes))));
    if (!capacity.unsupported.empty()) {
        rows.push_back(
            row("vllm_tokens", "vLLM's token capacity", "no rule", "no rule", capacity.unsupported, Tone::Bad));
        return rows;
    }
    rows.push_back(row("vllm_tokens", "vLLM: GPU KV cache size", withThousands(capacity.tokens) + " tokens",
                       std::to_string(capacity.tokens),
                       fmt::format("{} blocks of {} pages of {}; {} group{}", withThousands(capacity.blocks),
                                   a.kv.engine.groupSize, binaryBytes(capacity.pageBytes), a.kv.engine.groups,
                                   a.kv.engine.groups == 1 ? "" : "s")));
    const std::string concurrency = fmt::format("{:.2f}x", capacity.maxConcurrency);
    rows.push_back(row(
        "vllm_max_concurrency", fmt::format("vLLM: concurrency at {}", tokensText(s.sequenceLength)), concurrency,
        concurrency,
        serving.starts() ? fmt::format("a request takes {} pages", withThousands(a.kv.engine.pagesPerSequence))
        : capacity.cacheBytes == 0 ? "vLLM does not start: the weights and its profiled peak fill its share of each GPU"
                                   : "vLLM does not start: one request of this length needs more cache than it has",
        !serving.starts()                                        ? Tone::Bad
        : capacity.maxConcurrency < static_cast<double>(s.batch) ? Tone::Caution
                                                                 : Tone::Good));
    return rows;
}

std::vector<SummaryRow> fitRows(const Analysis& a) {
    std::vector<SummaryRow> rows;
    if (!a.valid) {
        return rows;
    }
    const Capacity answers = capacity(a);
    const Scenario& s = a.scenario;
    rows.push_back(
        row("fits",
            fmt::format("{} x {} on {}", withThousands(s.batch), tokensText(s.sequenceLength), devicesLabel(a.devices)),
            a.devices.fits ? "fits" : std::string(kDoesNotFit), a.devices.fits ? "yes" : "no",
            fmt::format("{}; weights {} ({}) + cache {} ({}){}",
                        a.devices.fits ? deviceUseText(a.devices.requiredBytes, a.devices.capacityBytes) + " used"
                                       : fitVerdict(a.devices),
                        binaryBytes(a.weightBytes), formatInfo(s.weightFormat).id, binaryBytes(a.kv.totalBytes),
                        toString(s.kvDType), beyondContext(a, answers)),
            a.devices.fits ? Tone::Good : Tone::Bad));
    const bool anyBatch = answers.largestBatch == kSaturated;
    rows.push_back(row("largest_batch", fmt::format("Largest batch at {}", tokensText(s.sequenceLength)),
                       batchLimitText(answers.largestBatch), anyBatch ? "any" : std::to_string(answers.largestBatch),
                       anyBatch ? "no cache grows with the batch"
                       : answers.largestBatch > 0
                           ? fmt::format("each sequence's cache {}", binaryBytes(a.speed.cacheBytesPerSequence))
                           : coststext::notFitText(a)));
    rows.push_back(row(
        "longest_sequence", fmt::format("Longest sequence at batch {}", withThousands(s.batch)), longestText(answers),
        answers.lengthLimit == Capacity::Length::NoCache || answers.lengthLimit == Capacity::Length::StopsGrowing
            ? "any"
            : std::to_string(answers.longestSequence),
        longestDetail(a, answers)));
    rows.push_back(row("devices_needed", fmt::format("Fewest {}", s.gpu.name),
                       answers.fewestDevices > 0 ? withThousands(answers.fewestDevices) : "none",
                       std::to_string(answers.fewestDevices),
                       answers.fewestDevices > 0
                           ? "for the weights and the cache of this batch and length, split evenly"
                           : "weights + cache are beyond 2^64 - 1 bytes"));
    const FormatFit* widest = answers.widestFitting();
    rows.push_back(row("widest_fitting_format", "Widest weight format that fits (most bytes)",
                       widest ? std::string(formatInfo(widest->format).id) : "none",
                       widest ? std::string(formatInfo(widest->format).id) : "none",
                       widest ? fmt::format("{} of weights beside the cache", binaryBytes(widest->weightBytes))
                              : "no weight format fits beside this cache"));
    for (SummaryRow& each : rows) {
        each.notes.emplace_back(fitRuleLabel(s.kvAllocator));
    }
    return rows;
}

nlohmann::json fitJson(const Analysis& a) {
    using json = nlohmann::json;
    if (!a.valid) {
        return json::object();
    }
    const Capacity answers = capacity(a);
    json formats = json::array();
    for (const FormatFit& each : answers.formats) {
        formats.push_back({{"format", formatInfo(each.format).id},
                           {"weight_bytes", figureJson(each.weightBytes)},
                           {"required_bytes", figureJson(each.devices.requiredBytes)},
                           {"fits", each.devices.fits},
                           {"devices_needed", each.devices.beyond ? json() : json(each.devices.devicesNeeded)}});
    }
    const FormatFit* widest = answers.widestFitting();
    return {{"gpu", a.scenario.gpu.id},
            {"gpu_count", a.scenario.gpuCount},
            {"capacity_bytes", figureJson(a.devices.capacityBytes)},
            {"sequence_length", a.scenario.sequenceLength},
            {"batch", a.scenario.batch},
            {"weight_format", formatInfo(a.scenario.weightFormat).id},
            {"kv_dtype", toString(a.scenario.kvDType)},
            {"fits", a.devices.fits},
            {"devices_needed", a.devices.beyond ? json() : json(answers.fewestDevices)},
            {"largest_batch", figureJson(answers.largestBatch)}, // null: any batch (no cache grows with it)
            {"longest_sequence", answers.longestSequence},
            {"length_limit", lengthLimitId(answers.lengthLimit)},
            {"model_context", answers.modelContext},
            {"widest_fitting_format", widest ? json(formatInfo(widest->format).id) : json()},
            {"formats", formats},
            {"rule", fitRuleLabel(a.scenario.kvAllocator)},
            {"allocator", toString(a.scenario.kvAllocator)},
            {"vllm", vllmJson(a)}};
}

} // namespace archplay::core
