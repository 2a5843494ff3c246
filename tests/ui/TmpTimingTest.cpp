// TEMPORARY: paint-time measurement, not to be committed.
#include "analysis/Analysis.h"
#include "io/Presets.h"
#include "ui/views/AnalysisView.h"
#include "ui/views/Views.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QTabWidget>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

namespace {

archplay::core::ModelConfig configOf(const char* id) {
    return *archplay::core::presetConfig(*archplay::core::findPreset(id));
}

TEST(TmpTiming, Views) {
    const QString only = qEnvironmentVariable("ONLY_PRESET");
    const QString onlyView = qEnvironmentVariable("ONLY_VIEW");
    for (const char* id : {"llama-3.1-405b", "deepseek-v3", "qwen3-235b-a22b", "gemma-3-27b", "t5-large"}) {
        if (!only.isEmpty() && only != QLatin1String(id)) {
            continue;
        }
        archplay::core::ModelConfig config = configOf(id);
        QTabWidget tabs;
        tabs.resize(1280, 860);
        const auto views = archplay::ui::createViews(&tabs);
        for (auto* view : views) {
            tabs.addTab(view, view->title());
        }
        tabs.show();
        QApplication::processEvents();
        for (int v = 0; v < static_cast<int>(views.size()); ++v) {
            if (!onlyView.isEmpty() && onlyView != views[static_cast<std::size_t>(v)]->viewId()) {
                continue;
            }
            tabs.setCurrentIndex(v);
            QApplication::processEvents();
            std::vector<double> screen;
            std::vector<double> exported;
            std::vector<double> broadcast;
            for (int i = 0; i < (onlyView.isEmpty() ? 24 : 200); ++i) {
                archplay::core::ModelConfig edited = config;
                edited.intermediateSize += (i % 2) * 128;
                archplay::core::Scenario scenario;
                scenario.sequenceLength = 4096 + 256 * static_cast<std::uint64_t>(i);
                const auto analysis = archplay::core::analyze(edited, scenario);
                QElapsedTimer timer;
                timer.start();
                for (auto* view : views) {
                    view->setAnalysis(analysis);
                }
                QApplication::processEvents();
                views[static_cast<std::size_t>(v)]->repaint();
                QApplication::processEvents();
                screen.push_back(double(timer.nsecsElapsed()) / 1e6);
                QImage image(1280, 820, QImage::Format_ARGB32_Premultiplied);
                QPainter painter(&image);
                timer.restart();
                views[static_cast<std::size_t>(v)]->render(painter, QRectF(0, 0, 1280, 820));
                timer.restart();
                views[static_cast<std::size_t>(v)]->render(painter, QRectF(0, 0, 1280, 820));
                exported.push_back(double(timer.nsecsElapsed()) / 1e6);
                timer.restart();
                for (auto* view : views) {
                    view->setAnalysis(analysis);
                }
                QApplication::processEvents();
                broadcast.push_back(double(timer.nsecsElapsed()) / 1e6);
            }
            std::sort(screen.begin(), screen.end());
            std::sort(exported.begin(), exported.end());
            std::sort(broadcast.begin(), broadcast.end());
            std::printf("%-16s %-16s screen median %6.2f ms max %6.2f ms | paint only %6.2f ms | setAnalysis x8 %6.2f\n", id,
                        views[static_cast<std::size_t>(v)]->viewId().toStdString().c_str(), screen[screen.size() / 2],
                        screen.back(), exported[exported.size() / 2], broadcast[broadcast.size() / 2]);
        }
    }
}

} // namespace
