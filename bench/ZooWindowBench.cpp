// SPDX-License-Identifier: GPL-3.0-or-later
// The zoo page of the design window at 10,000 configs: a folder of 10,000 generated config.json
// files added (read, counted, tabled and plotted), a filter, a sort, a plot drawn, and the step a
// slider makes (the current config's marker moves). Run offscreen:
//   QT_QPA_PLATFORM=offscreen build/bench/archplay_zoo_window_bench
// It measures; it never asserts on time (docs/PERFORMANCE.md has the figures).
#include "core/io/ConfigJson.h"
#include "core/io/Presets.h"
#include "core/report/ModelZoo.h"
#include "ui/design/ComparePage.h"
#include "ui/design/ZooPage.h"
#include "ui/session/ModelBridge.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QTableView>
#include <QTemporaryDir>

#include <benchmark/benchmark.h>

#include <memory>

namespace archplay {
namespace {

constexpr int kConfigs = 10'000;

/// A folder of 10,000 config.json files: every preset with its depth and width varied (layers x
/// 1/2..2, hidden size +-25% in steps of 64), one folder each, as a checkpoint collection is laid out.
QString writeConfigs(const QTemporaryDir& dir) {
    const std::vector<core::ZooInput> presets = core::presetZooInputs();
    for (int i = 0; i < kConfigs; ++i) {
        core::ModelConfig config = *presets[std::size_t(i) % presets.size()].imported.config;
        const std::int64_t variant = i / std::int64_t(presets.size());
        config.numLayers = std::max<std::int64_t>(1, config.numLayers * (2 + variant % 7) / 4);
        if (!config.headDim && config.numHeads > 0 && !config.latent) {
            config.headDim = config.effectiveHeadDim();
        }
        config.hiddenSize += (variant % 5 - 2) * config.hiddenSize / 8 / 64 * 64;
        const QString folder = dir.filePath(QStringLiteral("model-%1").arg(i, 5, 10, QLatin1Char('0')));
        QDir().mkpath(folder);
        QFile file(folder + QStringLiteral("/config.json"));
        file.open(QIODevice::WriteOnly);
        file.write(QByteArray::fromStdString(core::exportConfigText(config)));
    }
    return dir.path();
}

/// One zoo page in a window of 1600 x 1000, the current config Llama 3 8B.
struct Page {
    ui::session::ModelBridge bridge;
    ui::design::ComparePage compare{&bridge};
    ui::design::ZooPage page{&bridge, &compare};

    Page() {
        page.clearAdded();
        page.resize(1600, 1000);
        page.show();
        bridge.loadPreset(QStringLiteral("llama-3-8b"));
        page.setCurrent(bridge.sharedAnalysis());
        QCoreApplication::processEvents();
    }
};

QTemporaryDir* g_configs = nullptr;

/// Reading the folder and showing it: scan, import, analyse, table, plot. Items are configs.
void addFolder10k(benchmark::State& state) {
    Page page;
    for (auto _ : state) {
        state.PauseTiming();
        page.page.clearAdded();
        QCoreApplication::processEvents();
        state.ResumeTiming();
        page.page.addFolder(g_configs->path(), false);
        QCoreApplication::processEvents();
    }
    state.counters["rows"] = double(page.page.model()->rows().size());
    state.SetItemsProcessed(state.iterations() * kConfigs);
}
BENCHMARK(addFolder10k)->Unit(benchmark::kMillisecond)->Iterations(3);

/// A page holding the folder's 10,000 configs and the presets.
Page& fullPage() {
    static Page* page = [] {
        auto* made = new Page;
        made->page.addFolder(g_configs->path(), false);
        QCoreApplication::processEvents();
        return made;
    }();
    return *page;
}

/// Typing a filter: core's filter over every row, the table reset, the plot drawn again.
void filter10k(benchmark::State& state) {
    Page& page = fullPage();
    bool wide = false;
    for (auto _ : state) {
        if (!page.page.setFilterText(wide ? QStringLiteral("kind=moe") : QStringLiteral("total_params>7B")).ok()) {
            state.SkipWithError("the filter was refused");
            return;
        }
        QCoreApplication::processEvents();
        wide = !wide;
    }
}
BENCHMARK(filter10k)->Unit(benchmark::kMillisecond);

/// A click on a column header: core's stable sort, the table laid out again.
void sort10k(benchmark::State& state) {
    Page& page = fullPage();
    (void)page.page.setFilterText(QString()); // no filter: it cannot be refused
    bool descending = false;
    for (auto _ : state) {
        page.page.table()->sortByColumn(int(core::ZooColumn::HiddenSize),
                                        descending ? Qt::DescendingOrder : Qt::AscendingOrder);
        QCoreApplication::processEvents();
        descending = !descending;
    }
}
BENCHMARK(sort10k)->Unit(benchmark::kMillisecond);

/// Drawing a plot of every row from scratch (choosing another plot), painted.
void drawPlot10k(benchmark::State& state) {
    Page& page = fullPage();
    (void)page.page.setFilterText(QString()); // no filter: it cannot be refused
    bool depth = false;
    for (auto _ : state) {
        page.page.showPlot(depth ? core::ZooPlot::DepthWidth : core::ZooPlot::HeadDim);
        QCoreApplication::processEvents();
        depth = !depth;
    }
}
BENCHMARK(drawPlot10k)->Unit(benchmark::kMillisecond);

/// A slider step: the page gets the new analysis and moves the current config's marker.
void sliderStep10k(benchmark::State& state) {
    Page& page = fullPage();
    (void)page.page.setFilterText(QString()); // no filter: it cannot be refused
    page.page.showPlot(core::ZooPlot::DepthWidth);
    std::vector<core::AnalysisPtr> analyses;
    for (int layers : {32, 33}) {
        page.bridge.edit(QStringLiteral("layers"),
                         [layers](core::ModelConfig& config, core::Scenario&) { config.numLayers = layers; });
        analyses.push_back(page.bridge.sharedAnalysis());
    }
    std::size_t i = 0;
    for (auto _ : state) {
        page.page.setCurrent(analyses[i++ % 2]);
        page.page.repaint();
    }
}
BENCHMARK(sliderStep10k)->Unit(benchmark::kMillisecond);

} // namespace
} // namespace archplay

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("archplay-bench")); // never the user's zoo settings
    QTemporaryDir configs;
    archplay::writeConfigs(configs);
    archplay::g_configs = &configs;
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
