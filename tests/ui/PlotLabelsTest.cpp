// SPDX-License-Identifier: GPL-3.0-or-later
// The KV chart's labels and legend (issue 12, defect 5): the pure placement functions of
// ui/views/layout/PlotLabels, and the chart itself at long contexts and small sizes: no two labels
// intersect, every label is on the plot or listed in the legend, and the legend touches no curve.
#include "ui/views/layout/PlotLabels.h"

#include "core/analysis/Analysis.h"
#include "tests/support/TestSupport.h"
#include "ui/views/KvCacheView.h"

#include <QApplication>

#include <gtest/gtest.h>

namespace archplay::test {
namespace {

namespace layout = ui::views::layout;

bool labelInside(const QRectF& outer, const QRectF& inner) {
    return inner.left() >= outer.left() - 0.5 && inner.right() <= outer.right() + 0.5 &&
           inner.top() >= outer.top() - 0.5 && inner.bottom() <= outer.bottom() + 0.5;
}

TEST(PlotLabels, CrossesSeesSegmentsThroughARectangleWithoutPointsInIt) {
    const layout::Polyline diagonal{{0, 0}, {100, 100}};
    EXPECT_TRUE(layout::crosses(diagonal, QRectF(40, 40, 10, 10)));
    EXPECT_FALSE(layout::crosses(diagonal, QRectF(60, 10, 10, 10)));
    EXPECT_TRUE(layout::crosses({{0, 50}, {100, 50}}, QRectF(45, 45, 10, 10)));
}

TEST(PlotLabels, LabelsAtTheSameSpotAreSpreadAndNeverOverlap) {
    const QRectF plot(0, 0, 400, 300);
    const QSizeF size(150, 16);
    std::vector<std::vector<QRectF>> candidates;
    // Five "room beside the weights" lines within a few pixels of each other: the defect's pile-up.
    for (int i = 0; i < 5; ++i) {
        candidates.push_back(layout::horizontalLineCandidates(120 + i * 2, size, plot));
    }
    // Two length markers a few pixels apart at the right.
    candidates.push_back(layout::verticalLineCandidates(380, size, plot, 4));
    candidates.push_back(layout::verticalLineCandidates(383, size, plot, 4));
    const auto placed = layout::placeLabels(candidates, plot, {}, {});
    ASSERT_EQ(placed.size(), candidates.size());
    for (std::size_t a = 0; a < placed.size(); ++a) {
        ASSERT_TRUE(placed[a]) << a;
        EXPECT_TRUE(labelInside(plot, *placed[a])) << a;
        for (std::size_t b = a + 1; b < placed.size(); ++b) {
            EXPECT_FALSE(placed[a]->intersects(*placed[b])) << a << " " << b;
        }
    }
}

TEST(PlotLabels, ALabelWithoutRoomIsLeftOutNotPiledOn) {
    const QRectF plot(0, 0, 100, 60);
    const QSizeF size(90, 30);
    std::vector<std::vector<QRectF>> candidates(3, layout::horizontalLineCandidates(30, size, plot));
    const auto placed = layout::placeLabels(candidates, plot, {}, {});
    ASSERT_EQ(placed.size(), 3u);
    EXPECT_TRUE(placed[0] && placed[1]) << "above and under the line";
    EXPECT_FALSE(placed[2]) << "no third place: left out for the legend";
}

TEST(PlotLabels, LabelsPreferRoomAwayFromCurvesAndBlockedRectangles) {
    const QRectF plot(0, 0, 400, 300);
    const layout::Polyline curve{{0, 300}, {400, 0}};
    const QRectF legend(250, 250, 150, 50);
    const auto placed =
        layout::placeLabels({layout::pointCandidates({200, 150}, {80, 16}, 7)}, plot, {legend}, {curve});
    ASSERT_TRUE(placed.front());
    EXPECT_FALSE(layout::crosses(curve, *placed.front()));
    EXPECT_FALSE(placed.front()->intersects(legend));
}

TEST(PlotLabels, TheLegendTakesAFreeCornerOrGoesOutside) {
    const QRectF plot(50, 10, 500, 300);
    // A curve rising from bottom left to top right leaves the top left and bottom right free.
    const layout::Polyline rising{{50, 310}, {550, 10}};
    const auto free = layout::placeLegend(plot, {150, 60}, {rising}, {}, 6);
    ASSERT_TRUE(free.inside);
    EXPECT_FALSE(layout::crosses(rising, free.rect));
    EXPECT_TRUE(labelInside(plot, free.rect));
    // Curves through every corner: outside.
    const layout::Polyline zigzag{{50, 10}, {550, 310}, {550, 10}, {50, 310}};
    EXPECT_FALSE(layout::placeLegend(plot, {150, 60}, {zigzag}, {}, 6).inside);
    // Too large for the plot: outside, whatever the curves.
    EXPECT_FALSE(layout::placeLegend(plot, {300, 60}, {}, {}, 6).inside);
}

TEST(PlotLabels, LegendColumnsFitTheWidth) {
    EXPECT_EQ(layout::legendColumns({100, 100, 100, 100}, 1000, 8), 4);
    EXPECT_EQ(layout::legendColumns({100, 100, 100, 100}, 320, 8), 3);
    EXPECT_EQ(layout::legendColumns({100, 100, 100, 100}, 90, 8), 1);
}

/// The chart's promises for one arrangement.
void expectReadable(const ui::views::KvCurvePlot::Arrangement& placed, std::size_t labels, const std::string& what,
                    double minPlotHeight) {
    ASSERT_FALSE(placed.plotArea.isEmpty()) << what;
    EXPECT_EQ(placed.labels.size() + placed.listed.size(), labels) << what << ": every label drawn or listed";
    for (std::size_t a = 0; a < placed.labels.size(); ++a) {
        EXPECT_TRUE(labelInside(placed.plotArea, placed.labels[a]))
            << what << ": " << placed.labelTexts[a].toStdString();
        for (std::size_t b = a + 1; b < placed.labels.size(); ++b) {
            EXPECT_FALSE(placed.labels[a].intersects(placed.labels[b]))
                << what << ": '" << placed.labelTexts[a].toStdString() << "' and '"
                << placed.labelTexts[b].toStdString() << "' overlap";
        }
    }
    ASSERT_FALSE(placed.legend.isEmpty()) << what;
    for (const layout::Polyline& curve : placed.curves) {
        for (const QPointF& point : curve) {
            EXPECT_FALSE(placed.legend.contains(point)) << what << ": the legend covers a curve point";
        }
        EXPECT_FALSE(layout::crosses(curve, placed.legend)) << what << ": a curve runs under the legend";
    }
    if (!placed.legendInside) {
        EXPECT_FALSE(placed.legend.intersects(placed.plotArea)) << what;
    }
    for (const QRectF& label : placed.labels) {
        EXPECT_FALSE(label.intersects(placed.legend)) << what;
    }
    // Readable: the curves keep a good part of the height, whatever the legend takes.
    EXPECT_GE(placed.plotArea.height(), minPlotHeight) << what;
}

TEST(KvCurvePlot, LabelsNeverOverlapAndTheLegendCoversNoCurveAtLongContextsAndSmallSizes) {
    for (const char* id : {"deepseek-v3", "llama-3-8b", "gemma-3-1b", "mistral-7b-v0.1"}) {
        const core::Analysis analysis = analyzePreset(id, scenarioAt(131072));
        ui::views::KvCacheView view;
        view.setAnalysis(analysis);
        // The marked point, the context length, windows and the room beside the weights.
        const auto roomy = view.curveArrangement({2000, 1200});
        const std::size_t markers = roomy.labels.size() + roomy.listed.size();
        EXPECT_GE(markers, 2u) << id;
        for (const QSize size : {QSize(400, 300), QSize(560, 340), QSize(900, 420)}) {
            const auto placed = view.curveArrangement(size);
            const std::string what =
                std::string(id) + " plot " + std::to_string(size.width()) + "x" + std::to_string(size.height());
            expectReadable(placed, markers, what, 0.4 * size.height());
        }
        // Smaller than any view draws it: still no overlap, nothing covered, nothing lost.
        expectReadable(view.curveArrangement({320, 220}), markers, std::string(id) + " plot 320x220", 0);
        // The plot as the view lays it out: in the window, the PDF report's figure, a 1920x1080 slide
        // (laid out at 1138x640) and an 800x600 PNG.
        for (const QRectF target :
             {QRectF(0, 0, 1280, 800), QRectF(0, 0, 1040, 700), QRectF(0, 0, 1138, 640), QRectF(0, 0, 800, 600)}) {
            const QSize plot = view.curveRect(target).size().toSize();
            expectReadable(view.curveArrangement(plot), markers,
                           std::string(id) + " view " + std::to_string(int(target.width())), 0.4 * plot.height());
        }
    }
}

TEST(KvCurvePlot, TheSameRoomOnTwoDevicesStillGetsTwoSeparateLabels) {
    core::Scenario scenario = scenarioAt(131072);
    scenario.gpuCount = 2;
    const core::Analysis analysis = analyzePreset("deepseek-v3", scenario);
    ui::views::KvCacheView view;
    view.setAnalysis(analysis);
    const auto placed = view.curveArrangement({400, 300});
    for (std::size_t a = 0; a < placed.labels.size(); ++a) {
        for (std::size_t b = a + 1; b < placed.labels.size(); ++b) {
            EXPECT_FALSE(placed.labels[a].intersects(placed.labels[b]));
        }
    }
}

} // namespace
} // namespace archplay::test
