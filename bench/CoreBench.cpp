// SPDX-License-Identifier: GPL-3.0-or-later
// Core micro-benchmarks: run build/bench/archplay_core_bench (see docs/PERFORMANCE.md).
#include "core/analysis/Analysis.h"
#include "core/design/Compare.h"
#include "core/design/HeadConfigs.h"
#include "core/design/Sweep.h"
#include "core/design/TargetSearch.h"
#include "core/io/ConfigJson.h"
#include "core/io/Presets.h"
#include "core/report/ModelZoo.h"
#include "core/report/ZooQuery.h"
#include "core/routing/RoutingSimulation.h"

#include <benchmark/benchmark.h>

#include <algorithm>

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

/// The MoE routing tile's simulation of the first MoE layer (the overview redraws it when E, k,
/// the expert width or the hidden size moves).
void routingSimulation(benchmark::State& state, const char* id) {
    const ModelConfig config = presetOrDie(id);
    const ModelPlan plan = planLayers(config);
    const RoutingInputs inputs = routingInputs(config, plan, firstMoeLayer(plan));
    for (auto _ : state) {
        RoutingSimulation simulation = simulateRouting(inputs);
        benchmark::DoNotOptimize(simulation);
    }
}
BENCHMARK_CAPTURE(routingSimulation, mixtral_8_experts, "mixtral-8x7b-v0.1")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(routingSimulation, deepseek_v3_256_experts, "deepseek-v3")->Unit(benchmark::kMicrosecond);

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

/// 10,000 zoo inputs: every preset with its depth and width varied (layers x 1/2..2, hidden size
/// +-25% in steps of the head width), as a folder of configs of every family would give.
std::vector<ZooInput> tenThousandInputs() {
    const std::vector<ZooInput> presets = presetZooInputs();
    std::vector<ZooInput> inputs;
    inputs.reserve(10'000);
    for (std::size_t i = 0; inputs.size() < 10'000; ++i) {
        ZooInput input = presets[i % presets.size()];
        ModelConfig& config = *input.imported.config;
        const std::int64_t variant = static_cast<std::int64_t>(i / presets.size());
        config.numLayers = std::max<std::int64_t>(1, config.numLayers * (2 + variant % 7) / 4);
        if (!config.headDim && config.numHeads > 0 && !config.latent) {
            config.headDim = config.effectiveHeadDim(); // keep the head width while the hidden size moves
        }
        config.hiddenSize += (variant % 5 - 2) * config.hiddenSize / 8 / 64 * 64;
        input.source += "-" + std::to_string(variant);
        inputs.push_back(std::move(input));
    }
    return inputs;
}

/// Building 10,000 zoo rows (analyze() and the layer estimates of each); the argument is the number
/// of threads. Items are rows.
void zooRows10k(benchmark::State& state) {
    const std::vector<ZooInput> inputs = tenThousandInputs();
    const Scenario scenario;
    for (auto _ : state) {
        ModelZoo zoo = buildZoo(inputs, scenario, static_cast<unsigned>(state.range(0)));
        benchmark::DoNotOptimize(zoo);
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(inputs.size()));
    const ModelZoo zoo = buildZoo(inputs, scenario, 1);
    state.counters["counted"] = static_cast<double>(
        std::count_if(zoo.rows.begin(), zoo.rows.end(), [](const ZooRow& row) { return row.counted(); }));
}
BENCHMARK(zooRows10k)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

/// Filtering 10,000 rows with three clauses, then sorting what is left by a numeric and by a text column.
void zooFilterSort10k(benchmark::State& state) {
    const ModelZoo zoo = buildZoo(tenThousandInputs(), Scenario{}, 0);
    const ZooFilter filter = *parseZooFilter("kind!=encoder,params>1B,family~a").filter;
    for (auto _ : state) {
        std::vector<std::size_t> order = filterZoo(zoo.rows, filter);
        sortZoo(zoo.rows, order, ZooColumn::KvBytesPerToken, true);
        sortZoo(zoo.rows, order, ZooColumn::Family);
        benchmark::DoNotOptimize(order);
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(zoo.rows.size()));
}
BENCHMARK(zooFilterSort10k)->Unit(benchmark::kMillisecond);

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

/// A one-field sweep of 1,000 values (the most a sweep takes) of Llama 3 8B: 1,000 analyses plus
/// the config as given. Items are points. The depth sweep (1 to 1,000 layers, 500 on average) is the
/// costly case, since an analysis grows with the layers; the width sweep keeps its 32 layers.
void sweep1000Points(benchmark::State& state, const char* field, std::int64_t from, std::int64_t to) {
    const ModelConfig config = presetOrDie("llama-3-8b");
    const SweepAxis axis{field, from, to, 1000, SweepSpacing::Linear};
    for (auto _ : state) {
        SweepResult result = sweep(config, Scenario{}, axis);
        if (result.points.size() != 1000) {
            state.SkipWithError("the sweep is not 1,000 points");
            break;
        }
        benchmark::DoNotOptimize(result);
    }
    state.SetItemsProcessed(state.iterations() * 1000);
}
BENCHMARK_CAPTURE(sweep1000Points, layers_1_to_1000, "num_hidden_layers", 1, 1000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(sweep1000Points, hidden_size_1024_to_32992, "hidden_size", 1024, 32992)
    ->Unit(benchmark::kMillisecond);

/// A 64 x 64 grid of depth by width (steps of 256, so every cell is valid) for the total parameters,
/// with the default iso-lines and the presets placed: 4,096 analyses. Items are cells.
void sweepGrid64x64(benchmark::State& state) {
    const ModelConfig config = presetOrDie("llama-3-8b");
    const SweepGridRequest request{{"num_hidden_layers", 1, 128, 64, SweepSpacing::Linear},
                                   {"hidden_size", 2048, 18176, 64, SweepSpacing::Linear},
                                   DesignFigure::TotalParams,
                                   {}};
    for (auto _ : state) {
        SweepGrid grid = sweepGrid(config, Scenario{}, request);
        if (grid.cells.size() != 64 * 64) {
            state.SkipWithError("the grid is not 64 x 64");
            break;
        }
        benchmark::DoNotOptimize(grid);
    }
    state.SetItemsProcessed(state.iterations() * 64 * 64);
}
BENCHMARK(sweepGrid64x64)->Unit(benchmark::kMillisecond);

/// The target search (issue 15) over its default dense space (7B target: 125 widths x 6 head layouts
/// x 3 FFN widths x 121 depths x tied or not), and over a MoE and a latent-attention space (20B, 3B
/// active). Items are candidates: configs whose figures were composed exactly and tested.
void targetSearch(benchmark::State& state, bool moe, bool mla) {
    TargetSpace space;
    SearchTargets targets;
    if (moe) {
        space.moe = true;
        space.mla = mla;
        space.hiddenSize = DesignRange::span(1024, 6144, 128);
        targets.params = 20'000'000'000;
        targets.activeParams = 3'000'000'000;
    }
    std::uint64_t candidates = 0;
    for (auto _ : state) {
        TargetSearchResult result = searchTargets(space, targets);
        if (result.candidates.empty()) {
            state.SkipWithError("the search found nothing");
            break;
        }
        candidates += result.evaluated;
        benchmark::DoNotOptimize(result);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(candidates));
}
BENCHMARK_CAPTURE(targetSearch, dense_7b, false, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(targetSearch, moe_20b_a3b, true, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(targetSearch, mla_20b_a3b, true, true)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
