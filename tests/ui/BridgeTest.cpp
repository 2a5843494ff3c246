// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/Presets.h"
#include "ui/session/ModelBridge.h"

#include <QSignalSpy>
#include <QUndoStack>

#include <gtest/gtest.h>

namespace archplay::ui {
namespace {

std::string firstPresetId() {
    return core::builtinPresets().front().info.id;
}

TEST(ModelBridge, APresetShorterThanTheSequenceBringsItWithinItsContextAndSaysSo) {
    session::ModelBridge bridge;
    ASSERT_TRUE(bridge.loadPreset(QStringLiteral("llama-3-8b")));
    bridge.edit(QStringLiteral("long"), [](core::ModelConfig&, core::Scenario& s) { s.sequenceLength = 131072; });
    QSignalSpy notices(&bridge, &session::ModelBridge::notice);
    ASSERT_TRUE(bridge.loadPreset(QStringLiteral("bert-base-uncased")));
    EXPECT_EQ(bridge.scenario().sequenceLength, 512u);
    ASSERT_EQ(notices.count(), 1);
    const QString message = notices.front().front().toString();
    EXPECT_TRUE(message.contains(QStringLiteral("131,072")) && message.contains(QStringLiteral("512")))
        << message.toStdString();
    for (const core::Diagnostic& diagnostic : bridge.analysis().diagnostics) {
        EXPECT_NE(diagnostic.field, "sequence_length") << diagnostic.message;
    }
    bridge.undoStack()->undo();
    EXPECT_EQ(bridge.scenario().sequenceLength, 131072u) << "one undo step brings back both";
    EXPECT_EQ(bridge.config().modelType, "llama");
}

TEST(ModelBridge, AModelOpensInItsShippedFormatAndTheNextOneDoesNotInheritIt) {
    session::ModelBridge bridge;
    ASSERT_TRUE(bridge.loadPreset(QStringLiteral("llama-3-8b")));
    QSignalSpy notices(&bridge, &session::ModelBridge::notice);
    ASSERT_TRUE(bridge.loadPreset(QStringLiteral("gpt-oss-20b")));
    EXPECT_EQ(bridge.scenario().weightFormat, core::WeightFormat::MXFP4);
    EXPECT_FALSE(bridge.scenario().weightsAsShipped) << "the picker shows the format in use";
    ASSERT_EQ(notices.count(), 1);
    EXPECT_TRUE(notices.back().front().toString().contains(QStringLiteral("as shipped")));
    // A chosen format is the user's; the next model that ships none goes back to BF16 only from a
    // shipped format.
    ASSERT_TRUE(bridge.loadPreset(QStringLiteral("llama-3-8b")));
    EXPECT_EQ(bridge.scenario().weightFormat, core::WeightFormat::BF16);
    EXPECT_TRUE(notices.back().front().toString().contains(QStringLiteral("back to")));
    bridge.edit(QStringLiteral("nf4"),
                [](core::ModelConfig&, core::Scenario& s) { s.weightFormat = core::WeightFormat::NF4; });
    ASSERT_TRUE(bridge.loadPreset(QStringLiteral("qwen3-8b")));
    EXPECT_EQ(bridge.scenario().weightFormat, core::WeightFormat::NF4);
    bridge.undoStack()->undo();
    bridge.undoStack()->undo();
    bridge.undoStack()->undo();
    EXPECT_EQ(bridge.scenario().weightFormat, core::WeightFormat::MXFP4) << "undo brings the shipped format back";
}

TEST(ModelBridge, EditRecomputesOnceAndMatchesCore) {
    archplay::ui::session::ModelBridge bridge;
    QSignalSpy spy(&bridge, &archplay::ui::session::ModelBridge::analysisChanged);
    bridge.edit(QStringLiteral("layers"), [](core::ModelConfig& c, core::Scenario&) { c.numLayers = 40; });
    EXPECT_EQ(spy.count(), 1);
    EXPECT_EQ(bridge.config().numLayers, 40);
    const core::Analysis expected = core::analyze(bridge.config(), bridge.scenario());
    EXPECT_EQ(bridge.analysis().params.total, expected.params.total);
    EXPECT_EQ(bridge.analysis().kv.bytesPerToken, expected.kv.bytesPerToken);
}

TEST(ModelBridge, NoOpEditsLeaveNoUndoStep) {
    archplay::ui::session::ModelBridge bridge;
    const int before = bridge.undoStack()->count();
    bridge.edit(QStringLiteral("same"), [](core::ModelConfig&, core::Scenario&) {});
    EXPECT_EQ(bridge.undoStack()->count(), before);
}

TEST(ModelBridge, UndoRedoRoundTrips) {
    archplay::ui::session::ModelBridge bridge;
    const core::ModelConfig original = bridge.config();
    bridge.edit(QStringLiteral("hidden"), [](core::ModelConfig& c, core::Scenario&) { c.hiddenSize = 2048; });
    bridge.edit(QStringLiteral("seq"), [](core::ModelConfig&, core::Scenario& s) { s.sequenceLength = 8192; });
    const core::ModelConfig edited = bridge.config();
    bridge.undoStack()->undo();
    EXPECT_EQ(bridge.scenario().sequenceLength, core::Scenario{}.sequenceLength);
    bridge.undoStack()->undo();
    EXPECT_EQ(bridge.config(), original);
    EXPECT_EQ(bridge.analysis().params.total, core::analyze(original, bridge.scenario()).params.total);
    bridge.undoStack()->redo();
    bridge.undoStack()->redo();
    EXPECT_EQ(bridge.config(), edited);
    EXPECT_EQ(bridge.scenario().sequenceLength, 8192u);
}

TEST(ModelBridge, AGestureIsOneUndoStep) {
    archplay::ui::session::ModelBridge bridge;
    const int before = bridge.undoStack()->count();
    bridge.beginGesture();
    for (int hidden = 1024; hidden <= 8192; hidden += 128) {
        bridge.edit(QStringLiteral("hidden"),
                    [hidden](core::ModelConfig& c, core::Scenario&) { c.hiddenSize = hidden; });
    }
    bridge.endGesture();
    EXPECT_EQ(bridge.undoStack()->count(), before + 1);
    EXPECT_EQ(bridge.config().hiddenSize, 8192);
    bridge.undoStack()->undo();
    EXPECT_EQ(bridge.config().hiddenSize, core::ModelConfig{}.hiddenSize);
    // Edits after the gesture are steps of their own.
    bridge.undoStack()->redo();
    bridge.edit(QStringLiteral("hidden"), [](core::ModelConfig& c, core::Scenario&) { c.hiddenSize = 512; });
    bridge.edit(QStringLiteral("hidden"), [](core::ModelConfig& c, core::Scenario&) { c.hiddenSize = 640; });
    EXPECT_EQ(bridge.undoStack()->count(), before + 3);
}

TEST(ModelBridge, AGestureEndingWhereItStartedLeavesNothing) {
    archplay::ui::session::ModelBridge bridge;
    const int before = bridge.undoStack()->count();
    const std::int64_t start = bridge.config().hiddenSize;
    bridge.beginGesture();
    bridge.edit(QStringLiteral("hidden"), [](core::ModelConfig& c, core::Scenario&) { c.hiddenSize = 1024; });
    bridge.edit(QStringLiteral("hidden"), [start](core::ModelConfig& c, core::Scenario&) { c.hiddenSize = start; });
    bridge.endGesture();
    EXPECT_EQ(bridge.undoStack()->count(), before);
}

TEST(ModelBridge, EveryPresetLoadsAsOneStep) {
    ASSERT_FALSE(core::builtinPresets().empty());
    archplay::ui::session::ModelBridge bridge;
    for (const core::Preset& preset : core::builtinPresets()) {
        const QString id = QString::fromStdString(preset.info.id);
        const int before = bridge.undoStack()->count();
        ASSERT_TRUE(bridge.loadPreset(id)) << preset.info.id;
        EXPECT_LE(bridge.undoStack()->count(), before + 1) << preset.info.id;
        EXPECT_EQ(bridge.origin().presetId, id);
        EXPECT_TRUE(bridge.analysis().valid) << preset.info.id;
        const archplay::ui::session::OriginSummary origin = bridge.originSummary();
        EXPECT_FALSE(origin.modified);
        EXPECT_EQ(origin.publishedParams, preset.info.publishedParams) << preset.info.id;
        const core::Analysis expected = core::analyze(*core::presetConfig(preset), bridge.scenario());
        EXPECT_EQ(bridge.analysis().params.total, expected.params.total) << preset.info.id;
    }
    EXPECT_FALSE(bridge.loadPreset(QStringLiteral("no-such-preset")));
}

TEST(ModelBridge, EditsMarkThePresetModifiedAndUndoClearsIt) {
    archplay::ui::session::ModelBridge bridge;
    ASSERT_TRUE(bridge.loadPreset(QString::fromStdString(firstPresetId())));
    QSignalSpy spy(&bridge, &archplay::ui::session::ModelBridge::originChanged);
    bridge.edit(QStringLiteral("layers"), [](core::ModelConfig& c, core::Scenario&) { c.numLayers += 1; });
    EXPECT_TRUE(bridge.originSummary().modified);
    EXPECT_FALSE(bridge.originSummary().publishedParams.has_value());
    EXPECT_EQ(spy.count(), 1);
    bridge.undoStack()->undo();
    EXPECT_FALSE(bridge.originSummary().modified);
    bridge.undoStack()->redo();
    bridge.revertToOrigin();
    EXPECT_FALSE(bridge.originSummary().modified);
}

TEST(ModelBridge, ScenarioEditsAreUndoableAndKeepTheConfig) {
    archplay::ui::session::ModelBridge bridge;
    const core::ModelConfig config = bridge.config();
    bridge.edit(QStringLiteral("kv"), [](core::ModelConfig&, core::Scenario& s) { s.kvDType = core::DType::FP8; });
    EXPECT_EQ(bridge.analysis().kv.dtype, core::DType::FP8);
    EXPECT_EQ(bridge.config(), config);
    EXPECT_FALSE(bridge.originSummary().modified);
    bridge.undoStack()->undo();
    EXPECT_EQ(bridge.scenario().kvDType, core::Scenario{}.kvDType);
}

} // namespace
} // namespace archplay::ui
