// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/KvCacheView.h"

#include "core/report/KvFigure.h"
#include "core/report/Tables.h"
#include "ui/theme/Theme.h"
#include "ui/views/KindNames.h"
#include "ui/views/ViewColors.h"
#include "ui/views/charts/KvCurvePlot.h"
#include "ui/widgets/ShapedText.h"
#include "ui/widgets/TextLines.h"

#include <QEvent>
#include <QPainter>
#include <qcustomplot.h>

#include <algorithm>

namespace archplay::ui::views {
namespace {

constexpr int kNoteLines = 2; ///< a note wraps to this many lines

/// As many whole device names as fit in `width` ("RTX 3090, …"), or nothing: a name is never cut.
QString wholeExamples(const QString& examples, const widgets::TextMetrics& metrics, qreal width) {
    if (metrics.horizontalAdvance(examples) <= width) {
        return examples;
    }
    const QStringList names = examples.split(QStringLiteral(", "));
    for (qsizetype count = names.size() - 1; count > 0; --count) {
        const QString text = names.mid(0, count).join(QStringLiteral(", ")) + QStringLiteral(", …");
        if (metrics.horizontalAdvance(text) <= width) {
            return text;
        }
    }
    return {};
}

} // namespace

KvCacheView::KvCacheView(QWidget* parent)
    : PaintedView(parent)
    , m_plot(std::make_unique<KvCurvePlot>(this)) {
    m_plot->applyPalette(snapshot().palette, snapshot().font);
}

KvCacheView::~KvCacheView() = default;

std::vector<QPointF> KvCacheView::curvePoints(int index) {
    prepareToRender();
    return m_plot->points(index);
}

KvCurvePlot::Arrangement KvCacheView::curveArrangement(const QSize& plotSize) {
    prepareToRender();
    const QRect viewport = m_plot->widget()->viewport();
    KvCurvePlot::Arrangement arrangement = m_plot->arrange(plotSize);
    m_plot->widget()->setViewport(viewport);
    return arrangement;
}

const std::vector<core::KvCurve>& KvCacheView::curves() const {
    ensureBuilt();
    return m_figure.curves;
}

const std::vector<core::KvKindShare>& KvCacheView::shares() const {
    ensureBuilt();
    return m_figure.shares;
}

const std::vector<core::GpuFit>& KvCacheView::fits() const {
    ensureBuilt();
    return m_figure.fits;
}

const std::vector<core::GpuFitText>& KvCacheView::fitTexts() const {
    ensureBuilt();
    return m_figure.fitTexts;
}

QString KvCacheView::noCacheNote() const {
    ensureBuilt();
    return m_noCache;
}

void KvCacheView::rebuild() {
    // What to show comes whole from core; this turns it into the view's text and the plot's series.
    m_figure = core::kvFigure(analysis());
    m_noCache = qs(m_figure.noCache);
    m_subtitle = qs(m_figure.subtitle);
    m_headline = qs(m_figure.headline);
    m_headlineDetail = qs(m_figure.headlineDetail);
    m_notes.clear();
    for (const std::string& note : m_figure.notes) {
        m_notes.push_back(qs(note));
    }
}

void KvCacheView::updateControls() {
    m_plot->widget()->setVisible(analysis().valid && m_noCache.isEmpty());
    if (!analysis().valid || !m_noCache.isEmpty()) {
        return;
    }
    auto markers = [](const std::vector<core::KvMarker>& from) {
        std::vector<KvCurvePlot::Marker> to;
        for (const core::KvMarker& marker : from) {
            to.push_back({marker.value, qs(marker.label)});
        }
        return to;
    };
    std::vector<KvCurvePlot::Alternative> alternatives;
    for (const core::KvComparison& comparison : m_figure.comparisons) {
        alternatives.push_back({qs(comparison.label), comparison.curve});
    }
    const core::Scenario& s = analysis().scenario;
    m_plot->setCurves(m_figure.curves, s.kvDType, s.sequenceLength, analysis().kv.totalBytes, alternatives,
                      markers(m_figure.lengthMarkers), markers(m_figure.roomMarkers));
    m_plot->applyPalette(snapshot().palette, snapshot().font);
    placePlot();
}

QFont KvCacheView::headlineFont() const {
    QFont big = snapshot().font;
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.9);
    return big;
}

QRectF KvCacheView::contentRect(const QRectF& target) const {
    const qreal top = headerBottom(target, tr("KV cache"), m_subtitle) + 12;
    return QRectF(target.left() + 14, top, target.width() - 28, target.bottom() - top - 10);
}

QStringList KvCacheView::noteLines(const QRectF& content) const {
    QStringList lines;
    for (const QString& note : m_notes) {
        lines << widgets::wrapLines(note, snapshot().font, content.width(), kNoteLines);
    }
    return lines;
}

layout::KvLayout KvCacheView::layoutFor(const QRectF& target) const {
    ensureBuilt();
    const QRectF content = contentRect(target);
    return layout::layoutKvCache(content, widgets::TextMetrics(snapshot().font), widgets::TextMetrics(headlineFont()),
                                 static_cast<int>(m_figure.shares.size()), static_cast<int>(noteLines(content).size()),
                                 static_cast<int>(m_figure.fits.size()));
}

void KvCacheView::paintContent(QPainter& painter, const QRectF& target) const {
    const bool onScreen = painter.device() == this;
    if (!m_noCache.isEmpty()) {
        paintHeader(painter, target, tr("KV cache"), m_noCache);
        return;
    }
    // The hover hint only on screen, where hovering does something.
    paintHeader(painter, target, tr("KV cache"),
                onScreen ? m_subtitle + QLatin1Char(' ') + tr("Hover the curve for exact bytes.") : m_subtitle);
    const layout::KvLayout placed = layoutFor(target);
    const QPalette pal = snapshot().palette;
    painter.setFont(headlineFont());
    painter.setPen(pal.color(QPalette::Text));
    const widgets::TextMetrics big(headlineFont());
    painter.drawText(placed.headline, Qt::AlignLeft | Qt::AlignVCenter, m_headline);
    painter.setFont(snapshot().font);
    painter.setPen(colors::muted(pal));
    const qreal detailLeft = placed.headline.left() + big.horizontalAdvance(m_headline) + 14;
    painter.drawText(
        QRectF(detailLeft, placed.headline.top(), placed.headline.right() - detailLeft, placed.headline.height()),
        Qt::AlignLeft | Qt::AlignVCenter, m_headlineDetail);
    paintShares(painter, placed);
    painter.setFont(snapshot().font);
    painter.setPen(pal.color(QPalette::Text));
    const QStringList notes = noteLines(contentRect(target));
    for (std::size_t i = 0; i < placed.notes.size() && i < std::size_t(notes.size()); ++i) {
        painter.drawText(placed.notes[i], Qt::AlignLeft | Qt::AlignVCenter, notes[qsizetype(i)]);
    }
    if (!onScreen) {
        m_plot->render(painter, placed.curve);
    }
    paintFits(painter, placed);
}

void KvCacheView::paintShares(QPainter& painter, const layout::KvLayout& placed) const {
    const QPalette pal = snapshot().palette;
    std::vector<std::uint64_t> values;
    for (const core::KvKindShare& share : m_figure.shares) {
        values.push_back(share.bytes);
    }
    const std::vector<QRectF> segments = layout::proportionalSegments(values, placed.bar);
    const widgets::TextMetrics metrics(snapshot().font);
    painter.fillRect(placed.bar, colors::panel(pal));
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const QColor color = colors::kvShare(m_figure.shares[i], pal);
        painter.fillRect(segments[i], color);
        const QString label =
            QStringLiteral("%1 · %2").arg(qs(m_figure.shares[i].name), bytesText(m_figure.shares[i].bytes));
        if (metrics.horizontalAdvance(label) + 12 < segments[i].width()) {
            painter.setPen(colors::textOn(color));
            painter.drawText(segments[i], Qt::AlignCenter, label);
        }
    }
    const qreal line = metrics.height();
    for (std::size_t i = 0; i < placed.rows.size() && i < m_figure.shares.size(); ++i) {
        const core::KvKindShare& share = m_figure.shares[i];
        const QRectF row = placed.rows[i];
        painter.fillRect(QRectF(row.left(), row.top() + line * 0.2, line * 0.6, line * 0.6),
                         colors::kvShare(share, pal));
        painter.setPen(pal.color(QPalette::Text));
        const qreal w = row.width();
        auto cell = [&](qreal from, qreal to, const QString& text, Qt::Alignment align) {
            const QRectF box(row.left() + w * from, row.top(), w * (to - from), row.height());
            painter.drawText(box, align | Qt::AlignVCenter, widgets::fitted(metrics, text, box.width()));
        };
        cell(0.0, 0.22, QStringLiteral("      %1 × %2").arg(qs(share.name)).arg(share.layers), Qt::AlignLeft);
        painter.setPen(colors::muted(pal));
        if (share.fixedState) {
            cell(0.22, 0.55,
                 tr("%1 per sequence per layer")
                     .arg(bytesText(share.bytes / std::max<std::uint64_t>(share.layers * analysis().kv.batch, 1))),
                 Qt::AlignLeft);
            cell(0.55, 0.75, tr("fixed at any length"), Qt::AlignLeft);
        } else {
            cell(0.22, 0.55,
                 share.cross ? tr("%1 per source token per layer").arg(bytesText(share.bytesPerTokenPerLayer))
                             : tr("%1 per token per layer").arg(bytesText(share.bytesPerTokenPerLayer)),
                 Qt::AlignLeft);
            cell(0.55, 0.75, tr("holds %1 tokens").arg(exactCount(share.cachedTokens)), Qt::AlignLeft);
        }
        painter.setPen(pal.color(QPalette::Text));
        cell(0.75, 0.88, bytesText(share.bytes), Qt::AlignRight);
        painter.setPen(colors::muted(pal));
        cell(0.88, 1.0, percentText(share.bytes, analysis().kv.totalBytes), Qt::AlignRight);
    }
}

void KvCacheView::paintFits(QPainter& painter, const layout::KvLayout& placed) const {
    const QPalette pal = snapshot().palette;
    const core::Analysis& a = analysis();
    QFont bold = snapshot().font;
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(pal.color(QPalette::Text));
    const QString weights =
        tr("Weights (%1, %2)")
            .arg(qs(core::weightFormatLabel(a.config, a.scenario.weightFormat)), bytesText(a.weightBytes));
    const QString devices =
        a.scenario.gpuCount == 1 ? tr("on one device") : tr("split over %1 devices").arg(a.scenario.gpuCount);
    painter.drawText(placed.gpuTitle, Qt::AlignLeft | Qt::AlignVCenter,
                     widgets::firstThatFits(widgets::TextMetrics(bold),
                                            {tr("%1 + this cache %2").arg(weights, devices),
                                             tr("Weights + this cache %1").arg(devices), tr("Weights + cache")},
                                            placed.gpuTitle.width()));
    const widgets::TextMetrics metrics(snapshot().font);
    const qreal line = metrics.height();
    for (std::size_t i = 0; i < m_figure.fits.size() && i < placed.gpuRows.size(); ++i) {
        const core::GpuFit& fit = m_figure.fits[i];
        const core::GpuFitText& text = m_figure.fitTexts[i];
        const QString label = fit.scenario ? tr("%1 (scenario)").arg(qs(text.label)) : qs(text.label);
        const layout::GpuRowLayout row =
            layout::layoutGpuRow(placed.gpuRows[i], snapshot().font, bold, label, qs(text.verdict), qs(text.detail));
        if (fit.scenario) {
            // The scenario's devices: a tinted band behind their row.
            QRectF band = row.label.united(row.verdict).united(row.bar);
            if (!row.detail.isEmpty()) {
                band = band.united(row.detail);
            }
            QColor tint = pal.color(QPalette::Highlight);
            tint.setAlphaF(0.12f);
            painter.fillRect(band.adjusted(-4, -1, 4, 1), tint);
        }
        painter.setFont(bold);
        painter.setPen(pal.color(QPalette::Text));
        painter.drawText(row.label, Qt::AlignLeft | Qt::AlignVCenter, label);
        painter.setFont(snapshot().font);
        painter.setPen(text.tone == core::Tone::Good      ? theme::goodColor(pal)
                       : text.tone == core::Tone::Caution ? theme::cautionColor(pal)
                                                          : theme::severityColor(core::Severity::Error, pal));
        widgets::drawLines(painter, row.verdictLines, row.verdict.left(), row.verdict.top(), row.verdict.width(), line,
                           Qt::AlignRight);
        // Example GPUs of this memory size in the room left on the label's line.
        painter.setPen(colors::muted(pal));
        painter.drawText(row.examples, Qt::AlignLeft | Qt::AlignVCenter,
                         wholeExamples(qs(fit.devices.gpu.examples), metrics, row.examples.width()));
        if (row.bar.height() <= 0) {
            continue;
        }
        painter.fillRect(row.bar, colors::panel(pal));
        const double capacity = double(std::max<std::uint64_t>(fit.devices.capacityBytes, 1));
        const qreal weightsWidth = row.bar.width() * std::min(1.0, double(fit.weightBytes) / capacity);
        const qreal cacheWidth =
            std::min(row.bar.width() - weightsWidth, row.bar.width() * double(fit.kvBytes) / capacity);
        painter.fillRect(QRectF(row.bar.left(), row.bar.top(), weightsWidth, row.bar.height()), colors::weights(pal));
        painter.fillRect(QRectF(row.bar.left() + weightsWidth, row.bar.top(), cacheWidth, row.bar.height()),
                         colors::dtype(a.scenario.kvDType, pal));
        // Over capacity: the bar is full and framed in the error colour (no hatching: SVG drops patterns).
        painter.setPen(fit.devices.fits ? QPen(colors::rule(pal), 1)
                                        : QPen(theme::severityColor(core::Severity::Error, pal), 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(row.bar);
        painter.setPen(colors::muted(pal));
        widgets::drawLines(painter, row.detailLines, row.detail.left(), row.detail.top(), row.detail.width(), line);
    }
}

void KvCacheView::placePlot() {
    const layout::KvLayout placed = layoutFor(QRectF(rect()));
    m_plot->widget()->setGeometry(placed.curve.toAlignedRect());
}

void KvCacheView::resizeEvent(QResizeEvent* event) {
    PaintedView::resizeEvent(event);
    placePlot();
}

void KvCacheView::changeEvent(QEvent* event) {
    PaintedView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        m_plot->applyPalette(snapshot().palette, snapshot().font);
    }
}

} // namespace archplay::ui::views
