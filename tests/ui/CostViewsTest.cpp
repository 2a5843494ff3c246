// SPDX-License-Identifier: GPL-3.0-or-later
// The compute, memory and speed views: their layout functions (inside the bounds, apart, bars to
// core's numbers), charts that pass through core's values, updates on a new analysis, the Explain
// panel with its copies, and their exports (figures, headless, reports).
#include "core/io/Presets.h"
#include "core/report/Costs.h"
#include "core/util/Format.h"
#include "tests/support/TestSupport.h"
#include "ui/export/HeadlessExport.h"
#include "ui/export/OffscreenViews.h"
#include "ui/export/ViewExporter.h"
#include "ui/theme/Theme.h"
#include "ui/views/ComputeView.h"
#include "ui/views/DerivationPanel.h"
#include "ui/views/MemoryView.h"
#include "ui/views/SpeedView.h"
#include "ui/views/charts/FlopsCurvePlot.h"
#include "ui/views/charts/SpeedPlots.h"
#include "ui/views/layout/CostLayout.h"
#include "ui/widgets/TextLines.h"
#include "ui/window/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <qcustomplot.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace archplay::ui::views {
namespace {

bool insideHalfPixel(const QRectF& bounds, const QRectF& rect) {
    return rect.isEmpty() || (rect.left() >= bounds.left() - 0.5 && rect.right() <= bounds.right() + 0.5 &&
                              rect.top() >= bounds.top() - 0.5 && rect.bottom() <= bounds.bottom() + 0.5);
}

bool overlapHalfPixel(const QRectF& a, const QRectF& b) {
    return !a.isEmpty() && !b.isEmpty() &&
           a.adjusted(0.5, 0.5, -0.5, -0.5).intersects(b.adjusted(0.5, 0.5, -0.5, -0.5));
}

/// Every pair of `rects` apart and each inside `bounds`.
void expectApartAndInside(const QRectF& bounds, const std::vector<QRectF>& rects, const std::string& name) {
    for (std::size_t i = 0; i < rects.size(); ++i) {
        EXPECT_TRUE(insideHalfPixel(bounds, rects[i])) << name << " rect " << i;
        for (std::size_t j = i + 1; j < rects.size(); ++j) {
            EXPECT_FALSE(overlapHalfPixel(rects[i], rects[j])) << name << " rects " << i << " and " << j;
        }
    }
}

const QSizeF kSizes[] = {{520, 360}, {870, 470}, {1280, 800}, {2200, 1250}};
const char* const kPresets[] = {"llama-3-8b", "deepseek-v3", "qwen3-next-80b-a3b", "bert-base-uncased",
                                "t5-small",   "gemma-3-27b", "llama-4-scout",      "bart-base"};

TEST(CostLayout, RowsStayInsideApartAndDropWholeDetails) {
    const QFont font = QApplication::font();
    QFont bold = font;
    bold.setBold(true);
    const core::Analysis analysis = test::analyzePreset("llama-3-8b");
    std::vector<layout::RowText> rows;
    for (const core::SummaryRow& row : core::computeRows(analysis)) {
        rows.push_back(
            {QString::fromStdString(row.label), QString::fromStdString(row.value), QString::fromStdString(row.detail)});
    }
    const std::uint64_t cuts = widgets::elisionCount();
    for (const QRectF bounds : {QRectF(10, 20, 420, 600), QRectF(0, 0, 300, 200), QRectF(5, 5, 180, 90)}) {
        const std::vector<layout::RowPlacement> placed = layout::layoutRows(bounds, font, bold, rows, 12);
        ASSERT_LE(placed.size(), rows.size());
        std::vector<QRectF> parts;
        for (const layout::RowPlacement& row : placed) {
            EXPECT_TRUE(insideHalfPixel(bounds, row.whole));
            EXPECT_FALSE(overlapHalfPixel(row.label, row.value));
            EXPECT_FALSE(overlapHalfPixel(row.value, row.detail));
            EXPECT_LE(row.detailLines.size(), 2);
            parts.push_back(row.whole);
        }
        expectApartAndInside(bounds, parts, "rows");
    }
    // Tall enough: every row with its detail, as rowsHeight() says.
    const qreal height = layout::rowsHeight(420, font, bold, rows, true, 12);
    const std::vector<layout::RowPlacement> all = layout::layoutRows(QRectF(0, 0, 420, height), font, bold, rows, 12);
    ASSERT_EQ(all.size(), rows.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
        EXPECT_EQ(all[i].detailLines.join(QLatin1Char(' ')).remove(QChar(0x00a0)).isEmpty(), rows[i].detail.isEmpty());
    }
    EXPECT_EQ(widgets::elisionCount(), cuts) << "rows are wrapped or left out, never cut";
}

TEST(CostLayout, BarsAreDrawnToScale) {
    const QRectF bar(10, 0, 500, 20);
    const std::vector<std::uint64_t> values = {100, 300, 50};
    const std::vector<QRectF> segments = layout::scaledSegments(values, bar, 1000);
    ASSERT_EQ(segments.size(), 3u);
    EXPECT_DOUBLE_EQ(segments[0].left(), 10);
    EXPECT_DOUBLE_EQ(segments[0].width(), 50);
    EXPECT_DOUBLE_EQ(segments[1].width(), 150);
    EXPECT_DOUBLE_EQ(segments[2].right(), 10 + 225);
    EXPECT_DOUBLE_EQ(layout::scaledX(1000, bar, 1000), bar.right());
    EXPECT_DOUBLE_EQ(layout::scaledX(5000, bar, 1000), bar.right()) << "clamped";
    const std::vector<QRectF> flow = layout::flowEntries(QRectF(0, 0, 200, 40), {120, 70, 90, 150, 80}, 20, 10);
    ASSERT_EQ(flow.size(), 3u) << "two lines of room: the fourth entry does not fit";
    expectApartAndInside(QRectF(0, 0, 200, 40), flow, "flow");
}

TEST(CostLayout, EveryComponentOfTheFlopsBarHasItsLegendEntry) {
    // DeepSeek-V3's bar has seven components; three lines of legend left one out without a word.
    const ui::widgets::TextMetrics metrics(QApplication::font());
    const ui::widgets::TextMetrics headline(QApplication::font());
    const std::vector<qreal> widths(7, 300);
    for (const QSizeF& size : {QSizeF(700, 600), QSizeF(1000, 700), QSizeF(2000, 1200)}) {
        const layout::ComputeLayout compute =
            layout::layoutCompute(QRectF(QPointF(14, 60), size), metrics, headline, widths, 3);
        EXPECT_EQ(compute.legend.size(), widths.size()) << size.width();
        EXPECT_GE(compute.curve.top(), compute.legend.back().bottom());
    }
}

TEST(CostLayout, EveryViewsPartsStayInsideAndApart) {
    const ui::widgets::TextMetrics metrics(QApplication::font());
    QFont big = QApplication::font();
    big.setPointSizeF(big.pointSizeF() * 1.7);
    const ui::widgets::TextMetrics headline(big);
    for (const QSizeF& size : kSizes) {
        const QRectF bounds(QPointF(14, 60), size);
        const std::string name = std::to_string(int(size.width())) + "x" + std::to_string(int(size.height()));
        const layout::ComputeLayout compute = layout::layoutCompute(bounds, metrics, headline, {220, 180, 160, 260}, 3);
        std::vector<QRectF> parts = {compute.headline, compute.bar, compute.kindHeader, compute.curve, compute.rows};
        parts.insert(parts.end(), compute.legend.begin(), compute.legend.end());
        parts.insert(parts.end(), compute.kindRows.begin(), compute.kindRows.end());
        expectApartAndInside(bounds, parts, "compute " + name);

        for (const bool decode : {true, false}) {
            const layout::SpeedLayout speed =
                layout::layoutSpeed(bounds, metrics, headline, decode ? 0 : 2, decode, 120);
            expectApartAndInside(bounds,
                                 {speed.headline, speed.note, speed.decodeTitle, speed.decode, speed.rooflineTitle,
                                  speed.roofline, speed.rowsLeft, speed.rowsRight},
                                 "speed " + name);
            EXPECT_EQ(speed.decode.isEmpty(), !decode);
        }

        const layout::MemoryLayout memory = layout::layoutMemory(bounds, metrics, 1, 2);
        std::vector<QRectF> panels;
        for (const layout::MemoryPanelLayout* panel : {&memory.serving, &memory.training}) {
            panels.insert(panels.end(), {panel->title, panel->verdict, panel->capacity, panel->bar, panel->rows});
        }
        expectApartAndInside(bounds, panels, "memory " + name);
        if (size.width() >= 620) {
            EXPECT_DOUBLE_EQ(memory.serving.bar.top(), memory.training.bar.top()) << "side by side, bars aligned";
        }
    }
}

TEST(ComputeView, DrawsCoresFlopsAndItsCurve) {
    for (const char* id : kPresets) {
        const core::Analysis analysis = test::analyzePreset(id);
        ComputeView view;
        view.resize(1100, 700);
        view.setAnalysis(analysis);
        const core::ComputeReport& c = analysis.compute;
        // The bar: segments proportional to core's parts, covering it.
        const layout::ComputeLayout placed = view.layoutFor(QRectF(0, 0, 1100, 700));
        const std::vector<QRectF> segments = view.barSegments(placed);
        ASSERT_EQ(segments.size(), view.parts().size()) << id;
        for (std::size_t i = 0; i < segments.size(); ++i) {
            EXPECT_NEAR(segments[i].width(), placed.bar.width() * double(view.parts()[i].flops) / double(c.perToken),
                        1e-6)
                << id;
        }
        EXPECT_NEAR(segments.back().right(), placed.bar.right(), 1e-6);
        // The curve: core's points, at every position core chose.
        const std::vector<QPointF> total = view.plot().totalPoints();
        ASSERT_EQ(total.size(), view.curve().size()) << id;
        for (std::size_t i = 0; i < total.size(); ++i) {
            EXPECT_DOUBLE_EQ(total[i].x(), double(view.curve()[i].position));
            EXPECT_DOUBLE_EQ(total[i].y(), view.curve()[i].total);
        }
        const std::vector<QPointF> weights = view.plot().weightPoints();
        ASSERT_FALSE(weights.empty());
        EXPECT_DOUBLE_EQ(weights.front().y(), double(c.weights)) << "flat at core's weights";
        EXPECT_EQ(view.plot().statePoints().empty(), c.state == 0) << id;
        EXPECT_EQ(view.rows().size(), core::computeRows(analysis).size());
    }
}

TEST(MemoryView, BarsAreCoresBytesAgainstTheDevice) {
    for (const char* id : kPresets) {
        const core::Analysis analysis = test::analyzePreset(id);
        MemoryView view;
        view.setAnalysis(analysis);
        const layout::MemoryLayout placed = view.layoutFor(QRectF(0, 0, 1200, 700));
        for (const auto& [stack, bar] :
             {std::pair{&view.serving(), placed.serving.bar}, std::pair{&view.training(), placed.training.bar}}) {
            const double scale = MemoryView::barScale(*stack);
            EXPECT_GE(scale, double(stack->capacityBytes)) << "the device's line is on the bar";
            EXPECT_GE(scale, double(stack->totalBytes)) << "so is the whole use";
            const std::vector<QRectF> segments = MemoryView::segments(*stack, bar);
            ASSERT_EQ(segments.size(), stack->segments.size());
            for (std::size_t i = 0; i < segments.size(); ++i) {
                EXPECT_NEAR(segments[i].width(), bar.width() * double(stack->segments[i].bytes) / scale, 1e-6) << id;
                EXPECT_TRUE(insideHalfPixel(bar, segments[i])) << id;
            }
        }
        EXPECT_EQ(view.serving().totalBytes, analysis.serving.perGpuBytes);
        EXPECT_EQ(view.training().totalBytes, analysis.training.gpuTotalBytes);
        EXPECT_EQ(view.servingRows().size(), core::servingMemoryRows(analysis).size());
        EXPECT_EQ(view.trainingRows().size(), core::trainingMemoryRows(analysis).size());
    }
}

TEST(SpeedView, ChartsAreCoresBoundsAndAnEncoderHasNoDecode) {
    for (const char* id : kPresets) {
        const core::Analysis analysis = test::analyzePreset(id);
        SpeedView view;
        view.resize(1100, 700);
        view.setAnalysis(analysis);
        const core::RooflineReport& r = analysis.speed;
        // A decode curve for a decoder whose weights and one sequence fit; a note in its place otherwise.
        const bool decode = analysis.config.hasDecoder() && !r.curve.empty();
        EXPECT_EQ(view.noDecodeNote().isEmpty(), decode) << id;
        EXPECT_EQ(view.layoutFor(QRectF(0, 0, 1100, 700)).decode.isEmpty(), !decode) << id;
        const std::vector<QPointF> roof = view.rooflinePlot().roofPoints();
        ASSERT_EQ(roof.size(), 3u);
        for (const QPointF& point : roof) {
            EXPECT_DOUBLE_EQ(point.y(), core::attainableFlops(r, point.x())) << id;
        }
        // A batch the devices cannot hold has no speed: no point for it.
        const std::vector<QPointF> prefill = view.rooflinePlot().prefillPoint();
        ASSERT_EQ(prefill.size(), r.fits ? 1u : 0u) << id;
        if (r.fits) {
            EXPECT_DOUBLE_EQ(prefill.front().x(), core::prefillPoint(r).intensity);
            EXPECT_DOUBLE_EQ(prefill.front().y(), core::prefillPoint(r).flopsPerSecond);
        }
        if (!decode) {
            EXPECT_TRUE(view.rooflinePlot().decodePoints().empty()) << id;
            continue;
        }
        const std::vector<QPointF> aggregate = view.decodePlot().aggregatePoints();
        ASSERT_EQ(aggregate.size(), r.curve.size()) << id;
        for (std::size_t i = 0; i < aggregate.size(); ++i) {
            EXPECT_DOUBLE_EQ(aggregate[i].x(), double(r.curve[i].batch));
            EXPECT_DOUBLE_EQ(aggregate[i].y(), r.curve[i].tokensPerSecond);
            EXPECT_DOUBLE_EQ(view.decodePlot().perSequencePoints()[i].y(), r.curve[i].perSequence);
            EXPECT_DOUBLE_EQ(view.rooflinePlot().decodePoints()[i].x(), core::rooflinePoint(r.curve[i]).intensity);
        }
        // Shaded: memory-bound up to the first compute-bound batch, compute-bound from it.
        const QRectF memory = view.decodePlot().memoryRegion();
        const QRectF compute = view.decodePlot().computeRegion();
        EXPECT_DOUBLE_EQ(memory.left(), 1);
        // The axis runs to the end of the curve, the largest batch that fits (or the scenario's).
        const double right = std::max(
            {2.0, r.curve.empty() ? 0.0 : double(r.curve.back().batch), r.fits ? double(r.scenario.batch) : 0.0});
        if (r.computeBoundBatch > 0 && double(r.computeBoundBatch) < right) {
            EXPECT_DOUBLE_EQ(memory.right(), double(r.computeBoundBatch)) << id;
            EXPECT_DOUBLE_EQ(compute.left(), double(r.computeBoundBatch)) << id;
        } else {
            EXPECT_TRUE(compute.isEmpty()) << id;
        }
        for (const core::SummaryRow& row : view.rows()) {
            ASSERT_FALSE(row.notes.empty());
            EXPECT_EQ(row.notes.front(), core::speedBoundLabel()) << "every figure is an upper bound";
        }
    }
    SpeedView view;
    view.setAnalysis(test::analyzePreset("llama-3-8b"));
    EXPECT_TRUE(view.decodeTitle().contains(QStringLiteral("upper bound")));
    EXPECT_TRUE(view.rooflineTitle().contains(QStringLiteral("upper bound")));
}

TEST(SpeedView, ComputeBoundBatchesAreShadedApart) {
    // A short context on a device with a low ridge (RTX 3090: 76 FLOP/byte): from some batch on, the
    // step is compute-bound.
    core::Scenario scenario;
    scenario.sequenceLength = 128;
    scenario.gpu = *core::findGpu(core::builtinGpus(), "rtx-3090");
    const core::Analysis analysis = test::analyzePreset("llama-3-8b", scenario);
    ASSERT_GT(analysis.speed.computeBoundBatch, 0u);
    ASSERT_LT(analysis.speed.computeBoundBatch, 512u);
    SpeedView view;
    view.resize(1100, 700);
    view.setAnalysis(analysis);
    EXPECT_DOUBLE_EQ(view.decodePlot().computeRegion().left(), double(analysis.speed.computeBoundBatch));
    const CostChart::Arrangement arranged = view.decodePlot().arrange(QSize(520, 360));
    EXPECT_TRUE(std::find(arranged.labelTexts.begin(), arranged.labelTexts.end(), QStringLiteral("compute-bound")) !=
                arranged.labelTexts.end());
}

TEST(CostCharts, LabelsAndLegendNeverOverlap) {
    for (const char* id : kPresets) {
        const core::Analysis analysis = test::analyzePreset(id);
        ComputeView compute;
        compute.setAnalysis(analysis);
        SpeedView speed;
        speed.setAnalysis(analysis);
        const std::vector<const CostChart*> charts = {&compute.plot(), &speed.decodePlot(), &speed.rooflinePlot()};
        for (const CostChart* chart : charts) {
            for (const QSize size : {QSize(420, 260), QSize(700, 420), QSize(1200, 700)}) {
                const CostChart::Arrangement arranged = chart->arrange(size);
                std::vector<QRectF> rects = arranged.labels;
                if (arranged.legendInside) {
                    rects.push_back(arranged.legend);
                }
                expectApartAndInside(arranged.plotArea, rects, std::string(id) + " chart");
                // Labels keep off the marked points, as they are drawn at this size.
                for (const QRectF& label : arranged.labels) {
                    for (const QRectF& mark : arranged.marks) {
                        EXPECT_FALSE(overlapHalfPixel(label, mark)) << id;
                    }
                }
            }
        }
        // The scenario's points are labelled when the chart has room, the legend below or not.
        for (const QSize size : {QSize(610, 420), QSize(900, 500)}) {
            const CostChart::Arrangement roofline = speed.rooflinePlot().arrange(size);
            const bool decode = analysis.config.hasDecoder();
            const auto labelled = [&](const QString& prefix) {
                return std::any_of(roofline.labelTexts.begin(), roofline.labelTexts.end(),
                                   [&](const QString& text) { return text.startsWith(prefix); });
            };
            const bool fits = analysis.speed.fits; // no point, so no label, for a batch that does not fit
            EXPECT_EQ(labelled(QStringLiteral("decode, batch")), decode && fits) << id;
            EXPECT_EQ(labelled(decode ? QStringLiteral("prefill") : QStringLiteral("forward pass")), fits) << id;
            EXPECT_TRUE(labelled(QStringLiteral("ridge"))) << id;
        }
    }
}

TEST(CostViews, FollowANewAnalysis) {
    ComputeView compute;
    MemoryView memory;
    SpeedView speed;
    core::Scenario longer;
    longer.sequenceLength = 32768;
    longer.batch = 8;
    const core::Analysis first = test::analyzePreset("llama-3-8b");
    const core::Analysis second = test::analyzePreset("llama-3-8b", longer);
    compute.setAnalysis(first);
    memory.setAnalysis(first);
    speed.setAnalysis(first);
    const QString flops = QString::fromStdString(compute.rows().front().value);
    const std::uint64_t kv = memory.serving().segments[1].bytes;
    const double rate = speed.decodePlot().aggregatePoints().front().y();
    compute.setAnalysis(second);
    memory.setAnalysis(second);
    speed.setAnalysis(second);
    EXPECT_NE(QString::fromStdString(compute.rows().front().value), flops);
    EXPECT_EQ(compute.rows().front().value, core::computeRows(second).front().value);
    EXPECT_EQ(memory.serving().segments[1].bytes, second.kv.totalBytes);
    EXPECT_GT(memory.serving().segments[1].bytes, kv);
    EXPECT_LT(speed.decodePlot().aggregatePoints().front().y(), rate) << "a longer cache reads slower";
    EXPECT_DOUBLE_EQ(speed.decodePlot().aggregatePoints().front().y(), second.speed.curve.front().tokensPerSecond);
}

TEST(CostViews, ExplainShowsCoresFormulasAndCopiesThem) {
    const core::Analysis analysis = test::analyzePreset("deepseek-v3");
    for (const core::ViewKind kind : {core::ViewKind::Compute, core::ViewKind::Memory, core::ViewKind::Speed}) {
        std::unique_ptr<CostView> view;
        if (kind == core::ViewKind::Compute) {
            view = std::make_unique<ComputeView>();
        } else if (kind == core::ViewKind::Memory) {
            view = std::make_unique<MemoryView>();
        } else {
            view = std::make_unique<SpeedView>();
        }
        view->resize(1000, 700);
        view->show();
        view->setAnalysis(analysis);
        // Explain, Copy as LaTeX and Copy as Markdown are the view's own actions: its context menu.
        ASSERT_GE(view->actions().size(), 3);
        EXPECT_EQ(view->actions().front(), view->explainAction());
        EXPECT_FALSE(view->explaining());
        EXPECT_FALSE(view->explanation()->isVisible());
        view->explainAction()->trigger();
        EXPECT_TRUE(view->explaining());
        EXPECT_TRUE(view->explanation()->isVisible());
        const core::Derivation expected = core::explainCosts(analysis, view->topic());
        EXPECT_EQ(view->explanation()->latex(), QString::fromStdString(core::toLatex(expected)));
        EXPECT_TRUE(view->explanation()->document().unknownCommands().isEmpty())
            << view->explanation()->document().unknownCommands().join(QLatin1Char(' ')).toStdString();
        view->explanation()->copyMarkdownAction()->trigger();
        EXPECT_EQ(QApplication::clipboard()->text(), QString::fromStdString(core::toMarkdown(expected)));
        // An export draws what the screen shows: the explanation.
        QString error;
        const QByteArray png = exports::figureBytes(*view, core::ExportFormat::Png, {{900, 600}, 1.0}, &error);
        EXPECT_FALSE(png.isEmpty()) << error.toStdString();
        // It follows the analysis while open.
        view->setAnalysis(test::analyzePreset("llama-3-8b"));
        QApplication::processEvents(); // a view on screen updates its panel once the event loop is back
        EXPECT_EQ(view->explanation()->markdown(), QString::fromStdString(core::toMarkdown(core::explainCosts(
                                                       test::analyzePreset("llama-3-8b"), view->topic()))));
        view->explainAction()->trigger();
        EXPECT_FALSE(view->explanation()->isVisible());
    }
}

TEST(CostViews, ExportAsFiguresHeadlessAndInReports) {
    QTemporaryDir dir;
    for (const char* id : {"llama-3-8b", "bert-base-uncased", "qwen3-next-80b-a3b"}) {
        const core::Analysis analysis = test::analyzePreset(id);
        for (const core::ExportWhat what :
             {core::ExportWhat::Compute, core::ExportWhat::Memory, core::ExportWhat::Speed}) {
            for (const core::ExportFormat format :
                 {core::ExportFormat::Png, core::ExportFormat::Svg, core::ExportFormat::Pdf}) {
                exports::ExportRequest request;
                request.what = what;
                request.format = format;
                request.path =
                    dir.filePath(QStringLiteral("%1-%2.%3")
                                     .arg(QString::fromLatin1(id), QString::fromUtf8(core::toString(what).data()),
                                          QString::fromUtf8(core::toString(format).data())));
                request.info.title = id;
                const core::Status written = exports::exportAnalysis(analysis, request);
                ASSERT_TRUE(written.ok()) << id << " " << core::toString(what) << ": " << written.error();
                QFile file(request.path);
                ASSERT_TRUE(file.open(QIODevice::ReadOnly));
                const QByteArray bytes = file.readAll();
                EXPECT_GT(bytes.size(), 1000) << request.path.toStdString();
                if (format == core::ExportFormat::Png) {
                    EXPECT_EQ(QImage::fromData(bytes, "PNG").size(), QSize(1280, 800));
                } else if (format == core::ExportFormat::Pdf) {
                    EXPECT_TRUE(bytes.startsWith("%PDF-"));
                } else {
                    EXPECT_TRUE(bytes.contains("<svg"));
                }
            }
        }
    }
}

TEST(CostViews, AreTabsOfTheWindowWithShortcuts) {
    window::MainWindow window{window::MainWindowOptions{false}};
    const std::pair<const char*, QKeySequence> shows[] = {{"Show Compute", QKeySequence(Qt::ALT | Qt::Key_0)},
                                                          {"Show Memory", QKeySequence(Qt::ALT | Qt::Key_Minus)},
                                                          {"Show Speed", QKeySequence(Qt::ALT | Qt::Key_Equal)}};
    const core::ViewKind kinds[] = {core::ViewKind::Compute, core::ViewKind::Memory, core::ViewKind::Speed};
    for (std::size_t i = 0; i < std::size(shows); ++i) {
        QAction* found = nullptr;
        for (QAction* action : window.findChildren<QAction*>()) {
            found = action->text() == QString::fromLatin1(shows[i].first) ? action : found;
        }
        ASSERT_NE(found, nullptr) << shows[i].first;
        EXPECT_EQ(found->shortcut(), shows[i].second) << shows[i].first;
        found->trigger();
        EXPECT_EQ(window.currentView()->kind(), kinds[i]);
    }
}

} // namespace
} // namespace archplay::ui::views
