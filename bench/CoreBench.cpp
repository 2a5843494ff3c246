// SPDX-License-Identifier: GPL-3.0-or-later
// Core micro-benchmarks: run build/bench/archplay_core_bench (see docs/PERFORMANCE.md).
#include "core/analysis/Analysis.h"
#include "core/design/Compare.h"
#include "core/design/DesignSearch.h"
#include "core/design/HeadConfigs.h"
#include "core/io/ConfigJson.h"
#include "core/io/Presets.h"
#include "core/report/ModelZoo.h"

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

void modelZooTable(benchmark::State& state) {
    const Scenario scenario;
    for (auto _ : state) {
        ModelZoo zoo = modelZoo(scenario);
        benchmark::DoNotOptimize(zoo);
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(builtinPresets().size()));
}
BENCHMARK(modelZooTable);

/// Exactly 1,000,000 candidates, all of a possible shape: 125 depths x 25 widths x 2 head sizes x
/// 4 KV head counts x 5 FFN widths x 4 vocabularies x tied or not. Items are candidates, so
/// items_per_second is the search rate and the time per iteration the cost of one million.
void designSearchPerMillion(benchmark::State& state) {
    DesignSpace space;
    space.layers = DesignRange::span(1, 125);
    space.hiddenSize = DesignRange::span(1024, 25600, 1024);
    space.headDims = {64, 128};
    space.kvHeads = {1, 2, 4, 8};
    space.ffnMultipliers = {1.0, 1.25, 1.5, 1.75, 2.0};
    space.vocabSizes = {32000, 50304, 128256, 151936};
    space.tiedEmbeddings = {false, true};
    DesignTargets targets;
    targets.params = 7'000'000'000;
    for (auto _ : state) {
        DesignSearchResult result = searchDesigns(space, targets);
        if (result.evaluated != 1'000'000) {
            state.SkipWithError("the space is not one million evaluated candidates");
            break;
        }
        benchmark::DoNotOptimize(result);
    }
    state.SetItemsProcessed(state.iterations() * 1'000'000);
}
BENCHMARK(designSearchPerMillion)->Unit(benchmark::kMillisecond);

/// Every head split of Llama 3 8B (1,400, each validated and counted); items are splits.
void headConfigsLlama3(benchmark::State& state) {
    const ModelConfig config = presetOrDie("llama-3-8b");
    std::size_t listed = 0;
    for (auto _ : state) {
        HeadConfigList list = listHeadConfigs(config);
        listed = list.configs.size();
        benchmark::DoNotOptimize(list);
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(listed));
}
BENCHMARK(headConfigsLlama3)->Unit(benchmark::kMillisecond);

/// Four presets compared from their analyses (the analyses are the window's; not timed).
void compareFour(benchmark::State& state) {
    std::vector<CompareInput> inputs;
    for (const char* id : {"llama-3-8b", "llama-3.1-8b", "mixtral-8x7b-v0.1", "qwen3-next-80b-a3b"}) {
        inputs.push_back({id, std::make_shared<const Analysis>(analyze(presetOrDie(id), Scenario{}))});
    }
    for (auto _ : state) {
        Comparison comparison = compareAnalyses(inputs);
        benchmark::DoNotOptimize(comparison);
    }
}
BENCHMARK(compareFour)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
