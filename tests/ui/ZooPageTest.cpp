// SPDX-License-Identifier: GPL-3.0-or-later
// The zoo page of Tools > Design: every preset counted, the user's folders added with the reasons of
// what cannot be counted, core's filter and sort, a row loaded as one undo step, the current config
// marked on the plots.
#include "ui/design/ZooPage.h"

#include "TestPaths.h"
#include "core/io/Presets.h"
#include "ui/design/ComparePage.h"
#include "ui/design/DesignWindow.h"
#include "ui/session/ModelBridge.h"
#include "ui/theme/Theme.h"
#include "ui/window/MainWindow.h"

#include <QAbstractItemModelTester>
#include <QDate>
#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <qcustomplot.h>

#include <gtest/gtest.h>

#include <numeric>
#include <set>

namespace archplay::ui {
namespace {

class Zoo : public ::testing::Test {
protected:
    void SetUp() override {
        m_window.resize(1280, 800);
        m_window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&m_window));
        ASSERT_TRUE(m_window.bridge()->loadPreset(QStringLiteral("llama-3-8b")));
        design::DesignWindow* design = m_window.showDesign();
        design->showPage(design::DesignWindow::Page::Zoo);
        ASSERT_TRUE(QTest::qWaitForWindowExposed(design));
        m_page = design->zooPage();
        m_page->clearAdded();
    }
    void TearDown() override { m_page->clearAdded(); }

    window::MainWindow m_window{window::MainWindowOptions{false}};
    design::ZooPage* m_page = nullptr;
};

TEST_F(Zoo, EveryPresetIsARowCountedExactly) {
    const design::ZooTableModel* model = m_page->model();
    ASSERT_EQ(model->rows().size(), core::builtinPresets().size());
    for (const core::ZooRow& row : model->rows()) {
        EXPECT_EQ(row.status, core::ZooStatus::Exact) << row.id << ": " << row.reason;
        if (row.publishedParams) {
            EXPECT_TRUE(row.matchesPublished) << row.id;
        }
    }
}

TEST_F(Zoo, TheFilterIsCoresAndABadOneSaysWhichClause) {
    EXPECT_TRUE(m_page->setFilterText(QStringLiteral("kind=moe,total_params>100B")).ok());
    const design::ZooShownRows* model = m_page->shown();
    ASSERT_GT(model->rowCount(), 0);
    for (int i = 0; i < model->rowCount(); ++i) {
        EXPECT_TRUE(model->rowAt(i).kind == "moe" || model->rowAt(i).kind == "hybrid+moe") << model->rowAt(i).id;
        EXPECT_GT(model->rowAt(i).totalParams, 100'000'000'000u);
    }
    const int shown = model->rowCount();
    const core::Status refused = m_page->setFilterText(QStringLiteral("total_params>7Q"));
    EXPECT_NE(refused.error().find("7Q"), std::string::npos) << refused.error();
    EXPECT_EQ(model->rowCount(), shown); // the filter in force stays
}

TEST_F(Zoo, SortingPutsTheLargestFirst) {
    m_page->table()->sortByColumn(int(core::ZooColumn::TotalParams), Qt::DescendingOrder);
    const design::ZooShownRows* model = m_page->shown();
    for (int i = 1; i < model->rowCount(); ++i) {
        EXPECT_GE(model->rowAt(i - 1).totalParams, model->rowAt(i).totalParams) << i;
    }
}

TEST_F(Zoo, TheTableShowsCoresOrderInBothDirections) {
    design::ZooShownRows* shown = m_page->shown();
    for (const core::ZooColumn column :
         {core::ZooColumn::Name, core::ZooColumn::PublishedParams, core::ZooColumn::Released}) {
        for (const bool descending : {false, true}) {
            m_page->table()->sortByColumn(int(column), descending ? Qt::DescendingOrder : Qt::AscendingOrder);
            std::vector<std::size_t> expected(m_page->model()->rows().size());
            std::iota(expected.begin(), expected.end(), std::size_t(0));
            core::sortZoo(m_page->model()->rows(), expected, column, descending);
            EXPECT_EQ(shown->order(), expected) << int(column) << (descending ? " descending" : " ascending");
        }
    }
}

// The selection is the user's choice of models: a sort by any column, either way, and a filter that
// keeps them must leave it on the same models, and Load and Compare act on them.
TEST_F(Zoo, ASortOrAFilterKeepsTheSelectionOnTheSameModels) {
    QTableView* table = m_page->table();
    design::ZooShownRows* shown = m_page->shown();
    const auto selectedIds = [&] {
        std::set<std::string> ids;
        for (const QModelIndex& index : table->selectionModel()->selectedRows()) {
            ids.insert(shown->rowAt(index.row()).id);
        }
        return ids;
    };
    const std::set<std::string> chosen{"mixtral-8x7b-v0.1", "llama-3-8b"};
    table->sortByColumn(int(core::ZooColumn::TotalParams), Qt::AscendingOrder);
    for (const std::string& id : chosen) {
        for (int row = 0; row < shown->rowCount(); ++row) {
            if (shown->rowAt(row).id == id) {
                table->selectionModel()->select(shown->index(row, 0),
                                                QItemSelectionModel::Select | QItemSelectionModel::Rows);
            }
        }
    }
    ASSERT_EQ(selectedIds(), chosen);
    for (int column = 0; column < shown->columnCount(); ++column) {
        for (const Qt::SortOrder order : {Qt::DescendingOrder, Qt::AscendingOrder}) {
            table->sortByColumn(column, order);
            ASSERT_EQ(selectedIds(), chosen)
                << "column " << column << (order == Qt::DescendingOrder ? " descending" : "");
        }
    }
    ASSERT_TRUE(m_page->setFilterText(QStringLiteral("total_params>1B")).ok());
    ASSERT_EQ(selectedIds(), chosen);
    // Compare adds the chosen models; Load takes the first selected row, whichever it is now.
    const design::ComparePage* compare = m_window.showDesign()->comparePage();
    const std::size_t compared = compare->entries().size();
    m_page->findChild<QPushButton*>(QStringLiteral("design.zoo.compare"))->click();
    std::set<QString> added;
    for (std::size_t i = compared; i < compare->entries().size(); ++i) {
        added.insert(compare->entries()[i].name);
    }
    std::set<QString> chosenNames;
    for (const core::ZooRow& row : m_page->model()->rows()) {
        if (chosen.contains(row.id)) {
            chosenNames.insert(QString::fromStdString(row.name));
        }
    }
    EXPECT_EQ(added, chosenNames);
    m_page->findChild<QPushButton*>(QStringLiteral("design.zoo.load"))->click();
    EXPECT_TRUE(chosen.contains(m_window.bridge()->origin().presetId.toStdString()))
        << m_window.bridge()->origin().presetId.toStdString();
}

// Every item model of the zoo, under Qt's own checker, through a filled, filtered, sorted, refiltered
// and emptied life: a broken signal or index aborts the test run.
TEST_F(Zoo, ItsItemModelsPassQtsModelTester) {
    QAbstractItemModelTester rows(m_page->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester shown(m_page->shown(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    ASSERT_TRUE(m_page->setFilterText(QStringLiteral("kind=moe")).ok());
    m_page->table()->sortByColumn(int(core::ZooColumn::Layers), Qt::DescendingOrder);
    ASSERT_TRUE(m_page->setFilterText(QStringLiteral("total_params<10B")).ok());
    m_page->table()->sortByColumn(int(core::ZooColumn::Name), Qt::AscendingOrder);
    ASSERT_TRUE(m_page->setFilterText(QStringLiteral("total_params>1000T")).ok());
    EXPECT_EQ(m_page->shown()->rowCount(), 0);
    ASSERT_TRUE(m_page->setFilterText(QString()).ok());
    EXPECT_EQ(std::size_t(m_page->shown()->rowCount()), core::builtinPresets().size());
    m_page->clearAdded(); // the rows made again: a reset under the sort in force
    EXPECT_EQ(std::size_t(m_page->shown()->rowCount()), core::builtinPresets().size());
}

TEST_F(Zoo, AFolderAddsItsConfigsAndSaysWhyOthersAreNotCounted) {
    QTemporaryDir dir;
    ASSERT_TRUE(QDir(dir.path()).mkpath(QStringLiteral("good/nested")));
    ASSERT_TRUE(QDir(dir.path()).mkpath(QStringLiteral("bad")));
    ASSERT_TRUE(QFile::copy(QDir(QString::fromUtf8(test::kPresetDir)).filePath(QStringLiteral("llama-3-8b.json")),
                            dir.filePath(QStringLiteral("good/nested/config.json"))));
    QFile bad(dir.filePath(QStringLiteral("bad/config.json")));
    ASSERT_TRUE(bad.open(QIODevice::WriteOnly));
    bad.write(R"({"model_type": "llama", "hidden_size": -4096})");
    bad.close();
    const std::size_t presets = core::builtinPresets().size();
    m_page->addFolder(dir.path(), false);
    // Read on another thread, behind a progress row: the window keeps working meanwhile.
    EXPECT_TRUE(m_page->reading());
    ASSERT_TRUE(QTest::qWaitFor([&] { return !m_page->reading(); }, 20000));
    const design::ZooTableModel* model = m_page->model();
    ASSERT_EQ(model->rows().size(), presets + 2);
    int counted = 0;
    int refused = 0;
    for (const core::ZooRow& row : model->rows()) {
        if (row.origin != core::ZooOrigin::File) {
            continue;
        }
        if (row.counted()) {
            ++counted;
            EXPECT_EQ(row.totalParams, 8'030'261'248u);
        } else {
            ++refused;
            EXPECT_NE(row.reason.find("hidden_size"), std::string::npos) << row.reason;
        }
    }
    EXPECT_EQ(counted, 1);
    EXPECT_EQ(refused, 1);
}

TEST_F(Zoo, AFolderIsReadBehindAProgressRowThatCancels) {
    QTemporaryDir dir;
    const QString preset = QDir(QString::fromUtf8(test::kPresetDir)).filePath(QStringLiteral("llama-3-8b.json"));
    constexpr int kFiles = 1000;
    for (int i = 0; i < kFiles; ++i) {
        const QString folder = QStringLiteral("m%1").arg(i, 4, 10, QLatin1Char('0'));
        ASSERT_TRUE(QDir(dir.path()).mkpath(folder));
        ASSERT_TRUE(QFile::copy(preset, dir.filePath(folder + QStringLiteral("/config.json"))));
    }
    QString said;
    QObject listener; // the connection ends with this test body, before TearDown's messages
    QObject::connect(m_page, &design::ZooPage::message, &listener, [&said](const QString& text) { said = text; });
    m_page->addFolder(dir.path(), false);
    ASSERT_TRUE(m_page->reading());
    auto* row = m_page->findChild<QWidget*>(QStringLiteral("design.zoo.reading"));
    ASSERT_NE(row, nullptr);
    EXPECT_TRUE(row->isVisible());
    m_page->findChild<QPushButton*>(QStringLiteral("design.zoo.cancelRead"))->click();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !m_page->reading(); }, 20000));
    EXPECT_FALSE(row->isVisible());
    const std::size_t added = m_page->model()->rows().size() - core::builtinPresets().size();
    EXPECT_LT(added, std::size_t{kFiles}) << "Cancel stops the read";
    EXPECT_TRUE(said.contains(QStringLiteral("cancelled after"))) << said.toStdString();
}

TEST_F(Zoo, ARowLoadsAsOneUndoStepAndTheCurrentConfigIsMarked) {
    ASSERT_TRUE(m_page->setFilterText(QStringLiteral("name~Mixtral 8x7B")).ok());
    ASSERT_EQ(m_page->shown()->rowCount(), 1);
    const int steps = m_window.bridge()->undoStack()->count();
    ASSERT_TRUE(m_page->loadRow(0));
    EXPECT_EQ(m_window.bridge()->origin().presetId, QStringLiteral("mixtral-8x7b-v0.1"));
    EXPECT_EQ(m_window.bridge()->undoStack()->count(), steps + 1);
    for (auto plot : {core::ZooPlot::DepthWidth, core::ZooPlot::LayerEstimate}) {
        m_page->showPlot(plot);
        bool marked = false;
        for (int i = 0; i < m_page->plot()->graphCount(); ++i) {
            marked = marked || m_page->plot()->graph(i)->name() == QStringLiteral("current config");
        }
        EXPECT_TRUE(marked);
    }
}

TEST_F(Zoo, EveryModelSitsAtItsExactCoordinates) {
    const design::ZooTableModel* model = m_page->model();
    for (auto plot : {core::ZooPlot::DepthWidth, core::ZooPlot::HeadDim}) {
        m_page->showPlot(plot);
        std::size_t placed = 0;
        for (int g = 0; g < m_page->plot()->graphCount(); ++g) {
            QCPGraph* graph = m_page->plot()->graph(g);
            const QVariantList rows = graph->property("zooRows").toList();
            ASSERT_TRUE(rows.isEmpty() || rows.size() == graph->dataCount()) << graph->name().toStdString();
            for (int i = 0; i < rows.size(); ++i) {
                const core::ZooRow& row = model->rows()[rows[i].toULongLong()];
                // Point i of a graph is the row its "zooRows" names at i.
                const double x = graph->data()->at(i)->key;
                const double y = graph->data()->at(i)->value;
                const bool found = plot == core::ZooPlot::DepthWidth
                                       ? x == double(row.hiddenSize) && y == double(row.layers())
                                       : x == double(row.totalParams) && y == double(row.headDim);
                EXPECT_TRUE(found) << row.id;
                ++placed;
            }
        }
        std::size_t counted = 0;
        for (const core::ZooRow& row : model->rows()) {
            counted += row.counted() ? 1 : 0;
        }
        EXPECT_EQ(placed, counted);
    }
}

/// The current config's marker, or nullptr.
QCPGraph* currentMarker(QCustomPlot& plot) {
    for (int i = 0; i < plot.graphCount(); ++i) {
        if (plot.graph(i)->name() == QStringLiteral("current config")) {
            return plot.graph(i);
        }
    }
    return nullptr;
}

TEST_F(Zoo, AnEditMovesOnlyTheCurrentMarkerOnItsOwnLayer) {
    m_page->showPlot(core::ZooPlot::DepthWidth);
    QCustomPlot& plot = *m_page->plot();
    QCPGraph* marker = currentMarker(plot);
    ASSERT_NE(marker, nullptr);
    ASSERT_EQ(marker->dataCount(), 1);
    EXPECT_EQ(marker->data()->at(0)->key, 4096);
    EXPECT_EQ(marker->data()->at(0)->value, 32);
    EXPECT_EQ(marker->layer()->mode(), QCPLayer::lmBuffered);
    EXPECT_NE(marker->layer(), plot.graph(0)->layer());
    const int graphs = plot.graphCount();
    QCPGraph* first = plot.graph(0);

    m_window.bridge()->edit(QStringLiteral("layers"), [](core::ModelConfig& c, core::Scenario&) { c.numLayers = 40; });
    QCoreApplication::processEvents();
    // The same graphs (nothing drawn again), the marker at the new depth.
    EXPECT_EQ(plot.graphCount(), graphs);
    EXPECT_EQ(plot.graph(0), first);
    ASSERT_EQ(currentMarker(plot), marker);
    EXPECT_EQ(marker->data()->at(0)->value, 40);

    // Out of the axes, the chart is drawn again around it.
    m_window.bridge()->edit(QStringLiteral("layers"), [](core::ModelConfig& c, core::Scenario&) { c.numLayers = 400; });
    QCoreApplication::processEvents();
    ASSERT_NE(currentMarker(plot), nullptr);
    EXPECT_EQ(currentMarker(plot)->data()->at(0)->value, 400);
    EXPECT_TRUE(plot.yAxis->range().contains(400));
}

TEST_F(Zoo, VocabularyAcrossTimePlacesPresetsAtTheirReleaseAndTheDesignToday) {
    m_page->showPlot(core::ZooPlot::Vocabulary);
    QCustomPlot& plot = *m_page->plot();
    const design::ZooTableModel* model = m_page->model();
    std::size_t placed = 0;
    for (int g = 0; g < plot.graphCount(); ++g) {
        QCPGraph* graph = plot.graph(g);
        const QVariantList rows = graph->property("zooRows").toList();
        for (int i = 0; i < rows.size(); ++i) {
            const core::ZooRow& row = model->rows()[rows[i].toULongLong()];
            ASSERT_TRUE(row.released) << row.id;
            EXPECT_DOUBLE_EQ(graph->data()->at(i)->key, row.released->years()) << row.id;
            EXPECT_EQ(graph->data()->at(i)->value, double(row.vocabSize)) << row.id;
            ++placed;
        }
    }
    EXPECT_EQ(placed, model->rows().size());
    EXPECT_EQ(plot.yAxis->scaleType(), QCPAxis::stLogarithmic);
    QCPGraph* marker = currentMarker(plot);
    ASSERT_NE(marker, nullptr);
    EXPECT_NEAR(marker->data()->at(0)->key, QDate::currentDate().year() + 0.5, 0.51);
    EXPECT_EQ(marker->data()->at(0)->value, 128256);
}

TEST_F(Zoo, AThemeChangeDrawsThePlotInTheNewColours) {
    QCustomPlot& plot = *m_page->plot();
    const QColor light = theme::themePalette(theme::ThemeMode::Light).color(QPalette::Text);
    const QColor dark = theme::themePalette(theme::ThemeMode::Dark).color(QPalette::Text);
    ASSERT_NE(light, dark);
    EXPECT_EQ(plot.xAxis->labelColor(), light);
    theme::applyTheme(theme::ThemeMode::Dark);
    QCoreApplication::processEvents();
    EXPECT_EQ(plot.xAxis->labelColor(), dark);
    theme::applyTheme(theme::ThemeMode::Light);
    QCoreApplication::processEvents();
    EXPECT_EQ(plot.xAxis->labelColor(), light);
}

} // namespace
} // namespace archplay::ui
