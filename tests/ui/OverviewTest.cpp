// SPDX-License-Identifier: GPL-3.0-or-later
// The overview page: its grid (a pure layout function), which tiles a model gets, the shared layer
// selection, and that its figures are core's.
#include "core/derivation/Derivation.h"
#include "core/report/Fit.h"
#include "core/report/Summary.h"
#include "core/routing/RoutingSimulation.h"
#include "ui/export/ViewExporter.h"
#include "ui/session/ModelBridge.h"
#include "ui/views/KindNames.h"
#include "ui/views/KvFitTile.h"
#include "ui/views/LayerSelection.h"
#include "ui/views/LayerStackView.h"
#include "ui/views/LayerStepView.h"
#include "ui/views/LayerWeightsView.h"
#include "ui/views/MoeRoutingView.h"
#include "ui/views/OverviewPage.h"
#include "ui/views/Views.h"
#include "ui/views/WillItRunTile.h"
#include "ui/views/layout/MaskLayout.h"
#include "ui/views/layout/OverviewLayout.h"
#include "ui/window/MainWindow.h"

#include <QApplication>
#include <QPaintEvent>
#include <QPainter>
#include <QRegion>
#include <QScreen>
#include <QTabWidget>
#include <QTest>
#include <QThread>
#include <QToolButton>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <string_view>

namespace archplay::test {
namespace {

using core::ViewKind;
using ui::views::layout::OverviewLayout;
using ui::views::layout::OverviewTileSpec;

bool tilesOverlap(const QRectF& a, const QRectF& b) {
    const QRectF common = a.intersected(b);
    return common.width() > 0.01 && common.height() > 0.01;
}

/// The specs the page uses for a dense model and for an MoE model (the routing tile).
std::vector<OverviewTileSpec> specs(bool moe) {
    std::vector<OverviewTileSpec> tiles{{0.75, 2}, {1.3, 2}, {1.9, 1}, {1.9, 1}, {1.6, 1}};
    if (moe) {
        tiles.insert(tiles.begin() + 4, OverviewTileSpec{1.9, 1});
    }
    return tiles;
}

void expectValid(const OverviewLayout& grid, std::size_t count, const QRectF& bounds, const char* what) {
    ASSERT_EQ(grid.tiles.size(), count) << what;
    EXPECT_GE(grid.height, bounds.height() - 0.01) << what;
    const QRectF page(bounds.left(), bounds.top(), bounds.width(), grid.height);
    for (std::size_t i = 0; i < grid.tiles.size(); ++i) {
        EXPECT_FALSE(grid.tiles[i].isEmpty()) << what << " tile " << i;
        EXPECT_TRUE(page.adjusted(-0.01, -0.01, 0.01, 0.01).contains(grid.tiles[i])) << what << " tile " << i;
        for (std::size_t j = i + 1; j < grid.tiles.size(); ++j) {
            EXPECT_FALSE(tilesOverlap(grid.tiles[i], grid.tiles[j])) << what << " tiles " << i << " and " << j;
        }
    }
}

TEST(OverviewLayout, TilesStayInsideNeverOverlapAndAllArePresent) {
    for (bool moe : {false, true}) {
        for (const QSizeF size : {QSizeF(320, 240), QSizeF(860, 420), QSizeF(1000, 600), QSizeF(1500, 800),
                                  QSizeF(2030, 1050), QSizeF(3400, 1900), QSizeF(5000, 700), QSizeF(600, 2000)}) {
            const QRectF bounds(QPointF(7, 11), size);
            expectValid(ui::views::layout::layoutOverview(specs(moe), bounds), specs(moe).size(), bounds,
                        moe ? "moe" : "dense");
        }
    }
    EXPECT_TRUE(ui::views::layout::layoutOverview({}, QRectF(0, 0, 800, 600)).tiles.empty());
    EXPECT_TRUE(ui::views::layout::layoutOverview(specs(true), QRectF()).tiles.empty());
}

TEST(OverviewLayout, UsesTheWidthItHasAndTilesGrowWithTheWindow) {
    // The central area of a 1280x720 window up to a 2560x1440 one and beyond.
    const std::vector<QSizeF> sizes{QSizeF(860, 430), QSizeF(1200, 600), QSizeF(1500, 800), QSizeF(2030, 1050),
                                    QSizeF(3300, 1800)};
    for (bool moe : {false, true}) {
        qreal smallest = 0;
        int columns = 0;
        for (const QSizeF& size : sizes) {
            const OverviewLayout grid = ui::views::layout::layoutOverview(specs(moe), QRectF(QPointF(), size));
            qreal least = 1e18;
            qreal right = 0;
            for (const QRectF& tile : grid.tiles) {
                least = std::min(least, tile.width() * tile.height());
                right = std::max(right, tile.right());
            }
            EXPECT_GT(least, smallest) << size.width() << "x" << size.height();
            EXPECT_GE(grid.columns, columns) << size.width();
            EXPECT_NEAR(right, size.width(), 0.5) << "the grid spans the width at " << size.width();
            smallest = least;
            columns = grid.columns;
        }
        EXPECT_GE(columns, 3) << "a wide page gets several columns";
    }
    // Wide enough, nothing scrolls.
    const OverviewLayout big = ui::views::layout::layoutOverview(specs(true), QRectF(0, 0, 2030, 1050));
    EXPECT_DOUBLE_EQ(big.height, 1050);
}

TEST(OverviewLayout, ASmallPageScrollsRatherThanShrinkingTilesBelowTheirMinimum) {
    const OverviewLayout grid = ui::views::layout::layoutOverview(specs(true), QRectF(0, 0, 700, 300));
    for (const QRectF& tile : grid.tiles) {
        EXPECT_GE(tile.height(), ui::views::layout::OverviewMetrics{}.minTileHeight - 0.01);
    }
    EXPECT_GT(grid.height, 300);
}

TEST(OverviewLayout, MaskThumbnailsStayInsideWithoutAxes) {
    const ui::widgets::TextMetrics metrics(QApplication::font());
    for (int count : {1, 2, 3, 5}) {
        for (const QRectF bounds : {QRectF(10, 20, 300, 160), QRectF(0, 0, 900, 300), QRectF(0, 0, 240, 600)}) {
            const ui::views::layout::MaskLayout thumbs =
                ui::views::layout::layoutMaskThumbnails(count, 32, bounds, metrics);
            ASSERT_EQ(thumbs.panels.size(), std::size_t(count));
            for (std::size_t i = 0; i < thumbs.panels.size(); ++i) {
                const auto& panel = thumbs.panels[i];
                EXPECT_TRUE(panel.rowTicks.empty() && panel.keyAxis.isEmpty() && panel.subtitle.isEmpty());
                EXPECT_NEAR(panel.grid.width(), panel.grid.height(), 0.01);
                if (thumbs.cellSize * 32 + 2 * metrics.height() + 6 <= bounds.height()) {
                    EXPECT_TRUE(bounds.adjusted(-0.01, -0.01, 0.01, 0.01).contains(panel.frame)) << count << " " << i;
                }
                for (std::size_t j = i + 1; j < thumbs.panels.size(); ++j) {
                    EXPECT_FALSE(tilesOverlap(panel.frame, thumbs.panels[j].frame));
                }
            }
            EXPECT_TRUE(thumbs.caption.isEmpty());
        }
    }
}

class Overview : public ::testing::Test {
protected:
    void SetUp() override {
        m_window.resize(1600, 1000);
        m_window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&m_window));
    }
    ui::views::OverviewPage* page() const { return qobject_cast<ui::views::OverviewPage*>(m_window.views().front()); }
    void load(const char* id) {
        ASSERT_TRUE(m_window.bridge()->loadPreset(QString::fromLatin1(id)));
        QApplication::processEvents();
    }

    /// How many pixels of what the window shows of a tile (its backing store; the part the scroll
    /// area shows, as a pixel row may lie below it) differ by more than 3 levels from the tile drawn
    /// afresh on its own. The tile's Open button, which sits on it in the window, is hidden (the
    /// page shows it again when it lays its tiles out).
    qsizetype shownApartFromDrawn(ui::views::PaintedView* tile);
    using ConfigEdit = std::function<void(core::ModelConfig&)>;
    /// Makes each edit in turn, then sets the heads to 0 (an invalid config: the tile shows the
    /// error) and back, with `restore` for what the edits changed, and expects the window to show
    /// what `tile` draws afresh, to the pixel, after each step that leaves the config valid.
    void expectShownAsDrawnAfter(ui::views::PaintedView* tile, std::vector<ConfigEdit> edits,
                                 const ConfigEdit& restore = {});
    /// The regions of the paint events `tile` receives for `edit`, its events delivered.
    std::vector<QRegion> repaintsOf(QWidget* tile, const ConfigEdit& edit);

    ui::window::MainWindow m_window{ui::window::MainWindowOptions{false}};
};

TEST_F(Overview, IsTheFirstTabAndShownAtStart) {
    ASSERT_NE(page(), nullptr);
    EXPECT_EQ(m_window.currentView(), page());
    EXPECT_EQ(page()->kind(), ViewKind::Overview);
    EXPECT_EQ(core::parseViewKind("overview"), ViewKind::Overview);
    auto* tabs = m_window.findChild<QTabWidget*>(QStringLiteral("views"));
    ASSERT_NE(tabs, nullptr);
    EXPECT_EQ(tabs->currentIndex(), 0);
    EXPECT_EQ(tabs->tabText(0), page()->title());
}

TEST_F(Overview, ShowsTheTilesThatApplyToEachModel) {
    const std::vector<ViewKind> common{ViewKind::LayerStack, ViewKind::LayerWeights, ViewKind::KvCache,
                                       ViewKind::Memory, ViewKind::AttentionMask};
    load("llama-3.1-8b");
    std::vector<ViewKind> dense = common;
    dense.push_back(ViewKind::Derivation);
    EXPECT_EQ(page()->shownTiles(), dense);
    ASSERT_EQ(page()->notes().size(), 1);
    EXPECT_TRUE(page()->notes().front().startsWith(page()->tile(ViewKind::MoeRouting)->title()));
    EXPECT_FALSE(page()->tile(ViewKind::MoeRouting)->isVisible());

    load("mixtral-8x7b-v0.1");
    std::vector<ViewKind> moe = common;
    moe.push_back(ViewKind::MoeRouting);
    moe.push_back(ViewKind::Derivation);
    EXPECT_EQ(page()->shownTiles(), moe);
    EXPECT_TRUE(page()->notes().isEmpty());
    for (ui::views::PaintedView* tile : page()->tiles()) {
        EXPECT_TRUE(tile->isVisible()) << tile->name().toStdString();
    }

    load("bert-base-uncased");
    EXPECT_EQ(page()->shownTiles(),
              (std::vector<ViewKind>{ViewKind::LayerStack, ViewKind::LayerWeights, ViewKind::Memory,
                                     ViewKind::AttentionMask, ViewKind::Derivation}));
    ASSERT_EQ(page()->notes().size(), 2);
    EXPECT_EQ(page()->notes()[0],
              QStringLiteral("%1 — %2").arg(
                  page()->tile(ViewKind::KvCache)->title(),
                  ui::qs(core::inapplicableReason(ViewKind::KvCache, m_window.bridge()->analysis()))));
    // Every shown tile is on the page, none overlapping.
    std::vector<QRect> rects;
    for (ViewKind kind : page()->shownTiles()) {
        const QRect rect = page()->tile(kind)->geometry();
        EXPECT_FALSE(rect.isEmpty());
        for (const QRect& other : rects) {
            EXPECT_FALSE(rect.intersects(other));
        }
        rects.push_back(rect);
    }
}

TEST_F(Overview, ALayerClickedInTheStackTileIsSelectedEverywhere) {
    m_window.resize(2560, 1440); // slabs a few pixels high are hard to hit, by mouse and by test
    QApplication::processEvents();
    load("deepseek-v3");
    auto* stack = dynamic_cast<ui::views::LayerStackView*>(page()->tile(ViewKind::LayerStack));
    ASSERT_NE(stack, nullptr);
    const ui::views::layout::LayerStackLayout placed = stack->layoutFor(QRectF(stack->rect()));
    ASSERT_FALSE(placed.columns.empty());
    const ui::views::layout::StackSlab& slab = placed.columns.front().slabs.at(1); // a dense layer
    QTest::mouseClick(stack, Qt::LeftButton, {}, slab.rect.center().toPoint());
    QApplication::processEvents();
    auto* full = dynamic_cast<ui::views::PaintedView*>(m_window.views().at(3));
    ASSERT_NE(full, nullptr);
    ASSERT_EQ(full->kind(), ViewKind::LayerStack);
    EXPECT_EQ(full->layerSelection()->layer(), slab.planIndex);
    for (ui::views::PaintedView* tile : page()->tiles()) {
        EXPECT_EQ(tile->layerSelection(), full->layerSelection()) << tile->name().toStdString();
    }
    // The forward-pass tile follows: the dense layer's section, core's words.
    const core::Analysis& a = m_window.bridge()->analysis();
    auto* step = dynamic_cast<ui::views::LayerStepView*>(page()->tile(ViewKind::Derivation));
    ASSERT_NE(step, nullptr);
    EXPECT_EQ(step->section().title, core::deriveLayerSection(a.config, a.plan, slab.planIndex).title);
    // Selecting elsewhere moves the tile's outline.
    full->layerSelection()->setLayer(40);
    EXPECT_EQ(step->section().title, core::deriveLayerSection(a.config, a.plan, 40).title);
    EXPECT_NE(step->section().title, core::deriveLayerSection(a.config, a.plan, 1).title);
}

TEST_F(Overview, EachTileOpensItsFullView) {
    for (ViewKind kind : page()->shownTiles()) {
        m_window.selectView(ViewKind::Overview);
        auto* open =
            page()->findChild<QToolButton*>(QStringLiteral("overview.open.%1").arg(ui::qs(core::toString(kind))));
        ASSERT_NE(open, nullptr) << core::toString(kind);
        open->click();
        ASSERT_NE(m_window.currentView(), nullptr);
        EXPECT_EQ(m_window.currentView()->kind(), kind);
    }
    m_window.selectView(ViewKind::Overview);
    QTest::mouseDClick(page()->tile(ViewKind::KvCache), Qt::LeftButton);
    EXPECT_EQ(m_window.currentView()->kind(), ViewKind::KvCache);
}

TEST_F(Overview, TheWillItRunTileShowsCoresAnswersAndSaysWhyWhenThereAreNone) {
    load("llama-3.1-8b");
    auto* tile = dynamic_cast<ui::views::WillItRunTile*>(page()->tile(ViewKind::Memory));
    ASSERT_NE(tile, nullptr);
    const auto keys = [](const std::vector<core::SummaryRow>& rows) {
        std::vector<std::string> out;
        for (const core::SummaryRow& row : rows) {
            out.push_back(row.key + "=" + row.value);
        }
        return out;
    };
    const core::Analysis& a = m_window.bridge()->analysis();
    EXPECT_EQ(keys(tile->rows()), keys(core::willItRunRows(a)));
    EXPECT_TRUE(tile->texts()[0].contains(ui::qs(core::servingStack(a).verdict))) << tile->texts()[0].toStdString();
    EXPECT_TRUE(tile->texts()[1].contains(ui::qs(core::allocatorLabel(a.kv.allocator))));
    EXPECT_TRUE(std::any_of(tile->rows().begin(), tile->rows().end(),
                            [](const core::SummaryRow& row) { return row.label.ends_with("(bound)"); }));
    // Under vLLM its concurrency comes first; an engine without a rule shows why and no figure.
    m_window.bridge()->edit(QStringLiteral("vllm"),
                            [](core::ModelConfig&, core::Scenario& s) { s.kvAllocator = core::KvAllocator::Vllm; });
    ASSERT_FALSE(tile->rows().empty());
    EXPECT_EQ(tile->rows().front().key, "vllm_max_concurrency");
    m_window.bridge()->edit(QStringLiteral("llama.cpp fp8"), [](core::ModelConfig&, core::Scenario& s) {
        s.kvAllocator = core::KvAllocator::LlamaCpp;
        s.kvDType = core::DType::FP8;
    });
    EXPECT_TRUE(tile->rows().empty());
    EXPECT_TRUE(tile->texts()[0].contains(QStringLiteral("no fp8"))) << tile->texts()[0].toStdString();
}

TEST_F(Overview, TheKvTileShowsCoresFiguresAndFollowsTheSliders) {
    load("llama-3.1-8b");
    auto* kv = dynamic_cast<ui::views::KvFitTile*>(page()->tile(ViewKind::KvCache));
    ASSERT_NE(kv, nullptr);
    auto expectCoresFigures = [&] {
        const core::Analysis& a = m_window.bridge()->analysis();
        const QStringList texts = kv->texts();
        EXPECT_TRUE(texts[0].contains(ui::views::bytesText(a.kv.totalBytes))) << texts[0].toStdString();
        EXPECT_TRUE(texts[2].contains(ui::qs(core::fitVerdict(a.devices)))) << texts[2].toStdString();
        EXPECT_TRUE(texts[2].contains(ui::qs(core::devicesLabel(a.scenario)))) << texts[2].toStdString();
        std::uint64_t sum = 0;
        for (const core::KvKindShare& share : kv->shares()) {
            sum += share.bytes;
        }
        EXPECT_EQ(sum, a.kv.totalBytes);
    };
    expectCoresFigures();
    const std::uint64_t before = m_window.bridge()->analysis().kv.totalBytes;
    m_window.bridge()->edit(QStringLiteral("kv heads"),
                            [](core::ModelConfig& c, core::Scenario&) { c.numKvHeads = 4; });
    EXPECT_EQ(m_window.bridge()->analysis().kv.totalBytes * 2, before); // 8 -> 4 KV heads
    expectCoresFigures();
}

/// Counts the paint events a widget receives.
class PaintCounter : public QObject {
public:
    explicit PaintCounter(QWidget* widget)
        : QObject(widget) {
        widget->installEventFilter(this);
    }
    int paints = 0;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        paints += event->type() == QEvent::Paint ? 1 : 0;
        return QObject::eventFilter(watched, event);
    }
};

TEST_F(Overview, OnlyTilesWhoseContentChangedRepaint) {
    load("mixtral-8x7b-v0.1");
    QApplication::processEvents();
    auto* masks = new PaintCounter(page()->tile(ViewKind::AttentionMask));
    auto* kv = new PaintCounter(page()->tile(ViewKind::KvCache));
    auto* stack = new PaintCounter(page()->tile(ViewKind::LayerStack));
    auto* weights = new PaintCounter(page()->tile(ViewKind::LayerWeights));
    // The hidden size changes the weights (and the stack's counts) but neither the masks nor the cache.
    m_window.bridge()->edit(QStringLiteral("hidden"),
                            [](core::ModelConfig& c, core::Scenario&) { c.hiddenSize = 5120; });
    QApplication::processEvents();
    EXPECT_EQ(masks->paints, 0);
    EXPECT_GT(stack->paints, 0);
    EXPECT_GT(weights->paints, 0);
    // The vocabulary changes the embeddings' count, which the stack tile cuts from its label, and
    // not the selected layer's weights: no pixel of either changes, so neither repaints (the stack
    // still shows what it draws afresh, checked below).
    const int stackPaints = stack->paints;
    const int weightPaints = weights->paints;
    m_window.bridge()->edit(QStringLiteral("vocab"),
                            [](core::ModelConfig& c, core::Scenario&) { c.vocabSize = 64000; });
    QApplication::processEvents();
    EXPECT_EQ(stack->paints, stackPaints);
    EXPECT_EQ(weights->paints, weightPaints);
    // More layers: the masks tile draws no layer list, so it stays; the stack redraws.
    const int maskPaints = masks->paints;
    const int stackBefore = stack->paints;
    m_window.bridge()->edit(QStringLiteral("layers"), [](core::ModelConfig& c, core::Scenario&) { c.numLayers = 40; });
    QApplication::processEvents();
    EXPECT_EQ(masks->paints, maskPaints);
    EXPECT_GT(stack->paints, stackBefore);
    // Twice the experts: a larger grid, and the sample token's experts routed again.
    m_window.bridge()->edit(QStringLiteral("experts"),
                            [](core::ModelConfig& c, core::Scenario&) { c.moe.numExperts = 16; });
    QApplication::processEvents();
    EXPECT_GT(weights->paints, weightPaints);
    const core::Analysis& a = m_window.bridge()->analysis();
    const auto* weightsTile = qobject_cast<ui::views::LayerWeightsView*>(page()->tile(ViewKind::LayerWeights));
    ASSERT_NE(weightsTile, nullptr);
    EXPECT_EQ(weightsTile->litExperts(), core::simulateRouting(a.config, a.plan, 0).tokens.front().chosen);
    const int kvPaints = kv->paints;
    // The sequence length changes the cache and the masks' pair counts.
    m_window.bridge()->edit(QStringLiteral("sequence"),
                            [](core::ModelConfig&, core::Scenario& s) { s.sequenceLength = 8192; });
    QApplication::processEvents();
    EXPECT_GT(masks->paints, 0);
    EXPECT_GT(kv->paints, kvPaints);
    EXPECT_EQ(shownApartFromDrawn(page()->tile(ViewKind::LayerStack)), 0);
}

/// How many pixels of `a` and `b` differ by more than `tolerance` in a colour channel (all of
/// them when the sizes differ).
qsizetype pixelsApart(const QImage& a, const QImage& b, int tolerance) {
    if (a.size() != b.size()) {
        return qsizetype(a.width()) * a.height();
    }
    qsizetype apart = 0;
    for (int y = 0; y < a.height(); ++y) {
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y);
            const QRgb q = b.pixel(x, y);
            const int largest = std::max({std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)),
                                          std::abs(qBlue(p) - qBlue(q)), std::abs(qAlpha(p) - qAlpha(q))});
            apart += largest > tolerance ? 1 : 0;
        }
    }
    return apart;
}

/// Records the region of each paint event a widget receives.
class PaintRegions : public QObject {
public:
    explicit PaintRegions(QWidget* widget)
        : QObject(widget) {
        widget->installEventFilter(this);
    }
    std::vector<QRegion> regions;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Paint) {
            regions.push_back(static_cast<QPaintEvent*>(event)->region());
        }
        return QObject::eventFilter(watched, event);
    }
};

qsizetype Overview::shownApartFromDrawn(ui::views::PaintedView* tile) {
    auto* open = page()->findChild<QToolButton*>(QStringLiteral("overview.open.%1").arg(tile->name()));
    EXPECT_NE(open, nullptr);
    QApplication::processEvents();
    if (open != nullptr) {
        open->hide(); // the page shows it again when it lays its tiles out
    }
    QApplication::processEvents();
    const QRect visible = tile->visibleRegion().boundingRect();
    QImage direct(tile->size(), QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&direct);
    static_cast<const ui::views::AnalysisView*>(tile)->render(painter, QRectF(tile->rect()));
    const QPoint at = tile->mapTo(&m_window, visible.topLeft());
    const QImage shown = m_window.screen()
                             ->grabWindow(m_window.winId(), at.x(), at.y(), visible.width(), visible.height())
                             .toImage()
                             .convertToFormat(QImage::Format_ARGB32_Premultiplied);
    return pixelsApart(shown, direct.copy(visible), 3);
}

void Overview::expectShownAsDrawnAfter(ui::views::PaintedView* tile, std::vector<ConfigEdit> edits,
                                       const ConfigEdit& restore) {
    const std::int64_t heads = m_window.bridge()->config().numHeads;
    edits.push_back([](core::ModelConfig& c) { c.numHeads = 0; });
    edits.push_back([heads, restore](core::ModelConfig& c) {
        c.numHeads = heads;
        if (restore) {
            restore(c);
        }
    });
    for (std::size_t i = 0; i < edits.size(); ++i) {
        m_window.bridge()->edit(QStringLiteral("edit"), [&](core::ModelConfig& c, core::Scenario&) { edits[i](c); });
        if (m_window.bridge()->analysis().valid) {
            EXPECT_EQ(shownApartFromDrawn(tile), 0) << "after edit " << i;
        }
    }
}

std::vector<QRegion> Overview::repaintsOf(QWidget* tile, const ConfigEdit& edit) {
    PaintRegions regions(tile);
    m_window.bridge()->edit(QStringLiteral("edit"), [&](core::ModelConfig& c, core::Scenario&) { edit(c); });
    QApplication::processEvents();
    return regions.regions;
}

TEST_F(Overview, TilesDrawnOnWorkersShowTheSamePixelsAsTilesDrawnOnTheGuiThread) {
    // The same edits twice, every tile repainting at each: first with every tile drawn on the GUI
    // thread, then with the frame workers. The window shows the same image (to 2 levels, below), and with
    // two cores or more the workers drew some of the tiles.
    ui::views::FramePool* pool = page()->framePool();
    auto run = [&](bool workers, quint64* copied) {
        for (ui::views::PaintedView* tile : page()->tiles()) {
            tile->setFramePool(workers ? pool : nullptr);
        }
        load("llama-3-8b");
        load("deepseek-v3");
        const quint64 before = pool->drawnOnWorkers();
        for (const std::int64_t hidden : {6144, 5120, 7168}) {
            m_window.bridge()->edit(QStringLiteral("edit"),
                                    [&](core::ModelConfig& c, core::Scenario&) { c.hiddenSize = hidden; });
            QApplication::processEvents();
        }
        m_window.bridge()->edit(QStringLiteral("edit"), [](core::ModelConfig& c, core::Scenario&) {
            c.numHeads = 96;
            c.moe.numExperts = 160;
        });
        QApplication::processEvents();
        *copied = pool->drawnOnWorkers() - before;
        // The page: the status bar shows how long the analysis took, which differs.
        const QPoint at = page()->mapTo(&m_window, QPoint(0, 0));
        return m_window.screen()
            ->grabWindow(m_window.winId(), at.x(), at.y(), page()->width(), page()->height())
            .toImage();
    };
    quint64 onGuiThread = 0;
    quint64 onWorkers = 0;
    const QImage drawnOnGuiThread = run(false, &onGuiThread);
    const QImage drawnOnWorkers = run(true, &onWorkers);
    EXPECT_EQ(onGuiThread, 0u);
    if (QThread::idealThreadCount() > 1) {
        EXPECT_GT(onWorkers, 0u);
    } else {
        EXPECT_EQ(onWorkers, 0u); // one core: no workers
    }
    // Within 2 levels of a channel: the forward-pass tile keeps a typeset block as an image from its
    // second draw on, and a tile drawn in frames draws a block fewer times than one drawn in every
    // paint event (an expose only copies the frame's image), so one may blend a block's glyphs
    // straight where the other copies its image.
    EXPECT_EQ(pixelsApart(drawnOnWorkers, drawnOnGuiThread, 2), 0);
}

TEST_F(Overview, TheStackTileRepaintsOnlyTheItemsThatChanged) {
    // After an edit the stack tile repaints only where its painted items changed (a label, a slab),
    // and what the window shows still agrees with the tile drawn afresh, to the pixel: one stale
    // run label ("11.5B each" left for "11.6B") differs by over a hundred. Two stacks with
    // cross-attention (T5), a hybrid, a deep MoE.
    for (const char* id : {"deepseek-v3", "t5-large", "qwen3-next-80b-a3b", "llama-3.1-405b"}) {
        SCOPED_TRACE(id);
        load(id);
        auto* tile = page()->tile(ViewKind::LayerStack);
        ASSERT_TRUE(tile->isVisible());
        EXPECT_EQ(shownApartFromDrawn(tile), 0);
        const std::vector<QRegion> regions = repaintsOf(tile, [](core::ModelConfig& c) { c.hiddenSize += 256; });
        // None where no pixel changes (T5's tile shows no count the width moves).
        ASSERT_LE(regions.size(), 1u);
        // A uniform stack changes its boxes' and runs' labels, and repaints the stack, not the tile.
        if (std::string_view(id) == "deepseek-v3" || std::string_view(id) == "llama-3.1-405b") {
            ASSERT_EQ(regions.size(), 1u);
            const QRect repainted = regions.front().boundingRect();
            EXPECT_LT(repainted.width() * repainted.height(), tile->width() * tile->height() * 3 / 4);
        }
        EXPECT_EQ(shownApartFromDrawn(tile), 0);
        expectShownAsDrawnAfter(tile, {[](core::ModelConfig& c) { c.vocabSize += 1000; },
                                       [](core::ModelConfig& c) { c.numLayers += 3; },
                                       [](core::ModelConfig& c) {
                                           c.numLayers -= 5;
                                       }});
        tile->layerSelection()->setLayer(1);
        EXPECT_EQ(shownApartFromDrawn(tile), 0);
    }
}

TEST_F(Overview, TheRoutingTileRepaintsTheTotalsAloneWhenTheWidthMoves) {
    // The simulated router does not depend on the hidden size: a hidden-size edit changes only the
    // model's totals under the heat map, and only they repaint. Every other edit, through an
    // invalid config and back, leaves the window showing what the tile draws afresh, to the pixel.
    m_window.resize(2560, 1440); // tall tiles: the totals show
    int withTotals = 0;
    for (const char* id : {"deepseek-v3", "mixtral-8x7b-v0.1", "qwen3-30b-a3b"}) {
        SCOPED_TRACE(id);
        load(id);
        auto* tile = page()->tile(ViewKind::MoeRouting);
        ASSERT_TRUE(tile->isVisible());
        EXPECT_EQ(shownApartFromDrawn(tile), 0);
        const std::vector<QRegion> regions = repaintsOf(tile, [](core::ModelConfig& c) { c.hiddenSize += 256; });
        const ui::views::layout::RoutingLayout placed =
            static_cast<const ui::views::MoeRoutingView*>(tile)->layoutFor(QRectF(tile->rect()));
        // A short tile shows no totals: then nothing it shows changed.
        EXPECT_EQ(regions.empty(), placed.totals.isEmpty());
        withTotals += placed.totals.isEmpty() ? 0 : 1;
        for (const QRegion& region : regions) {
            EXPECT_FALSE(region.intersects(placed.grid.toRect())) << "the heat map did not change";
            EXPECT_TRUE(region.intersects(placed.totals.toRect())) << "the totals did";
        }
        EXPECT_EQ(shownApartFromDrawn(tile), 0);
        const std::int64_t experts = m_window.bridge()->config().moe.numExperts;
        expectShownAsDrawnAfter(tile,
                                {[](core::ModelConfig& c) { c.moe.topK += 1; },
                                 [](core::ModelConfig& c) {
                                     c.moe.numExperts *= 2;
                                 }},
                                [experts](core::ModelConfig& c) { c.moe.numExperts = experts; });
    }
    EXPECT_GT(withTotals, 0);
}

TEST_F(Overview, TheWeightsTileRepaintsItsHeaderAloneWhenTheLayerCountMoves) {
    // More layers rename the selected layer ("Layer 3 of 0–63") and leave its weights alone: only
    // the header repaints. Every edit leaves the window showing what the tile draws afresh.
    for (const char* id : {"deepseek-v3", "mixtral-8x7b-v0.1", "llama-3-8b", "t5-large"}) {
        SCOPED_TRACE(id);
        load(id);
        auto* tile = page()->tile(ViewKind::LayerWeights);
        ASSERT_TRUE(tile->isVisible());
        EXPECT_EQ(shownApartFromDrawn(tile), 0);
        const std::vector<QRegion> regions = repaintsOf(tile, [](core::ModelConfig& c) { c.numLayers += 2; });
        const ui::views::layout::WeightLayout placed =
            static_cast<const ui::views::LayerWeightsView*>(tile)->layoutFor(QRectF(tile->rect()));
        for (const QRegion& region : regions) {
            for (const ui::views::layout::PlacedGroup& group : placed.groups) {
                // The header's pixels end a pixel into the frames' top edge, no further.
                EXPECT_LE(region.intersected(group.frame.toAlignedRect()).boundingRect().height(), 2)
                    << "the weights did not change";
            }
        }
        EXPECT_EQ(shownApartFromDrawn(tile), 0);
        expectShownAsDrawnAfter(tile, {[](core::ModelConfig& c) { c.hiddenSize += 512; },
                                       [](core::ModelConfig& c) { c.moe.topK += c.moe.numExperts > 2 ? 1 : 0; },
                                       [](core::ModelConfig& c) {
                                           c.intermediateSize += 1024;
                                       }});
        tile->layerSelection()->setLayer(m_window.bridge()->analysis().plan.layers.size() - 1);
        EXPECT_EQ(shownApartFromDrawn(tile), 0);
    }
}

TEST_F(Overview, TheKvTileRepaintsTheDevicesAloneWhenTheWeightsMove) {
    // Wider FFNs (the experts' too) change the weights, not the cache: the headline, the detail and
    // the cache bar keep their pixels, the devices' lines below them repaint.
    for (const char* id : {"llama-3-8b", "deepseek-v3", "mixtral-8x7b-v0.1"}) {
        SCOPED_TRACE(id);
        load(id);
        auto* tile = static_cast<ui::views::KvFitTile*>(page()->tile(ViewKind::KvCache));
        ASSERT_TRUE(tile->isVisible());
        EXPECT_EQ(shownApartFromDrawn(tile), 0);
        const QRect bar = tile->cacheBar(QRectF(tile->rect())).toAlignedRect();
        const std::vector<QRegion> regions = repaintsOf(tile, [](core::ModelConfig& c) {
            c.intermediateSize *= 2;
            c.moe.expertIntermediateSize *= 2;
        });
        ASSERT_FALSE(regions.empty()) << "the weights changed";
        for (const QRegion& region : regions) {
            EXPECT_GT(region.boundingRect().top(), bar.bottom()) << "the cache did not change";
        }
        EXPECT_EQ(shownApartFromDrawn(tile), 0);
        expectShownAsDrawnAfter(tile, {[](core::ModelConfig& c) { c.hiddenSize += 512; },
                                       [](core::ModelConfig& c) { c.numLayers += 3; },
                                       [](core::ModelConfig& c) {
                                           c.numKvHeads = 1;
                                       }});
    }
}

TEST_F(Overview, TheForwardPassTileDrawsItsKeptBlocksAsItDrawsTheDocument) {
    // On screen the tile draws a new block directly and keeps one drawn again as an image, and after
    // an edit repaints only where blocks changed; painted into an image of its own, it draws the
    // whole document directly. What the window shows (its backing store) agrees with the direct
    // drawing for every family's maths (tall fractions, radicals, cases), before and after an edit,
    // to the rounding of antialiased edges (a few levels of 255) and of a glyph or two whose
    // position lies on the boundary of Qt's quarter-pixel steps, so that the window's coordinates
    // round it into the next one (under 150 pixels). A block left stale differs in thousands.
    for (const char* id : {"deepseek-v3", "llama-3-8b", "t5-large", "qwen3-next-80b-a3b", "gpt-oss-120b"}) {
        SCOPED_TRACE(id);
        load(id);
        auto* tile = page()->tile(ViewKind::Derivation);
        ASSERT_TRUE(tile->isVisible());
        auto difference = [&] {
            return shownApartFromDrawn(tile);
        };
        EXPECT_LE(difference(), 150);
        const std::vector<QRegion> regions = repaintsOf(tile, [](core::ModelConfig& c) {
            c.headDim = c.effectiveHeadDim(); // twice the heads at the same width: the attention's maths change
            c.numHeads *= 2;
        });
        // Qwen3-Next's layer 0 is linear attention: the heads leave its maths, and the tile, alone.
        if (std::string_view(id) != "qwen3-next-80b-a3b") {
            ASSERT_FALSE(regions.empty());
            const QRect repainted = regions.front().boundingRect(); // the edit's repaint
            EXPECT_LT(repainted.height() * repainted.width(), tile->width() * tile->height())
                << "the feed-forward blocks did not change and were not repainted";
        } else {
            EXPECT_TRUE(regions.empty());
        }
        EXPECT_LE(difference(), 150);
        // Through an invalid config (the overview then hides its tiles) and back.
        const std::int64_t heads = m_window.bridge()->config().numHeads;
        m_window.bridge()->edit(QStringLiteral("heads"), [](core::ModelConfig& c, core::Scenario&) { c.numHeads = 0; });
        ASSERT_FALSE(m_window.bridge()->analysis().valid);
        QApplication::processEvents();
        EXPECT_FALSE(tile->isVisible());
        m_window.bridge()->edit(QStringLiteral("heads"),
                                [heads](core::ModelConfig& c, core::Scenario&) { c.numHeads = heads; });
        EXPECT_LE(difference(), 150);
        page()->findChild<QToolButton*>(QStringLiteral("overview.open.derivation"))->show();
    }
}

TEST_F(Overview, RendersForScreenshotsWithEveryTileDrawn) {
    load("mixtral-8x7b-v0.1");
    const QImage image = ui::exports::renderImage(*page(), {QSize(1600, 900), 1.0});
    ASSERT_FALSE(image.isNull());
    // Each tile fills its cell with the base colour; the gaps between them show the window colour.
    const ui::views::layout::OverviewLayout grid = page()->layoutFor(QRectF(0, 0, 1600, 900));
    ASSERT_EQ(grid.tiles.size(), 7u);
    const QRgb window = page()->palette().color(QPalette::Window).rgb();
    int drawn = 0;
    for (const QRectF& tile : grid.tiles) {
        drawn += image.pixel(tile.toAlignedRect().topLeft() + QPoint(3, 3)) != window ? 1 : 0;
    }
    EXPECT_EQ(drawn, 7);
}

} // namespace
} // namespace archplay::test
