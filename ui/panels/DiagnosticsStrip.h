// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/validate/Diagnostic.h"

#include <QWidget>

#include <optional>

class QListWidget;
class QListWidgetItem;

namespace archplay::ui::panels {

/// The errors, warnings and hints of the core's validation (and the notes of the last import),
/// each naming its field. Activating one asks the window to focus that field.
class DiagnosticsStrip : public QWidget {
    Q_OBJECT

public:
    explicit DiagnosticsStrip(QWidget* parent = nullptr);

    QListWidget* list() const { return m_list; }
    /// "1 error, 2 hints" or "No issues".
    QString summary() const { return m_summary; }
    /// The most severe entry listed, or nullopt when there is none.
    std::optional<core::Severity> worstSeverity() const { return m_worst; }

public slots:
    void setAnalysis(const core::AnalysisPtr& analysis);
    /// Notes from reading a file or pasted text; shown until the next import.
    void setImportNotes(const core::Diagnostics& notes, const QString& source);
    /// What archplay could not keep (the automatic copy, the settings); shown until it can again.
    void setSavingProblems(const core::Diagnostics& problems);

signals:
    void fieldActivated(const QString& key);
    void summaryChanged(const QString& summary);

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void onActivated(QListWidgetItem* item);

    QListWidget* m_list;
    core::Diagnostics m_diagnostics;
    core::Diagnostics m_importNotes;
    QString m_importSource;
    core::Diagnostics m_savingProblems;
    QString m_summary;
    std::optional<core::Severity> m_worst;
};

} // namespace archplay::ui::panels
