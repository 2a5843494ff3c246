// SPDX-License-Identifier: GPL-3.0-or-later
// The window under thousands of random actions a person (or a cat on the keyboard) could take:
// after each one the cards show exactly what core computes for the current config, and at the end
// undoing everything gives back the config the run started with.
#include "core/analysis/Analysis.h"
#include "core/io/Presets.h"
#include "core/io/ViewKind.h"
#include "ui/panels/ConfigPanel.h"
#include "ui/panels/SummaryCards.h"
#include "ui/session/FileController.h"
#include "ui/session/ModelBridge.h"
#include "ui/widgets/IntField.h"
#include "ui/window/MainWindow.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QWheelEvent>

#include <gtest/gtest.h>

#include <random>

namespace archplay::ui {
namespace {

// gcc says it builds with AddressSanitizer by __SANITIZE_ADDRESS__, clang 14 by __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define ARCHPLAY_STRESS_UNDER_ASAN
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARCHPLAY_STRESS_UNDER_ASAN
#endif
#endif
#ifdef ARCHPLAY_STRESS_UNDER_ASAN
constexpr int kActions = 2000; // ten times slower under AddressSanitizer: CI keeps its time
#else
constexpr int kActions = 20000;
#endif

/// Hostile files the run opens now and then: each must be refused or read, never crash.
QStringList hostileFiles(const QDir& dir) {
    const std::vector<std::pair<QString, QByteArray>> files = {
        {QStringLiteral("deep.json"), QByteArray(200000, '[') + QByteArray(200000, ']')},
        {QStringLiteral("huge.json"),
         R"({"model_type":"llama","hidden_size":1099511627776,"num_attention_heads":1099511627776,"head_dim":1099511627776,"num_hidden_layers":1099511627776,"intermediate_size":1,"vocab_size":1})"},
        {QStringLiteral("negative.json"), R"({"model_type":"llama","hidden_size":-4096,"num_hidden_layers":-1})"},
        {QStringLiteral("types.json"), R"({"model_type":["llama"],"hidden_size":"4096","num_hidden_layers":null})"},
        {QStringLiteral("session.json"), R"({"archplay_session":4294967297,"config":{"model_type":"llama"}})"},
        {QStringLiteral("binary.json"), QByteArray("\x00\xff\xfe{\"a\":", 8)},
        {QStringLiteral("empty.json"), QByteArray()},
    };
    QStringList paths;
    for (const auto& [name, bytes] : files) {
        QFile file(dir.filePath(name));
        if (file.open(QIODevice::WriteOnly)) {
            file.write(bytes);
            paths << file.fileName();
        }
    }
    paths << QStringLiteral("/dev/zero") << dir.filePath(QStringLiteral("missing.json"));
    return paths;
}

/// Text typed into a number field: counts people type, suffixed counts, and garbage.
QString typedText(std::mt19937& random) {
    static const QStringList samples = {
        QStringLiteral("4096"),
        QStringLiteral("128k"),
        QStringLiteral("1.5M"),
        QStringLiteral("-5"),
        QStringLiteral("0"),
        QStringLiteral("99999999999999999999"),
        QStringLiteral("abc"),
        QStringLiteral("1e9"),
        QStringLiteral("  64 "),
        QStringLiteral("3,072"),
        QStringLiteral("12.5.3"),
        QStringLiteral("7"),
        QStringLiteral("4294967297"),
        QStringLiteral("1099511627776"),
        QString(),
    };
    if (random() % 4 == 0) {
        return QString::number(std::uniform_int_distribution<qint64>(0, 1 << 20)(random));
    }
    return samples[static_cast<qsizetype>(random() % static_cast<unsigned>(samples.size()))];
}

template <typename T> T* pick(const QList<T*>& items, std::mt19937& random) {
    return items.isEmpty() ? nullptr : items[static_cast<qsizetype>(random() % static_cast<unsigned>(items.size()))];
}

/// The cards, compared with core's analysis of the bridge's config and scenario computed afresh.
void expectCardsMatchCore(window::MainWindow& window, int action, const char* what) {
    const session::ModelBridge& bridge = *window.bridge();
    const core::Analysis fresh = core::analyze(bridge.config(), bridge.scenario());
    const std::vector<panels::CardContent> expected = panels::summaryCards(fresh, bridge.originSummary());
    for (const panels::CardContent& card : expected) {
        const panels::SummaryCard* shown = window.summaryCards()->card(card.id);
        ASSERT_NE(shown, nullptr) << card.id.toStdString();
        ASSERT_EQ(shown->content(), card)
            << "after action " << action << " (" << what << "): card " << card.id.toStdString() << " shows "
            << shown->content().value.toStdString() << ", core says " << card.value.toStdString();
    }
}

TEST(Stress, ThousandsOfRandomActionsKeepTheCardsExactAndUndoRestoresTheStart) {
    QTemporaryDir dir;
    window::MainWindow window{window::MainWindowOptions{false}};
    window.resize(1280, 720);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.bridge()->loadPreset(QStringLiteral("llama-3-8b")));
    window.bridge()->undoStack()->clear();
    const core::ModelConfig start = window.bridge()->config();
    const core::Scenario startScenario = window.bridge()->scenario();
    const QStringList hostile = hostileFiles(QDir(dir.path()));
    const auto& presets = core::builtinPresets();
    QWidget* panel = window.configPanel();
    std::mt19937 random(20261125);

    int changed = 0; // actions that changed the config or scenario: the run must really edit
    for (int action = 0; action < kActions; ++action) {
        const core::ModelConfig before = window.bridge()->config();
        const core::Scenario beforeScenario = window.bridge()->scenario();
        const char* what = "";
        switch (random() % 12) {
        case 0:
        case 1: { // drag a slider from one point to another
            what = "slider drag";
            auto* slider = pick(panel->findChildren<widgets::FieldSlider*>(), random);
            if (slider && slider->isVisible() && slider->isEnabled()) {
                const int width = std::max(slider->width() - 2, 1);
                const QPoint from(1 + static_cast<int>(random() % static_cast<unsigned>(width)), slider->height() / 2);
                const QPoint to(1 + static_cast<int>(random() % static_cast<unsigned>(width)), slider->height() / 2);
                QTest::mousePress(slider, Qt::LeftButton, {}, from);
                QTest::mouseMove(slider, to);
                QTest::mouseRelease(slider, Qt::LeftButton, {}, to);
            }
            break;
        }
        case 2: { // the wheel over a field that does not have the focus: the panel scrolls, nothing changes
            what = "wheel";
            QWidget* target = pick(panel->findChildren<QWidget*>(), random);
            if (target && target->isVisible() && !target->hasFocus()) {
                const QPointF at(target->width() / 2.0, target->height() / 2.0);
                QWheelEvent wheel(at, target->mapToGlobal(at), {}, {0, random() % 2 ? 120 : -120}, Qt::NoButton,
                                  Qt::NoModifier, Qt::NoScrollPhase, false);
                QApplication::sendEvent(target, &wheel);
                EXPECT_EQ(window.bridge()->config(), before) << "action " << action << ": the wheel edited";
            }
            break;
        }
        case 3:
        case 4: { // type into a number field
            what = "typed value";
            auto* field = pick(panel->findChildren<widgets::SnapSpinBox*>(), random);
            if (field && field->isVisible() && field->isEnabled()) {
                field->setFocus();
                QTest::keyClick(field, Qt::Key_A, Qt::ControlModifier);
                QTest::keyClicks(field, typedText(random));
                QTest::keyClick(field, Qt::Key_Return);
            }
            break;
        }
        case 5: { // a combo box or a check box
            what = "choice";
            if (random() % 2) {
                auto* combo = pick(panel->findChildren<QComboBox*>(), random);
                if (combo && combo->isVisible() && combo->isEnabled() && combo->count() > 0) {
                    combo->setFocus();
                    QTest::keyClick(combo, random() % 2 ? Qt::Key_Down : Qt::Key_Up);
                }
            } else {
                auto* box = pick(panel->findChildren<QCheckBox*>(), random);
                if (box && box->isVisible() && box->isEnabled()) {
                    QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(8, box->height() / 2));
                }
            }
            break;
        }
        case 6: // a preset
            what = "preset";
            window.bridge()->loadPreset(QString::fromStdString(presets[random() % presets.size()].info.id));
            break;
        case 7:
        case 8: // undo or redo
            what = "undo/redo";
            random() % 3 ? window.bridge()->undoStack()->undo() : window.bridge()->undoStack()->redo();
            break;
        case 9: // paste or open something hostile
            what = "hostile input";
            if (random() % 2) {
                window.files()->openText(typedText(random) + QStringLiteral("{\"hidden_size\": ") + typedText(random));
            } else {
                window.files()->openPath(
                    hostile[static_cast<qsizetype>(random() % static_cast<unsigned>(hostile.size()))]);
            }
            break;
        case 10: // another view
            what = "view";
            window.selectView(core::kAllViewKinds[random() % std::size(core::kAllViewKinds)]);
            break;
        case 11: // another size
            what = "resize";
            window.resize(1000 + static_cast<int>(random() % 1600), 600 + static_cast<int>(random() % 900));
            break;
        }
        QApplication::processEvents();
        changed += window.bridge()->config() != before || window.bridge()->scenario() != beforeScenario;
        expectCardsMatchCore(window, action, what);
        if (::testing::Test::HasFatalFailure()) {
            return;
        }
    }
    EXPECT_GT(changed, kActions / 4) << "most actions should edit something";

    // Every step undone: the config and scenario the run started with, exactly.
    while (window.bridge()->undoStack()->canUndo()) {
        window.bridge()->undoStack()->undo();
    }
    QApplication::processEvents();
    EXPECT_EQ(window.bridge()->config(), start);
    EXPECT_EQ(window.bridge()->scenario(), startScenario);
    expectCardsMatchCore(window, kActions, "undo everything");
}

} // namespace
} // namespace archplay::ui
