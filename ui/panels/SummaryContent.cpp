// SPDX-License-Identifier: GPL-3.0-or-later
// What the summary cards say: pure formatting of numbers the core computed.
#include "core/report/Summary.h"
#include "core/util/Format.h"
#include "ui/Strings.h"
#include "ui/panels/SummaryCards.h"

#include <QStringList>

#include <algorithm>

namespace archplay::ui::panels {

namespace {

CardContent::Tone toneOf(core::Tone tone) {
    switch (tone) {
    case core::Tone::Good:
        return CardContent::Tone::Good;
    case core::Tone::Caution:
        return CardContent::Tone::Caution;
    case core::Tone::Bad:
        return CardContent::Tone::Bad;
    case core::Tone::Normal:
        break;
    }
    return CardContent::Tone::Normal;
}

} // namespace

std::vector<CardContent> summaryCards(const core::Analysis& analysis, const session::OriginSummary& origin) {
    core::SummaryContext context;
    context.publishedParams = origin.publishedParams;
    context.publishedActive = origin.publishedActive;
    if (origin.modified) {
        context.modifiedFrom = origin.label.toStdString();
    }
    const std::vector<core::SummaryRow> rows = core::summaryRows(analysis, context);
    std::vector<CardContent> cards;
    for (const core::SummaryCardSpec& spec : core::summaryCardSpecs()) {
        CardContent card{qs(spec.key), SummaryCards::tr(spec.title.data())};
        if (const core::SummaryRow* row = core::findRow(rows, spec.key)) {
            card.value = qs(row->value);
            card.detail = qs(row->detail);
            card.tone = toneOf(row->tone);
            QStringList notes;
            for (const std::string& note : row->notes) {
                notes << qs(note).toHtmlEscaped();
            }
            card.toolTip = notes.join(QStringLiteral("<br>"));
        }
        cards.push_back(card);
    }
    return cards;
}

QString originText(const session::OriginSummary& origin) {
    const QString label = origin.label.toHtmlEscaped();
    QString text;
    switch (origin.kind) {
    case session::ConfigOrigin::Kind::None:
        text = origin.modified ? SummaryCards::tr("Custom config") : SummaryCards::tr("Default config");
        break;
    case session::ConfigOrigin::Kind::Preset:
        text = origin.modified ? SummaryCards::tr("<b>Modified</b> from preset <b>%1</b>").arg(label)
                               : SummaryCards::tr("Preset <b>%1</b>").arg(label);
        break;
    case session::ConfigOrigin::Kind::File:
        text = origin.modified ? SummaryCards::tr("<b>Modified</b> from file <b>%1</b>").arg(label)
                               : SummaryCards::tr("File <b>%1</b>").arg(label);
        break;
    case session::ConfigOrigin::Kind::Clipboard:
        text = origin.modified ? SummaryCards::tr("<b>Modified</b> from pasted config")
                               : SummaryCards::tr("Pasted config");
        break;
    }
    if (!origin.source.isEmpty()) {
        text += QStringLiteral(" — ") + origin.source.toHtmlEscaped();
    }
    return text;
}

} // namespace archplay::ui::panels
