// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/TextLines.h"

#include <QRegularExpression>
#include <QTextLayout>

#include <atomic>

namespace archplay::ui::widgets {
namespace {

std::atomic<std::uint64_t> g_elisions{0};

} // namespace

QString fitted(const QFontMetricsF& metrics, const QString& text, qreal width) {
    QString shown = metrics.elidedText(text, Qt::ElideRight, width);
    if (shown != text) {
        g_elisions.fetch_add(1, std::memory_order_relaxed);
    }
    return shown;
}

std::uint64_t elisionCount() {
    return g_elisions.load(std::memory_order_relaxed);
}

QStringList wrapLines(const QString& text, const QFont& font, qreal width, int maxLines) {
    QStringList lines;
    if (text.isEmpty() || maxLines < 1 || width <= 0) {
        return lines;
    }
    const QFontMetricsF metrics(font);
    if (maxLines == 1 || metrics.horizontalAdvance(text) <= width) {
        lines << fitted(metrics, text, width);
        return lines;
    }
    // A number and the word after it ("128 KiB", "32 layers") stay together.
    static const QRegularExpression numberSpace(QStringLiteral("(\\d) (?=\\S)"));
    QString kept = text;
    kept.replace(numberSpace, QStringLiteral("\\1\u00a0"));
    QTextLayout layout(kept, font);
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(width);
        if (lines.size() == maxLines - 1) {
            lines << fitted(metrics, kept.mid(line.textStart()).trimmed(), width);
            break;
        }
        lines << kept.mid(line.textStart(), line.textLength()).trimmed();
    }
    layout.endLayout();
    return lines;
}

} // namespace archplay::ui::widgets
