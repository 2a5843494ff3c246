// SPDX-License-Identifier: GPL-3.0-or-later
// Every live view renders every review preset in both themes through render(), the path exports use.
// Set ARCHPLAY_VIEW_SNAPSHOTS=DIR to keep the images for review.
#include "core/analysis/Analysis.h"
#include "core/io/Presets.h"
#include "tests/support/TestSupport.h"
#include "ui/theme/Theme.h"
#include "ui/views/AnalysisView.h"
#include "ui/views/AttentionMaskView.h"
#include "ui/views/LayerSelection.h"
#include "ui/views/PaintedView.h"
#include "ui/views/Views.h"

#include <QBuffer>
#include <QDir>
#include <QElapsedTimer>
#include <QIcon>
#include <QImage>
#include <QPainter>
#include <QPixmap>
#include <QSet>
#include <QSvgGenerator>
#include <QSvgRenderer>
#include <QWidget>

#include <gtest/gtest.h>

#include <memory>

namespace archplay::test {
namespace {

/// Distinct colours in a sparse sample of the image: a blank or single-colour render has one or two.
int colourVariety(const QImage& image) {
    QSet<QRgb> seen;
    for (int y = 0; y < image.height(); y += 7) {
        for (int x = 0; x < image.width(); x += 7) {
            seen.insert(image.pixel(x, y));
        }
    }
    return static_cast<int>(seen.size());
}

QImage renderView(const ui::views::AnalysisView& view, QSize size) {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    view.render(painter, QRectF(QPointF(0, 0), QSizeF(size)));
    painter.end();
    return image;
}

class ViewRender : public ::testing::Test {
protected:
    void TearDown() override { ui::theme::applyTheme(ui::theme::ThemeMode::Light); }
};

TEST_F(ViewRender, EveryViewRendersTheReviewPresetsInBothThemes) {
    const QString snapshots = qEnvironmentVariable("ARCHPLAY_VIEW_SNAPSHOTS");
    if (!snapshots.isEmpty()) {
        QDir().mkpath(snapshots);
    }
    const char* presets[] = {"llama-3-8b", "mixtral-8x7b-v0.1", "deepseek-v3",   "gemma-3-1b",
                             "t5-small",   "llama-3.1-405b",    "qwen3-30b-a3b", "bert-base-uncased",
                             "gemma-2-9b", "mistral-7b-v0.1"};
    for (ui::theme::ThemeMode mode : {ui::theme::ThemeMode::Light, ui::theme::ThemeMode::Dark}) {
        ui::theme::applyTheme(mode);
        QWidget host;
        host.resize(1280, 820);
        const std::vector<ui::views::AnalysisView*> views = ui::views::createViews(&host).views;
        for (const char* id : presets) {
            const core::Analysis analysis = analyzePreset(id);
            ASSERT_TRUE(analysis.valid) << id;
            for (ui::views::AnalysisView* view : views) {
                view->resize(1280, 820);
                view->setAnalysis(analysis);
                const QImage image = renderView(*view, QSize(1280, 820));
                EXPECT_GT(colourVariety(image), 4) << id << " " << view->name().toStdString();
                if (!snapshots.isEmpty()) {
                    image.save(QStringLiteral("%1/%2-%3-%4.png")
                                   .arg(snapshots, view->name(), QString::fromLatin1(id), ui::theme::toString(mode)));
                }
            }
        }
    }
}

TEST_F(ViewRender, SmallTargetsAndTheMaskComparisonRender) {
    const QString snapshots = qEnvironmentVariable("ARCHPLAY_VIEW_SNAPSHOTS");
    QWidget host;
    const std::vector<ui::views::AnalysisView*> views = ui::views::createViews(&host).views;
    for (const char* id : {"llama-3-8b", "mixtral-8x7b-v0.1", "deepseek-v3", "gemma-3-1b", "t5-small"}) {
        const core::Analysis analysis = analyzePreset(id);
        for (ui::views::AnalysisView* view : views) {
            view->resize(860, 560);
            view->setAnalysis(analysis);
            const QImage image = renderView(*view, QSize(860, 560));
            EXPECT_GT(colourVariety(image), 4) << id << " " << view->name().toStdString();
            if (!snapshots.isEmpty()) {
                image.save(QStringLiteral("%1/small-%2-%3.png").arg(snapshots, view->name(), QString::fromLatin1(id)));
            }
            if (auto* masks = dynamic_cast<ui::views::AttentionMaskView*>(view)) {
                masks->setCompareAll(true);
                const QImage compared = renderView(*view, QSize(1280, 820));
                EXPECT_GT(colourVariety(compared), 4) << id;
                if (!snapshots.isEmpty()) {
                    compared.save(QStringLiteral("%1/compare-masks-%2.png").arg(snapshots, QString::fromLatin1(id)));
                }
                masks->setCompareAll(false);
            }
        }
    }
}

TEST_F(ViewRender, VectorExportsAndHighDensityImagesMatchTheScreen) {
    // render() also drives the SVG and PDF exporters: every view must produce vector output that
    // reads back, and a 2x image must show the same picture.
    const QString snapshots = qEnvironmentVariable("ARCHPLAY_VIEW_SNAPSHOTS");
    QWidget host;
    const std::vector<ui::views::AnalysisView*> views = ui::views::createViews(&host).views;
    const core::Analysis analysis = analyzePreset("deepseek-v3");
    const QSize size(1100, 720);
    for (ui::views::AnalysisView* view : views) {
        view->resize(size);
        view->setAnalysis(analysis);
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        QPainter painter(&generator);
        view->render(painter, QRectF(QPointF(0, 0), QSizeF(size)));
        painter.end();
        const QByteArray svg = buffer.data();
        EXPECT_GT(svg.size(), 2000) << view->name().toStdString();
        QSvgRenderer reader(svg);
        ASSERT_TRUE(reader.isValid()) << view->name().toStdString();
        QImage fromSvg(size, QImage::Format_ARGB32_Premultiplied);
        fromSvg.fill(Qt::transparent);
        QPainter replay(&fromSvg);
        reader.render(&replay);
        replay.end();
        EXPECT_GT(colourVariety(fromSvg), 4) << view->name().toStdString();

        QImage dense(size * 2, QImage::Format_ARGB32_Premultiplied);
        dense.setDevicePixelRatio(2);
        dense.fill(Qt::transparent);
        QPainter densePainter(&dense);
        view->render(densePainter, QRectF(QPointF(0, 0), QSizeF(size)));
        densePainter.end();
        EXPECT_GT(colourVariety(dense), 4) << view->name().toStdString();
        if (!snapshots.isEmpty()) {
            fromSvg.save(QStringLiteral("%1/svg-%2-deepseek-v3.png").arg(snapshots, view->name()));
            dense.save(QStringLiteral("%1/x2-%2-deepseek-v3.png").arg(snapshots, view->name()));
        }
    }
}

TEST_F(ViewRender, ExtremeConfigsRenderQuickly) {
    const QString snapshots = qEnvironmentVariable("ARCHPLAY_VIEW_SNAPSHOTS");
    std::vector<core::ModelConfig> configs;
    core::ModelConfig tiny;
    tiny.vocabSize = 16;
    tiny.hiddenSize = 8;
    tiny.numLayers = 1;
    tiny.numHeads = 1;
    tiny.numKvHeads = 1;
    tiny.intermediateSize = 8;
    configs.push_back(tiny);
    core::ModelConfig manyExperts = analyzePreset("mixtral-8x7b-v0.1").config;
    manyExperts.moe.numExperts = 5000;
    manyExperts.moe.topK = 64;
    manyExperts.moe.expertIntermediateSize = 256;
    configs.push_back(manyExperts);
    core::ModelConfig hugeWindow = analyzePreset("mistral-7b-v0.1").config;
    hugeWindow.slidingWindow = 1'000'000;
    hugeWindow.maxPositions = 4'000'000;
    configs.push_back(hugeWindow);
    core::ModelConfig chunked = analyzePreset("llama-3-8b").config;
    chunked.attentionChunkSize = 8192;
    configs.push_back(chunked);
    core::ModelConfig broken = analyzePreset("llama-3-8b").config;
    broken.numHeads = 0; // invalid: every view shows its message
    configs.push_back(broken);

    QWidget host;
    const std::vector<ui::views::AnalysisView*> views = ui::views::createViews(&host).views;
    for (std::size_t i = 0; i < configs.size(); ++i) {
        const core::Analysis analysis = core::analyze(configs[i], core::Scenario{});
        EXPECT_EQ(analysis.valid, i + 1 != configs.size()) << i;
        for (ui::views::AnalysisView* view : views) {
            view->resize(1100, 720);
            view->setAnalysis(analysis);
            QElapsedTimer timer;
            timer.start();
            const QImage image = renderView(*view, QSize(1100, 720));
            // Generous: a slow machine under load must pass, a runaway loop must not.
            EXPECT_LT(timer.elapsed(), 2000) << i << " " << view->name().toStdString();
            EXPECT_GT(colourVariety(image), 1) << i << " " << view->name().toStdString();
            if (!snapshots.isEmpty()) {
                image.save(QStringLiteral("%1/extreme%2-%3.png").arg(snapshots).arg(i).arg(view->name()));
            }
        }
    }
}

TEST_F(ViewRender, IconsTakeTheThemesTextColourAndAreDrawnOnce) {
    // A toolbar icon is its SVG in the palette's text colour. Each size and colour is drawn once
    // (a button repaints its icon whenever it is enabled or disabled); a theme change draws it again.
    auto inkLightness = [](const QPixmap& pixmap) {
        const QImage image = pixmap.toImage().convertToFormat(QImage::Format_ARGB32);
        int sum = 0;
        int count = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                const QColor pixel = image.pixelColor(x, y);
                if (pixel.alpha() > 200) {
                    sum += pixel.lightness();
                    ++count;
                }
            }
        }
        return count > 0 ? sum / count : -1;
    };
    ui::theme::applyTheme(ui::theme::ThemeMode::Light);
    const QIcon open = ui::theme::icon(QStringLiteral("document-open"));
    const QPixmap light = open.pixmap(QSize(24, 24));
    EXPECT_EQ(open.pixmap(QSize(24, 24)).cacheKey(), light.cacheKey());
    ui::theme::applyTheme(ui::theme::ThemeMode::Dark);
    const QPixmap dark = open.pixmap(QSize(24, 24));
    EXPECT_NE(dark.cacheKey(), light.cacheKey());
    EXPECT_GE(inkLightness(light), 0);
    EXPECT_LT(inkLightness(light), 100);
    EXPECT_GT(inkLightness(dark), 155);
}

TEST_F(ViewRender, EveryKindHasOneTitledViewInTabOrder) {
    QWidget host;
    const ui::views::ViewSet set = ui::views::createViews(&host);
    ASSERT_EQ(set.views.size(), std::size(core::kAllViewKinds));
    for (std::size_t i = 0; i < set.views.size(); ++i) {
        EXPECT_EQ(set.views[i]->kind(), core::kAllViewKinds[i]) << i;
        EXPECT_EQ(set.find(core::kAllViewKinds[i]), set.views[i]) << i;
        EXPECT_FALSE(set.views[i]->title().isEmpty()) << i;
    }
    ASSERT_NE(set.layerSelection, nullptr);
    set.layerSelection->setLayer(3);
    auto* stack = dynamic_cast<ui::views::PaintedView*>(set.find(core::ViewKind::LayerStack));
    ASSERT_NE(stack, nullptr);
    EXPECT_EQ(stack->layerSelection(), set.layerSelection) << "the one-layer views share the stack's selection";
}

} // namespace
} // namespace archplay::test
