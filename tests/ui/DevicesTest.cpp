// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario's training fields and the user's device catalogue, driven as a user drives them: each
// field is one undoable edit, devices the user adds become choices of the GPU field, and device files
// that are malformed or hostile are refused, naming the field, without touching the catalogue.
#include "core/io/GpuJson.h"
#include "core/report/ScenarioLabels.h"
#include "ui/panels/ConfigPanel.h"
#include "ui/panels/DevicesDialog.h"
#include "ui/session/GpuCatalogue.h"
#include "ui/session/ModelBridge.h"
#include "ui/session/Settings.h"
#include "ui/widgets/IntField.h"
#include "ui/widgets/MessageBar.h"
#include "ui/window/MainWindow.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>
#include <QUndoStack>

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace archplay::ui {
namespace {

core::Gpu labCard(const std::string& id, std::uint64_t memoryGiB = 48) {
    core::GpuFigures figures{.id = id,
                             .name = "Lab card " + id,
                             .memoryGiB = double(memoryGiB),
                             .bandwidthGBs = 960,
                             .bf16Tflops = 181,
                             .fp8Tflops = 362,
                             .source = "our bench"};
    core::Gpu gpu;
    core::Diagnostics diagnostics;
    EXPECT_TRUE(core::gpuFromFigures(figures, gpu, diagnostics));
    return gpu;
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(bytes);
}

class Devices : public ::testing::Test {
protected:
    void SetUp() override {
        m_window.resize(1280, 800);
        m_window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&m_window));
    }
    session::ModelBridge* bridge() const { return m_window.bridge(); }
    session::GpuCatalogue* catalogue() const { return m_window.gpuCatalogue(); }
    template <typename Widget> Widget* field(const QString& name) const {
        auto* widget = m_window.scenarioPanel()->findChild<Widget*>(name);
        EXPECT_NE(widget, nullptr) << name.toStdString();
        return widget;
    }
    QComboBox* gpuCombo() const { return field<QComboBox>(QStringLiteral("field.gpu.combo")); }
    /// Types `text` into an integer field and finishes the edit, as Enter does.
    void type(const QString& key, const QString& text) const {
        auto* spin = field<widgets::SnapSpinBox>(QStringLiteral("field.%1.spin").arg(key));
        ASSERT_NE(spin, nullptr);
        spin->findChild<QLineEdit*>()->setText(text);
        emit spin->editingFinished();
    }
    /// Picks the choice labelled `label` in a combo box, as a click in its list does.
    void choose(const QString& key, const QString& label) const {
        auto* combo = field<QComboBox>(QStringLiteral("field.%1.combo").arg(key));
        ASSERT_NE(combo, nullptr);
        const int index = combo->findText(label);
        ASSERT_GE(index, 0) << label.toStdString();
        combo->setCurrentIndex(index);
        emit combo->activated(index);
    }

    window::MainWindow m_window{window::MainWindowOptions{false}};
};

/// Every new scenario field edits the scenario as one undo step, and undo restores it.
TEST_F(Devices, EveryTrainingFieldIsOneUndoableEdit) {
    ASSERT_TRUE(bridge()->loadPreset(QStringLiteral("llama-3-8b")));
    struct Case {
        const char* key;
        std::function<void()> act;
        std::function<bool(const core::Scenario&)> changed;
    };
    const std::vector<Case> cases = {
        {"training_tokens", [&] { type(QStringLiteral("training_tokens"), QStringLiteral("15T")); },
         [](const core::Scenario& s) {
             return s.trainingTokens == 15'000'000'000'000;
         }},
        {"micro_batch", [&] { type(QStringLiteral("micro_batch"), QStringLiteral("8")); },
         [](const core::Scenario& s) {
             return s.microBatch == 8;
         }},
        {"tensor_parallel", [&] { type(QStringLiteral("tensor_parallel"), QStringLiteral("4")); },
         [](const core::Scenario& s) {
             return s.tensorParallel == 4;
         }},
        {"prefill_chunk", [&] { type(QStringLiteral("prefill_chunk"), QStringLiteral("2k")); },
         [](const core::Scenario& s) {
             return s.prefillChunk == 2048;
         }},
        {"zero_stage", [&] { choose(QStringLiteral("zero_stage"), QString::fromStdString(core::zeroStageLabel(3))); },
         [](const core::Scenario& s) {
             return s.zeroStage == 3;
         }},
        {"recompute",
         [&] {
             choose(QStringLiteral("recompute"), QString::fromStdString(core::recomputeLabel(core::Recompute::Full)));
         },
         [](const core::Scenario& s) {
             return s.recompute == core::Recompute::Full;
         }},
        {"optimizer",
         [&] {
             choose(QStringLiteral("optimizer"),
                    QStringLiteral("Adam, fp32 gradients: 18 B/param")); // the label the brief asks for
         },
         [](const core::Scenario& s) {
             return s.optimizer == core::Optimizer::Adam18;
         }},
        {"activation_dtype", [&] { choose(QStringLiteral("activation_dtype"), QStringLiteral("FP8")); },
         [](const core::Scenario& s) {
             return s.activationDType == core::DType::FP8;
         }},
        {"flash_attention", [&] { field<QCheckBox>(QStringLiteral("field.flash_attention.check"))->click(); },
         [](const core::Scenario& s) {
             return !s.flashAttention;
         }},
        {"dropout", [&] { field<QCheckBox>(QStringLiteral("field.dropout.check"))->click(); },
         [](const core::Scenario& s) {
             return s.dropout;
         }},
        {"mfu", [&] { field<QDoubleSpinBox>(QStringLiteral("field.mfu.spin"))->setValue(55.0); },
         [](const core::Scenario& s) {
             return std::abs(s.mfu - 0.55) < 1e-9;
         }},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.key);
        const core::Scenario before = bridge()->scenario();
        const core::ModelConfig config = bridge()->config();
        ASSERT_FALSE(c.changed(before));
        const int steps = bridge()->undoStack()->index();
        c.act();
        EXPECT_TRUE(c.changed(bridge()->scenario()));
        EXPECT_TRUE(c.changed(bridge()->analysis().scenario)) << "the analysis is of the edited scenario";
        EXPECT_EQ(bridge()->config(), config) << "a scenario field leaves the model alone";
        EXPECT_EQ(bridge()->undoStack()->index(), steps + 1);
        bridge()->undoStack()->undo();
        EXPECT_EQ(bridge()->scenario(), before);
        EXPECT_EQ(bridge()->analysis().scenario, before);
    }
    // The history names a count as it was typed.
    type(QStringLiteral("training_tokens"), QStringLiteral("2T"));
    EXPECT_EQ(bridge()->undoStack()->undoText(), QStringLiteral("Training tokens → 2T"));
}

TEST_F(Devices, TrainingFieldsHaveTheirOwnSectionAndShowTheScenario) {
    auto* training = m_window.scenarioPanel()->findChild<QWidget*>(
        QStringLiteral("section.%1").arg(int(panels::FieldSection::Training)));
    ASSERT_NE(training, nullptr);
    for (const char* key : {"training_tokens", "micro_batch", "tensor_parallel", "zero_stage", "recompute", "optimizer",
                            "mfu", "flash_attention", "dropout"}) {
        const QWidget* editor = m_window.scenarioPanel()->editorFor(QString::fromLatin1(key));
        ASSERT_NE(editor, nullptr) << key;
        EXPECT_TRUE(training->isAncestorOf(editor)) << key;
        EXPECT_EQ(m_window.configPanel()->editorFor(QString::fromLatin1(key)), nullptr) << key;
    }
    bridge()->edit(QStringLiteral("scenario"), [](core::ModelConfig&, core::Scenario& s) {
        s.trainingTokens = 2'000'000'000'000;
        s.mfu = 0.35;
        s.optimizer = core::Optimizer::Adam18;
    });
    EXPECT_EQ(field<widgets::SnapSpinBox>(QStringLiteral("field.training_tokens.spin"))->text(), QStringLiteral("2T"));
    EXPECT_DOUBLE_EQ(field<QDoubleSpinBox>(QStringLiteral("field.mfu.spin"))->value(), 35.0);
    EXPECT_EQ(field<QComboBox>(QStringLiteral("field.optimizer.combo"))->currentText(),
              QStringLiteral("Adam, fp32 gradients: 18 B/param"));
    // A diagnostic about a training field marks that field.
    type(QStringLiteral("tensor_parallel"), QStringLiteral("2"));
    EXPECT_TRUE(field<QLabel>(QStringLiteral("field.tensor_parallel.label"))
                    ->toolTip()
                    .contains(QStringLiteral("does not divide")))
        << "one GPU cannot hold two tensor-parallel ranks";
}

TEST_F(Devices, AUserDeviceBecomesAChoiceAndPickingItIsOneUndoableEdit) {
    QComboBox* combo = gpuCombo();
    const int builtins = int(core::builtinGpus().size());
    EXPECT_EQ(combo->count(), builtins);
    const core::Gpu card = labCard("lab-card");
    ASSERT_TRUE(catalogue()->add(card).ok);
    const QString label = QString::fromStdString(core::gpuChoiceLabel(card));
    const int index = combo->findText(label);
    ASSERT_GT(index, builtins) << "after the built-in devices and a separator";
    EXPECT_TRUE(combo->itemData(index, Qt::ToolTipRole).toString().contains(QStringLiteral("our bench")));

    const core::Gpu before = bridge()->scenario().gpu;
    const int steps = bridge()->undoStack()->index();
    combo->setCurrentIndex(index);
    emit combo->activated(index);
    EXPECT_EQ(bridge()->analysis().scenario.gpu, card);
    EXPECT_EQ(bridge()->analysis().devices.capacityBytes, std::uint64_t{48} << 30);
    EXPECT_EQ(bridge()->undoStack()->index(), steps + 1);
    bridge()->undoStack()->undo();
    EXPECT_EQ(bridge()->analysis().scenario.gpu, before);
    EXPECT_EQ(combo->currentText(), QString::fromStdString(core::gpuChoiceLabel(before)));

    // Built-in devices show their source in the list's tooltips.
    const int h100 = combo->findText(QString::fromStdString(core::gpuChoiceLabel(core::defaultGpu())));
    EXPECT_TRUE(combo->itemData(h100, Qt::ToolTipRole).toString().contains(QStringLiteral("datasheet")));
    EXPECT_TRUE(combo->toolTip().contains(QStringLiteral("datasheet")));
}

TEST_F(Devices, ADeviceNotInTheCatalogueShowsByItsName) {
    core::Gpu stranger = labCard("from-a-session", 24);
    stranger.name = "Borrowed card";
    bridge()->edit(QStringLiteral("session"), [stranger](core::ModelConfig&, core::Scenario& s) { s.gpu = stranger; });
    QComboBox* combo = gpuCombo();
    EXPECT_EQ(combo->currentIndex(), -1);
    EXPECT_TRUE(combo->placeholderText().contains(QStringLiteral("Borrowed card")))
        << combo->placeholderText().toStdString();
    // A built-in id with other figures is not the built-in device either.
    core::Gpu altered = core::defaultGpu();
    altered.bandwidth *= 2;
    altered.builtin = false;
    bridge()->edit(QStringLiteral("altered"), [altered](core::ModelConfig&, core::Scenario& s) { s.gpu = altered; });
    EXPECT_EQ(combo->currentIndex(), -1);
}

TEST_F(Devices, EditingTheDeviceInUseUpdatesTheScenarioAsOneStep) {
    const core::Gpu card = labCard("lab-card");
    ASSERT_TRUE(catalogue()->add(card).ok);
    bridge()->edit(QStringLiteral("pick"), [card](core::ModelConfig&, core::Scenario& s) { s.gpu = card; });
    const int steps = bridge()->undoStack()->index();
    const core::Gpu bigger = labCard("lab-card", 96);
    ASSERT_TRUE(catalogue()->replace(QStringLiteral("lab-card"), bigger).ok);
    EXPECT_EQ(bridge()->scenario().gpu, bigger);
    EXPECT_EQ(gpuCombo()->currentText(), QString::fromStdString(core::gpuChoiceLabel(bigger)));
    EXPECT_EQ(bridge()->undoStack()->index(), steps + 1);
    // Removing it leaves the scenario's copy, shown by name.
    EXPECT_TRUE(catalogue()->remove(QStringLiteral("lab-card")));
    EXPECT_EQ(bridge()->scenario().gpu, bigger);
    EXPECT_EQ(gpuCombo()->currentIndex(), -1);
    EXPECT_FALSE(catalogue()->remove(QStringLiteral("lab-card")));
    EXPECT_FALSE(catalogue()->remove(QStringLiteral("h100-sxm"))) << "built-in devices stay";
}

TEST_F(Devices, TheFormAddsADeviceAndNamesTheFieldItRefuses) {
    panels::DevicesDialog* dialog = m_window.showDevices();
    ASSERT_NE(dialog, nullptr);
    EXPECT_TRUE(dialog->isVisible());
    dialog->findChild<QPushButton*>(QStringLiteral("devices.add"))->click();
    auto* form = dialog->findChild<panels::DeviceForm*>();
    ASSERT_NE(form, nullptr);
    form->findChild<QLineEdit*>(QStringLiteral("device.id"))->setText(QStringLiteral("lab-card"));
    form->findChild<QLineEdit*>(QStringLiteral("device.name"))->setText(QStringLiteral("Lab card"));
    form->findChild<QDoubleSpinBox*>(QStringLiteral("device.bandwidth"))->setValue(960);
    form->findChild<QDoubleSpinBox*>(QStringLiteral("device.bf16"))->setValue(181);
    // No memory yet: refused, the form stays open and says which field.
    form->accept();
    auto* problems = form->findChild<QLabel*>(QStringLiteral("device.problems"));
    EXPECT_TRUE(form->isVisible());
    EXPECT_TRUE(problems->text().startsWith(QStringLiteral("memory_gib:"))) << problems->text().toStdString();
    EXPECT_TRUE(catalogue()->userDevices().empty());
    // A built-in id is refused by the catalogue.
    form->findChild<QSpinBox*>(QStringLiteral("device.memory"))->setValue(48);
    form->findChild<QLineEdit*>(QStringLiteral("device.id"))->setText(QStringLiteral("h100-sxm"));
    form->accept();
    EXPECT_TRUE(problems->text().startsWith(QStringLiteral("id:"))) << problems->text().toStdString();
    EXPECT_TRUE(catalogue()->userDevices().empty());
    form->findChild<QLineEdit*>(QStringLiteral("device.id"))->setText(QStringLiteral("lab-card"));
    form->accept();
    EXPECT_FALSE(form->isVisible());
    ASSERT_EQ(catalogue()->userDevices().size(), 1u);
    EXPECT_EQ(catalogue()->userDevices().front().memoryGiB, 48u);
    EXPECT_DOUBLE_EQ(catalogue()->userDevices().front().bandwidth, 960e9);
    EXPECT_GE(gpuCombo()->findText(QStringLiteral("Lab card · 48 GiB")), 0);
    // The dialog's list shows it under "Yours".
    const QList<QTreeWidgetItem*> found =
        dialog->deviceList()->findItems(QStringLiteral("Lab card"), Qt::MatchExactly | Qt::MatchRecursive);
    ASSERT_EQ(found.size(), 1);
    EXPECT_EQ(found.front()->parent()->text(0), QStringLiteral("Yours"));

    // Remove asks first: Cancel keeps the device, Remove removes it.
    dialog->deviceList()->setCurrentItem(found.front());
    auto* remove = dialog->findChild<QPushButton*>(QStringLiteral("devices.remove"));
    ASSERT_TRUE(remove->isEnabled());
    for (const bool confirm : {false, true}) {
        QTimer::singleShot(0, [confirm] {
            for (QWidget* widget : QApplication::topLevelWidgets()) {
                auto* box = qobject_cast<QMessageBox*>(widget);
                if (box && box->objectName() == QLatin1String("dialog.removeDevice") && box->isVisible()) {
                    for (QAbstractButton* button : box->buttons()) {
                        if ((box->buttonRole(button) == QMessageBox::DestructiveRole) == confirm) {
                            button->click();
                            return;
                        }
                    }
                }
            }
        });
        remove->click();
        EXPECT_EQ(catalogue()->userDevices().size(), confirm ? 0u : 1u);
        if (!confirm) {
            dialog->deviceList()->setCurrentItem(
                dialog->deviceList()
                    ->findItems(QStringLiteral("Lab card"), Qt::MatchExactly | Qt::MatchRecursive)
                    .front());
        }
    }
    EXPECT_EQ(gpuCombo()->findText(QStringLiteral("Lab card · 48 GiB")), -1);
    dialog->close();
}

TEST_F(Devices, MalformedOrHostileFilesAreRefusedNamingTheFieldAndChangeNothing) {
    ASSERT_TRUE(catalogue()->add(labCard("mine")).ok);
    const std::vector<core::Gpu> before = catalogue()->userDevices();
    panels::DevicesDialog* dialog = m_window.showDevices();
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    struct Hostile {
        const char* name;
        QByteArray bytes;
        const char* field; ///< what the message must name
    };
    QByteArray many = "[";
    for (std::size_t i = 0; i <= core::kMaxUserGpus; ++i) {
        many += R"({"id": "d)" + QByteArray::number(qulonglong(i)) +
                R"(", "memory_gib": 1, "bandwidth_gb_s": 1, "bf16_tflops": 1},)";
    }
    many.back() = ']';
    const std::vector<Hostile> files = {
        {"string.json", R"({"gpus": [{"id": "x", "memory_gib": "lots", "bandwidth_gb_s": 1, "bf16_tflops": 1}]})",
         "gpus[0].memory_gib"},
        {"negative.json", R"({"gpus": [{"id": "x", "memory_gib": 8, "bandwidth_gb_s": -5, "bf16_tflops": 1}]})",
         "gpus[0].bandwidth_gb_s"},
        {"builtin.json", R"([{"id": "h100-sxm", "memory_gib": 8, "bandwidth_gb_s": 5, "bf16_tflops": 1}])",
         "gpus[0].id"},
        {"one-bad.json",
         R"([{"id": "ok", "memory_gib": 8, "bandwidth_gb_s": 5, "bf16_tflops": 1}, {"id": "bad", "memory_gib": 8}])",
         "gpus[1].bandwidth_gb_s"},
        {"not-a-list.json", R"({"gpus": 7})", "gpus"},
        {"truncated.json", R"({"gpus": [{"id": )", nullptr},
        {"nested.json", QByteArray(200000, '['), nullptr},
        {"binary.json", QByteArray("\x00\xff\xfe{\x01", 5), nullptr},
        {"many.json", many, "gpus"},
    };
    for (const Hostile& file : files) {
        SCOPED_TRACE(file.name);
        const QString path = dir.filePath(QString::fromLatin1(file.name));
        writeFile(path, file.bytes);
        dialog->importFrom(path);
        EXPECT_EQ(catalogue()->userDevices(), before);
        EXPECT_EQ(dialog->messageBar()->level(), widgets::MessageBar::Level::Error);
        EXPECT_TRUE(dialog->messageBar()->isVisible());
        const QString shown = dialog->messageBar()->text();
        EXPECT_TRUE(shown.contains(QString::fromLatin1(file.name))) << shown.toStdString();
        if (file.field) {
            EXPECT_TRUE(shown.contains(QString::fromLatin1(file.field) + QStringLiteral(": "))) << shown.toStdString();
        }
    }
    // Not a regular file: refused before a byte is read.
    dialog->importFrom(dir.path());
    EXPECT_EQ(dialog->messageBar()->level(), widgets::MessageBar::Level::Error);
    dialog->importFrom(dir.filePath(QStringLiteral("missing.json")));
    EXPECT_EQ(dialog->messageBar()->level(), widgets::MessageBar::Level::Error);
    EXPECT_EQ(catalogue()->userDevices(), before);
    dialog->close();
}

TEST_F(Devices, AFileWithThousandsOfProblemsListsAFewAndCountsTheRest) {
    panels::DevicesDialog* dialog = m_window.showDevices();
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    // 1,000 devices (the most a catalogue holds), each with a bad memory field: 1,000 problems.
    QByteArray many = "[";
    for (std::size_t i = 0; i < core::kMaxUserGpus; ++i) {
        many += R"({"id": "d)" + QByteArray::number(qulonglong(i)) +
                R"(", "memory_gib": -1, "bandwidth_gb_s": 1, "bf16_tflops": 1},)";
    }
    many.back() = ']';
    const QString path = dir.filePath(QStringLiteral("problems.json"));
    writeFile(path, many);
    dialog->importFrom(path);
    const QString shown = dialog->messageBar()->text();
    EXPECT_EQ(shown.count(QStringLiteral(".memory_gib: ")), widgets::MessageBar::kMaxDetails - 1)
        << shown.left(400).toStdString();
    EXPECT_TRUE(shown.contains(
        QStringLiteral("and %1 more").arg(int(core::kMaxUserGpus) - widgets::MessageBar::kMaxDetails + 1)))
        << shown.right(300).toStdString();
    EXPECT_LT(dialog->sizeHint().height(), 2000) << "the dialog stays on the screen";
    dialog->close();
}

TEST_F(Devices, ExportThenImportRoundTrips) {
    const std::vector<core::Gpu> mine = {labCard("a", 24), labCard("b", 96)};
    ASSERT_TRUE(catalogue()->setUserDevices(mine).ok);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("devices.json"));
    panels::DevicesDialog* dialog = m_window.showDevices();
    dialog->exportTo(path);
    EXPECT_EQ(dialog->messageBar()->level(), widgets::MessageBar::Level::Info);
    ASSERT_TRUE(QFile::exists(path));
    ASSERT_TRUE(catalogue()->setUserDevices({}).ok);
    EXPECT_TRUE(catalogue()->userDevices().empty());
    dialog->importFrom(path);
    EXPECT_EQ(catalogue()->userDevices(), mine);
    // Importing again replaces the devices of the same ids rather than refusing or doubling them.
    dialog->importFrom(path);
    EXPECT_EQ(catalogue()->userDevices(), mine);
    EXPECT_TRUE(dialog->messageBar()->text().contains(QStringLiteral("replacing 2")));
    // An export into a directory that does not exist fails and says so.
    dialog->exportTo(dir.filePath(QStringLiteral("no/such/dir/devices.json")));
    EXPECT_EQ(dialog->messageBar()->level(), widgets::MessageBar::Level::Error);
    dialog->close();
}

TEST(DevicesSettings, UserDevicesPersistAcrossWindows) {
    QSettings().clear();
    const core::Gpu card = labCard("lab-card", 48);
    {
        window::MainWindow window;
        ASSERT_TRUE(window.gpuCatalogue()->add(card).ok);
        EXPECT_TRUE(window.close());
    }
    {
        window::MainWindow window;
        ASSERT_EQ(window.gpuCatalogue()->userDevices().size(), 1u);
        EXPECT_EQ(window.gpuCatalogue()->userDevices().front(), card);
        auto* combo = window.scenarioPanel()->findChild<QComboBox*>(QStringLiteral("field.gpu.combo"));
        EXPECT_GE(combo->findText(QString::fromStdString(core::gpuChoiceLabel(card))), 0);
        EXPECT_TRUE(window.gpuCatalogue()->remove(QStringLiteral("lab-card")));
        EXPECT_TRUE(window.close());
    }
    {
        window::MainWindow window;
        EXPECT_TRUE(window.gpuCatalogue()->userDevices().empty());
        EXPECT_TRUE(window.close());
    }
    // Stored text that core refuses in part: the good devices are kept, and the window says so.
    {
        QSettings store;
        ui::session::settings::userDevices.write(
            store, QStringLiteral(R"([{"id": "ok", "memory_gib": 8, "bandwidth_gb_s": 5, "bf16_tflops": 1},
                                     {"id": "h100-sxm", "memory_gib": 8, "bandwidth_gb_s": 5, "bf16_tflops": 1}])"));
    }
    {
        window::MainWindow window;
        ASSERT_EQ(window.gpuCatalogue()->userDevices().size(), 1u);
        EXPECT_EQ(window.gpuCatalogue()->userDevices().front().id, "ok");
        EXPECT_TRUE(window.messageBar()->text().contains(QStringLiteral("gpus[1].id")));
        EXPECT_TRUE(window.close());
    }
    // A window that keeps no settings (screenshots, tests) lists the built-in devices only.
    {
        window::MainWindow window{window::MainWindowOptions{false}};
        EXPECT_TRUE(window.gpuCatalogue()->userDevices().empty());
    }
    QSettings().clear();
}

TEST_F(Devices, TheToolsMenuOpensTheDialog) {
    QAction* devices = nullptr;
    for (QAction* menu : m_window.menuBar()->actions()) {
        if (menu->text() == QStringLiteral("&Tools")) {
            for (QAction* action : menu->menu()->actions()) {
                if (action->text().startsWith(QStringLiteral("&Devices"))) {
                    devices = action;
                }
            }
        }
    }
    ASSERT_NE(devices, nullptr);
    devices->trigger();
    auto* dialog = m_window.findChild<panels::DevicesDialog*>();
    ASSERT_NE(dialog, nullptr);
    EXPECT_TRUE(dialog->isVisible());
    EXPECT_EQ(dialog->deviceList()->topLevelItem(0)->childCount(), int(core::builtinGpus().size()));
    dialog->close();
}

} // namespace
} // namespace archplay::ui
