// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/KvFitTile.h"

#include "core/report/Summary.h"
#include "ui/theme/Theme.h"
#include "ui/views/KindNames.h"
#include "ui/views/ViewColors.h"
#include "ui/views/layout/KvLayout.h"
#include "ui/widgets/ShapedText.h"
#include "ui/widgets/TextLines.h"

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
        // Longest first: the row shows the first that fits the tile.
        const QString kind = tr("%1 ×%2").arg(qs(share.name)).arg(share.layers);
        m_shareLabels.push_back(
            {tr("%1 · %2 · %3").arg(kind, bytesText(share.bytes), percentText(share.bytes, a.kv.totalBytes)),
             tr("%1 · %2").arg(kind, bytesText(share.bytes)),
             tr("×%1 · %2").arg(share.layers).arg(bytesText(share.bytes))});
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
    for (const QStringList& label : m_shareLabels) {
        parts << label.front();
    }
    for (const core::KvKindShare& share : m_shares) {
        parts << QString::number(share.bytes);
    }
    return parts.join(QChar(0x1f));
}

namespace {

/// Draws `lines` from `top` down, one per font line; returns the y below them.
} // namespace

void KvFitTile::paintContent(QPainter& painter, const QRectF& target) const {
    const QRectF below = paintHeader(painter, target, m_headline, QString());
    const core::Analysis& a = analysis();
    const QPalette pal = palette();
    const widgets::TextMetrics metrics(font());
    const qreal line = metrics.height();
    QFont bold = font();
    bold.setBold(true);
    // Sentences wrap to the tile's width instead of being cut; the per-kind lines give way first.
    const QStringList detail = widgets::wrapLines(m_detail, font(), below.width(), 2);
    const QStringList deviceTitle = widgets::wrapLines(m_deviceTitle, bold, below.width(), 2);
    const QStringList deviceDetail = widgets::wrapLines(m_deviceDetail, font(), below.width(), 2);
    painter.setPen(colors::muted(pal));
    const qreal detailBottom = widgets::drawLines(painter, detail, below.left(), below.top() - 8, below.width(), line);
    const QRectF area(below.left(), detailBottom + 4, below.width(), below.bottom() - detailBottom - 4);
    // Top to bottom: the cache bar, a line per layer kind, then the devices' title, bar and detail.
    const qreal barHeight = std::clamp(area.height() * 0.16, line * 0.8, line * 2);
    const qreal devicesHeight = line * qreal(deviceTitle.size() + deviceDetail.size()) + line + 12;
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
        if (y + line > area.bottom() - devicesHeight - 4) {
            continue; // the devices come first; kinds beyond the room keep their segment only
        }
        painter.fillRect(QRectF(area.left(), y + line * 0.2, line * 0.6, line * 0.6), color);
        painter.setPen(pal.color(QPalette::Text));
        const QRectF row(area.left() + line, y, area.width() - line, line);
        widgets::drawShaped(painter, row, Qt::AlignLeft | Qt::AlignVCenter,
                            widgets::firstThatFits(metrics, m_shareLabels[i], row.width()));
        y += line + 2;
    }

    y = std::max(bar.bottom() + 4, std::min(y + line * 0.5, area.bottom() - devicesHeight));
    const core::DeviceFit& fit = a.devices;
    painter.setFont(bold);
    painter.setPen(fit.fits ? theme::goodColor(pal) : theme::severityColor(core::Severity::Error, pal));
    y = widgets::drawLines(painter, deviceTitle, area.left(), y, area.width(), line);
    painter.setFont(font());
    const QRectF deviceBar(area.left(), y + 4, area.width(), line);
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
    widgets::drawLines(painter, deviceDetail, area.left(), deviceBar.bottom() + 4, area.width(), line);
}

} // namespace archplay::ui::views
