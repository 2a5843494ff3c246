// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/LayerStackView.h"

#include "ui/views/KindNames.h"
#include "ui/views/LayerSelection.h"
#include "ui/views/Painting.h"
#include "ui/views/ViewColors.h"
#include "ui/widgets/ShapedText.h"
#include "ui/widgets/TextLines.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <map>

namespace archplay::ui::views {
namespace {

QString embeddingsLabel(const core::Analysis& a) {
    const auto& c = a.config;
    QString text = LayerStackView::tr("Token embeddings  %1 × %2 · %3")
                       .arg(exactCount(static_cast<std::uint64_t>(c.vocabSize)),
                            exactCount(static_cast<std::uint64_t>(c.hiddenSize)),
                            shortCount(a.params.component(core::Component::Embedding)));
    if (a.params.component(core::Component::Positional) > 0) {
        text += LayerStackView::tr(" + positions %1").arg(shortCount(a.params.component(core::Component::Positional)));
    }
    return text;
}

QString headLabel(const core::Analysis& a) {
    const auto& c = a.config;
    if (!c.outputHead) {
        return c.pooler ? LayerStackView::tr("Pooler · %1").arg(shortCount(a.params.component(core::Component::Pooler)))
                        : LayerStackView::tr("Contextual embeddings (no head)");
    }
    if (c.tieWordEmbeddings) {
        return LayerStackView::tr("Output head → %1 logits (tied to the embeddings)")
            .arg(exactCount(static_cast<std::uint64_t>(c.vocabSize)));
    }
    return LayerStackView::tr("Output head  %1 × %2 · %3")
        .arg(exactCount(static_cast<std::uint64_t>(c.hiddenSize)), exactCount(static_cast<std::uint64_t>(c.vocabSize)),
             shortCount(a.params.component(core::Component::OutputHead)));
}

QString normLabel(const core::ModelConfig& c) {
    switch (c.normKind) {
    case core::NormKind::RmsNorm:
        return LayerStackView::tr("Final RMSNorm");
    case core::NormKind::LayerNorm:
    case core::NormKind::LayerNormNoBias:
        return LayerStackView::tr("Final LayerNorm");
    case core::NormKind::NonParametric:
        return LayerStackView::tr("Final norm (no weights)");
    }
    return {};
}

/// `text` if it fits in `width`, else nothing: a slab label is never cut ("bidirec…").
QString wholeOrNothing(const QString& text, const widgets::TextMetrics& metrics, qreal width) {
    return metrics.horizontalAdvance(text) <= width ? text : QString();
}

/// A box label whole, else its head before the details ("Output head → …" gives "Output head"),
/// else its first words that fit, else nothing: the box's colour and tooltip still say what it is.
QString boxLabel(const QString& text, const widgets::TextMetrics& metrics, qreal width) {
    if (metrics.horizontalAdvance(text) <= width) {
        return text;
    }
    qsizetype cut = text.size();
    for (const QString& separator :
         {QStringLiteral("  "), QStringLiteral(" → "), QStringLiteral(" · "), QStringLiteral(" (")}) {
        const qsizetype at = text.indexOf(separator);
        if (at > 0) {
            cut = std::min(cut, at);
        }
    }
    QString head = text.left(cut);
    // Whole words before a cut word: "Target token" rather than "Target token emb…".
    while (metrics.horizontalAdvance(head) > width && head.lastIndexOf(QLatin1Char(' ')) > 0) {
        head = head.left(head.lastIndexOf(QLatin1Char(' ')));
    }
    return wholeOrNothing(head, metrics, width);
}

} // namespace

LayerStackView::LayerStackView(QWidget* parent)
    : PaintedView(parent) {
    setMouseTracking(true);
}

void LayerStackView::rebuild() {
    m_columns.clear();
    m_legend.clear();
    const core::Analysis& a = analysis();
    if (!a.valid) {
        return;
    }
    const auto& plan = a.plan;
    const bool encoderDecoder = a.config.architecture == core::ArchitectureKind::EncoderDecoder;
    std::vector<core::Stack> stacks;
    if (a.config.hasEncoder()) {
        stacks.push_back(core::Stack::Encoder);
    }
    if (a.config.architecture != core::ArchitectureKind::EncoderOnly) {
        stacks.push_back(core::Stack::Decoder);
    }
    const std::vector<core::LayerRun> runs = plan.runs();
    // Bar lengths relative to the largest layer: the shares place bars, the tooltips give the counts.
    std::uint64_t largestLayer = 1;
    std::uint64_t largestCache = 1;
    for (std::size_t i = 0; i < plan.layers.size(); ++i) {
        largestLayer = std::max(largestLayer, a.params.layers[i].total);
        largestCache = std::max(largestCache, i < a.kv.layers.size() ? a.kv.layers[i].bytes : 0);
    }
    m_parameterHeader = tr("parameters\nmax %1").arg(shortCount(largestLayer));
    m_cacheHeader = tr("KV cache at S\nmax %1").arg(bytesText(largestCache));
    for (core::Stack stack : stacks) {
        layout::StackColumnInput column;
        if (encoderDecoder) {
            column.title = stack == core::Stack::Encoder ? tr("Encoder") : tr("Decoder");
        }
        int offset = 0;
        for (std::size_t i = 0; i < plan.layers.size(); ++i) {
            if (plan.layers[i].stack == stack) {
                if (column.layers.empty()) {
                    offset = static_cast<int>(i);
                }
                const std::uint64_t cache = i < a.kv.layers.size() ? a.kv.layers[i].bytes : 0;
                column.layers.push_back({static_cast<int>(i), plan.layers[i].crossAttention,
                                         double(a.params.layers[i].total) / double(largestLayer),
                                         double(cache) / double(largestCache)});
            }
        }
        for (const core::LayerRun& run : runs) {
            if (run.kind.stack != stack) {
                continue;
            }
            const int planFirst = offset + static_cast<int>(run.first);
            const std::uint64_t perLayer = a.params.layers[static_cast<std::size_t>(planFirst)].total;
            QString label = kindName(a.config, run.kind) + QStringLiteral(" · ") +
                            (run.count > 1 ? tr("%1 each").arg(shortCount(perLayer)) : shortCount(perLayer));
            if (run.count > 1) {
                label = QStringLiteral("×%1  ").arg(run.count) + label;
            }
            column.runs.push_back({static_cast<int>(run.first), static_cast<int>(run.count), label});
        }
        const bool last = stack == stacks.back();
        column.bottomLabel = encoderDecoder && stack == core::Stack::Decoder ? tr("Target token embeddings (shared)")
                                                                             : embeddingsLabel(a);
        column.normLabel = a.config.finalNorm ? normLabel(a.config) : QString();
        column.topLabel = last ? headLabel(a) : tr("Encoder output → cross-attention");
        m_columns.push_back(std::move(column));
    }

    std::map<QString, std::pair<int, QColor>> attention;
    std::map<QString, std::pair<int, QColor>> ffn;
    std::vector<QString> attentionOrder;
    std::vector<QString> ffnOrder;
    int crossLayers = 0;
    for (const core::LayerPlan& layer : plan.layers) {
        const QString a1 = attentionName(layer);
        if (attention.find(a1) == attention.end()) {
            attentionOrder.push_back(a1);
            attention[a1] = {0, colors::attention(layer, snapshot().palette)};
        }
        ++attention[a1].first;
        const QString f = ffnName(a.config, layer.ffn);
        if (ffn.find(f) == ffn.end()) {
            ffnOrder.push_back(f);
            ffn[f] = {0, colors::ffn(layer.ffn, snapshot().palette)};
        }
        ++ffn[f].first;
        crossLayers += layer.crossAttention ? 1 : 0;
    }
    for (const QString& name : attentionOrder) {
        m_legend.push_back({QStringLiteral("%1 ×%2").arg(name).arg(attention[name].first), attention[name].second});
    }
    if (crossLayers > 0) {
        m_legend.push_back({tr("cross-attention ×%1").arg(crossLayers), colors::crossAttention(snapshot().palette)});
    }
    for (const QString& name : ffnOrder) {
        m_legend.push_back({QStringLiteral("%1 ×%2").arg(name).arg(ffn[name].first), ffn[name].second});
    }
    m_subtitle = tr("%1 layers from the token embeddings (bottom) to the output (top): attention on the left of each "
                    "slab, feed-forward on the right.")
                     .arg(plan.layers.size());
}

QString LayerStackView::contentKey() const {
    // A digest of everything paintContent() draws from: the columns and their labels, the legend,
    // each layer's kind (its colours and names), the output head and the cache's dtype. Hashed, not
    // joined as text: a 126-layer stack would otherwise format hundreds of numbers per edit.
    const core::Analysis& a = analysis();
    size_t digest =
        qHashMulti(0, a.valid, a.config.outputHead, int(a.kv.dtype), m_parameterHeader, m_cacheHeader, m_subtitle);
    for (const layout::StackColumnInput& column : m_columns) {
        digest = qHashMulti(digest, column.title, column.bottomLabel, column.normLabel, column.topLabel);
        for (const layout::StackColumnInput::Layer& layer : column.layers) {
            digest = qHashMulti(digest, layer.planIndex, layer.cross, layer.parameters, layer.cache);
        }
        for (const layout::StackColumnInput::Run& run : column.runs) {
            digest = qHashMulti(digest, run.first, run.count, run.label);
        }
    }
    for (const LegendEntry& entry : m_legend) {
        digest = qHashMulti(digest, entry.text, entry.color.rgba());
    }
    for (const core::LayerPlan& layer : a.plan.layers) {
        digest = qHashMulti(digest, int(layer.stack), int(layer.mixer), int(layer.attention), layer.latent,
                            layer.window, layer.causal, layer.crossAttention, int(layer.ffn), layer.positional);
    }
    for (const core::FfnKind kind : {core::FfnKind::Mlp, core::FfnKind::Gated, core::FfnKind::Moe}) {
        digest = qHashMulti(digest, ffnName(a.config, kind));
    }
    return QString::number(digest, 16);
}

QString LayerStackView::screenSubtitle() const {
    return m_subtitle + QLatin1Char(' ') + tr("Click a layer to inspect it.");
}

QRectF LayerStackView::paintChrome(QPainter* painter, const QRectF& target) const {
    QRectF area;
    if (painter) {
        // On screen the subtitle says what a click does; a picture has nothing to click.
        area = paintHeader(*painter, target, tr("Layer stack"), forScreen(*painter) ? screenSubtitle() : m_subtitle);
    } else {
        const qreal top = headerBottom(target, tr("Layer stack"), screenSubtitle());
        area = QRectF(target.left() + 14, top + 10, target.width() - 28, target.bottom() - top - 20);
    }
    // The legend flows in lines of swatches above the stack.
    const widgets::TextMetrics metrics(snapshot().font);
    const qreal line = metrics.height();
    qreal x = area.left();
    qreal y = area.top();
    for (const LegendEntry& entry : m_legend) {
        const qreal width = line * 0.9 + 6 + metrics.horizontalAdvance(entry.text) + 18;
        if (x + width > area.right() && x > area.left()) {
            x = area.left();
            y += line + 4;
        }
        if (painter) {
            painter->fillRect(QRectF(x, y + line * 0.1, line * 0.9, line * 0.8), entry.color);
            painter->setPen(snapshot().palette.color(QPalette::Text));
            widgets::drawShaped(*painter, QRectF(x + line * 0.9 + 6, y, width, line), Qt::AlignLeft | Qt::AlignVCenter,
                                entry.text);
        }
        x += width;
    }
    y += line + 12;
    return QRectF(area.left(), y, area.width(), area.bottom() - y);
}

const layout::LayerStackLayout& LayerStackView::cachedLayout(const QRectF& target) const {
    if (m_layoutTarget != target || m_layoutGeneration != generation()) {
        m_layout = layout::layoutLayerStack(m_columns, paintChrome(nullptr, target), smallFont());
        m_layoutTarget = target;
        m_layoutGeneration = generation();
    }
    return m_layout;
}

layout::LayerStackLayout LayerStackView::layoutFor(const QRectF& target) const {
    ensureBuilt();
    return cachedLayout(target);
}

void LayerStackView::paintContent(QPainter& painter, const QRectF& target) const {
    paintChrome(&painter, target);
    const layout::LayerStackLayout& stack = cachedLayout(target);
    const QPalette pal = snapshot().palette;
    const core::Analysis& a = analysis();
    const std::int64_t selected = selectedLayer();
    const QColor text = pal.color(QPalette::Text);
    const QColor muted = colors::muted(pal);
    const QFont small = smallFont();
    const widgets::TextMetrics smallMetrics(small);
    painter.setFont(small);

    auto box = [&](const QRectF& rect, const QColor& fill, const QString& label) {
        if (rect.isEmpty()) {
            return;
        }
        painter.setPen(Qt::NoPen);
        painter.setBrush(fill);
        painter.drawRoundedRect(rect, 3, 3);
        painter.setPen(colors::textOn(fill));
        widgets::drawShaped(painter, rect.adjusted(8, 0, -8, 0), Qt::AlignCenter,
                            boxLabel(label, smallMetrics, rect.width() - 16));
    };

    QPen crossPen(colors::crossAttention(pal), 1.4);
    painter.setPen(crossPen);
    if (!stack.crossLinks.empty()) {
        painter.drawLine(stack.crossFeed);
        painter.drawLine(stack.crossBus);
        for (const QLineF& link : stack.crossLinks) {
            painter.drawLine(link);
            drawArrowHead(painter, link, 6);
        }
    }

    for (std::size_t c = 0; c < stack.columns.size(); ++c) {
        const layout::StackColumn& column = stack.columns[c];
        const layout::StackColumnInput& input = m_columns[c];
        if (!column.title.isEmpty()) {
            painter.setFont(titleFont());
            painter.setPen(text);
            widgets::drawShaped(painter, column.title, Qt::AlignLeft | Qt::AlignVCenter, input.title);
            painter.setFont(small);
        }
        painter.setRenderHint(QPainter::Antialiasing, true);
        box(column.top,
            colors::component(a.config.outputHead ? core::Component::OutputHead : core::Component::Pooler, pal),
            input.topLabel);
        box(column.norm, colors::faded(colors::component(core::Component::Norm, pal), 0.35, pal), input.normLabel);
        box(column.bottom, colors::component(core::Component::Embedding, pal), input.bottomLabel);

        // Slabs and bars sit on whole pixels: crisp and fast without antialiasing.
        painter.setRenderHint(QPainter::Antialiasing, false);
        const bool roomForWords =
            !column.slabs.empty() && column.slabs.front().rect.height() >= smallMetrics.height() * 1.4;
        painter.setPen(Qt::NoPen);
        for (const layout::StackSlab& slab : column.slabs) {
            const core::LayerPlan& layer = a.plan.layers[static_cast<std::size_t>(slab.planIndex)];
            const bool hovered = slab.planIndex == m_hover;
            auto shade = [&](QColor color) {
                return hovered ? color.lighter(115) : color;
            };
            painter.fillRect(slab.attention, shade(colors::attention(layer, pal)));
            if (!slab.cross.isEmpty()) {
                painter.fillRect(slab.cross, shade(colors::crossAttention(pal)));
            }
            painter.fillRect(slab.ffn, shade(colors::ffn(layer.ffn, pal)));
            if (roomForWords) {
                const QColor attentionText = colors::textOn(colors::attention(layer, pal));
                painter.setPen(attentionText);
                widgets::drawShaped(painter, slab.attention.adjusted(6, 0, -4, 0), Qt::AlignLeft | Qt::AlignVCenter,
                                    wholeOrNothing(attentionName(layer), smallMetrics, slab.attention.width() - 10));
                if (!slab.cross.isEmpty()) {
                    painter.setPen(colors::textOn(colors::crossAttention(pal)));
                    widgets::drawShaped(painter, slab.cross, Qt::AlignCenter,
                                        wholeOrNothing(tr("cross"), smallMetrics, slab.cross.width() - 4));
                }
                painter.setPen(colors::textOn(colors::ffn(layer.ffn, pal)));
                widgets::drawShaped(painter, slab.ffn.adjusted(6, 0, -6, 0), Qt::AlignLeft | Qt::AlignVCenter,
                                    wholeOrNothing(ffnName(a.config, layer.ffn), smallMetrics, slab.ffn.width() - 12));
                painter.setPen(Qt::NoPen);
            }
        }
        if (!column.parameterHeader.isEmpty()) {
            painter.setPen(muted);
            widgets::drawShaped(painter, column.parameterHeader, Qt::AlignLeft | Qt::AlignBottom, m_parameterHeader);
            widgets::drawShaped(painter, column.cacheHeader, Qt::AlignLeft | Qt::AlignBottom, m_cacheHeader);
            const QColor parameterColor = colors::faded(pal.color(QPalette::Text), 0.45, pal);
            const QColor cacheColor = colors::dtype(a.kv.dtype, pal);
            for (const layout::StackSlab& slab : column.slabs) {
                painter.fillRect(slab.parameterBar, parameterColor);
                painter.fillRect(slab.cacheBar, cacheColor);
            }
        }
        painter.setPen(QPen(muted, 1));
        for (const QLineF& bracket : column.brackets) {
            painter.drawLine(bracket);
            painter.drawLine(QLineF(bracket.x1() - 3, bracket.y1(), bracket.x1(), bracket.y1()));
            painter.drawLine(QLineF(bracket.x2() - 3, bracket.y2(), bracket.x2(), bracket.y2()));
        }
        painter.setPen(text);
        for (const layout::StackRunLabel& label : column.labels) {
            widgets::drawLines(painter, label.lines, label.text.left(), label.text.top(), label.text.width(),
                               smallMetrics.height());
        }
        painter.setPen(muted);
        for (const layout::StackTick& tick : column.ticks) {
            widgets::drawShaped(painter, tick.text, (c > 0 ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter,
                                QString::number(tick.layer));
        }
        for (const layout::StackSlab& slab : column.slabs) {
            if (slab.planIndex == selected) {
                painter.setPen(QPen(pal.color(QPalette::Highlight), 2.5));
                painter.setBrush(Qt::NoBrush);
                painter.drawRect(slab.rect.adjusted(-2, -2, 2, 2));
            }
        }
    }
}

int LayerStackView::slabAt(const QPointF& position) const {
    const layout::LayerStackLayout& stack = cachedLayout(QRectF(rect()));
    for (const layout::StackColumn& column : stack.columns) {
        for (const layout::StackSlab& slab : column.slabs) {
            // Thin slabs are hard to hit: accept the gap around them too.
            if (slab.rect.adjusted(0, -2, 0, 2).contains(position)) {
                return slab.planIndex;
            }
        }
    }
    return -1;
}

QString LayerStackView::toolTipFor(int planIndex) const {
    const core::Analysis& a = analysis();
    const auto index = static_cast<std::size_t>(planIndex);
    const core::LayerPlan& layer = a.plan.layers[index];
    const core::LayerParams& params = a.params.layers[index];
    QString tip = layerTitle(a, planIndex) + QStringLiteral("\n") + kindName(a.config, layer) +
                  tr("\n%1 parameters").arg(exactCount(params.total));
    if (params.active < params.total) {
        tip += tr(" (%1 active per token)").arg(exactCount(params.active));
    }
    tip += tr("\n%1 %2 · feed-forward %3 · norms %4")
               .arg(qs(core::mixerName(layer.mixer)), shortCount(params.mixer), shortCount(params.ffn),
                    shortCount(params.norms));
    if (index < a.kv.layers.size() && layer.stack == core::Stack::Decoder) {
        const core::KvLayerCache& cache = a.kv.layers[index];
        if (cache.selfElementsPerToken > 0) {
            tip += tr("\nKV cache: %1 per token").arg(bytesText(cache.selfBytesPerToken));
        }
        if (cache.fixedStateBytes > 0) {
            tip += tr("\nFixed state: %1 per sequence").arg(bytesText(cache.fixedStateBytes));
        }
        tip += tr("\n%1 at this scenario").arg(bytesText(cache.bytes));
    }
    return tip;
}

void LayerStackView::mouseMoveEvent(QMouseEvent* event) {
    ensureBuilt();
    const int hit = analysis().valid ? slabAt(event->position()) : -1;
    if (hit != m_hover) {
        m_hover = hit;
        repaintLater(rect());
    }
    if (hit >= 0) {
        QToolTip::showText(event->globalPosition().toPoint(), toolTipFor(hit), this);
    } else {
        QToolTip::hideText();
    }
}

void LayerStackView::mousePressEvent(QMouseEvent* event) {
    ensureBuilt();
    const int hit = analysis().valid ? slabAt(event->position()) : -1;
    if (hit >= 0 && event->button() == Qt::LeftButton) {
        layerSelection()->setLayer(hit);
        emit layerOpened(hit);
    }
}

void LayerStackView::leaveEvent(QEvent* event) {
    if (m_hover >= 0) {
        m_hover = -1;
        repaintLater(rect());
    }
    PaintedView::leaveEvent(event);
}

} // namespace archplay::ui::views
