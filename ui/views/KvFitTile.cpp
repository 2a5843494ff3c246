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
    m_deviceTitle.clear();
    m_deviceDetail.clear();
    if (!a.kv.unsupported.empty()) {
        // No figure rather than another rule's: the allocator has none for this model or format.
        m_headline = tr("KV cache: no figure");
        m_detail = tr("As %1: %2.").arg(qs(core::allocatorLabel(a.kv.allocator)), qs(a.kv.unsupported));
        return;
    }
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

const KvFitTile::Placement& KvFitTile::placement(const QRectF& target) const {
    if (m_placementTarget == target && m_placementGeneration == generation()) {
        return m_placement;
    }
    Placement& at = m_placement;
    at = Placement{};
    m_placementTarget = target;
    m_placementGeneration = generation();
    const widgets::TextMetrics metrics(snapshot().font);
    at.line = metrics.height();
    QFont bold = snapshot().font;
    bold.setBold(true);
    // As paintHeader() leaves it: the space below the headline.
    const qreal headerBottom = this->headerBottom(target, m_headline, QString());
    const QRectF below(target.left() + 14, headerBottom + 10, target.width() - 28, target.bottom() - headerBottom - 20);
    // Sentences wrap to the tile's width instead of being cut; the per-kind lines give way first.
    at.detail = widgets::wrapLines(m_detail, snapshot().font, below.width(), m_deviceTitle.isEmpty() ? 6 : 2);
    at.deviceTitle = widgets::wrapLines(m_deviceTitle, bold, below.width(), 2);
    at.deviceDetail = widgets::wrapLines(m_deviceDetail, snapshot().font, below.width(), 2);
    at.detailTop = below.top() - 8;
    const qreal detailBottom = at.detailTop + at.line * qreal(at.detail.size());
    const QRectF area(below.left(), detailBottom + 4, below.width(), below.bottom() - detailBottom - 4);
    at.left = area.left();
    at.width = area.width();
    // Top to bottom: the cache bar, a line per layer kind, then the devices' title, bar and detail.
    const qreal barHeight = std::clamp(area.height() * 0.16, at.line * 0.8, at.line * 2);
    const qreal devicesHeight = at.line * qreal(at.deviceTitle.size() + at.deviceDetail.size()) + at.line + 12;
    at.bar = QRectF(area.left(), area.top(), area.width(), barHeight);
    std::vector<std::uint64_t> values;
    for (const core::KvKindShare& share : m_shares) {
        values.push_back(share.bytes);
    }
    at.segments = layout::proportionalSegments(values, at.bar);
    qreal y = at.bar.bottom() + 6;
    for (std::size_t i = 0; i < at.segments.size(); ++i) {
        if (y + at.line > area.bottom() - devicesHeight - 4) {
            break; // the devices come first; kinds beyond the room keep their segment only
        }
        at.rows.emplace_back(area.left(), y, area.width(), at.line);
        y += at.line + 2;
    }
    at.deviceTitleTop = std::max(at.bar.bottom() + 4, std::min(y + at.line * 0.5, area.bottom() - devicesHeight));
    at.deviceBar =
        QRectF(area.left(), at.deviceTitleTop + at.line * qreal(at.deviceTitle.size()) + 4, area.width(), at.line);
    return m_placement;
}

void KvFitTile::paintContent(QPainter& painter, const QRectF& target) const {
    paintHeader(painter, target, m_headline, QString());
    const Placement& at = placement(target);
    const core::Analysis& a = analysis();
    const QPalette pal = snapshot().palette;
    const widgets::TextMetrics metrics(snapshot().font);
    const qreal line = at.line;
    painter.setPen(colors::muted(pal));
    widgets::drawLines(painter, at.detail, at.left, at.detailTop, at.width, line);
    if (m_deviceTitle.isEmpty()) {
        return; // no figure under the allocator: the reason alone
    }
    painter.fillRect(at.bar, colors::panel(pal));
    for (std::size_t i = 0; i < at.segments.size(); ++i) {
        const QColor color = colors::kvShare(m_shares[i], pal);
        painter.fillRect(at.segments[i], color);
        if (i >= at.rows.size()) {
            continue;
        }
        const QRectF& row = at.rows[i];
        painter.fillRect(QRectF(row.left(), row.top() + line * 0.2, line * 0.6, line * 0.6), color);
        painter.setPen(pal.color(QPalette::Text));
        const QRectF label = row.adjusted(line, 0, 0, 0);
        widgets::drawShaped(painter, label, Qt::AlignLeft | Qt::AlignVCenter,
                            widgets::firstThatFits(metrics, m_shareLabels[i], label.width()));
    }

    const core::DeviceFit& fit = a.devices;
    QFont bold = snapshot().font;
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(fit.fits ? theme::goodColor(pal) : theme::severityColor(core::Severity::Error, pal));
    widgets::drawLines(painter, at.deviceTitle, at.left, at.deviceTitleTop, at.width, line);
    painter.setFont(snapshot().font);
    const QRectF& deviceBar = at.deviceBar;
    painter.fillRect(deviceBar, colors::panel(pal));
    const auto [weightsWidth, cacheWidth] = deviceShares(deviceBar.width());
    painter.fillRect(QRectF(deviceBar.left(), deviceBar.top(), weightsWidth, deviceBar.height()), colors::weights(pal));
    painter.fillRect(QRectF(deviceBar.left() + weightsWidth, deviceBar.top(), cacheWidth, deviceBar.height()),
                     colors::dtype(a.kv.dtype, pal));
    painter.setPen(fit.fits ? QPen(colors::rule(pal), 1) : QPen(theme::severityColor(core::Severity::Error, pal), 2));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(deviceBar);
    painter.setPen(colors::muted(pal));
    widgets::drawLines(painter, at.deviceDetail, at.left, deviceBar.bottom() + 4, at.width, line);
}

std::pair<qreal, qreal> KvFitTile::deviceShares(qreal width) const {
    const core::Analysis& a = analysis();
    const double capacity = std::max<double>(double(a.devices.capacityBytes), 1.0);
    const qreal weights = width * std::min(1.0, double(a.weightBytes) / capacity);
    return {weights, std::min(width - weights, width * double(a.kv.totalBytes) / capacity)};
}

} // namespace archplay::ui::views
