// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/Capacity.h"

#include "core/memory/KvCache.h"
#include "core/scenario/GpuFit.h"
#include "core/util/Checked.h"
#include "core/util/Format.h"

#include <algorithm>

namespace archplay::core {

const FormatFit* Capacity::widestFitting() const {
    const auto it = std::find_if(formats.begin(), formats.end(), [](const FormatFit& f) { return f.devices.fits; });
    return it == formats.end() ? nullptr : &*it;
}

Capacity capacity(const Analysis& analysis) {
    Capacity answers;
    const Scenario& scenario = analysis.scenario;
    answers.largestBatch = analysis.speed.largestBatch;
    answers.modelContext = static_cast<std::uint64_t>(std::max<std::int64_t>(analysis.config.maxPositions, 0));
    answers.fewestDevices = analysis.devices.devicesNeeded;
    for (const GpuFit& fit : gpuFits(analysis.config, analysis.plan, analysis.weightBytes, scenario)) {
        if (!fit.scenario) {
            continue;
        }
        answers.longestSequence = fit.maxSequenceLength;
        if (fit.unbounded) {
            // Fitting at the longest length searched: no cache, one that stopped growing, or room.
            const auto cacheAt = [&](std::uint64_t length) {
                return kvCache(analysis.config, analysis.plan, length, scenario.batch, scenario.kvDType,
                               scenario.encoderSequenceLength, scenario.stateDType, scenario.kvAllocator,
                               scenario.prefillChunk)
                    .totalBytes;
            };
            const std::uint64_t longest = cacheAt(kLongestSearched);
            answers.lengthLimit = longest == 0                               ? Capacity::Length::NoCache
                                  : longest == cacheAt(kLongestSearched / 2) ? Capacity::Length::StopsGrowing
                                                                             : Capacity::Length::Beyond;
        }
    }
    const GpuMemorySize memory = memorySizeOf(scenario.gpu);
    for (const WeightFormatInfo& info : weightFormats()) {
        FormatFit each;
        each.format = info.format;
        const WeightMemory weights = weightMemory(analysis.config, analysis.plan, info.format);
        each.weightBytes = weights.overflow ? kSaturated : weights.bytes;
        each.devices = deviceFit(memory, scenario.gpuCount, each.weightBytes, analysis.kv.totalBytes);
        answers.formats.push_back(each);
    }
    std::stable_sort(answers.formats.begin(), answers.formats.end(),
                     [](const FormatFit& a, const FormatFit& b) { return a.weightBytes > b.weightBytes; });
    return answers;
}

VllmServing vllmServing(const Analysis& analysis) {
    VllmServing serving;
    const Scenario& s = analysis.scenario;
    const std::uint64_t gpus = std::max<std::uint64_t>(s.gpuCount, 1);
    const auto memory = static_cast<double>(s.gpu.memoryBytes());
    serving.reservedBytes = roundedCount(s.gpuMemoryUtilization * memory).value();
    serving.weightBytes = analysis.weightBytes / gpus + (analysis.weightBytes % gpus != 0 ? 1 : 0);
    serving.workspaceBytes = analysis.serving.workspaceBytes / gpus;
    serving.given = s.kvCacheMemoryBytes > 0;
    const Checked used = Checked(serving.weightBytes) + Checked(serving.workspaceBytes);
    const std::uint64_t cache = serving.given ? s.kvCacheMemoryBytes
                                : used.overflowed() || used.value() >= serving.reservedBytes
                                    ? 0
                                    : serving.reservedBytes - used.value();
    const KvCacheReport one = kvCache(analysis.config, analysis.plan, s.sequenceLength, 1, s.kvDType,
                                      s.encoderSequenceLength, s.stateDType, KvAllocator::Vllm, s.prefillChunk);
    serving.capacity = vllmCapacity(analysis.config, one, cache, gpus);
    return serving;
}

} // namespace archplay::core
