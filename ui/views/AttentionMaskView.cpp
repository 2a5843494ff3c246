// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/AttentionMaskView.h"

#include "core/derivation/DerivationText.h"
#include "ui/views/KindNames.h"
#include "ui/views/ViewColors.h"
#include "ui/widgets/ShapedText.h"
#include "ui/widgets/TextLines.h"

#include <QCheckBox>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace archplay::ui::views {
namespace {

QString statsText(const core::MaskSpec& mask, std::uint64_t queries, std::uint64_t keys) {
    const std::uint64_t pairs = core::attendedPairs(mask, queries, keys);
    const std::uint64_t causal = core::attendedPairs({core::MaskKind::Causal, 0}, queries, queries);
    const QString at = AttentionMaskView::tr("%1 pairs at S = %2").arg(shortCount(pairs), tokenCount(queries));
    switch (mask.kind) {
    case core::MaskKind::Causal:
        return AttentionMaskView::tr("all earlier keys · %1").arg(at);
    case core::MaskKind::Bidirectional:
        return AttentionMaskView::tr("all keys · %1").arg(at);
    case core::MaskKind::Cross:
        return AttentionMaskView::tr("all %1 source tokens · %2 pairs").arg(tokenCount(keys), shortCount(pairs));
    case core::MaskKind::SlidingWindow:
    case core::MaskKind::Chunked:
    case core::MaskKind::LocalWindow:
        return AttentionMaskView::tr("≤ %1 keys · %2 (%3 of causal)")
            .arg(tokenCount(mask.span), at, percentText(pairs, causal));
    case core::MaskKind::PrefixLm:
        return AttentionMaskView::tr("prefix both ways, then causal · %1").arg(at);
    case core::MaskKind::Recurrent:
        return AttentionMaskView::tr("all earlier tokens, folded into a fixed state · no score matrix");
    case core::MaskKind::Convolution:
        return AttentionMaskView::tr("the last %1 tokens, by a convolution · no score matrix")
            .arg(tokenCount(mask.span));
    }
    return {};
}

/// statsText() without the pair counts.
QString briefStatsText(const core::MaskSpec& mask, std::uint64_t queries, std::uint64_t keys) {
    switch (mask.kind) {
    case core::MaskKind::Causal:
        return AttentionMaskView::tr("all earlier keys");
    case core::MaskKind::Bidirectional:
        return AttentionMaskView::tr("all keys");
    case core::MaskKind::Cross:
        return AttentionMaskView::tr("all source tokens");
    case core::MaskKind::SlidingWindow:
    case core::MaskKind::Chunked:
    case core::MaskKind::LocalWindow:
        return AttentionMaskView::tr("≤ %1 keys · %2 of causal")
            .arg(tokenCount(mask.span),
                 percentText(core::attendedPairs(mask, queries, keys),
                             core::attendedPairs({core::MaskKind::Causal, 0}, queries, queries)));
    case core::MaskKind::PrefixLm:
        return AttentionMaskView::tr("prefix both ways, then causal");
    case core::MaskKind::Recurrent:
        return AttentionMaskView::tr("a fixed state, no scores");
    case core::MaskKind::Convolution:
        return AttentionMaskView::tr("the last %1 tokens (conv)").arg(tokenCount(mask.span));
    }
    return {};
}

} // namespace

AttentionMaskView::AttentionMaskView(QWidget* parent)
    : PaintedView(parent)
    , m_compareBox(new QCheckBox(tr("Compare every kind"), this)) {
    m_compareBox->setToolTip(tr("Add the kinds this model does not use (of causal, bidirectional, sliding, chunked, "
                                "prefix-LM and cross-attention) at the same scale"));
    connect(m_compareBox, &QCheckBox::toggled, this, &AttentionMaskView::setCompareAll);
}

void AttentionMaskView::setCompareAll(bool compare) {
    if (compare == m_compare) {
        return;
    }
    m_compare = compare;
    const QSignalBlocker blocker(m_compareBox);
    m_compareBox->setChecked(compare);
    invalidate();
}

const std::vector<core::MaskGrid>& AttentionMaskView::grids() const {
    ensureBuilt();
    return m_grids;
}

void AttentionMaskView::updateControls() {
    m_compareBox->setVisible(!compact());
}

void AttentionMaskView::rebuild() {
    m_panels.clear();
    m_grids.clear();
    const core::Analysis& a = analysis();
    if (!a.valid) {
        return;
    }
    const std::vector<core::MaskUse> masks = core::modelMasks(a.config, a.plan);
    m_tokensPerCell = core::maskScale(masks, kCells);
    const bool encoderDecoder = a.config.architecture == core::ArchitectureKind::EncoderDecoder;
    const std::uint64_t decoderTokens = a.scenario.sequenceLength;
    const std::uint64_t encoderTokens = encoderDecoder ? a.scenario.encoderSequenceLength : a.scenario.sequenceLength;
    for (const core::MaskUse& use : masks) {
        std::int64_t inStack = 0;
        for (const core::LayerPlan& layer : a.plan.layers) {
            inStack += layer.stack == use.stack ? 1 : 0;
        }
        const QString stack = !encoderDecoder                                  ? QString()
                              : use.cross || use.stack == core::Stack::Decoder ? tr("decoder ")
                                                                               : tr("encoder ");
        Panel panel{use,
                    false,
                    tr("%1layers %2 (%3 of %4)")
                        .arg(stack, qs(core::derivation::layerList(use.layers)))
                        .arg(use.layers.size())
                        .arg(inStack),
                    {}};
        const std::uint64_t queries = use.stack == core::Stack::Encoder ? encoderTokens : decoderTokens;
        panel.stats = statsText(use.mask, queries, use.cross ? encoderTokens : queries);
        panel.briefStats = briefStatsText(use.mask, queries, use.cross ? encoderTokens : queries);
        m_panels.push_back(panel);
    }
    if (m_compare) {
        for (const core::MaskUse& use : core::referenceMasks(masks, kCells * m_tokensPerCell)) {
            // Only the kinds the model does not have already.
            const bool present = std::any_of(masks.begin(), masks.end(),
                                             [&](const core::MaskUse& own) { return own.mask.kind == use.mask.kind; });
            if (present) {
                continue;
            }
            const std::uint64_t keys = use.cross ? encoderTokens : decoderTokens;
            m_panels.push_back({use, true, tr("for comparison"), statsText(use.mask, decoderTokens, keys),
                                briefStatsText(use.mask, decoderTokens, keys)});
        }
    }
    for (const Panel& panel : m_panels) {
        m_grids.push_back(core::maskGrid(panel.use.mask, kCells, m_tokensPerCell));
    }
    const std::uint64_t span = kCells * m_tokensPerCell;
    m_subtitle = tr("Which keys (columns) each query (rows) attends, for every mask of the model; the selected layer's "
                    "mask is outlined.");
    if (m_tokensPerCell == 1) {
        m_caption = tr("Scale: one cell = one (query, key) pair; each panel shows the first %1 tokens. Filled = "
                       "attended, empty = masked (−∞ before the softmax).")
                        .arg(kCells);
    } else {
        m_caption = tr("Scale: one cell = %1 × %1 token pairs; each panel spans %2 tokens so that the narrowest window "
                       "shows. Shade = share of the cell's pairs attended (cells on a boundary are partly filled).")
                        .arg(exactCount(m_tokensPerCell), exactCount(span));
    }
}

QRectF AttentionMaskView::contentRect(const QRectF& target) const {
    const bool boxShown = !compact() && m_compareBox->isVisible();
    const qreal top =
        headerBottom(target, tr("Attention mask"), m_subtitle, boxShown ? m_compareBox->sizeHint().width() + 12 : 0) +
        14;
    return QRectF(target.left() + 14, top, target.width() - 28, target.bottom() - top - 10);
}

layout::MaskLayout AttentionMaskView::layoutFor(const QRectF& target) const {
    ensureBuilt();
    if (m_layoutTarget != target || m_layoutGeneration != generation()) {
        const int count = static_cast<int>(m_panels.size());
        m_layout =
            compact()
                ? layout::layoutMaskThumbnails(count, kCells, contentRect(target), widgets::TextMetrics(smallFont()))
                : layout::layoutMasks(count, kCells, contentRect(target), widgets::TextMetrics(smallFont()));
        m_layoutTarget = target;
        m_layoutGeneration = generation();
    }
    return m_layout;
}

std::size_t AttentionMaskView::outlinedPanel() const {
    const std::int64_t selected = selectedLayer();
    if (selected < 0) {
        return m_panels.size();
    }
    const core::LayerPlan& layer = analysis().plan.layers[static_cast<std::size_t>(selected)];
    const core::MaskSpec mask = core::layerMask(analysis().config, layer);
    for (std::size_t i = 0; i < m_panels.size(); ++i) {
        const Panel& panel = m_panels[i];
        if (!panel.reference && !panel.use.cross && panel.use.stack == layer.stack && panel.use.mask == mask) {
            return i;
        }
    }
    return m_panels.size();
}

QString AttentionMaskView::contentKey() const {
    // What the view draws. A tile (compact) leaves out the subtitle, the caption and each panel's
    // layer list, so a layer-count drag that changes only those does not repaint it.
    QStringList parts{QString::number(compact()), QString::number(m_tokensPerCell), QString::number(outlinedPanel())};
    if (!compact()) {
        parts << m_subtitle << m_caption;
    }
    for (const Panel& panel : m_panels) {
        parts << qs(panel.use.name) << panel.stats << panel.briefStats << QString::number(int(panel.use.mask.kind))
              << QString::number(panel.use.mask.span) << QString::number(panel.reference);
        if (!compact()) {
            parts << panel.subtitle;
        }
    }
    return parts.join(QChar(0x1f));
}

QColor AttentionMaskView::colorOf(const core::MaskSpec& mask) const {
    core::LayerPlan layer;
    switch (mask.kind) {
    case core::MaskKind::Causal:
        break;
    case core::MaskKind::Bidirectional:
        layer.causal = false;
        break;
    case core::MaskKind::SlidingWindow:
    case core::MaskKind::LocalWindow:
        layer.attention = core::LayerAttention::Sliding;
        break;
    case core::MaskKind::Chunked:
        layer.attention = core::LayerAttention::Chunked;
        break;
    case core::MaskKind::PrefixLm:
        return colors::component(core::Component::Pooler, snapshot().palette);
    case core::MaskKind::Cross:
        return colors::crossAttention(snapshot().palette);
    case core::MaskKind::Recurrent:
    case core::MaskKind::Convolution:
        return colors::component(core::Component::Mixer, snapshot().palette);
    }
    return colors::attention(layer, snapshot().palette);
}

void AttentionMaskView::paintContent(QPainter& painter, const QRectF& target) const {
    const bool boxShown = forScreen(painter) && !compact();
    paintHeader(painter, target, tr("Attention mask"), m_subtitle,
                boxShown ? m_compareBox->sizeHint().width() + 12 : 0);
    const layout::MaskLayout placed = layoutFor(target);
    const std::size_t outlined = outlinedPanel();
    for (std::size_t i = 0; i < placed.panels.size() && i < m_panels.size(); ++i) {
        paintPanel(painter, placed.panels[i], m_panels[i], m_grids[i], i == outlined);
    }
    if (!placed.caption.isEmpty()) {
        painter.setFont(smallFont());
        painter.setPen(colors::muted(snapshot().palette));
        painter.drawText(placed.caption, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, m_caption);
    }
}

void AttentionMaskView::paintPanel(QPainter& painter, const layout::MaskPanel& geometry, const Panel& panel,
                                   const core::MaskGrid& grid, bool selected) const {
    const QPalette pal = snapshot().palette;
    const QColor color = colorOf(panel.use.mask);
    const QColor muted = colors::muted(pal);
    const QFont small = smallFont();
    const widgets::TextMetrics metrics(small);
    if (selected) {
        painter.setPen(QPen(pal.color(QPalette::Highlight), 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRoundedRect(geometry.frame.adjusted(-6, -4, 6, 4), 5, 5);
    }
    QFont bold = small;
    bold.setBold(true);
    painter.setFont(bold);
    const qreal line = metrics.height();
    auto linesIn = [&](const QRectF& box) {
        return std::max(1, static_cast<int>(std::floor(box.height() / line + 0.01)));
    };
    // The colour swatch before the title, unless it would push a word of a narrow panel's title
    // ("Bidirectional") past the edge: the grid below carries the colour too.
    const QString name = qs(panel.use.name);
    const widgets::TextMetrics boldMetrics(bold);
    const QStringList nameWords = name.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    const bool swatch = std::all_of(nameWords.begin(), nameWords.end(), [&](const QString& word) {
        return boldMetrics.horizontalAdvance(word) <= geometry.title.width() - 16;
    });
    if (swatch) {
        painter.fillRect(QRectF(geometry.title.left(), geometry.title.top() + 3, 10, line - 6), color);
    }
    painter.setPen(pal.color(QPalette::Text));
    const qreal indent = swatch ? 16 : 0;
    const qreal titleWidth = geometry.title.width() - indent;
    const qreal titleBottom =
        widgets::drawLines(painter, widgets::wrapLines(name, bold, titleWidth, linesIn(geometry.title)),
                           geometry.title.left() + indent, geometry.title.top(), titleWidth, line);
    painter.setFont(small);
    painter.setPen(muted);
    if (!geometry.subtitle.isEmpty()) {
        widgets::drawShaped(painter, geometry.subtitle, Qt::AlignLeft | Qt::AlignVCenter,
                            widgets::fitted(metrics, panel.subtitle, geometry.subtitle.width()));
    }
    // The stats wrap to the lines their box holds: the counts when the whole text fits them, else
    // the words without the counts; right under the title's last line, which may be above the box
    // reserved for a longer title, unless the layer list sits between them.
    const int statsLines = linesIn(geometry.stats);
    QStringList statsWords = widgets::wrapLines(panel.stats, small, geometry.stats.width(), widgets::kEveryLine);
    if (statsWords.size() > statsLines) {
        statsWords = widgets::wrapLines(panel.briefStats, small, geometry.stats.width(), statsLines);
    }
    const qreal statsTop =
        geometry.subtitle.isEmpty() ? std::min(geometry.stats.top(), titleBottom + 2) : geometry.stats.top();
    widgets::drawLines(painter, statsWords, geometry.stats.left(), statsTop, geometry.stats.width(), line);

    painter.fillRect(geometry.grid, colors::panel(pal));
    // Up to a thousand cells: filled without antialiasing, as pixel-aligned spans rather than a
    // traced path per cell.
    const bool antialiased = painter.testRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (int row = 0; row < grid.cells; ++row) {
        for (int column = 0; column < grid.cells; ++column) {
            const float coverage = grid.at(row, column);
            if (coverage > 0) {
                painter.fillRect(layout::maskCell(geometry, grid.cells, row, column),
                                 colors::faded(color, 0.85 * (1.0 - coverage), pal));
            }
        }
    }
    painter.setRenderHint(QPainter::Antialiasing, antialiased);
    const qreal cell = geometry.grid.width() / std::max(grid.cells, 1);
    if (cell >= 5) {
        painter.setPen(QPen(pal.color(QPalette::Base), 1));
        for (int i = 1; i < grid.cells; ++i) {
            painter.drawLine(QLineF(geometry.grid.left() + i * cell, geometry.grid.top(),
                                    geometry.grid.left() + i * cell, geometry.grid.bottom()));
            painter.drawLine(QLineF(geometry.grid.left(), geometry.grid.top() + i * cell, geometry.grid.right(),
                                    geometry.grid.top() + i * cell));
        }
    }
    painter.setPen(QPen(colors::rule(pal), 1));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(geometry.grid);

    painter.setPen(muted);
    for (std::size_t i = 0; i < geometry.tickCells.size(); ++i) {
        const QString label = tokenCount(static_cast<std::uint64_t>(geometry.tickCells[i]) * grid.tokensPerCell);
        if (!geometry.rowTicks[i].isEmpty()) {
            widgets::drawShaped(painter, geometry.rowTicks[i], Qt::AlignRight | Qt::AlignVCenter, label);
        }
        widgets::drawShaped(painter, geometry.columnTicks[i], Qt::AlignHCenter | Qt::AlignVCenter, label);
    }
    if (geometry.keyAxis.isEmpty()) {
        return; // a thumbnail: no axis captions
    }
    widgets::drawShaped(painter, geometry.keyAxis, Qt::AlignHCenter | Qt::AlignVCenter,
                        panel.use.cross ? tr("source position j (keys) →") : tr("key position j →"));
    painter.save();
    painter.translate(geometry.queryAxis.center());
    painter.rotate(-90);
    widgets::drawShaped(painter,
                        QRectF(-geometry.queryAxis.height() / 2, -geometry.queryAxis.width() / 2,
                               geometry.queryAxis.height(), geometry.queryAxis.width()),
                        Qt::AlignCenter,
                        panel.use.cross ? tr("← target position i (queries)") : tr("← query position i"));
    painter.restore();
}

void AttentionMaskView::resizeEvent(QResizeEvent* event) {
    PaintedView::resizeEvent(event);
    m_compareBox->adjustSize();
    m_compareBox->move(width() - m_compareBox->width() - 14, 10);
}

} // namespace archplay::ui::views
