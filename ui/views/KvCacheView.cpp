// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/KvCacheView.h"

#include "core/report/Summary.h"
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
#include <set>

namespace archplay::ui::views {
namespace {

constexpr int kNoteLines = 2; ///< a note wraps to this many lines

QString dtypeName(core::DType dtype) {
    return QString::fromLatin1(core::toString(dtype).data());
}

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
    m_plot->applyPalette(palette(), font());
}

KvCacheView::~KvCacheView() = default;

std::vector<QPointF> KvCacheView::curvePoints(int index) const {
    ensureBuilt();
    return m_plot->points(index);
}

KvCurvePlot::Arrangement KvCacheView::curveArrangement(const QSize& plotSize) const {
    ensureBuilt();
    const QRect viewport = m_plot->widget()->viewport();
    KvCurvePlot::Arrangement arrangement = m_plot->arrange(plotSize);
    m_plot->widget()->setViewport(viewport);
    return arrangement;
}

const std::vector<core::KvCurve>& KvCacheView::curves() const {
    ensureBuilt();
    return m_curves;
}

const std::vector<core::KvKindShare>& KvCacheView::shares() const {
    ensureBuilt();
    return m_shares;
}

const std::vector<core::GpuFit>& KvCacheView::fits() const {
    ensureBuilt();
    return m_fits;
}

const std::vector<core::GpuFitText>& KvCacheView::fitTexts() const {
    ensureBuilt();
    return m_fitTexts;
}

QString KvCacheView::noCacheNote() const {
    ensureBuilt();
    return m_noCache;
}

void KvCacheView::rebuild() {
    m_curves.clear();
    m_shares.clear();
    m_fits.clear();
    m_notes.clear();
    m_fitTexts.clear();
    const core::Analysis& a = analysis();
    m_noCache = a.valid ? qs(core::noKvCacheNote(a.config)) : QString();
    m_plot->widget()->setVisible(a.valid && m_noCache.isEmpty());
    if (!a.valid || !m_noCache.isEmpty()) {
        return;
    }
    const core::Scenario& s = a.scenario;
    const core::KvCacheReport& kv = a.kv;
    m_shares = core::kvByLayerKind(a.plan, kv);
    const std::uint64_t longest =
        2 * std::max<std::uint64_t>(
                {static_cast<std::uint64_t>(std::max<std::int64_t>(a.config.maxPositions, 1)), s.sequenceLength, 1});
    const std::vector<std::uint64_t> lengths = core::kvCurveLengths(a.plan, longest, s.sequenceLength);
    m_curves = core::kvCurves(a.config, a.plan, lengths, s, core::kvCurveDTypes(s.kvDType));
    m_fits = core::gpuFits(a.config, a.plan, a.weightBytes, s);
    for (const core::GpuFit& fit : m_fits) {
        m_fitTexts.push_back(core::gpuFitText(fit, a.plan));
    }
    const core::KvSavings savings = core::kvSavings(a.config, a.plan, s);

    const QString allocator = QString::fromUtf8(core::allocatorLabel(kv.allocator));
    m_subtitle = tr("Keys and values (or MLA's latent) kept for every token of context: %1.").arg(allocator);
    if (kv.fixedStateBytes > 0) {
        m_subtitle = tr("Keys and values of the attention layers per token, plus the fixed state of the other "
                        "layers: %1.")
                         .arg(allocator);
    }
    if (!a.config.hasAttentionLayers()) {
        m_subtitle = tr("No layer keeps keys and values: the fixed state of each layer, which does not grow with "
                        "the context: %1.")
                         .arg(allocator);
    }
    m_headline = bytesText(kv.totalBytes);
    m_headlineDetail =
        tr("at S = %1 tokens × batch %2, %3 cache · %4 per token of context")
            .arg(exactCount(s.sequenceLength), exactCount(s.batch), dtypeName(kv.dtype), bytesText(kv.bytesPerToken));
    if (m_shares.size() == 1 && !m_shares.front().cross) {
        m_headlineDetail += tr(" (%1 per layer)").arg(bytesText(m_shares.front().bytesPerTokenPerLayer));
    }
    if (a.config.maxPositions > 0 && s.sequenceLength > static_cast<std::uint64_t>(a.config.maxPositions)) {
        m_notes.push_back(
            tr("S = %1 is beyond the model's context length of %2 tokens.")
                .arg(exactCount(s.sequenceLength), exactCount(static_cast<std::uint64_t>(a.config.maxPositions))));
    }

    if (savings.latent && kv.bytesPerToken > 0) {
        m_notes.push_back(tr("MLA caches the latent: %1 per token instead of %2 for per-head K and V (%3× less); "
                             "%4 instead of %5 at this scenario.")
                              .arg(bytesText(kv.bytesPerToken), bytesText(kv.expandedBytesPerToken))
                              .arg(double(kv.expandedBytesPerToken) / double(kv.bytesPerToken), 0, 'f', 1)
                              .arg(bytesText(savings.totalBytes), bytesText(savings.expandedBytes)));
    }
    if (savings.windowed) {
        std::int64_t windowed = 0;
        std::int64_t decoderLayers = 0;
        std::set<std::int64_t> windows;
        for (const core::LayerPlan& layer : a.plan.layers) {
            if (layer.stack == core::Stack::Decoder) {
                ++decoderLayers;
                if (layer.window > 0) {
                    ++windowed;
                    windows.insert(layer.window);
                }
            }
        }
        QStringList windowText;
        for (std::int64_t window : windows) {
            windowText << exactCount(static_cast<std::uint64_t>(window));
        }
        if (savings.uncappedBytes > savings.totalBytes) {
            m_notes.push_back(tr("Windows hold %1 of %2 layers to %3 tokens: %4 instead of %5 with every layer global "
                                 "(%6 less).")
                                  .arg(windowed)
                                  .arg(decoderLayers)
                                  .arg(windowText.join(QStringLiteral(", ")), bytesText(savings.totalBytes),
                                       bytesText(savings.uncappedBytes),
                                       percentText(savings.uncappedBytes - savings.totalBytes, savings.uncappedBytes)));
        } else {
            m_notes.push_back(
                tr("Windows of %1 tokens on %2 of %3 layers do not bite at S = %4: the cache of those layers "
                   "stops growing beyond the window.")
                    .arg(windowText.join(QStringLiteral(", ")))
                    .arg(windowed)
                    .arg(decoderLayers)
                    .arg(exactCount(s.sequenceLength)));
        }
    }
    for (const core::KvKindShare& share : m_shares) {
        if (share.cross) {
            m_notes.push_back(
                tr("Cross-attention keeps K and V of the %1 source tokens for every decoder layer, computed "
                   "once per request: %2.")
                    .arg(exactCount(share.cachedTokens), bytesText(share.bytes)));
        }
    }

    std::vector<KvCurvePlot::Marker> lengthsMarked;
    lengthsMarked.push_back({double(std::max<std::int64_t>(a.config.maxPositions, 1)),
                             tr("context %1").arg(tokenCount(static_cast<std::uint64_t>(a.config.maxPositions)))});
    std::set<std::int64_t> windows;
    for (const core::LayerPlan& layer : a.plan.layers) {
        if (layer.window > 0 && layer.stack == core::Stack::Decoder && windows.insert(layer.window).second) {
            lengthsMarked.push_back(
                {double(layer.window), tr("W %1").arg(tokenCount(static_cast<std::uint64_t>(layer.window)))});
        }
    }
    std::vector<KvCurvePlot::Alternative> alternatives;
    if (savings.windowed) {
        alternatives.push_back(
            {tr("%1 if every layer were global").arg(dtypeName(s.kvDType)),
             core::kvAlternativeCurve(a.config, a.plan, lengths, s, s.kvDType, core::KvAlternative::Uncapped)});
    }
    if (savings.latent) {
        alternatives.push_back(
            {tr("%1 per-head K and V (MLA expanded)").arg(dtypeName(s.kvDType)),
             core::kvAlternativeCurve(a.config, a.plan, lengths, s, s.kvDType, core::KvAlternative::Expanded)});
    }
    // The room on the scenario's devices, where it meets the curves; the panel beside the plot has the others.
    std::uint64_t highest = 1;
    for (const core::KvCurve& curve : m_curves) {
        highest = std::max(highest, curve.bytes.empty() ? 0 : curve.bytes.back());
    }
    for (const KvCurvePlot::Alternative& alternative : alternatives) {
        highest = std::max(highest, alternative.curve.bytes.empty() ? 0 : alternative.curve.bytes.back());
    }
    std::vector<KvCurvePlot::Marker> sizes;
    for (std::size_t i = 0; i < m_fits.size(); ++i) {
        const core::GpuFit& fit = m_fits[i];
        if (fit.scenario && fit.roomBytes > 0 && double(fit.roomBytes) <= 4.0 * double(highest)) {
            sizes.push_back({double(fit.roomBytes), tr("room beside the weights on %1").arg(qs(m_fitTexts[i].label))});
        }
    }
    m_plot->setCurves(m_curves, s.kvDType, s.sequenceLength, kv.totalBytes, alternatives, lengthsMarked, sizes);
    m_plot->applyPalette(palette(), font());
    placePlot();
}

QFont KvCacheView::headlineFont() const {
    QFont big = font();
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
        lines << widgets::wrapLines(note, font(), content.width(), kNoteLines);
    }
    return lines;
}

layout::KvLayout KvCacheView::layoutFor(const QRectF& target) const {
    ensureBuilt();
    const QRectF content = contentRect(target);
    return layout::layoutKvCache(content, widgets::TextMetrics(font()), widgets::TextMetrics(headlineFont()),
                                 static_cast<int>(m_shares.size()), static_cast<int>(noteLines(content).size()),
                                 static_cast<int>(m_fits.size()));
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
    const QPalette pal = palette();
    painter.setFont(headlineFont());
    painter.setPen(pal.color(QPalette::Text));
    const widgets::TextMetrics big(headlineFont());
    painter.drawText(placed.headline, Qt::AlignLeft | Qt::AlignVCenter, m_headline);
    painter.setFont(font());
    painter.setPen(colors::muted(pal));
    const qreal detailLeft = placed.headline.left() + big.horizontalAdvance(m_headline) + 14;
    painter.drawText(
        QRectF(detailLeft, placed.headline.top(), placed.headline.right() - detailLeft, placed.headline.height()),
        Qt::AlignLeft | Qt::AlignVCenter, m_headlineDetail);
    paintShares(painter, placed);
    painter.setFont(font());
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
    const QPalette pal = palette();
    std::vector<std::uint64_t> values;
    for (const core::KvKindShare& share : m_shares) {
        values.push_back(share.bytes);
    }
    const std::vector<QRectF> segments = layout::proportionalSegments(values, placed.bar);
    const widgets::TextMetrics metrics(font());
    painter.fillRect(placed.bar, colors::panel(pal));
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const QColor color = colors::kvShare(m_shares[i], pal);
        painter.fillRect(segments[i], color);
        const QString label = QStringLiteral("%1 · %2").arg(qs(m_shares[i].name), bytesText(m_shares[i].bytes));
        if (metrics.horizontalAdvance(label) + 12 < segments[i].width()) {
            painter.setPen(colors::textOn(color));
            painter.drawText(segments[i], Qt::AlignCenter, label);
        }
    }
    const qreal line = metrics.height();
    for (std::size_t i = 0; i < placed.rows.size() && i < m_shares.size(); ++i) {
        const core::KvKindShare& share = m_shares[i];
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
    const QPalette pal = palette();
    const core::Analysis& a = analysis();
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(pal.color(QPalette::Text));
    const QString weights =
        tr("Weights (%1, %2)")
            .arg(QString::fromLatin1(core::formatInfo(a.scenario.weightFormat).name), bytesText(a.weightBytes));
    const QString devices =
        a.scenario.gpuCount == 1 ? tr("on one device") : tr("split over %1 devices").arg(a.scenario.gpuCount);
    painter.drawText(placed.gpuTitle, Qt::AlignLeft | Qt::AlignVCenter,
                     widgets::firstThatFits(widgets::TextMetrics(bold),
                                            {tr("%1 + this cache %2").arg(weights, devices),
                                             tr("Weights + this cache %1").arg(devices), tr("Weights + cache")},
                                            placed.gpuTitle.width()));
    const widgets::TextMetrics metrics(font());
    const qreal line = metrics.height();
    for (std::size_t i = 0; i < m_fits.size() && i < placed.gpuRows.size(); ++i) {
        const core::GpuFit& fit = m_fits[i];
        const core::GpuFitText& text = m_fitTexts[i];
        const QString label = fit.scenario ? tr("%1 (scenario)").arg(qs(text.label)) : qs(text.label);
        const layout::GpuRowLayout row =
            layout::layoutGpuRow(placed.gpuRows[i], font(), bold, label, qs(text.verdict), qs(text.detail));
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
        painter.setFont(font());
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
        m_plot->applyPalette(palette(), font());
    }
}

} // namespace archplay::ui::views
