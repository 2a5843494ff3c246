// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/MoeRoutingView.h"

#include "core/report/Exports.h"
#include "ui/Strings.h"
#include "ui/views/KindNames.h"
#include "ui/views/Painting.h"
#include "ui/views/ViewColors.h"
#include "ui/widgets/PixelRect.h"
#include "ui/widgets/ShapedText.h"
#include "ui/widgets/TextLines.h"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <vector>

namespace archplay::ui::views {
namespace {

constexpr int kRuleLines = 3; ///< the router's rule wraps to this many lines

} // namespace

MoeRoutingView::MoeRoutingView(QWidget* parent)
    : PaintedView(parent) {}

const core::RoutingSimulation& MoeRoutingView::simulation() const {
    ensureBuilt();
    return m_simulation;
}

void MoeRoutingView::rebuild() {
    const core::Analysis& a = analysis();
    if (!a.valid) {
        m_simulation = {};
        m_inputs = {};
        m_choices.clear();
        m_heat = QImage();
        return;
    }
    const std::int64_t selected = selectedLayer();
    std::int64_t index = selected;
    if (index < 0 || a.plan.layers[static_cast<std::size_t>(index)].ffn != core::FfnKind::Moe) {
        index = core::firstMoeLayer(a.plan);
    }
    // Most slider moves leave the router alone; its simulation is then kept.
    const core::RoutingInputs inputs = core::routingInputs(a.config, a.plan, index);
    if (inputs != m_inputs || m_simulation.layer != index) {
        m_simulation = *core::sharedRouting(inputs);
        ++m_simulations;
        m_inputs = inputs;
    }
    if (!m_simulation.moe) {
        m_subtitle = tr("This configuration is dense: nothing is routed.");
        m_choices.clear();
        m_heat = QImage();
        return;
    }
    const core::RouterSettings& rule = m_simulation.settings;
    m_subtitle =
        tr("A simulated router on a sample sentence. The scores are illustrative: deterministic, seeded from the "
           "config (E, k, shared experts, layer), not a trained checkpoint's.");
    QStringList parts;
    parts << (selected >= 0 && selected != index ? tr("%1 (the selected layer %2 is dense)")
                                                       .arg(layerTitle(a, index))
                                                       .arg(a.plan.layers[static_cast<std::size_t>(selected)].index)
                                                 : layerTitle(a, index));
    parts << tr("%1 routed experts, top-%2%3")
                 .arg(m_simulation.numExperts)
                 .arg(m_simulation.topK)
                 .arg(m_simulation.sharedExperts > 0 ? tr(", %1 shared").arg(m_simulation.sharedExperts) : QString());
    m_ruleShort = parts.join(QStringLiteral(" · "));
    parts << (rule.scoring == core::RouterScoring::Sigmoid ? tr("sigmoid affinities") : tr("softmax over experts"));
    if (rule.groups > 1) {
        parts << tr("group-limited to %1 of %2 groups").arg(rule.topKGroups).arg(rule.groups);
    }
    QString weights = rule.normaliseTopK ? tr("gate weights renormalised over the top-%1").arg(m_simulation.topK)
                                         : tr("gate weights = scores");
    if (rule.routedScaling != 1.0) {
        weights += tr(", × %1").arg(rule.routedScaling);
    }
    parts << weights;
    m_rule = parts.join(QStringLiteral(" · "));
    const QPalette pal = snapshot().palette;
    const QColor routed = colors::ffn(core::FfnKind::Moe, pal);
    const std::pair<QRgb, QRgb> shadesFor{routed.rgb(), pal.color(QPalette::Base).rgb()};
    if (!m_heat.isNull() && m_heatSimulation == m_simulations && m_shadesFor == shadesFor) {
        return; // the same simulation in the same colours: the heat map and the choices stand
    }
    m_heatSimulation = m_simulations;
    m_choices.clear();
    m_heat = QImage(static_cast<int>(m_simulation.numExperts), static_cast<int>(m_simulation.tokens.size()),
                    QImage::Format_RGB32);
    // The shades of the scale, by the square root of the share (a square root keeps the many small
    // softmax probabilities of a wide router visible): 1,024 steps, finer than 8-bit colour, so a
    // router of a thousand experts is not a million colour conversions. Made again with the palette.
    constexpr int kShades = 1024;
    if (m_shades.empty() || m_shadesFor != shadesFor) {
        m_shades.resize(kShades);
        for (int i = 0; i < kShades; ++i) {
            m_shades[static_cast<std::size_t>(i)] =
                colors::faded(routed, 0.4 + 0.58 * (1.0 - double(i) / (kShades - 1)), pal).rgb();
        }
        m_shadesFor = shadesFor;
    }
    for (std::size_t t = 0; t < m_simulation.tokens.size(); ++t) {
        const core::RoutedToken& token = m_simulation.tokens[t];
        // Sigmoid affinities crowd near the top of (0, 1): spread each row between its worst and best.
        const auto [low, high] = std::minmax_element(token.scores.begin(), token.scores.end());
        const double floor = rule.scoring == core::RouterScoring::Sigmoid ? *low : 0.0;
        const double range = *high - floor;
        auto* line = reinterpret_cast<QRgb*>(m_heat.scanLine(static_cast<int>(t)));
        for (std::size_t e = 0; e < token.scores.size(); ++e) {
            const double share = range > 0 ? (token.scores[e] - floor) / range : 0;
            line[e] = m_shades[static_cast<std::size_t>(std::sqrt(share) * (kShades - 1) + 0.5)]; // rounded
        }
        for (int chosen : token.chosen) {
            line[chosen] = routed.rgb();
        }
    }
    for (const core::RoutedToken& token : m_simulation.tokens) {
        QStringList chosen;
        for (std::size_t i = 0; i < token.chosen.size(); ++i) {
            chosen << (token.chosen.size() <= 4
                           ? QStringLiteral("e%1 %2").arg(token.chosen[i]).arg(token.weights[i], 0, 'f', 2)
                           : QStringLiteral("e%1").arg(token.chosen[i]));
        }
        m_choices.push_back(chosen);
    }
}

QString MoeRoutingView::contentKey() const {
    const core::Analysis& a = analysis();
    return QStringList{QString::number(m_simulations),  QString::number(m_simulation.layer), m_subtitle, m_rule,
                       QString::number(a.params.total), QString::number(a.params.active)}
        .join(QChar(0x1f));
}

qreal MoeRoutingView::tokenLabelWidth() const {
    const widgets::TextMetrics metrics(snapshot().font);
    qreal width = metrics.horizontalAdvance(tr("token"));
    for (const std::string& token : core::routingSampleTokens()) {
        width = std::max(width, metrics.horizontalAdvance(QStringLiteral("“%1”").arg(qs(token))));
    }
    return width + 4;
}

qreal MoeRoutingView::choiceWidth(const QRectF& area) const {
    const widgets::TextMetrics metrics(snapshot().font);
    qreal width = metrics.horizontalAdvance(tr("chosen (gate weight)"));
    for (const QStringList& choice : m_choices) {
        width = std::max(width, metrics.horizontalAdvance(choice.join(QStringLiteral(", "))));
    }
    return std::min(width + 4, area.width() * 0.32);
}

QString MoeRoutingView::headerTitle() const {
    return m_simulation.moe ? tr("MoE routing (illustrative)") : tr("MoE routing");
}

QStringList MoeRoutingView::ruleLines(const QRectF& target) const {
    // A tile names the layer and the experts; the scoring and gate weights need the full view.
    return widgets::wrapLines(compact() ? m_ruleShort : m_rule, snapshot().font, target.width() - 28, kRuleLines);
}

QRectF MoeRoutingView::contentRect(const QRectF& target) const {
    const widgets::TextMetrics metrics(snapshot().font);
    const qreal rule = metrics.height() * static_cast<qreal>(std::max<qsizetype>(1, ruleLines(target).size()));
    const qreal top = headerBottom(target, headerTitle(), m_subtitle) + 10 + rule + 10;
    return QRectF(target.left() + 14, top, target.width() - 28, target.bottom() - top - 10);
}

layout::RoutingLayout MoeRoutingView::layoutFor(const QRectF& target) const {
    ensureBuilt();
    const QRectF area = contentRect(target);
    // A tile keeps the scores, the load and the totals; the token words and choices need the full view.
    return layout::layoutRouting(
        static_cast<int>(m_simulation.tokens.size()), static_cast<int>(m_simulation.numExperts),
        static_cast<int>(m_simulation.sharedExperts), area, widgets::TextMetrics(snapshot().font),
        compact() ? 0 : tokenLabelWidth(), compact() ? 0 : choiceWidth(area));
}

void MoeRoutingView::paintContent(QPainter& painter, const QRectF& target) const {
    const QRectF below = paintHeader(painter, target, headerTitle(), m_subtitle);
    const QPalette pal = snapshot().palette;
    const QColor text = pal.color(QPalette::Text);
    const QColor muted = colors::muted(pal);
    const widgets::TextMetrics metrics(snapshot().font);
    if (!m_simulation.moe) {
        paintDense(painter, below);
        return;
    }
    painter.setPen(text);
    widgets::drawLines(painter, ruleLines(target), below.left(), below.top() - 4, below.width(), metrics.height());
    const layout::RoutingLayout placed = layoutFor(target);
    const QColor routed = colors::ffn(core::FfnKind::Moe, pal);
    const QColor shared = colors::component(core::Component::SharedExperts, pal);

    painter.setPen(muted);
    painter.setFont(smallFont());
    const QRectF header = placed.header;
    const bool rowTexts = !compact();
    if (rowTexts) {
        widgets::drawShaped(painter,
                            QRectF(header.left(), header.top(), placed.tokenLabels.front().width(), header.height()),
                            Qt::AlignLeft | Qt::AlignVCenter, tr("token"));
    }
    if (!placed.shared.isEmpty() && rowTexts) {
        // Ending at the shared column's right edge: the routed header starts a gap after it, and the
        // token column's title is short enough to leave the room on the left.
        const qreal width = widgets::TextMetrics(smallFont()).horizontalAdvance(tr("shared"));
        widgets::drawShaped(painter, QRectF(placed.shared.right() - width, header.top(), width, header.height()),
                            Qt::AlignRight | Qt::AlignVCenter, tr("shared"));
    }
    // The column title as long as the grid is wide: the routed range always, the key when it fits.
    const QString routedRange =
        tr("routed experts 0–%1%2")
            .arg(m_simulation.numExperts - 1)
            .arg(m_simulation.settings.groups > 1 ? tr(" in %1 groups").arg(m_simulation.settings.groups) : QString());
    const widgets::TextMetrics smallMetrics(smallFont());
    const qreal headerWidth = (rowTexts ? placed.choices.front().left() - 12 : header.right()) - placed.grid.left();
    widgets::drawShaped(
        painter, QRectF(placed.grid.left(), header.top(), headerWidth, header.height()),
        Qt::AlignLeft | Qt::AlignVCenter,
        widgets::firstThatFits(
            smallMetrics,
            {tr("%1 · shade = score relative to the row's best · lit = top-%2").arg(routedRange).arg(m_simulation.topK),
             tr("%1 · lit = top-%2").arg(routedRange).arg(m_simulation.topK), routedRange,
             tr("experts 0–%1").arg(m_simulation.numExperts - 1)},
            headerWidth));
    if (rowTexts) {
        widgets::drawShaped(
            painter,
            QRectF(placed.choices.front().left(), header.top(), placed.choices.front().width(), header.height()),
            Qt::AlignLeft | Qt::AlignVCenter, m_simulation.topK <= 4 ? tr("chosen (gate weight)") : tr("chosen"));
    }
    painter.setFont(snapshot().font);

    const bool roomy = placed.cellWidth >= 5;
    painter.save();
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.drawImage(placed.grid, m_heat);
    const QColor base = pal.color(QPalette::Base);
    // Gaps between rows, and between columns when they are wide enough to show them; then the
    // shared experts' cells and the lit ones. Each kind is one call: a thousand experts' column gaps
    // are not a thousand fills. Whole pixels, as fillRect() without antialiasing rounds them.
    std::vector<QRect> gaps;
    for (std::size_t t = 0; t <= m_simulation.tokens.size(); ++t) {
        const qreal y = placed.grid.top() + static_cast<qreal>(t) * placed.rowHeight;
        gaps.push_back(widgets::pixelRect(QRectF(placed.grid.left(), y - 1, placed.grid.width(), 2)));
    }
    if (roomy) {
        for (int e = 1; e < placed.experts; ++e) {
            gaps.push_back(widgets::pixelRect(
                QRectF(layout::routingCell(placed, 0, e).left() - 1, placed.grid.top(), 1, placed.grid.height())));
        }
    }
    std::vector<QRect> sharedCells;
    std::vector<QRect> litCells; // narrow cells cannot carry an outline: the lit ones take the text colour
    std::vector<QRectF> litOutlines;
    for (std::size_t t = 0; t < m_simulation.tokens.size(); ++t) {
        const int row = static_cast<int>(t);
        for (int s = 0; s < placed.sharedExperts; ++s) {
            sharedCells.push_back(widgets::pixelRect(layout::sharedCell(placed, row, s).adjusted(1, 1, -1, -1)));
        }
        for (int chosen : m_simulation.tokens[t].chosen) {
            const QRectF cell = layout::routingCell(placed, row, chosen);
            if (roomy) {
                litOutlines.push_back(cell.adjusted(0, 1, -1, -1));
            } else {
                litCells.push_back(widgets::pixelRect(cell.adjusted(-0.5, 1, 0.5, -1)));
            }
        }
    }
    painter.setPen(Qt::NoPen);
    for (const auto& [cells, fill] :
         {std::pair{&gaps, base}, std::pair{&sharedCells, shared}, std::pair{&litCells, text}}) {
        painter.setBrush(fill);
        painter.drawRects(cells->data(), static_cast<int>(cells->size()));
    }
    painter.restore();
    painter.setPen(QPen(text, 1));
    painter.setBrush(Qt::NoBrush);
    painter.drawRects(litOutlines.data(), static_cast<int>(litOutlines.size()));
    for (std::size_t t = 0; t < m_simulation.tokens.size() && rowTexts; ++t) {
        painter.setPen(text);
        widgets::drawShaped(painter, placed.tokenLabels[t], Qt::AlignLeft | Qt::AlignVCenter,
                            QStringLiteral("“%1”").arg(qs(m_simulation.tokens[t].text).trimmed()));
        painter.setPen(muted);
        widgets::drawShaped(painter, placed.choices[t], Qt::AlignLeft | Qt::AlignVCenter,
                            widgets::listThatFits(metrics, m_choices[t], placed.choices[t].width()));
    }

    paintGroupSeparators(painter, placed, placed.grid.top() - 4, placed.grid.bottom());

    if (placed.load.isEmpty()) {
        return;
    }
    const std::int64_t peak = *std::max_element(m_simulation.expertLoad.begin(), m_simulation.expertLoad.end());
    const double uniform = m_simulation.balancedLoad();
    painter.setPen(text);
    const QString busiest = QString::number(peak);
    const QString balanced = QString::number(uniform, 'f', 2);
    widgets::drawShaped(
        painter, placed.loadTitle, Qt::AlignLeft | Qt::AlignVCenter,
        widgets::firstThatFits(
            metrics,
            {tr("Load over the sample: tokens sent to each expert (busiest %1; dashed = %2 if perfectly balanced)")
                 .arg(busiest, balanced),
             tr("Tokens per expert (busiest %1; dashed = %2 if balanced)").arg(busiest, balanced),
             tr("Tokens per expert (busiest %1, balanced %2)").arg(busiest, balanced),
             tr("Load: busiest %1, balanced %2").arg(busiest, balanced)},
            placed.loadTitle.width()));
    painter.fillRect(placed.load, colors::panel(pal));
    const qreal scale = peak > 0 ? placed.load.height() / double(std::max<double>(peak, uniform)) : 0;
    // More experts than pixels: one bar per pixel column, as tall as the busiest expert under it.
    // Whole pixels, filled in one call.
    const int columns = std::max(1, std::min(placed.experts, static_cast<int>(placed.load.width())));
    std::vector<QRect> bars;
    for (int column = 0; column < columns; ++column) {
        const int first = column * placed.experts / columns;
        const int last = std::max(first + 1, (column + 1) * placed.experts / columns);
        std::int64_t load = 0;
        for (int e = first; e < last; ++e) {
            load = std::max(load, m_simulation.expertLoad[static_cast<std::size_t>(e)]);
        }
        const QRectF left = layout::routingCell(placed, 0, first);
        const QRectF right = layout::routingCell(placed, 0, last - 1);
        const qreal height = double(load) * scale;
        const qreal width = right.right() - left.left();
        bars.push_back(
            widgets::pixelRect(QRectF(left.left(), placed.load.bottom() - height, roomy ? width - 1 : width, height)));
    }
    painter.setPen(Qt::NoPen);
    painter.setBrush(routed);
    painter.drawRects(bars.data(), static_cast<int>(bars.size()));
    paintGroupSeparators(painter, placed, placed.load.top(), placed.load.bottom());
    painter.setPen(QPen(text, 1, Qt::DashLine));
    const qreal uniformY = placed.load.bottom() - uniform * scale;
    painter.drawLine(QLineF(placed.load.left(), uniformY, placed.load.right(), uniformY));
    if (!placed.totals.isEmpty()) {
        paintTotals(painter, placed.totals);
    }
}

void MoeRoutingView::paintGroupSeparators(QPainter& painter, const layout::RoutingLayout& placed, qreal top,
                                          qreal bottom) const {
    // Group-limited routing: mark the groups a token must choose its experts from.
    QColor separator = snapshot().palette.color(QPalette::Text);
    separator.setAlpha(150);
    painter.setPen(QPen(separator, 1, Qt::DashLine));
    for (const std::int64_t first : m_simulation.groupStarts()) {
        const qreal x = std::round(layout::routingCell(placed, 0, static_cast<int>(first)).left()) - 0.5;
        painter.drawLine(QLineF(x, top, x, bottom));
    }
}

void MoeRoutingView::paintTotals(QPainter& painter, const QRectF& area) const {
    const core::Analysis& a = analysis();
    const QPalette pal = snapshot().palette;
    const widgets::TextMetrics metrics(snapshot().font);
    const std::uint64_t total = a.params.total;
    const std::uint64_t active = a.params.active;
    painter.setPen(pal.color(QPalette::Text));
    const QString counts = tr("Whole model: %1 parameters, %2 active per token (%3)")
                               .arg(shortCount(total), shortCount(active), percentText(active, total));
    widgets::drawShaped(
        painter, QRectF(area.left(), area.top(), area.width(), metrics.height()), Qt::AlignLeft | Qt::AlignVCenter,
        widgets::firstThatFits(
            metrics,
            {tr("%1: each MoE layer runs its router, %2 of %3 routed experts%4.")
                 .arg(counts)
                 .arg(m_simulation.topK)
                 .arg(m_simulation.numExperts)
                 .arg(m_simulation.sharedExperts > 0 ? tr(" and %1 shared").arg(m_simulation.sharedExperts)
                                                     : QString()),
             counts,
             tr("%1 of %2 parameters active (%3)")
                 .arg(shortCount(active), shortCount(total), percentText(active, total))},
            area.width()));
    const QRectF bar(area.left(), area.top() + metrics.height() + 6, area.width(),
                     std::min(16.0, area.height() - metrics.height() - 6));
    painter.fillRect(bar, colors::faded(colors::ffn(core::FfnKind::Moe, pal), 0.65, pal));
    painter.fillRect(
        QRectF(bar.left(), bar.top(), total > 0 ? bar.width() * double(active) / double(total) : 0, bar.height()),
        colors::ffn(core::FfnKind::Moe, pal));
    const QString activeText = tr("active %1").arg(shortCount(active));
    const qreal activeWidth = total > 0 ? bar.width() * double(active) / double(total) : 0;
    const bool inside = metrics.horizontalAdvance(activeText) + 12 < activeWidth;
    painter.setPen(inside ? colors::textOn(colors::ffn(core::FfnKind::Moe, pal))
                          : colors::textOn(colors::faded(colors::ffn(core::FfnKind::Moe, pal), 0.65, pal)));
    widgets::drawShaped(
        painter, QRectF(inside ? bar.left() + 6 : bar.left() + activeWidth + 6, bar.top(), bar.width(), bar.height()),
        Qt::AlignLeft | Qt::AlignVCenter, activeText);
    painter.setPen(colors::textOn(colors::faded(colors::ffn(core::FfnKind::Moe, pal), 0.65, pal)));
    widgets::drawShaped(painter, bar.adjusted(6, 0, -6, 0), Qt::AlignRight | Qt::AlignVCenter,
                        tr("total %1").arg(shortCount(total)));
}

void MoeRoutingView::paintDense(QPainter& painter, const QRectF& area) const {
    const core::Analysis& a = analysis();
    const QPalette pal = snapshot().palette;
    const widgets::TextMetrics metrics(snapshot().font);
    const core::FfnKind kind = a.plan.layers.empty() ? a.config.ffnKind : a.plan.layers.front().ffn;
    painter.setPen(pal.color(QPalette::Text));
    if (kind == core::FfnKind::None) {
        // No feed-forward block at all (Mamba): nothing to route, nothing to draw.
        const QRectF text(area.left(), area.top(), std::min(area.width(), 760.0), metrics.height() * 3);
        painter.drawText(text, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                         qs(core::inapplicableReason(core::ViewKind::MoeRouting, a)));
        return;
    }
    const QString message =
        tr("Every token goes through the same feed-forward network: %1 of width %2 in each of the %3 layers, so all "
           "%4 parameters are active for every token. Routing appears when the FFN kind is set to mixture of experts.")
            .arg(kind == core::FfnKind::Mlp ? tr("an MLP") : tr("a gated MLP"),
                 exactCount(static_cast<std::uint64_t>(a.config.intermediateSize)))
            .arg(a.plan.layers.size())
            .arg(shortCount(a.params.total));
    const QRectF text(area.left(), area.top(), std::min(area.width(), 760.0), metrics.height() * 4);
    painter.drawText(text, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, message);

    // Tokens above one FFN box, every token's arrow landing in it.
    const auto& sample = core::routingSampleTokens();
    const int shown = std::min<int>(8, static_cast<int>(sample.size()));
    const qreal boxWidth = std::min(110.0, (std::min(area.width(), 900.0) - (shown - 1) * 10) / shown);
    const qreal top = text.bottom() + 24;
    const QColor ffn = colors::ffn(kind, pal);
    const QRectF ffnBox(area.left(), top + metrics.height() * 2 + 60, shown * (boxWidth + 10) - 10,
                        metrics.height() * 2.2);
    for (int i = 0; i < shown; ++i) {
        const QRectF box(area.left() + i * (boxWidth + 10), top, boxWidth, metrics.height() * 1.8);
        painter.setPen(QPen(colors::rule(pal), 1));
        painter.setBrush(colors::panel(pal));
        painter.drawRoundedRect(box, 3, 3);
        painter.setPen(pal.color(QPalette::Text));
        widgets::drawShaped(
            painter, box, Qt::AlignCenter,
            widgets::fitted(metrics, qs(sample[static_cast<std::size_t>(i)]).trimmed(), box.width() - 6));
        const QLineF arrow(box.center().x(), box.bottom() + 2,
                           ffnBox.center().x() + (box.center().x() - ffnBox.center().x()) * 0.6, ffnBox.top() - 2);
        painter.setPen(QPen(colors::muted(pal), 1.2));
        painter.drawLine(arrow);
        drawArrowHead(painter, arrow, 6);
    }
    painter.setPen(Qt::NoPen);
    painter.setBrush(ffn);
    painter.drawRoundedRect(ffnBox, 4, 4);
    painter.setPen(colors::textOn(ffn));
    widgets::drawShaped(painter, ffnBox, Qt::AlignCenter,
                        tr("the same FFN for every token (%1 wide)")
                            .arg(exactCount(static_cast<std::uint64_t>(a.config.intermediateSize))));
}

} // namespace archplay::ui::views
