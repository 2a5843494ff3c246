// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/ConfigJson.h"
#include "core/io/Presets.h"
#include "core/io/Session.h"
#include "ui/session/FileController.h"
#include "ui/session/ModelBridge.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QWidget>

#include <gtest/gtest.h>

#include <filesystem>
#include <sys/stat.h>

namespace archplay::ui {
namespace {

class Files : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(m_dir.isValid());
        ASSERT_TRUE(m_bridge.loadPreset(QString::fromStdString(core::builtinPresets().front().info.id)));
    }
    QString path(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }

    QTemporaryDir m_dir;
    QWidget m_parent;
    archplay::ui::session::ModelBridge m_bridge;
    archplay::ui::session::FileController m_files{&m_bridge, &m_parent};
};

TEST_F(Files, InvalidJsonLeavesTheConfigUnchanged) {
    const archplay::ui::session::BridgeState before = m_bridge.state();
    const int steps = m_bridge.undoStack()->count();
    for (const char* text : {"{ not json", "[1, 2, 3]", "{\"hidden_size\": \"wide\"}", ""}) {
        const archplay::ui::session::FileResult result = m_files.openText(QString::fromLatin1(text));
        EXPECT_FALSE(result.ok) << text;
        EXPECT_FALSE(result.message.isEmpty());
        EXPECT_TRUE(m_bridge.state() == before) << text;
        EXPECT_EQ(m_bridge.undoStack()->count(), steps) << text;
    }
}

TEST_F(Files, AReadableButImpossibleConfigIsRefusedNamingItsFields) {
    QFile file(path("negative.json"));
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(R"({"model_type": "llama", "hidden_size": -4096, "num_attention_heads": 32,
        "num_key_value_heads": 5})");
    file.close();
    const archplay::ui::session::BridgeState before = m_bridge.state();
    const int steps = m_bridge.undoStack()->count();
    const archplay::ui::session::FileResult result = m_files.openPath(path("negative.json"));
    EXPECT_FALSE(result.ok);
    EXPECT_FALSE(result.loaded);
    EXPECT_TRUE(m_bridge.state() == before);
    EXPECT_EQ(m_bridge.undoStack()->count(), steps);
    const QString details = result.details.join('\n');
    EXPECT_TRUE(details.contains(QStringLiteral("hidden_size: must be positive, not -4096"))) << details.toStdString();
    EXPECT_TRUE(details.contains(QStringLiteral("num_key_value_heads"))) << details.toStdString();
    EXPECT_TRUE(result.message.contains(QStringLiteral("unchanged"))) << result.message.toStdString();
    // Pasted, the same.
    EXPECT_FALSE(m_files.openText(QStringLiteral(R"({"model_type": "llama", "hidden_size": -4096})")).ok);
    EXPECT_TRUE(m_bridge.state() == before);
}

TEST_F(Files, ErrorsNameTheField) {
    const archplay::ui::session::FileResult result =
        m_files.openText(QStringLiteral("{\"model_type\": \"llama\", \"hidden_size\": \"wide\"}"));
    if (!result.ok) {
        EXPECT_TRUE(result.details.join(' ').contains(QStringLiteral("hidden_size")))
            << result.details.join('\n').toStdString();
    }
}

TEST_F(Files, AnUncountableConfigIsRefusedAndOpensOnPurposeAsALabelledEstimate) {
    QFile file(path("moe.json"));
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(R"({"model_type": "new_moe", "vocab_size": 32000, "hidden_size": 2048, "num_hidden_layers": 16,
        "num_attention_heads": 16, "intermediate_size": 8192, "num_experts": 8})");
    file.close();
    const archplay::ui::session::BridgeState before = m_bridge.state();
    const archplay::ui::session::FileResult refused = m_files.openPath(path("moe.json"));
    EXPECT_FALSE(refused.ok);
    EXPECT_TRUE(refused.message.contains(QStringLiteral("Open as an Estimate"))) << refused.message.toStdString();
    EXPECT_TRUE(refused.details.join(' ').contains(QStringLiteral("num_experts")));
    EXPECT_TRUE(m_bridge.state() == before);

    const archplay::ui::session::FileResult estimate = m_files.openPath(path("moe.json"), true);
    ASSERT_TRUE(estimate.ok);
    EXPECT_FALSE(m_bridge.config().exact());
    const core::Analysis analysis = m_bridge.analysis();
    const bool labelled = std::any_of(analysis.diagnostics.begin(), analysis.diagnostics.end(), [](const auto& d) {
        return d.message.find("estimate") != std::string::npos && d.message.find("num_experts") != std::string::npos;
    });
    EXPECT_TRUE(labelled);
}

TEST_F(Files, ASavedConfigReopensIdentical) {
    for (const core::Preset& preset : core::builtinPresets()) {
        ASSERT_TRUE(m_bridge.loadPreset(QString::fromStdString(preset.info.id)));
        const core::ModelConfig saved = m_bridge.config();
        const core::Analysis analysis = m_bridge.analysis();
        ASSERT_TRUE(m_files.saveConfigTo(path("config.json")).ok);
        m_bridge.edit(QStringLiteral("x"), [](core::ModelConfig& c, core::Scenario&) { c.numLayers += 3; });
        const archplay::ui::session::FileResult reopened = m_files.openPath(path("config.json"));
        ASSERT_TRUE(reopened.ok) << reopened.message.toStdString();
        EXPECT_EQ(m_bridge.analysis().params.total, analysis.params.total) << preset.info.id;
        EXPECT_TRUE(m_bridge.config() == saved) << preset.info.id;
        EXPECT_EQ(m_bridge.origin().kind, archplay::ui::session::ConfigOrigin::Kind::File);
        EXPECT_EQ(m_files.currentPath(), path("config.json"));
    }
}

TEST_F(Files, ASavedSessionReopensWithItsScenario) {
    m_bridge.edit(QStringLiteral("s"), [](core::ModelConfig& c, core::Scenario& s) {
        c.numLayers = 7;
        s.sequenceLength = 32768;
        s.batch = 8;
        s.kvDType = core::DType::FP8;
        s.gpu = *core::findGpu(core::builtinGpus(), "l40s");
        s.gpuCount = 2;
    });
    const archplay::ui::session::BridgeState saved = m_bridge.state();
    ASSERT_TRUE(m_files.saveSessionTo(path("session.json")).ok);
    m_bridge.undoStack()->undo();
    ASSERT_TRUE(m_files.openPath(path("session.json")).ok);
    EXPECT_TRUE(m_bridge.config() == saved.config);
    EXPECT_EQ(m_bridge.scenario(), saved.scenario);
    // It started from a preset, and still says so.
    EXPECT_EQ(m_bridge.origin().presetId, saved.origin.presetId);
    EXPECT_TRUE(m_bridge.originSummary().modified);
}

TEST_F(Files, ASessionsOriginPathIsNeverASaveTarget) {
    // A shared session names an existing file that is not a config (a shell startup file) as its origin.
    const QString victim = path("bashrc");
    {
        QFile file(victim);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("export PATH=$HOME/bin:$PATH\n");
    }
    core::Session shared;
    shared.config = m_bridge.config();
    shared.origin.kind = core::SessionOrigin::Kind::File;
    shared.origin.label = "config.json";
    shared.origin.path = victim.toStdString();
    {
        QFile file(path("shared.archplay.json"));
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(core::sessionToJson(shared, "test")));
    }
    // Even after a config was opened (and so became the save target) in this run.
    ASSERT_TRUE(m_files.saveConfigTo(path("mine.json")).ok);
    ASSERT_EQ(m_files.currentPath(), path("mine.json"));
    ASSERT_TRUE(m_files.openPath(path("shared.archplay.json")).ok);
    EXPECT_TRUE(m_files.currentPath().isEmpty()) << "Save must ask where, not write to the session's origin";
    EXPECT_EQ(m_files.suggestedSavePath(), victim) << "Save As may propose it, behind a dialog";
    QFile file(victim);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_EQ(file.readAll(), QByteArray("export PATH=$HOME/bin:$PATH\n"));
    // Saving somewhere the user chose makes that the target again.
    ASSERT_TRUE(m_files.saveConfigTo(path("chosen.json")).ok);
    EXPECT_EQ(m_files.currentPath(), path("chosen.json"));
    EXPECT_EQ(m_files.suggestedSavePath(), path("chosen.json"));
}

TEST_F(Files, AFailedSaveReportsWhyAndLosesNothing) {
    const archplay::ui::session::BridgeState before = m_bridge.state();
    ASSERT_TRUE(m_files.saveConfigTo(path("keep.json")).ok);
    QFile original(path("keep.json"));
    ASSERT_TRUE(original.open(QIODevice::ReadOnly));
    const QByteArray content = original.readAll();
    original.close();

    const archplay::ui::session::FileResult failed = m_files.saveConfigTo(path("missing-dir/config.json"));
    EXPECT_FALSE(failed.ok);
    EXPECT_FALSE(failed.message.isEmpty());
    EXPECT_TRUE(m_bridge.state() == before);

    // Saving over a read-only directory fails without touching the old file.
    QFile::setPermissions(m_dir.path(), QFileDevice::ReadOwner | QFileDevice::ExeOwner);
    m_bridge.edit(QStringLiteral("x"), [](core::ModelConfig& c, core::Scenario&) { c.numLayers += 1; });
    const archplay::ui::session::FileResult readOnly = m_files.saveConfigTo(path("keep.json"));
    QFile::setPermissions(m_dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QFile after(path("keep.json"));
    ASSERT_TRUE(after.open(QIODevice::ReadOnly));
    if (!readOnly.ok) {
        EXPECT_EQ(after.readAll(), content);
    }
}

TEST_F(Files, DevicesAndPipesAreRefusedWithoutReading) {
    // /dev/zero never ends and says its size is 0: it was read until memory ran out.
    const core::ModelConfig before = m_bridge.config();
    const QString fifo = path("pipe");
    ASSERT_EQ(::mkfifo(QFile::encodeName(fifo).constData(), 0644), 0);
    for (const QString& device : {QStringLiteral("/dev/zero"), fifo, m_dir.path()}) {
        const archplay::ui::session::FileResult opened = m_files.openPath(device);
        EXPECT_FALSE(opened.ok) << device.toStdString();
        EXPECT_TRUE(opened.message.contains(QStringLiteral("not a regular file")) ||
                    opened.message.contains(QStringLiteral("directory")))
            << opened.message.toStdString();
    }
    EXPECT_TRUE(m_bridge.config() == before);
}

TEST_F(Files, SavesRefuseReadOnlyFilesUnlessConfirmedAndWriteThroughLinks) {
    ASSERT_TRUE(m_files.saveConfigTo(path("locked.json")).ok);
    QFile original(path("locked.json"));
    ASSERT_TRUE(original.open(QIODevice::ReadOnly));
    const QByteArray content = original.readAll();
    original.close();
    const QFileDevice::Permissions readOnly = QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther;
    ASSERT_TRUE(QFile::setPermissions(path("locked.json"), readOnly));
    m_bridge.edit(QStringLiteral("x"), [](core::ModelConfig& c, core::Scenario&) { c.numLayers += 1; });

    const archplay::ui::session::FileResult refused = m_files.saveConfigTo(path("locked.json"));
    EXPECT_FALSE(refused.ok);
    EXPECT_TRUE(refused.message.contains(QStringLiteral("read-only"))) << refused.message.toStdString();
    QFile kept(path("locked.json"));
    ASSERT_TRUE(kept.open(QIODevice::ReadOnly));
    EXPECT_EQ(kept.readAll(), content);
    kept.close();

    // Confirmed: replaced, and still read-only.
    EXPECT_TRUE(m_files.saveConfigTo(path("locked.json"), core::ReadOnlyTarget::Replace).ok);
    QFile replaced(path("locked.json"));
    ASSERT_TRUE(replaced.open(QIODevice::ReadOnly));
    EXPECT_NE(replaced.readAll(), content);
    namespace fs = std::filesystem;
    EXPECT_EQ(fs::status(path("locked.json").toStdString()).permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);

    // A session saved through a link replaces the file the link names; the link stays.
    ASSERT_TRUE(QFile::link(QStringLiteral("target.json"), path("link.json")));
    ASSERT_TRUE(m_files.saveSessionTo(path("link.json")).ok);
    EXPECT_TRUE(QFileInfo(path("link.json")).isSymLink());
    EXPECT_TRUE(QFileInfo(path("target.json")).isFile());
    QFile target(path("target.json"));
    ASSERT_TRUE(target.open(QIODevice::ReadOnly));
    EXPECT_TRUE(core::looksLikeSession(target.readAll().toStdString()));
}

TEST_F(Files, RecentFilesListTheNewestFirst) {
    ASSERT_TRUE(m_files.saveConfigTo(path("a.json")).ok);
    ASSERT_TRUE(m_files.saveConfigTo(path("b.json")).ok);
    ASSERT_TRUE(m_files.openPath(path("a.json")).ok);
    ASSERT_GE(m_files.recentFiles().size(), 2);
    EXPECT_TRUE(m_files.recentFiles().at(0).endsWith(QStringLiteral("a.json")));
    EXPECT_TRUE(m_files.recentFiles().at(1).endsWith(QStringLiteral("b.json")));
}

TEST_F(Files, PastedConfigIsOneUndoStep) {
    const core::ModelConfig before = m_bridge.config();
    const int steps = m_bridge.undoStack()->count();
    core::ModelConfig other = before;
    other.numLayers = 5;
    const archplay::ui::session::FileResult result =
        m_files.openText(QString::fromStdString(core::exportConfigText(other)));
    ASSERT_TRUE(result.ok) << result.details.join('\n').toStdString();
    EXPECT_EQ(m_bridge.config().numLayers, 5);
    EXPECT_EQ(m_bridge.undoStack()->count(), steps + 1);
    m_bridge.undoStack()->undo();
    EXPECT_TRUE(m_bridge.config() == before);
}

} // namespace
} // namespace archplay::ui
