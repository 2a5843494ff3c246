// SPDX-License-Identifier: GPL-3.0-or-later
// Core micro-benchmarks: run build/bench/archplay_core_bench (see docs/PERFORMANCE.md).
#include "analysis/Analysis.h"
#include "io/ConfigJson.h"
#include "io/Presets.h"

#include <benchmark/benchmark.h>

namespace {

using namespace archplay::core;

ModelConfig presetOrDie(const char* id) {
    const Preset* preset = findPreset(id);
    if (!preset) {
        std::abort();
    }
    return *presetConfig(*preset);
}

void analyzePreset(benchmark::State& state, const char* id) {
    const ModelConfig config = presetOrDie(id);
    const Scenario scenario;
    for (auto _ : state) {
        Analysis analysis = analyze(config, scenario);
        benchmark::DoNotOptimize(analysis);
    }
}
BENCHMARK_CAPTURE(analyzePreset, llama_3_8b, "llama-3-8b");
BENCHMARK_CAPTURE(analyzePreset, deepseek_v3, "deepseek-v3");
BENCHMARK_CAPTURE(analyzePreset, llama_3_1_405b_126_layers, "llama-3.1-405b");
BENCHMARK_CAPTURE(analyzePreset, gemma_3_27b, "gemma-3-27b");

void importConfigJson(benchmark::State& state) {
    const std::string_view text = findPreset("deepseek-v3")->json;
    for (auto _ : state) {
        ImportResult result = importConfigText(text);
        benchmark::DoNotOptimize(result);
    }
}
BENCHMARK(importConfigJson);

void kvCurve200Points(benchmark::State& state) {
    const ModelConfig config = presetOrDie("gemma-3-27b");
    const ModelPlan plan = planLayers(config);
    for (auto _ : state) {
        std::uint64_t sum = 0;
        for (int i = 0; i < 200; ++i) {
            const std::uint64_t sequence = 1ull << (i % 22);
            sum += kvCache(config, plan, sequence, 1, DType::BF16).totalBytes;
        }
        benchmark::DoNotOptimize(sum);
    }
}
BENCHMARK(kvCurve200Points);

void allPresetsTable(benchmark::State& state) {
    std::vector<ModelConfig> configs;
    for (const Preset& preset : builtinPresets()) {
        configs.push_back(*presetConfig(preset));
    }
    for (auto _ : state) {
        std::uint64_t sum = 0;
        for (const ModelConfig& config : configs) {
            sum += analyze(config, Scenario{}).params.total;
        }
        benchmark::DoNotOptimize(sum);
    }
}
BENCHMARK(allPresetsTable);

} // namespace

BENCHMARK_MAIN();
