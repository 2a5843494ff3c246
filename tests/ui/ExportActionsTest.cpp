// SPDX-License-Identifier: GPL-3.0-or-later
// Export from the window: File > Export, the views' context menus, the export dialog, Copy Image,
// the reports and the tables.
#include "ui/export/ExportActions.h"

#include "ui/export/ExportDialog.h"
#include "ui/session/ModelBridge.h"
#include "ui/views/AnalysisView.h"
#include "ui/views/DerivationView.h"
#include "ui/window/MainWindow.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QSignalSpy>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

namespace archplay::ui::exports {
namespace {

QStringList actionTexts(const QMenu* menu) {
    QStringList texts;
    for (const QAction* action : menu->actions()) {
        if (!action->isSeparator()) {
            texts << action->text();
        }
    }
    return texts;
}

/// Sends a right click to `widget` and returns the entries of the menu that pops up (then closes it).
QStringList contextMenuAt(QWidget* widget, QPoint position) {
    QContextMenuEvent event(QContextMenuEvent::Mouse, position, widget->mapToGlobal(position));
    QApplication::sendEvent(widget, &event);
    QApplication::processEvents();
    auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
    if (!menu) {
        return {};
    }
    const QStringList texts = actionTexts(menu);
    menu->close();
    QApplication::processEvents();
    return texts;
}

class ExportFromWindow : public ::testing::Test {
protected:
    void SetUp() override {
        m_window.resize(1280, 800);
        m_window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&m_window));
        m_window.bridge()->loadPreset(QStringLiteral("mixtral-8x7b-v0.1"));
        actions()->setFileChooser([this](const QString&, const QString& suggested, const QString&) {
            m_suggested = suggested;
            return m_dir.filePath(QFileInfo(suggested).fileName());
        });
    }
    archplay::ui::exports::ExportActions* actions() const { return m_window.exportActions(); }
    archplay::ui::views::AnalysisView* view(const char* id) const {
        for (archplay::ui::views::AnalysisView* view : m_window.views()) {
            if (view->name() == QLatin1String(id)) {
                return view;
            }
        }
        return nullptr;
    }
    QByteArray read(const QString& name) const {
        QFile file(m_dir.filePath(name));
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

    archplay::ui::window::MainWindow m_window{archplay::ui::window::MainWindowOptions{false}};
    QTemporaryDir m_dir;
    QString m_suggested;
};

TEST_F(ExportFromWindow, TheFileMenuOffersEveryExport) {
    const QStringList entries = actionTexts(m_window.exportMenu());
    for (const char* entry : {"Export Current &View…", "&Copy Current View as Image", "&Report as PDF…",
                              "Report as &Markdown…", "Reports Include the Model &Zoo", "&Window as PNG…"}) {
        EXPECT_TRUE(entries.contains(QString::fromUtf8(entry))) << entry << "\n"
                                                                << entries.join(QLatin1Char('\n')).toStdString();
    }
    QStringList tables;
    for (QAction* action : m_window.exportMenu()->actions()) {
        if (action->menu() && action->text().contains(QStringLiteral("Tables"))) {
            tables = actionTexts(action->menu());
        }
    }
    EXPECT_EQ(tables.size(), 16) << tables.join(QLatin1Char('\n')).toStdString();
    EXPECT_TRUE(tables.contains(QStringLiteral("Forward-Pass Derivation as LaTeX…")));
    EXPECT_TRUE(tables.contains(QStringLiteral("Whole Report as LaTeX…")));
    EXPECT_EQ(actions()->exportViewAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_E));
}

TEST_F(ExportFromWindow, ViewsAndTabsHaveExportInTheirContextMenu) {
    archplay::ui::views::AnalysisView* stack = view("layer-stack");
    ASSERT_NE(stack, nullptr);
    m_window.selectView(stack->kind());
    QApplication::processEvents();
    QStringList menu = contextMenuAt(stack, QPoint(40, 40));
    EXPECT_TRUE(menu.contains(QStringLiteral("Export Layer stack…"))) << menu.join(QLatin1Char('|')).toStdString();
    EXPECT_TRUE(menu.contains(QStringLiteral("Copy Layer stack as Image")));

    // The derivation keeps its own entries and gains the export ones.
    archplay::ui::views::AnalysisView* derivation = view("derivation");
    m_window.selectView(derivation->kind());
    QApplication::processEvents();
    QWidget* canvas = derivation->childAt(derivation->width() / 2, derivation->height() / 2);
    ASSERT_NE(canvas, nullptr);
    menu = contextMenuAt(canvas, QPoint(10, 10));
    EXPECT_TRUE(menu.contains(QStringLiteral("Copy as LaTeX"))) << menu.join(QLatin1Char('|')).toStdString();
    EXPECT_TRUE(menu.contains(QStringLiteral("Export Forward pass…")));

    auto* tabs = m_window.findChild<QTabWidget*>(QStringLiteral("views"));
    ASSERT_NE(tabs, nullptr);
    const int index = tabs->indexOf(view("kv-cache"));
    menu = contextMenuAt(tabs->tabBar(), tabs->tabBar()->tabRect(index).center());
    EXPECT_TRUE(menu.contains(QStringLiteral("Export KV cache…"))) << menu.join(QLatin1Char('|')).toStdString();
}

TEST_F(ExportFromWindow, ExportViewUsesTheDialogsSettingsAndColours) {
    archplay::ui::views::AnalysisView* chart = view("param-chart");
    m_window.selectView(chart->kind());
    QApplication::processEvents();
    archplay::ui::exports::FigureExportSettings offered;
    actions()->setDialogRunner(
        [&](archplay::ui::views::AnalysisView&, const archplay::ui::exports::FigureExportSettings& settings) {
            offered = settings;
            archplay::ui::exports::FigureExportSettings chosen = settings;
            chosen.format = core::ExportFormat::Png;
            chosen.size = QSize(600, 400);
            chosen.scale = 2;
            chosen.colours = archplay::ui::theme::ThemeMode::Dark;
            chosen.path = m_dir.filePath(QStringLiteral("chart.png"));
            return std::optional(chosen);
        });
    const QColor base = chart->palette().color(QPalette::Base);
    QSignalSpy finished(actions(), &archplay::ui::exports::ExportActions::finished);
    actions()->exportViewAction()->trigger();
    EXPECT_EQ(offered.size, chart->size()) << "the dialog offers the view's size";
    EXPECT_TRUE(offered.path.endsWith(QStringLiteral("mixtral-8x7b-v0.1-param-chart.png")))
        << offered.path.toStdString();
    const QImage image(m_dir.filePath(QStringLiteral("chart.png")));
    EXPECT_EQ(image.size(), QSize(1200, 800));
    EXPECT_LT(qGray(image.pixel(3, 3)), 80) << "dark colours were asked for";
    EXPECT_EQ(chart->palette().color(QPalette::Base), base) << "the view keeps its own colours";
    ASSERT_EQ(finished.count(), 1);
    EXPECT_TRUE(finished.at(0).at(0).toBool());

    // A failure is reported, not thrown.
    archplay::ui::exports::FigureExportSettings bad = offered;
    bad.path = m_dir.filePath(QStringLiteral("missing/chart.svg"));
    bad.format = core::ExportFormat::Svg;
    EXPECT_FALSE(actions()->exportView(*chart, bad).ok());
    EXPECT_FALSE(finished.last().at(0).toBool());
    EXPECT_TRUE(finished.last().at(1).toString().contains(QStringLiteral("does not exist")));
}

TEST_F(ExportFromWindow, CopyImagePutsPngAndSvgOnTheClipboard) {
    archplay::ui::views::AnalysisView* masks = view("attention-mask");
    m_window.selectView(masks->kind());
    QApplication::processEvents();
    actions()->copyImageAction()->trigger();
    const QMimeData* mime = QApplication::clipboard()->mimeData();
    ASSERT_NE(mime, nullptr);
    EXPECT_TRUE(mime->hasImage());
    EXPECT_EQ(qvariant_cast<QImage>(mime->imageData()).size(), masks->size() * masks->devicePixelRatioF());
    EXPECT_TRUE(mime->data(QStringLiteral("image/svg+xml")).contains("<svg"));
}

TEST_F(ExportFromWindow, ReportsAndTablesAreWrittenWithTheExactNumbers) {
    actions()->reportPdfAction()->trigger();
    EXPECT_TRUE(m_suggested.endsWith(QStringLiteral("mixtral-8x7b-v0.1-report.pdf"))) << m_suggested.toStdString();
    EXPECT_TRUE(read(QStringLiteral("mixtral-8x7b-v0.1-report.pdf")).startsWith("%PDF-"));

    actions()->reportMarkdownAction()->trigger();
    EXPECT_TRUE(read(QStringLiteral("mixtral-8x7b-v0.1-report.md")).contains("46,702,792,704"));
    EXPECT_TRUE(QImage(m_dir.filePath(QStringLiteral("mixtral-8x7b-v0.1-report_figures/moe-routing.png"))).width() > 0);

    for (QAction* action : m_window.findChildren<QAction*>()) {
        if (action->objectName() == QLatin1String("export.breakdown.csv") ||
            action->objectName() == QLatin1String("export.derivation.tex")) {
            action->trigger();
        }
    }
    EXPECT_TRUE(read(QStringLiteral("mixtral-8x7b-v0.1-breakdown.csv")).contains("Model,46702792704,100.0000,"));
    EXPECT_TRUE(read(QStringLiteral("mixtral-8x7b-v0.1-derivation.tex")).contains("\\end{document}"));

    const core::ReportInfo info = actions()->reportInfo();
    EXPECT_EQ(info.title, "Mixtral 8x7B v0.1");
    EXPECT_EQ(info.origin, "preset mixtral-8x7b-v0.1");
    ASSERT_TRUE(info.preset.has_value());
    EXPECT_EQ(info.preset->publishedParams, 46'702'792'704u);
}

TEST_F(ExportFromWindow, WithTheZooCheckedTheReportsPlaceTheModelAmongThePresets) {
    QAction* zoo = actions()->reportZooAction();
    ASSERT_TRUE(zoo->isCheckable());
    ASSERT_FALSE(zoo->isChecked()); // a report is the model's alone unless asked
    const QString markdown = QStringLiteral("mixtral-8x7b-v0.1-report.md");
    actions()->reportMarkdownAction()->trigger();
    EXPECT_FALSE(read(markdown).contains("## Among published models"));

    zoo->setChecked(true);
    actions()->reportMarkdownAction()->trigger();
    const QByteArray md = read(markdown);
    EXPECT_TRUE(md.contains("## Among published models"));
    EXPECT_TRUE(md.contains("| this design |  | 32 | 4096 | 32 | 8 | 128 | MoE 2/8 | 32000 | 46.7B | 12.9B |"));
    EXPECT_TRUE(md.contains("| Mixtral 8x7B v0.1 | 2023-12 | 32 |")); // the preset itself, its nearest neighbour
    for (const char* plot : {"depth-width", "vocabulary", "layer-estimate"}) {
        EXPECT_GT(QImage(m_dir.filePath(
                             QStringLiteral("mixtral-8x7b-v0.1-report_figures/zoo-%1.png").arg(QLatin1String(plot))))
                      .width(),
                  0)
            << plot;
    }
    actions()->reportPdfAction()->trigger();
    EXPECT_TRUE(read(QStringLiteral("mixtral-8x7b-v0.1-report.pdf")).startsWith("%PDF-"));
    zoo->setChecked(false);
}

TEST(ExportDialogTest, FormatChangesTheExtensionAndBadFoldersAreRefused) {
    QTemporaryDir dir;
    archplay::ui::exports::FigureExportSettings settings;
    settings.path = dir.filePath(QStringLiteral("stack.png"));
    archplay::ui::exports::ExportDialog dialog(QStringLiteral("Layer stack"), QSize(900, 560), settings);
    auto* format = dialog.findChild<QComboBox*>(QStringLiteral("export.format"));
    auto* scale = dialog.findChild<QComboBox*>(QStringLiteral("export.scale"));
    auto* path = dialog.findChild<QLineEdit*>(QStringLiteral("export.path"));
    ASSERT_TRUE(format && scale && path);
    EXPECT_EQ(dialog.settings().size, QSize(1280, 800));
    format->setCurrentIndex(format->findData(int(core::ExportFormat::Svg)));
    EXPECT_EQ(dialog.settings().path, dir.filePath(QStringLiteral("stack.svg")));
    EXPECT_TRUE(scale->isEnabled()) << "an SVG's size scales too";
    scale->setCurrentIndex(1);
    EXPECT_EQ(dialog.settings().scale, 2.0);
    format->setCurrentIndex(format->findData(int(core::ExportFormat::Pdf)));
    EXPECT_FALSE(scale->isEnabled());
    EXPECT_EQ(dialog.settings().scale, 1.0);
    format->setCurrentIndex(format->findData(int(core::ExportFormat::Png)));
    scale->setCurrentIndex(2);
    EXPECT_EQ(dialog.settings().scale, 3.0);

    auto* preset = dialog.findChild<QComboBox*>(QStringLiteral("export.sizePreset"));
    preset->setCurrentIndex(0);
    emit preset->activated(0);
    EXPECT_EQ(dialog.settings().size, QSize(900, 560)) << "the view's own size";

    path->setText(dir.filePath(QStringLiteral("missing/stack.png")));
    EXPECT_TRUE(dialog.problem().contains(QStringLiteral("does not exist")));
    dialog.accept();
    EXPECT_EQ(dialog.result(), QDialog::Rejected) << "OK is refused while the folder is missing";
    path->setText(QString());
    EXPECT_FALSE(dialog.problem().isEmpty());
    path->setText(dir.filePath(QStringLiteral("stack.png")));
    EXPECT_TRUE(dialog.problem().isEmpty());
}

} // namespace
} // namespace archplay::ui::exports
