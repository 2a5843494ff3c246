// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/memory/GpuFit.h"

#include "core/util/Checked.h"

namespace archplay::core {
namespace {

constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;
// Longer than any context a config can declare; the search for the longest fitting one stops here.
constexpr std::uint64_t kLongestSearched = std::uint64_t{1} << 40;

} // namespace

const std::vector<GpuMemorySize>& gpuMemorySizes() {
    static const std::vector<GpuMemorySize> sizes = {
        {"24 GiB", 24 * kGiB, "RTX 3090, RTX 4090, L4"},
        {"40 GiB", 40 * kGiB, "A100 40GB"},
        {"48 GiB", 48 * kGiB, "L40S, RTX 6000 Ada, A6000"},
        {"80 GiB", 80 * kGiB, "A100 80GB, H100"},
        {"141 GiB", 141 * kGiB, "H200"},
        {"192 GiB", 192 * kGiB, "MI300X, B200"},
    };
    return sizes;
}

std::string gpuMemorySizeList() {
    std::string list;
    for (const GpuMemorySize& gpu : gpuMemorySizes()) {
        list += (list.empty() ? "" : ", ") + std::to_string(gpu.bytes / kGiB);
    }
    return list;
}

const GpuMemorySize* findGpuMemorySize(std::uint64_t gib) {
    for (const GpuMemorySize& gpu : gpuMemorySizes()) {
        if (gpu.bytes / kGiB == gib) {
            return &gpu;
        }
    }
    return nullptr;
}

DeviceFit deviceFit(const GpuMemorySize& gpu, std::uint64_t devices, std::uint64_t weightBytes, std::uint64_t kvBytes) {
    DeviceFit fit;
    fit.gpu = gpu;
    fit.devices = devices;
    fit.capacityBytes = (Checked(gpu.bytes) * Checked(devices)).value();
    const Checked required = Checked(weightBytes) + Checked(kvBytes);
    fit.requiredBytes = required.value();
    fit.fits = !required.overflowed() && fit.requiredBytes <= fit.capacityBytes;
    fit.devicesNeeded =
        gpu.bytes == 0 ? 0 : fit.requiredBytes / gpu.bytes + (fit.requiredBytes % gpu.bytes != 0 ? 1 : 0);
    return fit;
}

std::vector<GpuFit> gpuFits(const ModelConfig& config, const ModelPlan& plan, std::uint64_t weightBytes,
                            const Scenario& scenario) {
    const std::uint64_t batch = scenario.batch;
    auto cacheAt = [&](std::uint64_t length) {
        return kvCache(config, plan, length, batch, scenario.kvDType, scenario.encoderSequenceLength,
                       scenario.stateDType)
            .totalBytes;
    };
    const std::uint64_t kvBytes = cacheAt(scenario.sequenceLength);
    const std::uint64_t longestCache = cacheAt(kLongestSearched);
    std::vector<GpuFit> fits;
    for (const GpuMemorySize& gpu : gpuMemorySizes()) {
        GpuFit fit;
        fit.devices = deviceFit(gpu, scenario.gpuCount, weightBytes, kvBytes);
        fit.weightBytes = weightBytes;
        fit.kvBytes = kvBytes;
        fit.scenario = gpu.bytes / kGiB == scenario.gpuMemoryGiB;
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
