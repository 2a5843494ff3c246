// SPDX-License-Identifier: GPL-3.0-or-later
// The live views' geometry: pure layout functions and what each view lays out for real presets.
#include "core/analysis/Analysis.h"
#include "core/io/Presets.h"
#include "core/scenario/KvCurve.h"
#include "tests/support/TestSupport.h"
#include "ui/views/AttentionMaskView.h"
#include "ui/views/BreakdownTableView.h"
#include "ui/views/KvCacheView.h"
#include "ui/views/LayerStackView.h"
#include "ui/views/LayerWeightsView.h"
#include "ui/views/MoeRoutingView.h"
#include "ui/views/layout/KvLayout.h"
#include "ui/views/layout/LayerStackLayout.h"
#include "ui/views/layout/MaskLayout.h"
#include "ui/views/layout/RoutingLayout.h"
#include "ui/views/layout/WeightItems.h"
#include "ui/views/layout/WeightLayout.h"
#include "ui/widgets/TextLines.h"

#include <QApplication>
#include <QFontMetricsF>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace archplay::test {
namespace {

const QRectF kTarget(0, 0, 1280, 820);

/// Two rectangles share more than a hairline.
bool overlap(const QRectF& a, const QRectF& b) {
    const QRectF common = a.intersected(b);
    return common.width() > 0.01 && common.height() > 0.01;
}

bool inside(const QRectF& outer, const QRectF& inner) {
    return outer.adjusted(-0.01, -0.01, 0.01, 0.01).contains(inner);
}

TEST(LayerStackLayout, OneSlabPerLayerForEveryReviewPreset) {
    for (const char* id : {"llama-3-8b", "mixtral-8x7b-v0.1", "deepseek-v3", "gemma-3-1b", "t5-small", "llama-3.1-405b",
                           "qwen3-30b-a3b", "bert-base-uncased"}) {
        const core::Analysis analysis = analyzePreset(id);
        ui::views::LayerStackView view;
        view.setAnalysis(analysis);
        const ui::views::layout::LayerStackLayout stack = view.layoutFor(kTarget);
        std::set<int> seen;
        std::size_t slabs = 0;
        for (const auto& column : stack.columns) {
            slabs += column.slabs.size();
            for (std::size_t i = 0; i < column.slabs.size(); ++i) {
                const auto& slab = column.slabs[i];
                seen.insert(slab.planIndex);
                EXPECT_TRUE(inside(kTarget, slab.rect)) << id;
                EXPECT_GT(slab.rect.height(), 0.5) << id;
                EXPECT_TRUE(inside(slab.rect, slab.attention) && inside(slab.rect, slab.ffn)) << id;
                EXPECT_FALSE(overlap(slab.attention, slab.ffn)) << id;
                if (i > 0) {
                    // Bottom to top, never overlapping.
                    EXPECT_LE(slab.rect.bottom(), column.slabs[i - 1].rect.top() + 0.01) << id;
                }
            }
            for (std::size_t a = 0; a < column.labels.size(); ++a) {
                EXPECT_TRUE(inside(kTarget, column.labels[a].text)) << id;
                for (std::size_t b = a + 1; b < column.labels.size(); ++b) {
                    EXPECT_FALSE(overlap(column.labels[a].text, column.labels[b].text)) << id;
                }
                for (const auto& slab : column.slabs) {
                    EXPECT_FALSE(overlap(column.labels[a].text, slab.rect)) << id;
                }
            }
            EXPECT_FALSE(overlap(column.bottom, column.top)) << id;
        }
        EXPECT_EQ(slabs, analysis.plan.layers.size()) << id;
        EXPECT_EQ(seen.size(), analysis.plan.layers.size()) << id;
    }
}

TEST(LayerStackLayout, EncoderDecoderStandsSideBySideWithCrossAttention) {
    ui::views::LayerStackView view;
    view.setAnalysis(analyzePreset("t5-small"));
    const ui::views::layout::LayerStackLayout stack = view.layoutFor(kTarget);
    ASSERT_EQ(stack.columns.size(), 2u);
    EXPECT_LT(stack.columns[0].frame.right(), stack.columns[1].frame.left());
    EXPECT_EQ(stack.crossLinks.size(), 6u);
    for (const auto& slab : stack.columns[1].slabs) {
        EXPECT_FALSE(slab.cross.isEmpty());
    }
    for (const auto& slab : stack.columns[0].slabs) {
        EXPECT_TRUE(slab.cross.isEmpty());
    }
}

TEST(LayerStackLayout, DeepStacksKeepEverySlabAndTickLabelsApart) {
    ui::views::layout::StackColumnInput column;
    for (int i = 0; i < 126; ++i) {
        column.layers.push_back({i, false});
    }
    column.runs.push_back({0, 126, QStringLiteral("×126  global · gated")});
    column.bottomLabel = QStringLiteral("embeddings");
    const auto stack = ui::views::layout::layoutLayerStack({column}, QRectF(0, 0, 600, 420), QApplication::font());
    ASSERT_EQ(stack.columns.size(), 1u);
    EXPECT_EQ(stack.columns[0].slabs.size(), 126u);
    EXPECT_EQ(stack.columns[0].labels.size(), 1u);
    const auto& ticks = stack.columns[0].ticks;
    ASSERT_GE(ticks.size(), 2u);
    for (std::size_t i = 1; i < ticks.size(); ++i) {
        EXPECT_FALSE(overlap(ticks[i].text, ticks[i - 1].text));
    }
}

TEST(WeightLayout, AreasAreProportionalToParameters) {
    for (const char* id : {"llama-3-8b", "mixtral-8x7b-v0.1", "deepseek-v3", "gemma-3-1b", "t5-small"}) {
        const core::Analysis analysis = analyzePreset(id);
        ui::views::LayerWeightsView view;
        view.setAnalysis(analysis);
        const ui::views::layout::WeightLayout placed = view.layoutFor(kTarget);
        const auto& items = view.items();
        EXPECT_TRUE(placed.fits) << id;
        ASSERT_GT(placed.scale, 0) << id;
        ASSERT_EQ(placed.items.size(), items.size()) << id;
        for (const auto& weight : placed.items) {
            const auto& item = items[static_cast<std::size_t>(weight.item)];
            EXPECT_TRUE(inside(kTarget, weight.rect)) << id << " " << item.name.toStdString();
            EXPECT_EQ(weight.cells.size(), static_cast<std::size_t>(item.copies)) << id;
            if (!weight.toScale) {
                continue;
            }
            // Area per element is scale squared for every drawn matrix and every expert cell.
            for (const QRectF& cell : weight.cells) {
                const double perElement = cell.width() * cell.height() / item.elements;
                EXPECT_NEAR(perElement / (placed.scale * placed.scale), 1.0, 1e-6)
                    << id << " " << item.name.toStdString();
            }
        }
        for (std::size_t a = 0; a < placed.groups.size(); ++a) {
            EXPECT_TRUE(inside(kTarget, placed.groups[a].frame)) << id;
            for (std::size_t b = a + 1; b < placed.groups.size(); ++b) {
                EXPECT_FALSE(overlap(placed.groups[a].frame, placed.groups[b].frame)) << id;
            }
        }
        for (std::size_t a = 0; a < placed.items.size(); ++a) {
            for (std::size_t b = a + 1; b < placed.items.size(); ++b) {
                EXPECT_FALSE(overlap(placed.items[a].rect, placed.items[b].rect)) << id;
                EXPECT_FALSE(overlap(placed.items[a].label, placed.items[b].label)) << id;
                EXPECT_FALSE(overlap(placed.items[a].rect, placed.items[b].label)) << id;
            }
        }
    }
}

TEST(WeightLayout, ASmallTileDropsTheVectorsLabelsFirstThenAllAndStaysInside) {
    ui::views::LayerWeightsView view;
    view.setAnalysis(analyzePreset("bert-base-uncased"));
    const auto& items = view.items();
    const ui::widgets::TextMetrics metrics(QApplication::font());
    std::map<ui::views::layout::WeightLabels, int> seen;
    for (const QSizeF size : {QSizeF(900, 900), QSizeF(260, 400), QSizeF(200, 120)}) {
        const QRectF bounds(QPointF(0, 0), size);
        const auto placed = ui::views::layout::layoutWeights(items, view.groups(), bounds, metrics);
        ++seen[placed.labels];
        for (const auto& weight : placed.items) {
            const bool vector = items[static_cast<std::size_t>(weight.item)].vector;
            const bool labelled = !weight.label.isEmpty();
            switch (placed.labels) {
            case ui::views::layout::WeightLabels::All:
                EXPECT_TRUE(labelled);
                break;
            case ui::views::layout::WeightLabels::Matrices:
                EXPECT_EQ(labelled, !vector);
                break;
            case ui::views::layout::WeightLabels::None:
                EXPECT_FALSE(labelled);
                break;
            }
            if (placed.fits) {
                EXPECT_TRUE(inside(bounds, weight.rect) && (!labelled || inside(bounds, weight.label)));
            }
        }
    }
    // The three sizes show the three levels, largest first.
    EXPECT_EQ(seen.size(), 3u);
}

TEST(WeightLayout, GroupedQueryAttentionNarrowsKeysAndValues) {
    ui::views::LayerWeightsView view;
    view.setAnalysis(analyzePreset("llama-3-8b"));
    const ui::views::layout::WeightLayout placed = view.layoutFor(kTarget);
    QRectF query;
    QRectF key;
    for (const auto& weight : placed.items) {
        const QString name = view.items()[static_cast<std::size_t>(weight.item)].name;
        if (name == QLatin1String("q_proj")) {
            query = weight.rect;
        } else if (name == QLatin1String("k_proj")) {
            key = weight.rect;
        }
    }
    ASSERT_GT(query.width(), 0);
    EXPECT_NEAR(key.width() / query.width(), 1024.0 / 4096.0, 1e-6);
    EXPECT_NEAR(key.height(), query.height(), 1e-6);
}

/// The items of the first layer of `stack`, by name (the first of a name: self- and cross-attention
/// may share short names, told apart by their group).
std::map<QString, std::size_t> weightNames(const core::Analysis& analysis, ui::views::layout::WeightItems& items,
                                           core::Stack stack = core::Stack::Decoder) {
    for (const core::LayerPlan& layer : analysis.plan.layers) {
        if (layer.stack == stack) {
            items = ui::views::layout::weightItems(analysis.config, layer);
            break;
        }
    }
    std::map<QString, std::size_t> names;
    for (std::size_t i = 0; i < items.items.size(); ++i) {
        names.emplace(items.items[i].name, i);
    }
    return names;
}

TEST(WeightLayout, MatricesFollowTheFamilysTensors) {
    ui::views::layout::WeightItems items;
    // Phi-3's gate and up are one tensor [2 x 8192, 3072]: one matrix, not two.
    auto names = weightNames(analyzePreset("phi-3-mini-4k-instruct"), items);
    ASSERT_EQ(names.count(QStringLiteral("gate_up_proj")), 1u);
    EXPECT_EQ(names.count(QStringLiteral("gate_proj")), 0u);
    EXPECT_EQ(names.count(QStringLiteral("up_proj")), 0u);
    EXPECT_NEAR(items.items[names[QStringLiteral("gate_up_proj")]].aspect, 2.0 * 8192 / 3072, 1e-9);
    EXPECT_EQ(names.count(QStringLiteral("qkv_proj")), 1u);

    // GPT-2's Conv1D c_attn is stored [768, 2304] and drawn like any projection, d_out / d_in wide.
    names = weightNames(analyzePreset("gpt-2"), items);
    ASSERT_EQ(names.count(QStringLiteral("c_attn")), 1u);
    EXPECT_NEAR(items.items[names[QStringLiteral("c_attn")]].aspect, 2304.0 / 768, 1e-9);
    EXPECT_TRUE(items.toolTips[names[QStringLiteral("c_attn")]].contains(QStringLiteral("[768, 2,304]")));
    EXPECT_TRUE(items.toolTips[names[QStringLiteral("c_attn")]].contains(QStringLiteral("Conv1D")));

    // BERT's names, kept whole where a short name would be ambiguous.
    names = weightNames(analyzePreset("bert-base-uncased"), items, core::Stack::Encoder);
    for (const char* name : {"attention.self.query", "attention.output.dense", "intermediate.dense", "output.dense"}) {
        EXPECT_EQ(names.count(QString::fromLatin1(name)), 1u) << name;
    }

    // Cross-attention is found by the tensor, whatever the family calls it.
    weightNames(analyzePreset("bart-base"), items);
    int cross = 0;
    for (ui::views::layout::WeightRole role : items.roles) {
        cross += role == ui::views::layout::WeightRole::CrossAttention ? 1 : 0;
    }
    EXPECT_EQ(cross, 4) << "k, v, q and out_proj weights of encoder_attn";
    names = weightNames(analyzePreset("t5-small"), items);
    EXPECT_EQ(names.count(QStringLiteral("EncDecAttention.q")), 1u);
    EXPECT_EQ(items.roles[names[QStringLiteral("EncDecAttention.q")]], ui::views::layout::WeightRole::CrossAttention);
}

TEST(BreakdownRows, LayerRowsCarryOneLayerTimesTheLayers) {
    const std::vector<ui::views::BreakdownRow> rows = ui::views::breakdownRows(analyzePreset("llama-3-8b").params);
    ASSERT_GT(rows.size(), 3u);
    EXPECT_TRUE(rows.front().perLayer.isEmpty()) << "the model row";
    const auto kind = std::find_if(rows.begin(), rows.end(), [](const ui::views::BreakdownRow& row) {
        return row.depth == 2 && row.params == 6979584000u;
    });
    ASSERT_NE(kind, rows.end());
    EXPECT_EQ(kind->perLayer, QStringLiteral("218,112,000 × 32 layers"));
}

TEST(WeightLayout, ExpertsFormAGridOfTheirCount) {
    ui::views::LayerWeightsView view;
    view.setAnalysis(analyzePreset("deepseek-v3"));
    bool found = false;
    for (const auto& item : view.items()) {
        if (item.copies > 1) {
            EXPECT_EQ(item.copies, 256);
            found = true;
        }
    }
    EXPECT_TRUE(found);
}

TEST(MaskLayout, PanelsAreSquareGridsInsideTheBoundsAndApart) {
    const ui::widgets::TextMetrics metrics(QApplication::font());
    for (int count : {1, 2, 3, 8, 9}) {
        const QRectF bounds(10, 10, 1200, 760);
        const auto placed = ui::views::layout::layoutMasks(count, 32, bounds, metrics);
        ASSERT_EQ(placed.panels.size(), static_cast<std::size_t>(count));
        EXPECT_EQ(placed.cellSize, std::floor(placed.cellSize));
        for (std::size_t a = 0; a < placed.panels.size(); ++a) {
            const auto& panel = placed.panels[a];
            EXPECT_DOUBLE_EQ(panel.grid.width(), panel.grid.height());
            EXPECT_DOUBLE_EQ(panel.grid.width(), placed.cellSize * 32);
            EXPECT_TRUE(inside(bounds, panel.frame)) << count;
            EXPECT_TRUE(inside(panel.frame, panel.grid)) << count;
            for (std::size_t b = a + 1; b < placed.panels.size(); ++b) {
                EXPECT_FALSE(overlap(panel.frame, placed.panels[b].frame)) << count;
            }
        }
        EXPECT_TRUE(inside(bounds, placed.caption));
    }
}

TEST(MaskView, ShowsEveryMaskOfTheModelAndTheReferenceKindsOnRequest) {
    ui::views::AttentionMaskView view;
    view.setAnalysis(analyzePreset("gemma-3-1b"));
    ASSERT_EQ(view.grids().size(), 2u);
    EXPECT_EQ(view.grids()[0].mask.kind, core::MaskKind::SlidingWindow);
    EXPECT_EQ(view.grids()[0].tokensPerCell, 64u);
    view.setCompareAll(true);
    // Bidirectional, chunked, prefix-LM and cross-attention join the model's sliding and causal masks.
    EXPECT_EQ(view.grids().size(), 6u);
    EXPECT_EQ(view.layoutFor(kTarget).panels.size(), 6u);
}

TEST(KvLayout, SegmentsAreProportionalAndCoverTheBar) {
    const QRectF bar(5, 5, 700, 20);
    const auto segments = ui::views::layout::proportionalSegments({100, 300, 0, 600}, bar);
    ASSERT_EQ(segments.size(), 4u);
    EXPECT_DOUBLE_EQ(segments.front().left(), bar.left());
    EXPECT_DOUBLE_EQ(segments.back().right(), bar.right());
    EXPECT_NEAR(segments[0].width(), 70, 1e-9);
    EXPECT_NEAR(segments[1].width(), 210, 1e-9);
    EXPECT_NEAR(segments[2].width(), 0, 1e-9);
    for (std::size_t i = 1; i < segments.size(); ++i) {
        EXPECT_DOUBLE_EQ(segments[i].left(), segments[i - 1].right());
    }
}

TEST(KvLayout, PartsStayInsideTheBoundsAndApart) {
    const QRectF bounds(14, 60, 1252, 750);
    const ui::widgets::TextMetrics metrics(QApplication::font());
    const auto placed = ui::views::layout::layoutKvCache(bounds, metrics, metrics, 3, 2, 6);
    std::vector<QRectF> parts = {placed.headline, placed.bar, placed.curve, placed.gpuTitle};
    parts.insert(parts.end(), placed.rows.begin(), placed.rows.end());
    parts.insert(parts.end(), placed.notes.begin(), placed.notes.end());
    parts.insert(parts.end(), placed.gpuRows.begin(), placed.gpuRows.end());
    for (std::size_t a = 0; a < parts.size(); ++a) {
        EXPECT_TRUE(inside(bounds, parts[a])) << a;
        for (std::size_t b = a + 1; b < parts.size(); ++b) {
            EXPECT_FALSE(overlap(parts[a], parts[b])) << a << " " << b;
        }
    }
}

TEST(KvLayout, AGpuRowWrapsItsVerdictBelowTheLabelAndDropsADetailWithNoRoom) {
    const QFont font = QApplication::font();
    QFont bold = font;
    bold.setBold(true);
    const qreal line = QFontMetricsF(font).height();
    const QString verdict = QStringLiteral("needs 27 x 24 GiB: the weights alone exceed it");
    const QString detail = QStringLiteral("weights 625 GiB + cache 274 MiB = 3.3× the 8 x 24 GiB");
    const qreal verdictWidth = QFontMetricsF(font).horizontalAdvance(verdict);
    const std::uint64_t cuts = ui::widgets::elisionCount();
    // Wide: the verdict beside the label, the detail under the bar.
    const QRectF wide(0, 0, 3 * verdictWidth, 4 * line + 20);
    const auto roomy = ui::views::layout::layoutGpuRow(wide, font, bold, QStringLiteral("8 x 24 GiB"), verdict, detail);
    EXPECT_DOUBLE_EQ(roomy.verdict.top(), roomy.label.top());
    EXPECT_EQ(roomy.detailLines.size(), 1);
    // Narrow: the verdict on the lines below the label, the detail wrapped, all inside the slot.
    const QRectF narrow(0, 0, verdictWidth * 0.7, 7 * line + 20);
    const auto tight =
        ui::views::layout::layoutGpuRow(narrow, font, bold, QStringLiteral("8 x 24 GiB"), verdict, detail);
    EXPECT_GE(tight.verdict.top(), tight.label.bottom());
    EXPECT_EQ(tight.verdictLines.size(), 2);
    EXPECT_EQ(tight.detailLines.size(), 2);
    for (const QRectF& part : {tight.label, tight.verdict, tight.bar, tight.detail}) {
        EXPECT_TRUE(inside(narrow, part));
    }
    EXPECT_FALSE(overlap(tight.verdict, tight.bar));
    EXPECT_FALSE(overlap(tight.bar, tight.detail));
    // No room for the detail: it is left out, not cut.
    const QRectF low(0, 0, verdictWidth * 0.7, 3 * line + 10);
    const auto dropped =
        ui::views::layout::layoutGpuRow(low, font, bold, QStringLiteral("8 x 24 GiB"), verdict, detail);
    EXPECT_TRUE(dropped.detailLines.isEmpty());
    EXPECT_GT(dropped.bar.height(), 0);
    EXPECT_TRUE(inside(low, dropped.bar));
    EXPECT_EQ(ui::widgets::elisionCount(), cuts);
}

TEST(KvCacheView, TheCurvePassesThroughTheCoresValues) {
    for (const char* id : {"llama-3-8b", "gemma-3-1b", "deepseek-v3", "t5-small"}) {
        const core::Analysis analysis = analyzePreset(id);
        ui::views::KvCacheView view;
        view.setAnalysis(analysis);
        const auto& curves = view.curves();
        ASSERT_EQ(curves.size(), 4u) << id;
        for (int c = 0; c < 4; ++c) {
            const auto points = view.curvePoints(c);
            ASSERT_FALSE(points.empty()) << id;
            for (std::size_t i = 0; i < points.size(); i += 5) {
                const auto length = static_cast<std::uint64_t>(points[i].x());
                const auto bytes =
                    core::kvCache(analysis.config, analysis.plan, length, analysis.scenario.batch,
                                  curves[static_cast<std::size_t>(c)].dtype, analysis.scenario.encoderSequenceLength)
                        .totalBytes;
                EXPECT_DOUBLE_EQ(points[i].y(), double(bytes)) << id << " at " << length;
            }
        }
        std::uint64_t shares = 0;
        for (const auto& share : view.shares()) {
            shares += share.bytes;
        }
        EXPECT_EQ(shares, analysis.kv.totalBytes) << id;
        EXPECT_EQ(view.fits().size(), core::gpuMemorySizes(analysis.scenario.gpu).size()) << id;
    }
}

TEST(RoutingLayout, CellsTileTheGridAndTheLoadAlignsWithIt) {
    const ui::widgets::TextMetrics metrics(QApplication::font());
    const QRectF bounds(14, 90, 1252, 720);
    for (int experts : {8, 60, 128, 256}) {
        const auto placed = ui::views::layout::layoutRouting(18, experts, 1, bounds, metrics, 90, 300);
        EXPECT_TRUE(inside(bounds, placed.grid)) << experts;
        EXPECT_TRUE(inside(bounds, placed.totals)) << experts;
        EXPECT_DOUBLE_EQ(placed.load.width(), placed.grid.width()) << experts;
        EXPECT_DOUBLE_EQ(ui::views::layout::routingCell(placed, 17, experts - 1).right(), placed.grid.right());
        EXPECT_DOUBLE_EQ(ui::views::layout::routingCell(placed, 17, experts - 1).bottom(), placed.grid.bottom());
        EXPECT_LE(placed.grid.right(), placed.choices.front().left());
        EXPECT_LE(placed.shared.right(), placed.grid.left());
        EXPECT_LE(placed.grid.bottom(), placed.load.top());
    }
}

TEST(RoutingLayout, ShortBoundsDropTheTotalsThenTheLoadAndKeepEverythingInside) {
    const ui::widgets::TextMetrics metrics(QApplication::font());
    const qreal line = metrics.height();
    const int tokens = 16;
    // Tall: rows, load and totals. A tile: the totals go first, then the load.
    const auto tall = ui::views::layout::layoutRouting(tokens, 256, 1, QRectF(0, 0, 600, 720), metrics, 0, 0);
    EXPECT_FALSE(tall.totals.isEmpty());
    EXPECT_FALSE(tall.load.isEmpty());
    const QRectF tile(0, 0, 300, line + 4 + 6 * tokens + line + 6 + 30 + 20);
    const auto medium = ui::views::layout::layoutRouting(tokens, 256, 1, tile, metrics, 0, 0);
    EXPECT_TRUE(medium.totals.isEmpty());
    EXPECT_FALSE(medium.load.isEmpty());
    EXPECT_GE(medium.rowHeight, 6);
    const QRectF tiny(0, 0, 300, line + 4 + 4 * tokens + 12);
    const auto small = ui::views::layout::layoutRouting(tokens, 256, 1, tiny, metrics, 0, 0);
    EXPECT_TRUE(small.load.isEmpty());
    EXPECT_TRUE(inside(QRectF(0, 0, 600, 720), tall.totals));
    EXPECT_TRUE(inside(tile, medium.grid) && inside(tile, medium.load));
    EXPECT_TRUE(inside(tiny, small.grid));
}

TEST(MoeRoutingView, FollowsTheSelectedMoeLayer) {
    ui::views::MoeRoutingView view;
    view.setAnalysis(analyzePreset("deepseek-v3"));
    EXPECT_TRUE(view.simulation().moe);
    EXPECT_EQ(view.simulation().layer, 3); // the first MoE layer
    EXPECT_EQ(view.simulation().numExperts, 256);
    view.setAnalysis(analyzePreset("llama-3-8b"));
    EXPECT_FALSE(view.simulation().moe);
}

} // namespace
} // namespace archplay::test
