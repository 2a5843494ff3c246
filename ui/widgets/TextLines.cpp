// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/TextLines.h"

#include <QRegularExpression>
#include <QTextLayout>

#include <algorithm>
#include <atomic>
#include <mutex>

namespace archplay::ui::widgets {
namespace {

std::atomic<std::uint64_t> g_elisions{0};
std::mutex g_cutsMutex;
/// The last kRecentCuts texts cut, oldest first (guarded by g_cutsMutex).
QStringList& cutsKept() {
    static QStringList cuts;
    return cuts;
}
constexpr qsizetype kRecentCuts = 64;

} // namespace

QString fitted(const TextMetrics& metrics, const QString& text, qreal width) {
    if (metrics.horizontalAdvance(text) <= width) {
        return text; // what elidedText() gives too, without shaping the text again
    }
    QString shown = metrics.elidedText(text, Qt::ElideRight, width);
    if (shown != text) {
        g_elisions.fetch_add(1, std::memory_order_relaxed);
        const std::lock_guard lock(g_cutsMutex);
        cutsKept() << text;
        if (cutsKept().size() > kRecentCuts) {
            cutsKept().removeFirst();
        }
    }
    return shown;
}

qreal drawLines(QPainter& painter, const QStringList& lines, qreal left, qreal top, qreal width, qreal lineHeight,
                Qt::Alignment alignment) {
    for (const QString& text : lines) {
        // Unclipped: a descender or an underscore may reach a pixel below its line's box.
        drawShaped(painter, QRectF(left, top, width, lineHeight), alignment | Qt::AlignVCenter, text);
        top += lineHeight;
    }
    return top;
}

std::uint64_t elisionCount() {
    return g_elisions.load(std::memory_order_relaxed);
}

QString firstThatFits(const TextMetrics& metrics, const QStringList& candidates, qreal width) {
    for (const QString& candidate : candidates) {
        if (metrics.horizontalAdvance(candidate) <= width) {
            return candidate;
        }
    }
    return candidates.isEmpty() ? QString() : fitted(metrics, candidates.back(), width);
}

QString listThatFits(const TextMetrics& metrics, const QStringList& items, qreal width) {
    const QString whole = items.join(QStringLiteral(", "));
    if (metrics.horizontalAdvance(whole) <= width) {
        return whole;
    }
    for (qsizetype shown = items.size() - 1; shown > 0; --shown) {
        const QString text = QStringList(items.mid(0, shown)).join(QStringLiteral(", ")) +
                             QStringLiteral(" +%1").arg(items.size() - shown);
        if (metrics.horizontalAdvance(text) <= width) {
            return text;
        }
    }
    return fitted(metrics, QStringLiteral("+%1").arg(items.size()), width);
}

QStringList recentCuts(std::uint64_t count) {
    const std::lock_guard lock(g_cutsMutex);
    const qsizetype shown =
        std::min<qsizetype>(static_cast<qsizetype>(std::min<std::uint64_t>(count, kRecentCuts)), cutsKept().size());
    return cutsKept().mid(cutsKept().size() - shown);
}

QStringList wrapLines(const QString& text, const QFont& font, qreal width, int maxLines) {
    QStringList lines;
    if (text.isEmpty() || maxLines < 1 || width <= 0) {
        return lines;
    }
    const TextMetrics metrics(font);
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
