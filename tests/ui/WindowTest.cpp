// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/ConfigJson.h"
#include "core/io/Presets.h"
#include "core/report/Exports.h"
#include "core/report/Summary.h"
#include "core/util/Format.h"
#include "ui/Strings.h"
#include "ui/export/ExportActions.h"
#include "ui/export/ExportDialog.h"
#include "ui/export/ViewExporter.h"
#include "ui/panels/ConfigPanel.h"
#include "ui/panels/DiagnosticsStrip.h"
#include "ui/panels/PresetPicker.h"
#include "ui/panels/SummaryCards.h"
#include "ui/session/FileController.h"
#include "ui/session/ModelBridge.h"
#include "ui/theme/Theme.h"
#include "ui/views/AnalysisView.h"
#include "ui/views/BreakdownTableView.h"
#include "ui/views/PaintedView.h"
#include "ui/widgets/IntField.h"
#include "ui/widgets/MessageBar.h"
#include "ui/window/MainWindow.h"

#include <QApplication>
#include <QComboBox>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QToolTip>
#include <QTreeWidget>
#include <QUndoStack>
#include <QUrl>

#include <gtest/gtest.h>

namespace archplay::ui {
namespace {

/// The first preset whose id starts with `prefix` ("mixtral-8x7b" finds "mixtral-8x7b-v0.1"), or empty.
QString presetLike(const char* prefix) {
    for (const core::Preset& preset : core::builtinPresets()) {
        if (preset.info.id.rfind(prefix, 0) == 0) {
            return ui::qs(preset.info.id);
        }
    }
    return {};
}

class Window : public ::testing::Test {
protected:
    void SetUp() override {
        m_window.resize(1280, 800);
        m_window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&m_window));
    }
    archplay::ui::session::ModelBridge* bridge() const { return m_window.bridge(); }
    QString cardValue(const char* id) const {
        return m_window.summaryCards()->card(QString::fromLatin1(id))->content().value;
    }
    QString cardTip(const char* id) const {
        return m_window.summaryCards()->card(QString::fromLatin1(id))->content().toolTip;
    }

    archplay::ui::window::MainWindow m_window{archplay::ui::window::MainWindowOptions{false}};
};

TEST_F(Window, DraggingASliderUpdatesTheSummaryInOneUndoStep) {
    auto* slider = m_window.findChild<QSlider*>(QStringLiteral("field.hidden_size.slider"));
    ASSERT_NE(slider, nullptr);
    m_window.configPanel()->focusField(QStringLiteral("hidden_size"));
    QApplication::processEvents();
    const int steps = bridge()->undoStack()->count();
    const std::int64_t before = bridge()->config().hiddenSize;
    const int y = slider->height() / 2;
    QTest::mousePress(slider, Qt::LeftButton, {}, QPoint(slider->width() / 4, y));
    for (int x = slider->width() / 4; x < slider->width() * 3 / 4; x += 7) {
        QMouseEvent move(QEvent::MouseMove, QPointF(x, y), slider->mapToGlobal(QPointF(x, y)), Qt::NoButton,
                         Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(slider, &move);
    }
    QTest::mouseRelease(slider, Qt::LeftButton, {}, QPoint(slider->width() * 3 / 4, y));
    EXPECT_NE(bridge()->config().hiddenSize, before);
    EXPECT_EQ(bridge()->config().hiddenSize % 128, 0) << "snapping is on by default";
    EXPECT_EQ(bridge()->undoStack()->count(), steps + 1);

    const core::Analysis expected = core::analyze(bridge()->config(), bridge()->scenario());
    ASSERT_TRUE(expected.valid);
    EXPECT_EQ(cardValue("total_params"), ui::qs(core::shortCount(expected.params.total)));
    EXPECT_TRUE(cardTip("total_params").contains(ui::qs(core::withThousands(expected.params.total))));
    EXPECT_EQ(cardValue("weight_bytes"), ui::qs(core::binaryBytes(expected.weightBytes)));
    auto* spin = m_window.findChild<archplay::ui::widgets::SnapSpinBox*>(QStringLiteral("field.hidden_size.spin"));
    EXPECT_EQ(spin->value(), bridge()->config().hiddenSize);

    bridge()->undoStack()->undo();
    EXPECT_EQ(bridge()->config().hiddenSize, before);
    EXPECT_EQ(spin->value(), before);
}

TEST_F(Window, TheToolBarsUndoKeepsItsButtonStillWhileADragRenamesTheChange) {
    auto* bar = m_window.findChild<QToolBar*>(QStringLiteral("toolbar.main"));
    ASSERT_NE(bar, nullptr);
    QAction* undo = nullptr;
    for (QAction* action : bar->actions()) {
        if (action->iconText().contains(QStringLiteral("Undo"))) {
            undo = action;
        }
    }
    ASSERT_NE(undo, nullptr);
    int changes = 0;
    QObject::connect(undo, &QAction::changed, [&] { ++changes; });
    const std::int64_t before = bridge()->config().hiddenSize;
    bridge()->edit(QStringLiteral("hidden"),
                   [before](core::ModelConfig& c, core::Scenario&) { c.hiddenSize = before + 128; });
    QApplication::processEvents();
    // The stack renamed its action for this change; the button's action kept its text.
    EXPECT_TRUE(undo->isEnabled());
    EXPECT_LE(changes, 1) << "at most enabled, never renamed";
    EXPECT_EQ(undo->iconText(), QStringLiteral("Undo"));
    auto* button = qobject_cast<QToolButton*>(bar->widgetForAction(undo));
    ASSERT_NE(button, nullptr);
    QHelpEvent tip(QEvent::ToolTip, QPoint(4, 4), button->mapToGlobal(QPoint(4, 4)));
    QApplication::sendEvent(button, &tip);
    EXPECT_TRUE(QToolTip::text().contains(bridge()->undoStack()->undoText())) << QToolTip::text().toStdString();
    EXPECT_FALSE(bridge()->undoStack()->undoText().isEmpty());
    undo->trigger();
    EXPECT_EQ(bridge()->config().hiddenSize, before) << "the button undoes through the stack";
}

TEST_F(Window, TypedValuesAreExact) {
    auto* spin = m_window.findChild<archplay::ui::widgets::SnapSpinBox*>(QStringLiteral("field.vocab_size.spin"));
    ASSERT_NE(spin, nullptr);
    spin->setValue(50257);
    EXPECT_EQ(bridge()->config().vocabSize, 50257);
    const core::Analysis expected = core::analyze(bridge()->config(), bridge()->scenario());
    EXPECT_TRUE(cardTip("total_params").contains(ui::qs(core::withThousands(expected.params.total))));
}

TEST_F(Window, CtrlZInAnUntouchedSpinBoxUndoesTheModel) {
    auto* spin =
        m_window.findChild<archplay::ui::widgets::SnapSpinBox*>(QStringLiteral("field.num_hidden_layers.spin"));
    ASSERT_NE(spin, nullptr);
    const std::int64_t before = bridge()->config().numLayers;
    QApplication::setActiveWindow(&m_window);
    spin->setFocus();
    QTest::keyClick(spin, Qt::Key_Up);
    EXPECT_EQ(bridge()->config().numLayers, before + 1);
    QTest::keySequence(&m_window, QKeySequence::Undo);
    EXPECT_EQ(bridge()->config().numLayers, before);
    EXPECT_EQ(spin->value(), before);
}

TEST_F(Window, ChoicesEditTheConfig) {
    auto* combo = m_window.findChild<QComboBox*>(QStringLiteral("field.attention_family.combo"));
    ASSERT_NE(combo, nullptr);
    const int mqa = combo->findData(QVariant::fromValue(qint64(core::AttentionFamily::MQA)));
    ASSERT_GE(mqa, 0);
    combo->setCurrentIndex(mqa);
    emit combo->activated(mqa);
    EXPECT_EQ(bridge()->config().numKvHeads, 1);
    EXPECT_TRUE(cardValue("attention").startsWith(QStringLiteral("MQA")));
}

TEST_F(Window, TheCardsSayWhatTheExportedSummarySays) {
    for (const char* id : {"llama-3-8b", "qwen3-next-80b-a3b", "t5-small", "deepseek-v3"}) {
        ASSERT_TRUE(bridge()->loadPreset(QString::fromLatin1(id))) << id;
        const std::optional<std::string> csv =
            core::exportText(bridge()->analysis(), core::ExportWhat::Summary, core::ExportFormat::Csv,
                             m_window.exportActions()->reportInfo());
        ASSERT_TRUE(csv.has_value());
        for (const core::SummaryCardSpec& spec : core::summaryCardSpecs()) {
            const archplay::ui::panels::CardContent& card =
                m_window.summaryCards()->card(ui::qs(std::string(spec.key)))->content();
            // The exported row: key, label, value, exact, detail.
            const std::string line = std::string(spec.key) + ",";
            const std::size_t at = csv->find("\n" + line);
            ASSERT_NE(at, std::string::npos) << id << " " << spec.key;
            const std::string row = csv->substr(at + 1, csv->find('\n', at + 1) - at - 1);
            EXPECT_NE(row.find(card.value.toStdString()), std::string::npos) << id << " " << row;
            EXPECT_NE(row.find(card.detail.toStdString()), std::string::npos) << id << " " << row;
        }
    }
}

TEST_F(Window, TheScenarioGpuDecidesWhetherTheWeightsCardSaysItFits) {
    ASSERT_TRUE(bridge()->loadPreset(QStringLiteral("llama-3-70b")));
    auto* gpu = m_window.findChild<QComboBox*>(QStringLiteral("field.gpu.combo"));
    auto* count = m_window.findChild<archplay::ui::widgets::SnapSpinBox*>(QStringLiteral("field.gpu_count.spin"));
    ASSERT_NE(gpu, nullptr);
    ASSERT_NE(count, nullptr);
    const archplay::ui::panels::CardContent* weights =
        &m_window.summaryCards()->card(QStringLiteral("weight_bytes"))->content();
    // 131 GiB of BF16 weights do not fit one 80 GiB device.
    EXPECT_TRUE(weights->detail.contains(QStringLiteral("needs 2 x 80 GiB"))) << weights->detail.toStdString();
    EXPECT_EQ(weights->tone, archplay::ui::panels::CardContent::Tone::Caution);

    const auto& gpus = archplay::core::builtinGpus();
    const int h200 = gpu->findData(QVariant::fromValue(
        qint64(std::find_if(gpus.begin(), gpus.end(), [](const auto& g) { return g.id == "h200"; }) - gpus.begin())));
    ASSERT_GE(h200, 0);
    gpu->setCurrentIndex(h200);
    emit gpu->activated(h200);
    EXPECT_EQ(bridge()->scenario().gpu.id, "h200");
    weights = &m_window.summaryCards()->card(QStringLiteral("weight_bytes"))->content();
    EXPECT_TRUE(weights->detail.contains(QStringLiteral("fits on 1 x H200 (141 GiB)")))
        << weights->detail.toStdString();
    EXPECT_EQ(weights->tone, archplay::ui::panels::CardContent::Tone::Good);
    EXPECT_EQ(bridge()->analysis().devices.fits, true);

    count->setValue(4);
    EXPECT_EQ(bridge()->scenario().gpuCount, 4u);
    EXPECT_EQ(bridge()->analysis().devices.capacityBytes, 4 * 141ull << 30);
    QTest::keySequence(&m_window, QKeySequence::Undo);
    EXPECT_EQ(bridge()->scenario().gpuCount, 1u);
}

TEST_F(Window, EveryPresetLoadsAndShowsItsCount) {
    for (const core::Preset& preset : core::builtinPresets()) {
        ASSERT_TRUE(bridge()->loadPreset(ui::qs(preset.info.id)));
        const core::Analysis expected = core::analyze(*core::presetConfig(preset), bridge()->scenario());
        EXPECT_EQ(cardValue("total_params"), ui::qs(core::shortCount(expected.params.total))) << preset.info.id;
        if (preset.info.publishedParams) {
            const archplay::ui::panels::CardContent& total =
                m_window.summaryCards()->card(QStringLiteral("total_params"))->content();
            if (*preset.info.publishedParams == expected.params.total) {
                EXPECT_EQ(total.tone, archplay::ui::panels::CardContent::Tone::Good) << preset.info.id;
            } else {
                EXPECT_EQ(total.tone, archplay::ui::panels::CardContent::Tone::Caution) << preset.info.id;
            }
        }
        EXPECT_TRUE(m_window.summaryCards()->originLabel()->text().contains(ui::qs(preset.info.name).toHtmlEscaped()));
    }
}

TEST_F(Window, FieldsThatDoNotApplyAreHidden) {
    const QString mixtral = presetLike("mixtral-8x7b");
    const QString llama = presetLike("llama-3-8b");
    const QString deepseek = presetLike("deepseek-v3");
    ASSERT_FALSE(mixtral.isEmpty() || llama.isEmpty() || deepseek.isEmpty()) << "built-in presets are missing";
    archplay::ui::panels::ConfigPanel* panel = m_window.configPanel();
    ASSERT_TRUE(bridge()->loadPreset(llama));
    EXPECT_FALSE(panel->editorFor(QStringLiteral("num_experts"))->isVisibleTo(panel));
    EXPECT_FALSE(panel->editorFor(QStringLiteral("kv_lora_rank"))->isVisibleTo(panel));
    ASSERT_TRUE(bridge()->loadPreset(mixtral));
    EXPECT_TRUE(panel->editorFor(QStringLiteral("num_experts"))->isVisibleTo(panel));
    EXPECT_FALSE(panel->editorFor(QStringLiteral("kv_lora_rank"))->isVisibleTo(panel));
    ASSERT_TRUE(bridge()->loadPreset(deepseek));
    EXPECT_TRUE(panel->editorFor(QStringLiteral("kv_lora_rank"))->isVisibleTo(panel));
    EXPECT_TRUE(panel->editorFor(QStringLiteral("first_k_dense_replace"))->isVisibleTo(panel));
    EXPECT_FALSE(panel->editorFor(QStringLiteral("head_dim"))->isVisibleTo(panel));
    EXPECT_FALSE(panel->editorFor(QStringLiteral("num_key_value_heads"))->isEnabled());
}

TEST_F(Window, HybridModelsShowTheirMixerFieldsAndTypedMixersChangeTheCache) {
    archplay::ui::panels::ConfigPanel* panel = m_window.configPanel();
    ASSERT_TRUE(bridge()->loadPreset(QStringLiteral("qwen3-next-80b-a3b")));
    EXPECT_TRUE(panel->editorFor(QStringLiteral("linear_num_value_heads"))->isVisibleTo(panel));
    EXPECT_FALSE(panel->editorFor(QStringLiteral("mamba_d_state"))->isVisibleTo(panel));
    archplay::ui::panels::ConfigPanel* scenario = m_window.scenarioPanel();
    EXPECT_TRUE(scenario->editorFor(QStringLiteral("state_dtype"))->isVisibleTo(scenario));
    auto* mixers = qobject_cast<QLineEdit*>(panel->editorFor(QStringLiteral("token_mixers")));
    ASSERT_NE(mixers, nullptr);
    EXPECT_EQ(mixers->text(), QStringLiteral("D D D A"));
    EXPECT_TRUE(cardTip("kv_bytes_per_token").contains(QStringLiteral("fixed convolution and recurrent state")));

    // Half the layers attention instead of a quarter: the per-token cache doubles.
    const std::uint64_t before = bridge()->analysis().kv.bytesPerToken;
    mixers->setText(QStringLiteral("D A"));
    mixers->setModified(true);
    emit mixers->editingFinished();
    EXPECT_EQ(bridge()->analysis().kv.bytesPerToken, 2 * before);
    bridge()->undoStack()->undo();
    EXPECT_EQ(bridge()->analysis().kv.bytesPerToken, before);

    ASSERT_TRUE(bridge()->loadPreset(QStringLiteral("granite-4.0-h-small")));
    EXPECT_TRUE(panel->editorFor(QStringLiteral("mamba_d_state"))->isVisibleTo(panel));
    EXPECT_FALSE(panel->editorFor(QStringLiteral("linear_num_value_heads"))->isVisibleTo(panel));
    ASSERT_TRUE(bridge()->loadPreset(QStringLiteral("gpt-oss-120b")));
    EXPECT_TRUE(panel->editorFor(QStringLiteral("router_bias"))->isVisibleTo(panel));
    EXPECT_FALSE(scenario->editorFor(QStringLiteral("state_dtype"))->isVisibleTo(scenario));
    // An encoder has no decoder mixers: the whole section goes.
    ASSERT_TRUE(bridge()->loadPreset(presetLike("bert-base")));
    auto* section =
        panel->findChild<QWidget*>(QStringLiteral("section.%1").arg(int(archplay::ui::panels::FieldSection::Mixers)));
    ASSERT_NE(section, nullptr);
    EXPECT_FALSE(section->isVisibleTo(panel));
}

TEST_F(Window, ClickingADiagnosticFocusesItsField) {
    bridge()->edit(QStringLiteral("bad"), [](core::ModelConfig& c, core::Scenario&) {
        c.numHeads = 32;
        c.numKvHeads = 5;
        c.latent.reset();
    });
    EXPECT_FALSE(bridge()->analysis().valid);
    EXPECT_EQ(cardValue("total_params"), QStringLiteral("—"));
    QListWidget* list = m_window.diagnostics()->list();
    QListWidgetItem* target = nullptr;
    for (int i = 0; i < list->count(); ++i) {
        if (list->item(i)->text().startsWith(QStringLiteral("num_key_value_heads"))) {
            target = list->item(i);
        }
    }
    ASSERT_NE(target, nullptr) << "the core names num_key_value_heads";
    QApplication::setActiveWindow(&m_window);
    emit list->itemClicked(target);
    QApplication::processEvents();
    QWidget* editor = m_window.configPanel()->editorFor(QStringLiteral("num_key_value_heads"));
    EXPECT_EQ(QApplication::focusWidget(), editor);
}

TEST_F(Window, TheDiagnosticsListRewritesOnlyTheRowsThatChanged) {
    QListWidget* list = m_window.diagnostics()->list();
    auto texts = [](const QListWidget* l) {
        QStringList all;
        for (int i = 0; i < l->count(); ++i) {
            all << l->item(i)->text();
        }
        return all;
    };
    // What a strip made afresh for the window's analysis lists.
    auto fresh = [this, &texts] {
        archplay::ui::panels::DiagnosticsStrip strip;
        strip.setAnalysis(bridge()->sharedAnalysis());
        return texts(strip.list());
    };
    auto edit = [this](int kvHeads) {
        bridge()->edit(QStringLiteral("kv"), [kvHeads](core::ModelConfig& c, core::Scenario& s) {
            c.numHeads = 32;
            c.numKvHeads = kvHeads;
            c.latent.reset();
            s.sequenceLength = std::uint64_t(c.maxPositions) * 2; // and a warning that stays
        });
    };
    edit(5);
    const QStringList before = texts(list);
    ASSERT_GE(before.size(), 2) << "an error and at least one other entry";
    EXPECT_EQ(before, fresh());
    std::vector<QListWidgetItem*> rows;
    for (int i = 0; i < list->count(); ++i) {
        rows.push_back(list->item(i));
    }
    QSignalSpy changed(list->model(), &QAbstractItemModel::dataChanged);
    edit(6);
    const QStringList after = texts(list);
    EXPECT_EQ(after, fresh());
    ASSERT_EQ(after.size(), before.size());
    int rewritten = 0;
    for (int i = 0; i < list->count(); ++i) {
        EXPECT_EQ(list->item(i), rows[std::size_t(i)]) << "row " << i << " kept";
        rewritten += after[i] != before[i] ? 1 : 0;
    }
    EXPECT_GE(rewritten, 1) << "the KV heads message names the count";
    for (const QList<QVariant>& signal : changed) {
        const int row = signal.at(0).toModelIndex().row();
        EXPECT_NE(after[row], before[row]) << "row " << row << " repainted without a change";
    }
    // Fewer entries: the rows left are those a fresh list shows.
    edit(8);
    EXPECT_EQ(texts(list), fresh());
    EXPECT_LT(list->count(), int(before.size()));
}

TEST_F(Window, PresetSearchFindsByPartialName) {
    ASSERT_FALSE(presetLike("mixtral").isEmpty()) << "the built-in Mixtral preset is missing";
    archplay::ui::panels::PresetPicker* picker = m_window.presetPicker();
    const int all = picker->visiblePresetCount();
    EXPECT_EQ(all, int(core::builtinPresets().size()));
    picker->setFilterText(QStringLiteral("mix"));
    EXPECT_GE(picker->visiblePresetCount(), 1);
    EXPECT_LT(picker->visiblePresetCount(), all);
    QSignalSpy spy(picker, &archplay::ui::panels::PresetPicker::presetChosen);
    QTest::keyClick(picker->searchField(), Qt::Key_Return);
    ASSERT_EQ(spy.count(), 1);
    EXPECT_TRUE(spy.front().front().toString().startsWith(QStringLiteral("mixtral")));
    EXPECT_EQ(bridge()->origin().presetId, spy.front().front().toString());
    picker->setFilterText({});
    EXPECT_EQ(picker->visiblePresetCount(), all);
}

TEST_F(Window, ThePresetPopupLoadsWhatYouTypeWithEnter) {
    const QString mixtral = presetLike("mixtral");
    ASSERT_FALSE(mixtral.isEmpty()) << "the built-in Mixtral preset is missing";
    auto* button = m_window.findChild<QToolButton*>(QStringLiteral("toolbar.presets"));
    ASSERT_NE(button, nullptr);
    QApplication::setActiveWindow(&m_window);
    QString typedInto;
    QTimer::singleShot(200, [&] {
        QWidget* focus = QApplication::focusWidget();
        typedInto = focus ? focus->objectName() : QString();
        if (focus) {
            QTest::keyClicks(focus, QStringLiteral("mix"));
            QTest::keyClick(focus, Qt::Key_Return);
        }
        if (QWidget* popup = QApplication::activePopupWidget()) {
            popup->close();
        }
    });
    const int steps = bridge()->undoStack()->count();
    button->showMenu();
    EXPECT_EQ(typedInto, QStringLiteral("presets.search"));
    EXPECT_TRUE(bridge()->origin().presetId.startsWith(QStringLiteral("mixtral")));
    EXPECT_EQ(bridge()->undoStack()->count(), steps + 1);
}

TEST_F(Window, InvalidPasteShowsAMessageAndKeepsTheConfig) {
    const archplay::ui::session::BridgeState before = bridge()->state();
    const archplay::ui::session::FileResult result = m_window.files()->openText(QStringLiteral("{\"hidden_size\": "));
    EXPECT_FALSE(result.ok);
    EXPECT_TRUE(bridge()->state() == before);
    EXPECT_TRUE(m_window.messageBar()->isVisible());
    EXPECT_EQ(m_window.messageBar()->level(), archplay::ui::widgets::MessageBar::Level::Error);
}

TEST_F(Window, DroppingAConfigFileOpensIt) {
    QTemporaryDir dir;
    core::ModelConfig config = bridge()->config();
    config.numLayers = 9;
    const QString path = dir.filePath(QStringLiteral("dropped.json"));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(core::exportConfigText(config)));
    file.close();
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&m_window, &enter);
    EXPECT_TRUE(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&m_window, &drop);
    EXPECT_EQ(bridge()->config().numLayers, 9);
    EXPECT_EQ(bridge()->origin().kind, archplay::ui::session::ConfigOrigin::Kind::File);
    EXPECT_TRUE(m_window.windowTitle().contains(QStringLiteral("dropped.json")));
}

TEST_F(Window, TheBreakdownTableShowsExactCounts) {
    m_window.selectView(archplay::core::ViewKind::Breakdown);
    auto* table = dynamic_cast<archplay::ui::views::BreakdownTableView*>(m_window.currentView());
    ASSERT_NE(table, nullptr);
    EXPECT_EQ(table->kind(), archplay::core::ViewKind::Breakdown);
    QTreeWidgetItem* root = table->tree()->topLevelItem(0);
    ASSERT_NE(root, nullptr);
    EXPECT_EQ(root->text(1), ui::qs(core::withThousands(bridge()->analysis().params.total)));
    root->setExpanded(true);
    const int expandedChildren = root->childCount();
    bridge()->edit(QStringLiteral("layers"), [](core::ModelConfig& c, core::Scenario&) { c.numLayers += 2; });
    EXPECT_EQ(table->tree()->topLevelItem(0), root) << "rows are updated in place";
    EXPECT_EQ(root->childCount(), expandedChildren);
    EXPECT_EQ(root->text(1), ui::qs(core::withThousands(bridge()->analysis().params.total)));
    const QImage image = exports::renderImage(*table, {QSize(900, 600), 1.0});
    ASSERT_FALSE(image.isNull());
    EXPECT_NE(image.pixel(450, 10), image.pixel(450, 590)) << "the header is drawn";
}

TEST_F(Window, HiddenViewsTakeAChangeWhenShownOrExported) {
    auto view = [&](const char* id) {
        for (archplay::ui::views::AnalysisView* v : m_window.views()) {
            if (v->name() == QLatin1String(id)) {
                return dynamic_cast<archplay::ui::views::PaintedView*>(v);
            }
        }
        return static_cast<archplay::ui::views::PaintedView*>(nullptr);
    };
    archplay::ui::views::PaintedView* kv = view("kv-cache");
    archplay::ui::views::PaintedView* stack = view("layer-stack");
    ASSERT_NE(kv, nullptr);
    ASSERT_NE(stack, nullptr);
    m_window.selectView(archplay::core::ViewKind::Breakdown);
    const std::int64_t before = bridge()->config().numLayers;
    bridge()->edit(QStringLiteral("layers"), [](core::ModelConfig& c, core::Scenario&) { c.numLayers += 2; });
    // A slider drag pays for the visible view only: the hidden ones still hold the old state...
    EXPECT_EQ(kv->analysis().config.numLayers, before);
    // ...until they are shown,
    m_window.selectView(archplay::core::ViewKind::KvCache);
    EXPECT_EQ(kv->analysis().config.numLayers, before + 2);
    // or exported while hidden.
    m_window.selectView(archplay::core::ViewKind::Breakdown);
    bridge()->edit(QStringLiteral("layers"), [](core::ModelConfig& c, core::Scenario&) { c.numLayers += 2; });
    EXPECT_EQ(stack->analysis().config.numLayers, before);
    QTemporaryDir dir;
    exports::FigureExportSettings settings;
    settings.format = core::ExportFormat::Svg;
    settings.path = dir.filePath(QStringLiteral("stack.svg"));
    EXPECT_TRUE(m_window.exportActions()->exportView(*stack, settings).ok());
    EXPECT_EQ(stack->analysis().config.numLayers, before + 4);
}

TEST_F(Window, ThemesSwitchThePalette) {
    m_window.setThemeMode(archplay::ui::theme::ThemeMode::Dark);
    QApplication::processEvents();
    EXPECT_TRUE(theme::isDark(QApplication::palette()));
    EXPECT_TRUE(theme::isDark(m_window.summaryCards()->palette()));
    m_window.setThemeMode(archplay::ui::theme::ThemeMode::Light);
    EXPECT_FALSE(theme::isDark(QApplication::palette()));
}

TEST_F(Window, AFieldMarkedByADiagnosticTakesTheNewThemesColour) {
    // The panel hears of a theme change before its children take the new palette: the mark's colour
    // comes from the new one, in both directions.
    m_window.bridge()->edit(QStringLiteral("edit"), [](core::ModelConfig& c, core::Scenario&) {
        c.numHeads = 32;
        c.numKvHeads = 5; // does not divide the heads
    });
    QApplication::processEvents();
    const auto* label = m_window.configPanel()->findChild<QLabel*>(QStringLiteral("field.num_key_value_heads.label"));
    ASSERT_NE(label, nullptr);
    for (const theme::ThemeMode mode : {theme::ThemeMode::Dark, theme::ThemeMode::Light, theme::ThemeMode::Dark}) {
        m_window.setThemeMode(mode);
        QApplication::processEvents();
        EXPECT_EQ(label->palette().color(QPalette::WindowText),
                  theme::severityColor(core::Severity::Error, QApplication::palette()))
            << (mode == theme::ThemeMode::Dark ? "dark" : "light");
    }
    m_window.setThemeMode(theme::ThemeMode::Light);
}

TEST_F(Window, EveryFieldHasATooltipNamingItsKey) {
    for (QWidget* widget : m_window.configPanel()->findChildren<QWidget*>()) {
        const QString name = widget->objectName();
        if (name.startsWith(QStringLiteral("field.")) && !name.endsWith(QStringLiteral(".keepRatio"))) {
            EXPECT_FALSE(widget->toolTip().isEmpty()) << name.toStdString();
        }
    }
}

} // namespace
} // namespace archplay::ui
