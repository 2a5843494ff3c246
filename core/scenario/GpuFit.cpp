// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scenario/GpuFit.h"

#include "core/util/Checked.h"
#include "core/util/Format.h"

#include <algorithm>

namespace archplay::core {
GpuMemorySize memorySizeOf(const Gpu& gpu) {
    return {std::to_string(gpu.memoryGiB) + " GiB", gpu.memoryBytes(), gpu.name};
}

std::vector<GpuMemorySize> gpuMemorySizes(const Gpu& scenarioGpu) {
    std::vector<GpuMemorySize> sizes;
    const auto add = [&](const Gpu& gpu) {
        const auto same = std::find_if(sizes.begin(), sizes.end(),
                                       [&](const GpuMemorySize& size) { return size.bytes == gpu.memoryBytes(); });
        if (same == sizes.end()) {
            sizes.push_back(memorySizeOf(gpu));
        } else if (same->examples.find(gpu.name) == std::string::npos) {
            same->examples += ", " + gpu.name;
        }
    };
    for (const Gpu& gpu : builtinGpus()) {
        add(gpu);
    }
    add(scenarioGpu);
    std::stable_sort(sizes.begin(), sizes.end(),
                     [](const GpuMemorySize& a, const GpuMemorySize& b) { return a.bytes < b.bytes; });
    return sizes;
}

DeviceFit deviceFit(const GpuMemorySize& gpu, std::uint64_t devices, std::uint64_t weightBytes, std::uint64_t kvBytes) {
    DeviceFit fit;
    fit.gpu = gpu;
    fit.devices = devices;
    fit.capacityBytes = (Checked(gpu.bytes) * Checked(devices)).value();
    const Checked required = Checked(weightBytes) + Checked(kvBytes);
    // A saturated input is not a size: the sum is beyond too, and no device count starts from it.
    fit.beyond = required.overflowed() || weightBytes == kSaturated || kvBytes == kSaturated;
    fit.requiredBytes = fit.beyond ? kSaturated : required.value();
    fit.fits = !fit.beyond && fit.requiredBytes <= fit.capacityBytes;
    fit.devicesNeeded =
        fit.beyond || gpu.bytes == 0 ? 0 : fit.requiredBytes / gpu.bytes + (fit.requiredBytes % gpu.bytes != 0 ? 1 : 0);
    return fit;
}

std::vector<GpuFit> gpuFits(const ModelConfig& config, const ModelPlan& plan, std::uint64_t weightBytes,
                            const Scenario& scenario) {
    const std::uint64_t batch = scenario.batch;
    auto cacheAt = [&](std::uint64_t length) {
        return kvCache(config, plan, length, batch, scenario.kvDType, scenario.encoderSequenceLength,
                       scenario.stateDType, scenario.kvAllocator, scenario.prefillChunk)
            .totalBytes;
    };
    const std::uint64_t kvBytes = cacheAt(scenario.sequenceLength);
    const std::uint64_t longestCache = cacheAt(kLongestSearched);
    std::vector<GpuFit> fits;
    for (const GpuMemorySize& gpu : gpuMemorySizes(scenario.gpu)) {
        GpuFit fit;
        fit.devices = deviceFit(gpu, scenario.gpuCount, weightBytes, kvBytes);
        fit.weightBytes = weightBytes;
        fit.kvBytes = kvBytes;
        fit.scenario = gpu.bytes == scenario.gpu.memoryBytes();
        if (weightBytes < fit.devices.capacityBytes) {
            const std::uint64_t room = fit.devices.capacityBytes - weightBytes;
            fit.roomBytes = room;
            if (longestCache <= room) {
                fit.unbounded = true;
                fit.maxSequenceLength = kLongestSearched;
            } else {
                // The cache never shrinks as the sequence grows, so bisect on it.
                std::uint64_t lo = 0;
                std::uint64_t hi = kLongestSearched;
                while (hi - lo > 1) {
                    const std::uint64_t mid = lo + (hi - lo) / 2;
                    (cacheAt(mid) <= room ? lo : hi) = mid;
                }
                fit.maxSequenceLength = lo;
            }
        }
        fits.push_back(fit);
    }
    return fits;
}

} // namespace archplay::core
