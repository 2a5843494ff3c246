// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/DiagnosticsStrip.h"

#include "ui/Strings.h"
#include "ui/theme/Theme.h"

#include <QEvent>
#include <QListWidget>
#include <QVBoxLayout>

namespace archplay::ui::panels {

namespace {

constexpr int kFieldRole = Qt::UserRole + 1;
constexpr int kSeverityRole = Qt::UserRole + 2; ///< the icon's severity, -1 for the "no issues" row

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

void DiagnosticsStrip::setSavingProblems(const core::Diagnostics& problems) {
    m_savingProblems = problems;
    rebuild();
}

void DiagnosticsStrip::rebuild() {
    // The rows are updated in place, each only where it changed: a drag that changes one number
    // in one message repaints that row, not the list (QListWidgetItem ignores an equal value).
    int counts[3] = {0, 0, 0};
    int row = 0;
    auto show = [this, &row](std::optional<core::Severity> severity, const QString& text, const QString& field,
                             const QString& tip, const QColor& color) {
        QListWidgetItem* item = row < m_list->count() ? m_list->item(row) : new QListWidgetItem(m_list);
        ++row;
        const int level = severity ? int(*severity) : -1;
        if (const QVariant shown = item->data(kSeverityRole); !shown.isValid() || shown.toInt() != level) {
            item->setIcon(severity ? theme::severityIcon(*severity) : theme::okIcon());
            item->setData(kSeverityRole, level);
        }
        item->setText(text);
        item->setData(kFieldRole, field);
        item->setToolTip(tip);
        item->setForeground(color);
        const Qt::ItemFlags flags =
            severity ? Qt::ItemIsEnabled | Qt::ItemIsSelectable : Qt::ItemFlags(Qt::ItemIsEnabled);
        if (item->flags() != flags) {
            item->setFlags(flags);
        }
    };
    auto add = [this, &counts, &show](const core::Diagnostic& diagnostic, const QString& prefix) {
        const QString field = qs(diagnostic.field);
        const QString target = qs(core::fieldKey(diagnostic.target));
        const QString message = qs(diagnostic.message);
        const QString text =
            field.isEmpty() ? QString(prefix + message) : QString(prefix + field + QStringLiteral(" — ") + message);
        show(diagnostic.severity, text, target,
             QStringLiteral("<p>%1</p>").arg(text.toHtmlEscaped()) +
                 (target.isEmpty() ? QString() : tr("<p><i>Click to edit %1.</i></p>").arg(target)),
             diagnostic.severity == core::Severity::Hint ? palette().color(QPalette::Text)
                                                         : theme::severityColor(diagnostic.severity, palette()));
        ++counts[int(diagnostic.severity)];
    };
    for (const core::Diagnostic& diagnostic : m_diagnostics) {
        add(diagnostic, {});
    }
    for (const core::Diagnostic& note : m_importNotes) {
        add(note, tr("%1: ").arg(m_importSource));
    }
    for (const core::Diagnostic& problem : m_savingProblems) {
        add(problem, tr("not saved: "));
    }
    if (row == 0) {
        show(std::nullopt, tr("No issues: the config is valid and conventional."), QString(), QString(),
             palette().color(QPalette::Text));
    }
    while (m_list->count() > row) {
        delete m_list->takeItem(m_list->count() - 1);
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
