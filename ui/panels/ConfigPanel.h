// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "ui/panels/config/ConfigFields.h"

#include <QHash>
#include <QWidget>

#include <vector>

class QAction;
class QCheckBox;
class QScrollArea;

namespace archplay::ui::session {
class GpuCatalogue;
class ModelBridge;
} // namespace archplay::ui::session
namespace archplay::ui::widgets {
class CollapsibleSection;
class WheelGuard;
} // namespace archplay::ui::widgets

namespace archplay::ui::panels {

class FieldRow;

/// Fields grouped in foldable sections: the model's (shape, attention, mixers, feed-forward,
/// embeddings) or the scenario's. Shows the analysis it is given; sends each edit to the bridge (a
/// whole slider drag as one undo step).
class ConfigPanel : public QWidget {
    Q_OBJECT

public:
    enum class Content { Model, Scenario };

    /// A Model panel owns the snap toggle; a Scenario panel follows the one it is given.
    ConfigPanel(session::ModelBridge* bridge, Content content, QWidget* parent = nullptr,
                QAction* sharedSnap = nullptr);

    /// The devices the GPU field lists; until one is given, the built-in ones. The field follows the
    /// catalogue's changes.
    void setGpuCatalogue(session::GpuCatalogue* catalogue);

    /// The "snap to hardware-friendly values" toggle, for menus and toolbars.
    QAction* snapAction() const { return m_snapAction; }
    bool keepsFfnRatio() const;
    void setKeepFfnRatio(bool keep);

    /// Reveals and focuses the widget of a config.json key; false when the field is not shown.
    bool focusField(const QString& key);
    /// The widget editing a key (for tests and the diagnostics strip), or nullptr.
    QWidget* editorFor(const QString& key) const;

    QStringList collapsedSections() const;
    void setCollapsedSections(const QStringList& titles);

public slots:
    void setAnalysis(const core::AnalysisPtr& analysis);

protected:
    void changeEvent(QEvent* event) override;

private:
    void buildSection(FieldSection section);
    void onIntegerEdited(const FieldSpec* spec, qint64 value);
    void onRealEdited(const FieldSpec* spec, double value);
    void onTextEdited(const FieldSpec* spec, const QString& text);
    void onDeviceEdited(const FieldSpec* spec, const core::Gpu& device);
    void refreshDevices();
    core::edits::EditContext editContext() const;
    FieldRow* rowFor(const QString& key) const;

    session::ModelBridge* m_bridge;
    session::GpuCatalogue* m_gpus = nullptr;
    QScrollArea* m_scroll;
    widgets::WheelGuard* m_wheelGuard;
    QAction* m_snapAction;
    QCheckBox* m_keepRatio = nullptr;
    std::vector<FieldSection> m_sectionKinds;
    std::vector<widgets::CollapsibleSection*> m_sections;
    std::vector<FieldRow*> m_rows;
    QHash<widgets::CollapsibleSection*, std::vector<QWidget*>> m_toggleStrips;
    core::AnalysisPtr m_analysis = std::make_shared<const core::Analysis>();
    double m_ffnRatio = 0.0;
    bool m_hiddenEditInFlight = false;
};

} // namespace archplay::ui::panels
