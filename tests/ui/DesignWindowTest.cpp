// SPDX-License-Identifier: GPL-3.0-or-later
// Tools > Design driven as a user drives it: the compare table's differences are those of the two
// analyses, a sweep point is the analysis of the edited config and follows the editor live, a search
// result loads into the editor as one undo step, a head configuration applies as one undo step, and
// every export writes what core wrote.
#include "ui/design/DesignWindow.h"

#include "core/analysis/Analysis.h"
#include "core/analysis/DesignFigures.h"
#include "core/design/Compare.h"
#include "core/io/Presets.h"
#include "ui/design/ComparePage.h"
#include "ui/design/HeadsPage.h"
#include "ui/design/SearchPage.h"
#include "ui/design/SweepPage.h"
#include "ui/session/ModelBridge.h"
#include "ui/window/MainWindow.h"

#include <QAbstractButton>
#include <QAction>
#include <QFile>
#include <QImage>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <qcustomplot.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace archplay::ui {
namespace {

class Design : public ::testing::Test {
protected:
    void SetUp() override {
        m_window.resize(1280, 800);
        m_window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&m_window));
        ASSERT_TRUE(bridge()->loadPreset(QStringLiteral("llama-3-8b")));
    }
    session::ModelBridge* bridge() const { return m_window.bridge(); }
    design::DesignWindow* open(design::DesignWindow::Page page) {
        design::DesignWindow* design = m_window.showDesign();
        design->showPage(page);
        EXPECT_TRUE(QTest::qWaitForWindowExposed(design));
        return design;
    }
    static core::Analysis analyzeWith(core::ModelConfig config, const core::Scenario& scenario) {
        return core::analyze(config, scenario);
    }

    window::MainWindow m_window{window::MainWindowOptions{false}};
};

TEST_F(Design, TheToolsMenuOpensItWithCtrlD) {
    QAction* action = nullptr;
    for (QAction* candidate : m_window.findChildren<QAction*>()) {
        if (candidate->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_D)) {
            action = candidate;
        }
    }
    ASSERT_NE(action, nullptr);
    action->trigger();
    auto* design = m_window.findChild<design::DesignWindow*>();
    ASSERT_NE(design, nullptr);
    EXPECT_TRUE(design->isVisible());
}

TEST_F(Design, CompareShowsTheDifferenceOfTheTwoAnalysesAndExportsCoresTable) {
    design::ComparePage* page = open(design::DesignWindow::Page::Compare)->comparePage();
    page->pinCurrentAsBaseline();
    const core::Analysis baseline = bridge()->analysis();
    bridge()->edit(QStringLiteral("KV heads"), [](core::ModelConfig& c, core::Scenario&) { c.numKvHeads = 2; });
    const core::Analysis edited = bridge()->analysis();
    const core::Comparison& comparison = page->comparison();
    ASSERT_EQ(comparison.columns.size(), 2u);
    const core::CompareRow& kv = comparison.figures[std::size_t(core::DesignFigure::KvBytesPerToken)];
    ASSERT_TRUE(kv.cells[1].difference.has_value());
    EXPECT_EQ(*kv.cells[1].difference, double(edited.kv.bytesPerToken) - double(baseline.kv.bytesPerToken));
    EXPECT_LT(*kv.cells[1].difference, 0);
    const core::CompareRow& total = comparison.figures[std::size_t(core::DesignFigure::TotalParams)];
    EXPECT_EQ(*total.cells[1].difference, double(edited.params.total) - double(baseline.params.total));
    // The table shows core's text: find the KV row and its difference cell.
    QTableWidget* table = page->figuresTable();
    bool found = false;
    for (int row = 0; row < table->rowCount(); ++row) {
        if (table->item(row, 0)->text().toStdString() == kv.label) {
            EXPECT_EQ(table->item(row, 3)->text().toStdString(), kv.cells[1].differenceText);
            found = true;
        }
    }
    EXPECT_TRUE(found);

    EXPECT_EQ(page->tableBytes(core::ExportFormat::Csv).toStdString(), core::compareCsv(comparison));
    EXPECT_EQ(page->tableBytes(core::ExportFormat::Latex).toStdString(), core::compareLatex(comparison));
}

TEST_F(Design, ExportsWriteCoresTextAndRealPictures) {
    design::DesignWindow* window = open(design::DesignWindow::Page::Compare);
    design::ComparePage* page = window->comparePage();
    page->pinCurrentAsBaseline();
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    window->setChooseFile(
        [&](const QString&, const QString& suggested, const QString&) { return dir.filePath(suggested); });
    QStringList messages;
    QObject::connect(window, &design::DesignWindow::message, window, [&](const QString& text) { messages << text; });
    auto trigger = [&](const QString& text) {
        for (QAction* action : page->findChildren<QAction*>()) {
            if (action->text() == text) {
                action->trigger();
                return true;
            }
        }
        return false;
    };
    ASSERT_TRUE(trigger(QStringLiteral("Table as CSV…")));
    QFile csv(dir.filePath(QStringLiteral("compare.csv")));
    ASSERT_TRUE(csv.open(QIODevice::ReadOnly)) << messages.join(QLatin1Char('\n')).toStdString();
    EXPECT_EQ(csv.readAll().toStdString(), core::compareCsv(page->comparison()));
    ASSERT_TRUE(trigger(QStringLiteral("KV cache chart as PNG…")));
    QImage image(dir.filePath(QStringLiteral("compare-kv.png")));
    EXPECT_EQ(image.size(), QSize(1600, 1000));
    ASSERT_TRUE(trigger(QStringLiteral("Parameters chart as SVG…")));
    QFile svg(dir.filePath(QStringLiteral("compare-params.svg")));
    ASSERT_TRUE(svg.open(QIODevice::ReadOnly));
    const QByteArray svgText = svg.readAll();
    EXPECT_TRUE(svgText.contains("<svg"));
    // The caption names the models and the scenario.
    EXPECT_TRUE(svgText.contains("Baseline (pinned)"));
    ASSERT_TRUE(trigger(QStringLiteral("Parameters chart as PDF…")));
    QFile pdf(dir.filePath(QStringLiteral("compare-params.pdf")));
    ASSERT_TRUE(pdf.open(QIODevice::ReadOnly));
    EXPECT_TRUE(pdf.readAll().startsWith("%PDF"));
}

TEST_F(Design, AHostileFileIsRefusedNamingTheFieldAndTheColumnsStay) {
    design::DesignWindow* window = open(design::DesignWindow::Page::Compare);
    design::ComparePage* page = window->comparePage();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("config.json"));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(R"({"model_type": "llama", "hidden_size": -4096, "num_hidden_layers": 2})");
    file.close();
    page->setChooseFile([&](const QString&, const QString&, const QString&) { return path; });
    QStringList messages;
    QObject::connect(page, &design::ComparePage::message, page, [&](const QString& text) { messages << text; });
    for (QAbstractButton* button : page->findChildren<QAbstractButton*>()) {
        if (button->text() == QStringLiteral("Add file…")) {
            button->click();
        }
    }
    ASSERT_EQ(messages.size(), 1);
    EXPECT_TRUE(messages.front().contains(QStringLiteral("hidden_size"))) << messages.front().toStdString();
    EXPECT_EQ(page->entries().size(), 1u);
}

TEST_F(Design, CompareTakesPresetsUpToFour) {
    design::ComparePage* page = open(design::DesignWindow::Page::Compare)->comparePage();
    for (const char* id : {"mixtral-8x7b-v0.1", "deepseek-v3", "qwen3-8b"}) {
        const core::Preset* preset = core::findPreset(id);
        ASSERT_NE(preset, nullptr) << id;
        EXPECT_TRUE(page->addEntry({QString::fromUtf8(id), *core::presetConfig(*preset), false}));
    }
    EXPECT_EQ(page->comparison().columns.size(), 4u);
    EXPECT_FALSE(page->addEntry({QStringLiteral("one too many"), bridge()->config(), false}));
    EXPECT_EQ(page->comparison().columns.size(), 4u);
    // The parameters chart has a bar series per config.
    EXPECT_EQ(page->componentsPlot()->plottableCount(), 4);
    page->makeBaseline(2);
    EXPECT_EQ(page->comparison().columns.front().name, "deepseek-v3");
}

TEST_F(Design, SweepPointsAreSingleAnalysesAndFollowTheEditor) {
    design::SweepPage* page = open(design::DesignWindow::Page::Sweep)->sweepPage();
    ASSERT_TRUE(page->setField(0, QStringLiteral("num_hidden_layers"), 1, 64, 64, false));
    const core::SweepResult& result = page->result();
    ASSERT_EQ(result.points.size(), 64u);
    core::ModelConfig twelve = bridge()->config();
    twelve.numLayers = 12;
    const core::Analysis expected = core::analyze(twelve, bridge()->scenario());
    EXPECT_EQ(result.points[11].value, 12);
    EXPECT_EQ(*result.points[11].figures[std::size_t(core::DesignFigure::TotalParams)], double(expected.params.total));
    ASSERT_TRUE(result.currentIndex.has_value());
    EXPECT_EQ(result.points[*result.currentIndex].value, 32);

    // Another slider moves: the sweep follows at once.
    bridge()->edit(QStringLiteral("hidden"), [](core::ModelConfig& c, core::Scenario&) { c.intermediateSize = 8192; });
    core::ModelConfig narrower = bridge()->config();
    narrower.numLayers = 12;
    EXPECT_EQ(*page->result().points[11].figures[std::size_t(core::DesignFigure::TotalParams)],
              double(core::analyze(narrower, bridge()->scenario()).params.total));
    EXPECT_GT(page->linePlot()->graphCount(), 0);
    EXPECT_EQ(page->linePlot()->graph(0)->dataCount(), 64);
    // The data export is the sweep shown: 64 points, the 12-layer one the edited config's count.
    const auto json = nlohmann::json::parse(page->dataBytes(core::ExportFormat::Json).toStdString());
    ASSERT_EQ(json.at("points").size(), 64u);
    EXPECT_EQ(json.at("points").at(11).at("total_params").get<double>(),
              double(core::analyze(narrower, bridge()->scenario()).params.total));
}

TEST_F(Design, TwoFieldSweepMapsAFigureWithIsoLinesAndPublishedModels) {
    design::SweepPage* page = open(design::DesignWindow::Page::Sweep)->sweepPage();
    page->setTwoFields(true);
    page->setGridFigure(core::DesignFigure::TotalParams);
    ASSERT_TRUE(page->setField(0, QStringLiteral("num_hidden_layers"), 8, 96, 12, false));
    ASSERT_TRUE(page->setField(1, QStringLiteral("hidden_size"), 1024, 8192, 8, false));
    const core::SweepGrid& grid = page->grid();
    EXPECT_TRUE(grid.diagnostics.empty());
    EXPECT_EQ(grid.cells.size(), grid.xValues.size() * grid.yValues.size());
    EXPECT_FALSE(grid.isoLines.empty());
    EXPECT_FALSE(grid.presets.empty());
    EXPECT_GT(page->gridPlot()->plottableCount(), 1);
}

TEST_F(Design, ASearchResultLoadsAsOneUndoStep) {
    design::SearchPage* page = open(design::DesignWindow::Page::Search)->searchPage();
    QSignalSpy searched(page, &design::SearchPage::searched);
    page->setTargetParams(7'000'000'000);
    page->search(); // on a worker thread: the window goes on while it runs
    ASSERT_TRUE(searched.wait(20000));
    EXPECT_FALSE(page->searching());
    ASSERT_FALSE(page->result().candidates.empty());
    const core::TargetCandidate& best = page->result().candidates.front();
    EXPECT_LE(std::abs(double(best.params) - 7e9), 0.05 * 7e9);
    EXPECT_EQ(page->table()->rowCount(), int(page->result().candidates.size()));
    const core::ModelConfig before = bridge()->config();
    const int steps = bridge()->undoStack()->count();
    page->loadCandidate(0);
    EXPECT_EQ(bridge()->undoStack()->count(), steps + 1);
    EXPECT_EQ(bridge()->analysis().params.total, best.params);
    bridge()->undoStack()->undo();
    EXPECT_EQ(bridge()->config(), before);

    // Selecting a row shows that design in every view, one step; selecting it again adds none.
    QTableWidget* table = page->table();
    const int index = table->item(1, 0)->data(Qt::UserRole).toInt();
    table->selectRow(1);
    EXPECT_EQ(bridge()->analysis().params.total, page->result().candidates[std::size_t(index)].params);
    EXPECT_EQ(bridge()->undoStack()->count(), steps + 1);
    table->clearSelection();
    table->selectRow(1);
    EXPECT_EQ(bridge()->undoStack()->count(), steps + 1);
}

TEST_F(Design, ANewSearchStopsTheOneRunningAndOnlyTheLastIsShown) {
    design::SearchPage* page = open(design::DesignWindow::Page::Search)->searchPage();
    QSignalSpy searched(page, &design::SearchPage::searched);
    page->setKind(1); // a mixture of experts: hundreds of milliseconds
    page->setTargetParams(20'000'000'000);
    page->setTargetParams(30'000'000'000);
    ASSERT_TRUE(searched.wait(60000));
    QTest::qWait(200);
    EXPECT_EQ(searched.count(), 1);
    ASSERT_FALSE(page->result().candidates.empty());
    for (const core::TargetCandidate& candidate : page->result().candidates) {
        EXPECT_LE(std::abs(double(candidate.params) - 30e9), 0.05 * 30e9);
        EXPECT_GT(candidate.shape.numExperts, 0);
    }
}

TEST_F(Design, AHeadConfigurationAppliesAsOneUndoStep) {
    design::HeadsPage* page = open(design::DesignWindow::Page::Heads)->headsPage();
    ASSERT_FALSE(page->list().configs.empty());
    const std::vector<core::HeadShape> shown = page->shownShapes();
    ASSERT_GT(shown.size(), 1u);
    QTableWidget* table = page->table();
    ASSERT_EQ(table->rowCount(), int(shown.size()));
    // Pick a row that is not the current split, apply it, and undo it.
    const core::ModelConfig before = bridge()->config();
    int row = 0;
    while (row < table->rowCount() && table->item(row, 0)->font().bold()) {
        ++row;
    }
    ASSERT_LT(row, table->rowCount());
    const qint64 heads = table->item(row, 0)->text().remove(QLatin1Char(',')).toLongLong();
    const qint64 kvHeads = table->item(row, 2)->text().remove(QLatin1Char(',')).toLongLong();
    const int steps = bridge()->undoStack()->count();
    page->applyRow(row);
    EXPECT_EQ(bridge()->config().numHeads, heads);
    EXPECT_EQ(bridge()->config().numKvHeads, kvHeads);
    EXPECT_EQ(bridge()->undoStack()->count(), steps + 1);
    bridge()->undoStack()->undo();
    EXPECT_EQ(bridge()->config(), before);
}

} // namespace
} // namespace archplay::ui
