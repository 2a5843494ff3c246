// SPDX-License-Identifier: GPL-3.0-or-later
// The config panel as a hand meets it: the wheel scrolls it, sliders move by values a user wants.
#include "ui/panels/ConfigPanel.h"

#include "ui/session/ModelBridge.h"
#include "ui/views/AnalysisView.h"
#include "ui/views/LayerSelection.h"
#include "ui/views/LayerStackView.h"
#include "ui/widgets/IntField.h"
#include "ui/window/MainWindow.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSlider>
#include <QSpontaneKeyEvent>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QTest>
#include <QUndoStack>
#include <QWheelEvent>

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

namespace archplay::ui {
namespace {

/// One notch of a mouse wheel over the middle of `target`, as the window system delivers it.
void wheelNotch(QWidget* target, int notches) {
    const QPointF local = QRectF(target->rect()).center();
    QWheelEvent event(local, target->mapToGlobal(local), QPoint(), QPoint(0, 120 * notches), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QSpontaneKeyEvent::setSpontaneous(&event);
    QApplication::sendEvent(target, &event);
}

/// The centre of a slider's handle.
QPoint handleCentre(QSlider* slider) {
    QStyleOptionSlider option;
    option.initFrom(slider);
    option.orientation = slider->orientation();
    option.minimum = slider->minimum();
    option.maximum = slider->maximum();
    option.sliderPosition = slider->sliderPosition();
    option.sliderValue = slider->value();
    return slider->style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, slider).center();
}

void moveMouse(QSlider* slider, QPoint at) {
    QMouseEvent move(QEvent::MouseMove, QPointF(at), slider->mapToGlobal(QPointF(at)), Qt::NoButton, Qt::LeftButton,
                     Qt::NoModifier);
    QApplication::sendEvent(slider, &move);
}

class Panel : public ::testing::Test {
protected:
    void SetUp() override {
        m_window.resize(1280, 720);
        m_window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&m_window));
        QApplication::setActiveWindow(&m_window);
    }
    session::ModelBridge* bridge() const { return m_window.bridge(); }
    QScrollArea* scrollArea() const { return m_window.configPanel()->findChild<QScrollArea*>(); }
    /// A field of the model's panel or, for the scenario's fields, of the Scenario tab.
    template <typename Widget> Widget* field(const QString& name) const {
        if (auto* widget = m_window.configPanel()->findChild<Widget*>(name)) {
            return widget;
        }
        return m_window.scenarioPanel()->findChild<Widget*>(name);
    }

    window::MainWindow m_window{window::MainWindowOptions{false}};
};

TEST_F(Panel, TheWheelScrollsThePanelOverEveryFieldAndEditsNothing) {
    ASSERT_TRUE(bridge()->loadPreset(QStringLiteral("llama-3-8b")));
    m_window.setFocus();
    const session::BridgeState before = bridge()->state();
    const int steps = bridge()->undoStack()->count();
    QScrollBar* bar = scrollArea()->verticalScrollBar();
    ASSERT_GT(bar->maximum(), 0) << "the panel must be taller than its dock for this test";

    std::set<QString> kinds;
    for (QWidget* input : m_window.configPanel()->findChildren<QWidget*>()) {
        const bool isField = input->objectName().startsWith(QStringLiteral("field.")) &&
                             (qobject_cast<QComboBox*>(input) || qobject_cast<QAbstractSpinBox*>(input) ||
                              qobject_cast<QSlider*>(input));
        if (!isField || !input->isVisible() || !input->isEnabled()) {
            continue;
        }
        scrollArea()->ensureWidgetVisible(input);
        if (bar->value() == bar->maximum()) {
            bar->setValue(bar->maximum() - bar->singleStep() * 3);
        }
        const int scrolled = bar->value();
        wheelNotch(input, -1);
        EXPECT_GT(bar->value(), scrolled) << input->objectName().toStdString() << " did not pass the wheel on";
        EXPECT_EQ(bridge()->state(), before) << input->objectName().toStdString() << " took the wheel";
        kinds.insert(QString::fromLatin1(input->metaObject()->className()));
    }
    EXPECT_GE(kinds.size(), 4u) << "combo boxes, spin boxes, double spin boxes and sliders";
    EXPECT_EQ(bridge()->undoStack()->count(), steps);
}

TEST_F(Panel, AFocusedFieldTakesTheWheel) {
    auto* layers = field<QAbstractSpinBox>(QStringLiteral("field.num_hidden_layers.spin"));
    ASSERT_NE(layers, nullptr);
    const std::int64_t before = bridge()->config().numLayers;
    layers->setFocus();
    ASSERT_TRUE(layers->hasFocus());
    const int scrolled = scrollArea()->verticalScrollBar()->value();
    wheelNotch(layers, 1);
    EXPECT_EQ(bridge()->config().numLayers, before + 1);
    EXPECT_EQ(scrollArea()->verticalScrollBar()->value(), scrolled);
}

TEST_F(Panel, DraggingHeadsKeepsTheKvHeadsAndVisitsEveryWholeGroup) {
    ASSERT_TRUE(bridge()->loadPreset(QStringLiteral("qwen3-30b-a3b")));
    ASSERT_EQ(bridge()->config().numKvHeads, 4);
    m_window.configPanel()->focusField(QStringLiteral("num_attention_heads"));
    QApplication::processEvents();
    auto* slider = field<QSlider>(QStringLiteral("field.num_attention_heads.slider"));
    ASSERT_NE(slider, nullptr);
    const int steps = bridge()->undoStack()->count();
    const QPoint start = handleCentre(slider);
    QTest::mousePress(slider, Qt::LeftButton, {}, start);
    std::vector<std::int64_t> visited{bridge()->config().numHeads};
    for (int x = start.x(); x < slider->width(); ++x) {
        moveMouse(slider, QPoint(x, start.y()));
        EXPECT_EQ(bridge()->config().numKvHeads, 4) << "at " << bridge()->config().numHeads << " heads";
        if (bridge()->config().numHeads != visited.back()) {
            visited.push_back(bridge()->config().numHeads);
        }
    }
    QTest::mouseRelease(slider, Qt::LeftButton, {}, QPoint(slider->width() - 1, start.y()));
    // One pixel at a time: 32, 36, 40, ... 256, every whole group of four and nothing between.
    ASSERT_GT(visited.size(), 2u);
    for (std::size_t i = 1; i < visited.size(); ++i) {
        EXPECT_EQ(visited[i] - visited[i - 1], 4) << "from " << visited[i - 1] << " to " << visited[i];
    }
    EXPECT_EQ(visited.back(), 256);
    EXPECT_EQ(bridge()->undoStack()->count(), steps + 1);
}

TEST_F(Panel, ADragThroughAnOddHeadCountGivesTheKvHeadsBack) {
    ASSERT_TRUE(bridge()->loadPreset(QStringLiteral("qwen3-30b-a3b")));
    m_window.configPanel()->snapAction()->setChecked(false);
    auto* slider = field<QSlider>(QStringLiteral("field.num_attention_heads.slider"));
    ASSERT_NE(slider, nullptr);
    QTest::mousePress(slider, Qt::LeftButton, {}, handleCentre(slider));
    // Heads 33 has no divisor 4: the KV heads go to 3 while there, and back to 4 at 36.
    slider->setSliderPosition(32);
    EXPECT_EQ(bridge()->config().numHeads, 33);
    EXPECT_EQ(bridge()->config().numKvHeads, 3);
    slider->setSliderPosition(35);
    EXPECT_EQ(bridge()->config().numHeads, 36);
    EXPECT_EQ(bridge()->config().numKvHeads, 4);
    QTest::mouseRelease(slider, Qt::LeftButton, {}, handleCentre(slider));
    EXPECT_EQ(bridge()->config().numKvHeads, 4);
    m_window.configPanel()->snapAction()->setChecked(true);
}

TEST_F(Panel, CountsAreTypedAsPeopleWriteThem) {
    auto* sequence = field<QAbstractSpinBox>(QStringLiteral("field.sequence_length.spin"));
    ASSERT_NE(sequence, nullptr);
    EXPECT_EQ(m_window.configPanel()->editorFor(QStringLiteral("sequence_length")), nullptr)
        << "the scenario is not forty fields down the model's panel";
    EXPECT_TRUE(m_window.scenarioPanel()->focusField(QStringLiteral("sequence_length")));
    for (const auto& [typed, tokens] : std::vector<std::pair<const char*, std::uint64_t>>{
             {"128k", 131072}, {"1.5M", 1572864}, {"8,192", 8192}, {"32K", 32768}}) {
        sequence->selectAll();
        QTest::keyClicks(sequence, QString::fromLatin1(typed));
        QTest::keyClick(sequence, Qt::Key_Return);
        EXPECT_EQ(bridge()->scenario().sequenceLength, tokens) << typed;
    }
}

TEST_F(Panel, WindowShortcutsWorkWhileASpinBoxHasFocus) {
    QAction* exportView = nullptr;
    for (QAction* action : m_window.findChildren<QAction*>()) {
        if (action->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_E)) {
            exportView = action;
        }
    }
    ASSERT_NE(exportView, nullptr);
    // The export dialog would block the test; what matters is that the window, not the field, gets the key.
    exportView->disconnect();
    QSignalSpy exported(exportView, &QAction::triggered);
    auto* layers = field<QAbstractSpinBox>(QStringLiteral("field.num_hidden_layers.spin"));
    layers->setFocus();
    ASSERT_TRUE(layers->hasFocus());
    QTest::keyClick(layers, Qt::Key_E, Qt::ControlModifier);
    EXPECT_EQ(exported.count(), 1);

    // Ctrl+Y redoes, from a spin box with nothing typed too.
    const std::int64_t before = bridge()->config().numLayers;
    QTest::keyClick(layers, Qt::Key_Up);
    ASSERT_EQ(bridge()->config().numLayers, before + 1);
    QTest::keyClick(layers, Qt::Key_Z, Qt::ControlModifier);
    ASSERT_EQ(bridge()->config().numLayers, before);
    QTest::keyClick(layers, Qt::Key_Y, Qt::ControlModifier);
    EXPECT_EQ(bridge()->config().numLayers, before + 1);
}

TEST_F(Panel, ClickingALayerInTheStackOpensItsWeights) {
    m_window.selectView(core::ViewKind::LayerStack);
    auto* stack = static_cast<views::LayerStackView*>(m_window.currentView());
    ASSERT_EQ(stack->kind(), core::ViewKind::LayerStack);
    QApplication::processEvents();
    const views::layout::LayerStackLayout placed = stack->layoutFor(QRectF(stack->rect()));
    ASSERT_FALSE(placed.columns.empty());
    ASSERT_GT(placed.columns.front().slabs.size(), 3u);
    const views::layout::StackSlab& slab = placed.columns.front().slabs[3];
    QTest::mouseClick(stack, Qt::LeftButton, {}, slab.rect.center().toPoint());
    EXPECT_EQ(m_window.currentView()->kind(), core::ViewKind::LayerWeights);
    EXPECT_EQ(stack->layerSelection()->layer(), slab.planIndex);
}

TEST_F(Panel, AValueOutsideAFieldsRangeIsShownAsItIs) {
    widgets::IntField hidden(64, 65536, 1 << 20, widgets::SliderScale::Logarithmic, core::Snap::Multiple128, &m_window);
    hidden.setValue(-4096);
    EXPECT_EQ(hidden.spinBox()->value(), -4096);
    hidden.setValue(4096);
    EXPECT_EQ(hidden.spinBox()->minimum(), 64) << "the range comes back once the value is in it";
}

} // namespace
} // namespace archplay::ui
