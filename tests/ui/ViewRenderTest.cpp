// SPDX-License-Identifier: GPL-3.0-or-later
// Every live view renders every review preset in both themes through render(), the path exports use.
// Set ARCHPLAY_VIEW_SNAPSHOTS=DIR to keep the images for review.
#include "analysis/Analysis.h"
#include "io/Presets.h"
#include "ui/Theme.h"
#include "ui/views/AnalysisView.h"
#include "ui/views/Views.h"

#include <QDir>
#include <QImage>
#include <QPainter>
#include <QSet>
#include <QWidget>

#include <gtest/gtest.h>

#include <memory>

namespace archplay::test {
namespace {

core::Analysis analyzed(const char* id) {
    const core::Preset* found = core::findPreset(id);
    EXPECT_NE(found, nullptr) << id;
    auto config = found ? core::presetConfig(*found) : std::nullopt;
    EXPECT_TRUE(config.has_value()) << id;
    return core::analyze(config.value_or(core::ModelConfig{}), core::Scenario{});
}

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

QImage renderView(const ui::AnalysisView& view, QSize size) {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    view.render(painter, QRectF(QPointF(0, 0), QSizeF(size)));
    painter.end();
    return image;
}

class ViewRender : public ::testing::Test {
protected:
    void TearDown() override { ui::applyTheme(ui::ThemeMode::Light); }
};

TEST_F(ViewRender, EveryViewRendersTheReviewPresetsInBothThemes) {
    const QString snapshots = qEnvironmentVariable("ARCHPLAY_VIEW_SNAPSHOTS");
    if (!snapshots.isEmpty()) {
        QDir().mkpath(snapshots);
    }
    const char* presets[] = {"llama-3-8b", "mixtral-8x7b-v0.1", "deepseek-v3", "gemma-3-1b", "t5-small",
                             "llama-3.1-405b", "qwen3-30b-a3b", "bert-base-uncased"};
    for (ui::ThemeMode mode : {ui::ThemeMode::Light, ui::ThemeMode::Dark}) {
        ui::applyTheme(mode);
        QWidget host;
        host.resize(1280, 820);
        const std::vector<ui::AnalysisView*> views = ui::createViews(&host);
        for (const char* id : presets) {
            const core::Analysis analysis = analyzed(id);
            ASSERT_TRUE(analysis.valid) << id;
            for (ui::AnalysisView* view : views) {
                view->resize(1280, 820);
                view->setAnalysis(analysis);
                const QImage image = renderView(*view, QSize(1280, 820));
                EXPECT_GT(colourVariety(image), 4) << id << " " << view->viewId().toStdString();
                if (!snapshots.isEmpty()) {
                    image.save(QStringLiteral("%1/%2-%3-%4.png")
                                   .arg(snapshots, view->viewId(), QString::fromLatin1(id), ui::toString(mode)));
                }
            }
        }
    }
}

TEST_F(ViewRender, ViewIdsAreUniqueAndTitled) {
    QWidget host;
    QSet<QString> ids;
    for (ui::AnalysisView* view : ui::createViews(&host)) {
        EXPECT_FALSE(view->title().isEmpty());
        EXPECT_FALSE(ids.contains(view->viewId())) << view->viewId().toStdString();
        ids.insert(view->viewId());
    }
    for (const char* id : {"param-chart", "layer-stack", "layer-weights", "attention-mask", "kv-cache",
                           "moe-routing", "derivation"}) {
        EXPECT_TRUE(ids.contains(QString::fromLatin1(id))) << id;
    }
}

} // namespace
} // namespace archplay::test
