// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cost/Gpus.h"

#include <algorithm>

namespace archplay::core {
namespace {

constexpr double kGB = 1e9;    // vendors' bandwidth unit, decimal
constexpr double kTera = 1e12; // vendors' throughput unit

Gpu builtin(std::string id, std::string name, std::uint64_t memoryGiB, double bandwidthGBs, double bf16Tflops,
            double fp8Tflops, std::string source, bool estimated = false) {
    return {std::move(id),     std::move(name), memoryGiB, bandwidthGBs * kGB, bf16Tflops * kTera, fp8Tflops * kTera,
            std::move(source), estimated,       true};
}

/// `gpu` with the bandwidth measured on it, in TB/s.
Gpu measured(Gpu gpu, double lowTBs, double highTBs, std::string source) {
    gpu.measuredBandwidth = MeasuredBandwidth{lowTBs * kTera, highTBs * kTera, std::move(source)};
    return gpu;
}

} // namespace

std::uint64_t Gpu::memoryBytes() const {
    return memoryGiB > (UINT64_MAX >> 30) ? UINT64_MAX : memoryGiB << 30;
}

const std::vector<Gpu>& builtinGpus() {
    // Dense peaks (no 2:4 sparsity); FORMULAS.md §8 and the vendors' documents named.
    static const std::vector<Gpu> gpus = {
        builtin("rtx-3090", "RTX 3090", 24, 936, 71, 0,
                "NVIDIA Ampere GA102 whitepaper: 936 GB/s; 71 TFLOPS FP16/BF16 tensor with FP32 accumulate"),
        builtin("rtx-4090", "RTX 4090", 24, 1008, 165.2, 330.3,
                "NVIDIA Ada Lovelace whitepaper: 1,008 GB/s; 165.2 TFLOPS BF16, 330.3 FP8 (FP32 accumulate)"),
        builtin("l40s", "L40S", 48, 864, 362.05, 733,
                "NVIDIA L40S datasheet: 864 GB/s; 362.05 TFLOPS BF16, 733 FP8 (half the sparse figures)"),
        builtin("a100-40gb", "A100 40GB", 40, 1555, 312, 0, "NVIDIA A100 datasheet (SXM): 1,555 GB/s; 312 TFLOPS BF16"),
        builtin("a100-80gb", "A100 80GB", 80, 2039, 312, 0, "NVIDIA A100 datasheet (SXM): 2,039 GB/s; 312 TFLOPS BF16"),
        builtin("h100-pcie", "H100 PCIe", 80, 2000, 756, 1513,
                "NVIDIA H100 datasheet (PCIe): 2.0 TB/s; 756 TFLOPS BF16, 1,513 FP8 (half the sparse figures)"),
        measured(builtin("h100-sxm", "H100 SXM", 80, 3350, 989.4, 1978.9,
                         "NVIDIA H100 datasheet (SXM): 3.35 TB/s; 989.4 TFLOPS BF16, 1,978.9 FP8 (the datasheet's "
                         "1,979 BF16 is with sparsity)"),
                 2.90, 3.18, "STREAM-type bandwidth measured on Azure ND H100 v5 VMs: 2.90-3.18 TB/s of 3.35"),
        measured(builtin("h200", "H200", 141, 4800, 989.4, 1978.9,
                         "NVIDIA H200 datasheet (SXM): 4.8 TB/s; the H100's 989.4 TFLOPS BF16, 1,978.9 FP8"),
                 4.00, 4.48, "STREAM-type bandwidth measured on Azure ND H200 v5 VMs: 4.00-4.48 TB/s of 4.8"),
        builtin("b200", "B200", 180, 8000, 2250, 4500,
                "NVIDIA HGX B200 specifications: 180 GB, 8 TB/s per GPU; 2.25 PFLOPS BF16, 4.5 FP8 dense"),
        builtin("mi300x", "MI300X", 192, 5300, 1307.4, 2614.9,
                "AMD Instinct MI300X datasheet: 5.3 TB/s; 1,307.4 TFLOPS BF16, 2,614.9 FP8 dense"),
        builtin("mi325x", "MI325X", 256, 6000, 1307.4, 2614.9,
                "AMD Instinct MI325X datasheet: 256 GB HBM3E, 6 TB/s; 1,307.4 TFLOPS BF16, 2,614.9 FP8 dense"),
        builtin("m3-max", "Apple M3 Max", 128, 400, 14.2, 0,
                "Apple newsroom (Oct 2023): up to 128 GB, 400 GB/s (16-core CPU, 40-core GPU); throughput "
                "estimated as 40 cores x 128 ALUs x 2 x 1.39 GHz, FP16/FP32, not an Apple figure",
                true),
        builtin("m2-ultra", "Apple M2 Ultra", 192, 800, 27.2, 0,
                "Apple newsroom (June 2023): up to 192 GB, 800 GB/s; throughput estimated as 76 cores x 128 "
                "ALUs x 2 x 1.4 GHz, FP16/FP32, not an Apple figure",
                true),
    };
    return gpus;
}

const Gpu& defaultGpu() {
    return *findGpu(builtinGpus(), "h100-sxm");
}

const Gpu* findGpu(const std::vector<Gpu>& gpus, std::string_view id) {
    const auto found = std::find_if(gpus.begin(), gpus.end(), [&](const Gpu& gpu) { return gpu.id == id; });
    return found == gpus.end() ? nullptr : &*found;
}

std::string gpuIdList(const std::vector<Gpu>& gpus) {
    std::string list;
    for (const Gpu& gpu : gpus) {
        list += (list.empty() ? "" : ", ") + gpu.id;
    }
    return list;
}

std::string gpuProblem(const Gpu& gpu) {
    if (gpu.id.empty()) {
        return "id: a device needs an id";
    }
    if (gpu.memoryGiB == 0) {
        return "memory_gib: " + gpu.id + " has no memory";
    }
    if (!(gpu.bandwidth > 0)) {
        return "bandwidth_gb_s: " + gpu.id + " has no memory bandwidth";
    }
    if (!(gpu.bf16Flops > 0)) {
        return "bf16_tflops: " + gpu.id + " has no throughput";
    }
    if (!(gpu.fp8Flops >= 0)) {
        return "fp8_tflops: " + gpu.id + "'s FP8 throughput is negative";
    }
    return {};
}

} // namespace archplay::core
