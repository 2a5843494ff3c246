// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/session/ModelBridge.h"

#include "core/config/ConfigEdits.h"
#include "ui/Strings.h"

#include <QElapsedTimer>
#include <QLocale>
#include <QUndoCommand>
#include <QUndoStack>

namespace archplay::ui::session {

/// One undo step: the whole state before and after. States are small (a config is a few hundred
/// bytes), so storing both is simpler and safer than inverse operations.
class StateCommand : public QUndoCommand {
public:
    StateCommand(ModelBridge* bridge, BridgeState before, BridgeState after, const QString& text, quint64 gesture)
        : QUndoCommand(text)
        , m_bridge(bridge)
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_gesture(gesture) {}

    int id() const override { return kId; }

    bool mergeWith(const QUndoCommand* other) override {
        const auto* next = static_cast<const StateCommand*>(other);
        if (m_gesture == 0 || next->m_gesture != m_gesture) {
            return false;
        }
        m_after = next->m_after;
        setText(next->text());
        // A drag that ends where it started leaves no step behind.
        setObsolete(m_after == m_before);
        return true;
    }

    void redo() override { m_bridge->applyState(m_after); }
    void undo() override { m_bridge->applyState(m_before); }

private:
    static constexpr int kId = 0x4150;
    ModelBridge* m_bridge;
    BridgeState m_before;
    BridgeState m_after;
    quint64 m_gesture;
};

ModelBridge::ModelBridge(QObject* parent)
    : QObject(parent)
    , m_undoStack(new QUndoStack(this)) {
    m_state.origin.base = m_state.config;
    m_state.scenario.weightsAsShipped = false; // the window's Weights picker shows the format in use
    applyState(m_state);
    connect(m_undoStack, &QUndoStack::cleanChanged, this, &ModelBridge::unsavedChanged);
}

ModelBridge::~ModelBridge() {
    // The stack announces its clean state while it dies; nobody may hear that from a half-destroyed bridge.
    m_undoStack->disconnect();
    delete m_undoStack;
}

OriginSummary ModelBridge::originSummary() const {
    OriginSummary summary;
    const ConfigOrigin& origin = m_state.origin;
    summary.kind = origin.kind;
    summary.label = origin.label;
    summary.modified = !(m_state.config == origin.base);
    if (const core::Preset* p = preset()) {
        summary.source = qs(p->info.source);
        if (!summary.modified) {
            summary.publishedActive = p->info.publishedActive;
        }
        if (!summary.modified && p->info.publishedParams) {
            summary.publishedParams = p->info.publishedParams;
        }
    }
    if (origin.kind == ConfigOrigin::Kind::File) {
        summary.source = origin.path;
    }
    return summary;
}

const core::Preset* ModelBridge::preset() const {
    if (m_state.origin.presetId.isEmpty()) {
        return nullptr;
    }
    return core::findPreset(m_state.origin.presetId.toStdString());
}

void ModelBridge::edit(const QString& description, const Edit& edit) {
    // A gesture's edits all start from where the gesture started, so a drag that passes through a
    // value forcing a dependent field (33 heads: 3 KV heads) and moves on (36) gets it back (4).
    BridgeState after = m_gesture != 0 ? m_gestureStart : m_state;
    edit(after.config, after.scenario);
    if (after == m_state) {
        return;
    }
    push(after, description, true);
}

void ModelBridge::loadConfig(const core::ModelConfig& config, const ConfigOrigin& origin, const QString& description) {
    BridgeState after = m_state;
    after.config = config;
    after.origin = origin;
    fitScenario(after);
    if (after == m_state) {
        return;
    }
    push(after, description, false);
}

std::optional<BridgeState> ModelBridge::presetState(const QString& id) const {
    const core::Preset* p = core::findPreset(id.toStdString());
    if (p == nullptr) {
        return std::nullopt;
    }
    std::optional<core::ModelConfig> config = core::presetConfig(*p);
    if (!config) {
        return std::nullopt;
    }
    BridgeState state = m_state;
    state.config = *config;
    state.origin.kind = ConfigOrigin::Kind::Preset;
    state.origin.presetId = id;
    state.origin.label = qs(p->info.name);
    state.origin.path.clear();
    state.origin.base = *config;
    return state;
}

bool ModelBridge::loadPreset(const QString& id) {
    std::optional<BridgeState> state = presetState(id);
    if (!state) {
        return false;
    }
    fitScenario(*state);
    if (!(*state == m_state)) {
        push(*state, tr("Load preset %1").arg(state->origin.label), false);
    }
    return true;
}

void ModelBridge::loadState(const BridgeState& state, const QString& description) {
    if (state == m_state) {
        return;
    }
    push(state, description, false);
}

void ModelBridge::resetState(const BridgeState& state) {
    m_gesture = 0;
    m_restoredUnsaved = false;
    m_undoStack->clear();
    applyState(state);
    m_undoStack->setClean();
}

void ModelBridge::revertToOrigin() {
    BridgeState after = m_state;
    after.config = m_state.origin.base;
    if (after == m_state) {
        return;
    }
    push(after, tr("Revert to %1").arg(m_state.origin.label.isEmpty() ? tr("defaults") : m_state.origin.label), false);
}

bool ModelBridge::hasUnsavedChanges() const {
    return (m_restoredUnsaved || !m_undoStack->isClean()) && !(m_state.config == m_state.origin.base);
}

void ModelBridge::markSaved() {
    m_restoredUnsaved = false;
    m_undoStack->setClean();
    emit unsavedChanged();
}

void ModelBridge::setRestoredUnsaved(bool unsaved) {
    m_restoredUnsaved = unsaved;
    emit unsavedChanged();
}

void ModelBridge::fitScenario(BridgeState& state) {
    // What loading the model changed in the scenario, said in one notice.
    const QString model = state.origin.label.isEmpty() ? tr("The model") : state.origin.label;
    QStringList changes;
    if (const auto before = core::startFromShippedFormat(&m_state.config, state.config, state.scenario)) {
        const QString format = qs(core::formatInfo(state.scenario.weightFormat).name);
        const QString was = qs(core::formatInfo(*before).name);
        changes << (core::shippedFormat(state.config)
                        ? tr("Weights as shipped: %1 (%2's quantization_config; was %3); pick another format in "
                             "Scenario.")
                              .arg(format, model, was)
                        : tr("Weights back to %1 (was %2, the last model's shipped format): %3 ships no "
                             "quantization_config.")
                              .arg(format, was, model));
    }
    if (const auto before = core::fitSequenceToContext(state.config, state.scenario)) {
        changes << tr("Sequence length set to %1 tokens (was %2): %3's context is %1 tokens.")
                       .arg(QLocale().toString(qulonglong(state.scenario.sequenceLength)),
                            QLocale().toString(qulonglong(*before)), model);
    }
    if (!changes.isEmpty()) {
        emit notice(changes.join(QLatin1Char(' ')) + tr(" Undo restores it."));
    }
}

void ModelBridge::beginGesture() {
    m_gesture = ++m_gestureCounter;
    m_gestureStart = m_state;
}

void ModelBridge::endGesture() {
    m_gesture = 0;
}

void ModelBridge::push(const BridgeState& after, const QString& description, bool mergeable) {
    m_undoStack->push(new StateCommand(this, m_state, after, description, mergeable ? m_gesture : 0));
}

void ModelBridge::applyState(const BridgeState& state) {
    m_state = state;
    QElapsedTimer timer;
    timer.start();
    m_analysis = std::make_shared<const core::Analysis>(core::analyze(m_state.config, m_state.scenario));
    m_lastAnalysisNs = timer.nsecsElapsed();
    emit analysisChanged(m_analysis);
    OriginSummary summary = originSummary();
    if (!(summary == m_lastOrigin)) {
        m_lastOrigin = summary;
        emit originChanged(m_lastOrigin);
    }
}

} // namespace archplay::ui::session
