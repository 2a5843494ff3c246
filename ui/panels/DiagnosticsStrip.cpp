// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/DiagnosticsStrip.h"

#include "ui/theme/Theme.h"

#include <QEvent>
#include <QListWidget>
#include <QVBoxLayout>

namespace archplay::ui::panels {

namespace {

constexpr int kFieldRole = Qt::UserRole + 1;

QString plural(int count, const QString& one, const QString& many) {
    return QStringLiteral("%1 %2").arg(count).arg(count == 1 ? one : many);
}

} // namespace

DiagnosticsStrip::DiagnosticsStrip(QWidget* parent)
    : QWidget(parent)
    , m_list(new QListWidget(this)) {
    m_list->setObjectName(QStringLiteral("diagnostics.list"));
    m_list->setUniformItemSizes(true);
    m_list->setWordWrap(false);
    m_list->setTextElideMode(Qt::ElideRight);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setAccessibleName(tr("Diagnostics"));
    m_list->setToolTip(tr("Click an entry (or press Enter) to jump to its field."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_list);
    connect(m_list, &QListWidget::itemActivated, this, &DiagnosticsStrip::onActivated);
    connect(m_list, &QListWidget::itemClicked, this, &DiagnosticsStrip::onActivated);
    rebuild();
}

void DiagnosticsStrip::setAnalysis(const core::AnalysisPtr& analysis) {
    if (analysis->diagnostics == m_diagnostics && m_list->count() > 0) {
        return;
    }
    m_diagnostics = analysis->diagnostics;
    rebuild();
}

void DiagnosticsStrip::setImportNotes(const core::Diagnostics& notes, const QString& source) {
    m_importNotes = notes;
    m_importSource = source;
    rebuild();
}

void DiagnosticsStrip::rebuild() {
    m_list->clear();
    int counts[3] = {0, 0, 0};
    auto add = [this, &counts](const core::Diagnostic& diagnostic, const QString& prefix) {
        const QString field = QString::fromStdString(diagnostic.field);
        const QString message = QString::fromStdString(diagnostic.message);
        const QString text =
            field.isEmpty() ? QString(prefix + message) : QString(prefix + field + QStringLiteral(" — ") + message);
        auto* item = new QListWidgetItem(theme::severityIcon(diagnostic.severity), text, m_list);
        item->setData(kFieldRole, field);
        item->setToolTip(QStringLiteral("<p>%1</p>").arg(text.toHtmlEscaped()) +
                         (field.isEmpty() ? QString() : tr("<p><i>Click to edit %1.</i></p>").arg(field)));
        item->setForeground(diagnostic.severity == core::Severity::Hint
                                ? palette().color(QPalette::Text)
                                : theme::severityColor(diagnostic.severity, palette()));
        ++counts[int(diagnostic.severity)];
    };
    for (const core::Diagnostic& diagnostic : m_diagnostics) {
        add(diagnostic, {});
    }
    for (const core::Diagnostic& note : m_importNotes) {
        add(note, tr("%1: ").arg(m_importSource));
    }
    QStringList parts;
    if (counts[int(core::Severity::Error)] > 0) {
        parts << plural(counts[int(core::Severity::Error)], tr("error"), tr("errors"));
    }
    if (counts[int(core::Severity::Warning)] > 0) {
        parts << plural(counts[int(core::Severity::Warning)], tr("warning"), tr("warnings"));
    }
    if (counts[int(core::Severity::Hint)] > 0) {
        parts << plural(counts[int(core::Severity::Hint)], tr("hint"), tr("hints"));
    }
    if (m_list->count() == 0) {
        auto* item =
            new QListWidgetItem(theme::okIcon(), tr("No issues: the config is valid and conventional."), m_list);
        item->setFlags(Qt::ItemIsEnabled);
    }
    m_worst.reset();
    for (core::Severity severity : {core::Severity::Hint, core::Severity::Warning, core::Severity::Error}) {
        if (counts[int(severity)] > 0) {
            m_worst = severity;
        }
    }
    const QString summary = parts.isEmpty() ? tr("No issues") : parts.join(QStringLiteral(", "));
    if (summary != m_summary) {
        m_summary = summary;
        emit summaryChanged(m_summary);
    }
}

void DiagnosticsStrip::onActivated(QListWidgetItem* item) {
    const QString field = item ? item->data(kFieldRole).toString() : QString();
    if (!field.isEmpty()) {
        emit fieldActivated(field);
    }
}

void DiagnosticsStrip::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        rebuild();
    }
}

} // namespace archplay::ui::panels
