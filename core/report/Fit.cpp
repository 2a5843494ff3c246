// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/Fit.h"

#include "core/analysis/Capacity.h"
#include "core/report/CostsText.h"
#include "core/report/ReportJson.h"
#include "core/util/Format.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace archplay::core {

using coststext::row;

namespace {

std::string longestText(const Capacity& answers) {
    if (answers.anyLength) {
        return "any length";
    }
    return answers.longestSequence > 0 ? tokenCount(answers.longestSequence) : "none";
}

std::string longestDetail(const Analysis& a, const Capacity& answers) {
    if (answers.longestSequence == 0) {
        return coststext::notFitText(a);
    }
    if (answers.anyLength) {
        return "the cache stops growing (sliding windows or fixed states) and fits";
    }
    if (answers.longestSequence > answers.modelContext) {
        return fmt::format("beyond the {} the model reads (max_position_embeddings)", tokenCount(answers.modelContext));
    }
    return fmt::format("the model reads up to {}", tokenCount(answers.modelContext));
}

} // namespace

std::vector<SummaryRow> fitRows(const Analysis& a) {
    std::vector<SummaryRow> rows;
    if (!a.valid) {
        return rows;
    }
    const Capacity answers = capacity(a);
    const Scenario& s = a.scenario;
    rows.push_back(
        row("fits",
            fmt::format("{} x {} tokens on {}", withThousands(s.batch), tokenCount(s.sequenceLength),
                        devicesLabel(a.devices)),
            a.devices.fits ? "fits" : "does not fit", a.devices.fits ? "yes" : "no",
            fmt::format("{}; weights {} ({}) + cache {} ({})",
                        a.devices.fits ? deviceUseText(a.devices.requiredBytes, a.devices.capacityBytes) + " used"
                                       : fitVerdict(a.devices),
                        binaryBytes(a.weightBytes), formatInfo(s.weightFormat).id, binaryBytes(a.kv.totalBytes),
                        toString(s.kvDType)),
            a.devices.fits ? Tone::Good : Tone::Bad));
    rows.push_back(row(
        "largest_batch", fmt::format("Largest batch at {} tokens", tokenCount(s.sequenceLength)),
        answers.largestBatch > 0 ? withThousands(answers.largestBatch) : "none", std::to_string(answers.largestBatch),
        answers.largestBatch > 0 ? fmt::format("each sequence's cache {}", binaryBytes(a.speed.cacheBytesPerSequence))
                                 : coststext::notFitText(a)));
    rows.push_back(row("longest_sequence", fmt::format("Longest sequence at batch {}", withThousands(s.batch)),
                       longestText(answers), answers.anyLength ? "any" : std::to_string(answers.longestSequence),
                       longestDetail(a, answers)));
    rows.push_back(row("devices_needed", fmt::format("Fewest {}", s.gpu.name),
                       answers.fewestDevices > 0 ? withThousands(answers.fewestDevices) : "none",
                       std::to_string(answers.fewestDevices),
                       answers.fewestDevices > 0
                           ? "for the weights and the cache of this batch and length, split evenly"
                           : "weights + cache are beyond 2^64 - 1 bytes"));
    const FormatFit* widest = answers.widestFitting();
    rows.push_back(row("widest_fitting_format", "Widest weight format that fits",
                       widest ? std::string(formatInfo(widest->format).id) : "none",
                       widest ? std::string(formatInfo(widest->format).id) : "none",
                       widest ? fmt::format("{} of weights beside the cache", binaryBytes(widest->weightBytes))
                              : "no weight format fits beside this cache"));
    for (SummaryRow& each : rows) {
        each.notes.emplace_back("weights plus the architecture's own cache, split evenly over the devices; "
                                "activations and an engine's own overhead are not included");
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
            {"largest_batch", answers.largestBatch},
            {"longest_sequence", answers.longestSequence},
            {"any_length", answers.anyLength},
            {"model_context", answers.modelContext},
            {"widest_fitting_format", widest ? json(formatInfo(widest->format).id) : json()},
            {"formats", formats},
            {"rule", "weights plus the architecture's own cache, split evenly over the devices; activations and "
                     "an engine's own overhead are not included"}};
}

} // namespace archplay::core
