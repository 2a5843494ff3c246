// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/KvFitTile.h"

#include "core/report/Summary.h"
#include "ui/theme/Theme.h"
#include "ui/views/KindNames.h"
#include "ui/views/ViewColors.h"
#include "ui/views/layout/KvLayout.h"

#include <QPainter>

#include <algorithm>

namespace archplay::ui::views {

KvFitTile::KvFitTile(QWidget* parent)
    : PaintedView(parent) {}

const std::vector<core::KvKindShare>& KvFitTile::shares() const {
    ensureBuilt();
    return m_shares;
}

QStringList KvFitTile::texts() const {
    ensureBuilt();
    return {m_headline, m_detail, m_deviceTitle, m_deviceDetail};
}

void KvFitTile::rebuild() {
    m_shares.clear();
    m_shareLabels.clear();
    const core::Analysis& a = analysis();
    if (!a.valid) {
        return;
    }
    const core::Scenario& s = a.scenario;
    m_shares = core::kvByLayerKind(a.plan, a.kv);
    for (const core::KvKindShare& share : m_shares) {
        m_shareLabels.push_back(tr("%1 ×%2 · %3 · %4")
                                    .arg(qs(share.name))
                                    .arg(share.layers)
                                    .arg(bytesText(share.bytes), percentText(share.bytes, a.kv.totalBytes)));
    }
    m_headline = tr("KV cache: %1").arg(bytesText(a.kv.totalBytes));
    m_detail = tr("S = %1 tokens × batch %2 at %3 · %4 per token")
                   .arg(exactCount(s.sequenceLength), exactCount(s.batch), qs(core::toString(a.kv.dtype)),
                        bytesText(a.kv.bytesPerToken));
    const core::DeviceFit& fit = a.devices;
    m_deviceTitle = tr("Weights + cache on %1: %2").arg(qs(core::devicesLabel(s)), qs(core::fitVerdict(fit)));
    m_deviceDetail =
        tr("weights %1 + cache %2 = %3 (%4 of %5)")
            .arg(bytesText(a.weightBytes), bytesText(a.kv.totalBytes), bytesText(fit.requiredBytes),
                 qs(core::deviceUseText(fit.requiredBytes, fit.capacityBytes)), bytesText(fit.capacityBytes));
}

QString KvFitTile::contentKey() const {
    const core::Analysis& a = analysis();
    QStringList parts{m_headline,
                      m_detail,
                      m_deviceTitle,
                      m_deviceDetail,
                      QString::number(a.weightBytes),
                      QString::number(a.devices.capacityBytes)};
    for (const QString& label : m_shareLabels) {
        parts << label;
    }
    for (const core::KvKindShare& share : m_shares) {
        parts << QString::number(share.bytes);
    }
    return parts.join(QChar(0x1f));
}

void KvFitTile::paintContent(QPainter& painter, const QRectF& target) const {
    const QRectF below = paintHeader(painter, target, m_headline, QString());
    const core::Analysis& a = analysis();
    const QPalette pal = palette();
    const QFontMetricsF metrics(font());
    const qreal line = metrics.height();
    painter.setPen(colors::muted(pal));
    painter.drawText(QRectF(below.left(), below.top() - 8, below.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
                     metrics.elidedText(m_detail, Qt::ElideRight, below.width()));
    const QRectF area = below.adjusted(0, line, 0, 0);
    // Top to bottom: the cache bar, a line per layer kind, then the devices' bar and its two lines.
    const qreal barHeight = std::clamp(area.height() * 0.16, line, line * 2);
    const QRectF bar(area.left(), area.top(), area.width(), barHeight);
    std::vector<std::uint64_t> values;
    for (const core::KvKindShare& share : m_shares) {
        values.push_back(share.bytes);
    }
    painter.fillRect(bar, colors::panel(pal));
    const std::vector<QRectF> segments = layout::proportionalSegments(values, bar);
    qreal y = bar.bottom() + 6;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const QColor color = colors::kvShare(m_shares[i], pal);
        painter.fillRect(segments[i], color);
        if (y + line > area.bottom() - 3 * line - 16) {
            continue; // the devices come first; kinds beyond the room keep their segment only
        }
        painter.fillRect(QRectF(area.left(), y + line * 0.2, line * 0.6, line * 0.6), color);
        painter.setPen(pal.color(QPalette::Text));
        const QRectF row(area.left() + line, y, area.width() - line, line);
        painter.drawText(row, Qt::AlignLeft | Qt::AlignVCenter,
                         metrics.elidedText(m_shareLabels[i], Qt::ElideRight, row.width()));
        y += line + 2;
    }

    y = std::min(y + line, area.bottom() - 3 * line - 12);
    QFont bold = font();
    bold.setBold(true);
    const core::DeviceFit& fit = a.devices;
    painter.setFont(bold);
    painter.setPen(fit.fits ? theme::goodColor(pal) : theme::severityColor(core::Severity::Error, pal));
    const QRectF titleRow(area.left(), y, area.width(), line);
    painter.drawText(titleRow, Qt::AlignLeft | Qt::AlignVCenter,
                     QFontMetricsF(bold).elidedText(m_deviceTitle, Qt::ElideRight, titleRow.width()));
    painter.setFont(font());
    const QRectF deviceBar(area.left(), titleRow.bottom() + 4, area.width(), line);
    painter.fillRect(deviceBar, colors::panel(pal));
    const double capacity = std::max<double>(double(fit.capacityBytes), 1.0);
    const qreal weightsWidth = deviceBar.width() * std::min(1.0, double(a.weightBytes) / capacity);
    const qreal cacheWidth =
        std::min(deviceBar.width() - weightsWidth, deviceBar.width() * double(a.kv.totalBytes) / capacity);
    painter.fillRect(QRectF(deviceBar.left(), deviceBar.top(), weightsWidth, deviceBar.height()), colors::weights(pal));
    painter.fillRect(QRectF(deviceBar.left() + weightsWidth, deviceBar.top(), cacheWidth, deviceBar.height()),
                     colors::dtype(a.kv.dtype, pal));
    painter.setPen(fit.fits ? QPen(colors::rule(pal), 1) : QPen(theme::severityColor(core::Severity::Error, pal), 2));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(deviceBar);
    painter.setPen(colors::muted(pal));
    const QRectF detailRow(area.left(), deviceBar.bottom() + 4, area.width(), line);
    painter.drawText(detailRow, Qt::AlignLeft | Qt::AlignVCenter,
                     metrics.elidedText(m_deviceDetail, Qt::ElideRight, detailRow.width()));
}

} // namespace archplay::ui::views
