// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/config/ModelConfig.h"
#include "core/io/Presets.h"
#include "core/io/Session.h"

#include <QObject>
#include <QString>

#include <cstdint>
#include <functional>
#include <optional>

class QUndoStack;

namespace archplay::ui::session {

/// Where the current config came from, for the title, the published-count badge and the
/// "modified from" label.
struct ConfigOrigin {
    using Kind = core::SessionOrigin::Kind; ///< None (the built-in default), Preset, File, Clipboard
    Kind kind = Kind::None;
    QString presetId;       ///< the preset it started from, when there is one
    QString label;          ///< preset name or file name
    QString path;           ///< the file, for Kind::File
    core::ModelConfig base; ///< the config as it was loaded, to tell whether it has been edited since

    bool operator==(const ConfigOrigin&) const = default;
};

/// Everything one undo step restores.
struct BridgeState {
    core::ModelConfig config;
    core::Scenario scenario;
    ConfigOrigin origin;

    bool operator==(const BridgeState&) const = default;
};

/// What the window shows about the origin: computed here so panels only render it.
struct OriginSummary {
    ConfigOrigin::Kind kind = ConfigOrigin::Kind::None;
    QString label;
    QString source;                                       ///< the preset's repository or paper, or the file path
    bool modified = false;                                ///< edited since it was loaded
    std::optional<std::uint64_t> publishedParams;         ///< the preset's published count, when unmodified
    std::optional<core::PublishedActive> publishedActive; ///< the preset's published active count, when unmodified

    bool operator==(const OriginSummary&) const = default;
};

/// The one object between the Qt widgets and core: owns the config, the scenario and the undo
/// history, runs core::analyze() once per change and hands the result to every subscriber.
class ModelBridge : public QObject {
    Q_OBJECT

public:
    using Edit = std::function<void(core::ModelConfig& config, core::Scenario& scenario)>;

    explicit ModelBridge(QObject* parent = nullptr);
    ~ModelBridge() override;

    const core::Analysis& analysis() const { return *m_analysis; }
    /// The current analysis, shared with every view (never copied per view).
    const core::AnalysisPtr& sharedAnalysis() const { return m_analysis; }
    const core::ModelConfig& config() const { return m_state.config; }
    const core::Scenario& scenario() const { return m_state.scenario; }
    const ConfigOrigin& origin() const { return m_state.origin; }
    const BridgeState& state() const { return m_state; }
    OriginSummary originSummary() const;
    /// The preset the config started from, or nullptr.
    const core::Preset* preset() const;
    QUndoStack* undoStack() const { return m_undoStack; }
    /// Wall time of the last core::analyze() call. Units: nanoseconds.
    qint64 lastAnalysisNanoseconds() const { return m_lastAnalysisNs; }

    /// Applies `edit` to a copy of the config and scenario and, when anything changed, pushes it as
    /// one undo step named `description`. Inside a gesture, each edit applies to the state the
    /// gesture started from and the steps merge into one.
    void edit(const QString& description, const Edit& edit);
    /// Replaces the config as one undo step (a preset, a file, a paste), keeping the scenario.
    void loadConfig(const core::ModelConfig& config, const ConfigOrigin& origin, const QString& description);
    /// Loads a built-in preset as one undo step. False for an unknown id.
    bool loadPreset(const QString& id);
    /// Replaces the config and scenario as one undo step (a session file).
    void loadState(const BridgeState& state, const QString& description);
    /// Starts afresh without undo history (start-up, restoring the last session).
    void resetState(const BridgeState& state);
    /// Back to the config as loaded from its preset or file, as one undo step.
    void revertToOrigin();

    /// Work that is in no file: the history moved since the last open or save (or the restored
    /// session had such work), and the config differs from the one loaded. Loading a preset and
    /// leaving it as it is loses nothing.
    bool hasUnsavedChanges() const;
    /// The current state is in a file now (it was just opened or saved).
    void markSaved();
    /// For a session restored at start-up: whether it held unsaved work when the program quit.
    void setRestoredUnsaved(bool unsaved);

    /// A slider drag: every edit until endGesture() becomes one undo step.
    void beginGesture();
    void endGesture();
    bool inGesture() const { return m_gesture != 0; }

    /// The state for a preset, or nullopt for an unknown id. The scenario is the current one.
    std::optional<BridgeState> presetState(const QString& id) const;

signals:
    /// Emitted once per change with the new analysis; every view renders from it.
    void analysisChanged(const archplay::core::AnalysisPtr& analysis);
    /// Emitted when the origin or its modified flag changes.
    void originChanged(const archplay::ui::session::OriginSummary& origin);
    /// Emitted when hasUnsavedChanges() may have changed.
    void unsavedChanged();
    /// Something the user should know about a load, e.g. the sequence length brought within the
    /// new model's context.
    void notice(const QString& message);

private:
    friend class StateCommand;
    void applyState(const BridgeState& state);
    void push(const BridgeState& after, const QString& description, bool mergeable);
    /// A loaded model's scenario within its context (core::fitSequenceToContext), said aloud.
    void fitScenario(BridgeState& state);

    BridgeState m_state;
    core::AnalysisPtr m_analysis = std::make_shared<const core::Analysis>();
    OriginSummary m_lastOrigin;
    QUndoStack* m_undoStack = nullptr;
    quint64 m_gesture = 0;
    BridgeState m_gestureStart; ///< the state when the current gesture began
    quint64 m_gestureCounter = 0;
    qint64 m_lastAnalysisNs = 0;
    bool m_restoredUnsaved = false;
};

} // namespace archplay::ui::session
