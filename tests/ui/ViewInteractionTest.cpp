// SPDX-License-Identifier: GPL-3.0-or-later
// Views driven as a user would: picking a layer in the stack, the parameter chart's bars.
#include "core/analysis/Analysis.h"
#include "core/io/Presets.h"
#include "core/params/ParamGroups.h"
#include "tests/support/TestSupport.h"
#include "ui/views/LayerSelection.h"
#include "ui/views/LayerStackView.h"
#include "ui/views/LayerWeightsView.h"
#include "ui/views/Views.h"
#include "ui/views/charts/ParameterChartView.h"

#include <QApplication>
#include <QComboBox>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>
#include <QWidget>
#include <qcustomplot.h>

#include <gtest/gtest.h>

namespace archplay::test {
namespace {

template <typename View> View* findView(const std::vector<ui::views::AnalysisView*>& views) {
    for (ui::views::AnalysisView* view : views) {
        if (auto* found = dynamic_cast<View*>(view)) {
            return found;
        }
    }
    return nullptr;
}

TEST(LayerSelection, DefaultsToTheFirstMoeLayer) {
    EXPECT_EQ(ui::views::LayerSelection::defaultLayer(analyzePreset("deepseek-v3").plan), 3);
    EXPECT_EQ(ui::views::LayerSelection::defaultLayer(analyzePreset("llama-3-8b").plan), 0);
    EXPECT_EQ(ui::views::LayerSelection::defaultLayer(analyzePreset("t5-small").plan), 6); // the first decoder layer
    ui::views::LayerSelection selection;
    selection.setLayer(500);
    EXPECT_EQ(selection.resolve(analyzePreset("llama-3-8b").plan), 0);
}

TEST(LayerStackView, ClickingASlabSelectsItsLayerForTheOtherViews) {
    QWidget host;
    host.resize(1280, 820);
    const std::vector<ui::views::AnalysisView*> views = ui::views::createViews(&host).views;
    auto* stack = findView<ui::views::LayerStackView>(views);
    auto* weights = findView<ui::views::LayerWeightsView>(views);
    ASSERT_NE(stack, nullptr);
    ASSERT_NE(weights, nullptr);
    ASSERT_EQ(stack->layerSelection(), weights->layerSelection());
    const core::Analysis analysis = analyzePreset("deepseek-v3");
    for (ui::views::AnalysisView* view : views) {
        view->setAnalysis(analysis);
    }
    stack->resize(1280, 820);
    const auto layout = stack->layoutFor(QRectF(stack->rect()));
    const auto& slab = layout.columns[0].slabs[1];
    QSignalSpy spy(stack->layerSelection(), &ui::views::LayerSelection::layerChanged);
    QTest::mouseClick(stack, Qt::LeftButton, {}, slab.rect.center().toPoint());
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(stack->layerSelection()->layer(), slab.planIndex);
    // Layer 1 of DeepSeek-V3 is dense: no expert grid any more.
    for (const auto& item : weights->items()) {
        EXPECT_EQ(item.copies, 1);
    }
}

TEST(LayerWeightsView, APaintChangesNoChildWidgetTheControlsFollowOutsideIt) {
    // A view derives its data in rebuild(), which may run inside a paint; its child widgets (here
    // the layer picker) change only outside paint, once the event loop is back after the change.
    ui::views::LayerWeightsView view;
    view.resize(900, 600);
    view.show();
    view.setAnalysis(analyzePreset("llama-3-8b"));
    QApplication::processEvents();
    auto* picker = view.findChild<QComboBox*>();
    ASSERT_NE(picker, nullptr);
    ASSERT_TRUE(picker->isVisible());
    EXPECT_EQ(picker->count(), 32);
    view.setAnalysis(analyzePreset("deepseek-v3"));
    view.repaint(); // painted before the event loop runs: the data is new, the picker not yet
    EXPECT_EQ(view.analysis().plan.layers.size(), 61u);
    EXPECT_EQ(picker->count(), 32);
    QApplication::processEvents();
    EXPECT_EQ(picker->count(), 61);
    EXPECT_EQ(picker->currentIndex(), 3) << "the first MoE layer, the default selection";
}

TEST(ParameterChartView, BarsAreTheCoresCounts) {
    for (const char* id : {"llama-3-8b", "mixtral-8x7b-v0.1", "deepseek-v3", "t5-small"}) {
        const core::Analysis analysis = analyzePreset(id);
        ui::views::ParameterChartView view;
        view.setAnalysis(analysis);
        std::uint64_t total = 0;
        std::uint64_t active = 0;
        for (const auto& bar : view.componentBars()) {
            if (!bar.storedApart) {
                total += bar.total;
                active += bar.active;
            }
        }
        EXPECT_EQ(total, analysis.params.total) << id;
        EXPECT_EQ(active, analysis.params.active) << id;
        const auto kinds = core::paramsByLayerKind(analysis.config, analysis.plan, analysis.params);
        ASSERT_EQ(view.kindBars().size(), kinds.size()) << id;
        for (std::size_t i = 0; i < kinds.size(); ++i) {
            EXPECT_EQ(view.kindBars()[i].total, kinds[i].total) << id;
        }
    }
}

TEST(ParameterChartView, HoveringABarShowsItsExactCount) {
    const core::Analysis analysis = analyzePreset("llama-3-8b");
    ui::views::ParameterChartView view;
    view.resize(1000, 700);
    view.show();
    view.setAnalysis(analysis);
    view.plot()->replot();
    QCPAxisRect* components = view.plot()->axisRects().front();
    // The first bar (Embeddings) at half its length.
    const auto& bar = view.componentBars().front();
    const QPoint centre(static_cast<int>(components->axis(QCPAxis::atBottom)->coordToPixel(double(bar.total) / 2)),
                        static_cast<int>(components->axis(QCPAxis::atLeft)->coordToPixel(0)));
    QMouseEvent move(QEvent::MouseMove, QPointF(centre), view.plot()->mapToGlobal(QPointF(centre)), Qt::NoButton,
                     Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(view.plot(), &move);
    EXPECT_TRUE(QToolTip::isVisible());
    EXPECT_TRUE(QToolTip::text().contains(QStringLiteral("525,336,576"))) << QToolTip::text().toStdString();
    QToolTip::hideText();
}

} // namespace
} // namespace archplay::test
