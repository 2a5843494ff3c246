// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/LayerWeightsView.h"

#include "core/routing/RoutingSimulation.h"
#include "ui/Strings.h"
#include "ui/views/KindNames.h"
#include "ui/views/LayerSelection.h"
#include "ui/views/ViewColors.h"
#include "ui/widgets/PixelRect.h"
#include "ui/widgets/ShapedText.h"
#include "ui/widgets/TextLines.h"

#include <QComboBox>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <utility>
#include <vector>

namespace archplay::ui::views {
namespace {

constexpr int kPickerWidth = 300;

} // namespace

LayerWeightsView::LayerWeightsView(QWidget* parent)
    : PaintedView(parent)
    , m_picker(new QComboBox(this)) {
    setMouseTracking(true);
    m_picker->setToolTip(tr("The layer to look inside; clicking a slab in the layer stack picks it too"));
    m_picker->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_picker->setFixedWidth(kPickerWidth);
    connect(m_picker, &QComboBox::activated, this,
            [this](int index) { layerSelection()->setLayer(m_picker->itemData(index).toLongLong()); });
}

const std::vector<layout::WeightItem>& LayerWeightsView::items() const {
    ensureBuilt();
    return m_weights.items;
}

const std::vector<layout::WeightGroup>& LayerWeightsView::groups() const {
    ensureBuilt();
    return m_weights.groups;
}

void LayerWeightsView::refillPicker() {
    const core::Analysis& a = analysis();
    QStringList entries;
    for (std::size_t i = 0; i < a.plan.layers.size(); ++i) {
        entries << layerTitle(a, static_cast<std::int64_t>(i)) + QStringLiteral(" · ") +
                       kindName(a.config, a.plan.layers[i]);
    }
    const QString signature = entries.join(QLatin1Char('|'));
    if (signature != m_pickerSignature) {
        // Only when the stack changes, so a drag of an unrelated slider leaves the open list alone.
        m_pickerSignature = signature;
        m_picker->clear();
        for (int i = 0; i < entries.size(); ++i) {
            m_picker->addItem(entries[i], QVariant::fromValue<qlonglong>(i));
        }
    }
    const QSignalBlocker blocker(m_picker);
    m_picker->setCurrentIndex(static_cast<int>(selectedLayer()));
}

bool LayerWeightsView::pickerShown() const {
    return !compact() && analysis().valid && !analysis().plan.layers.empty();
}

void LayerWeightsView::updateControls() {
    if (!compact()) {
        refillPicker();
    }
    m_picker->setVisible(pickerShown());
}

void LayerWeightsView::rebuild() {
    m_weights = {};
    const core::Analysis& a = analysis();
    const std::int64_t index = selectedLayer();
    if (!a.valid || index < 0) {
        return;
    }
    const core::LayerPlan& layer = a.plan.layers[static_cast<std::size_t>(index)];
    const core::LayerParams& params = a.params.layers[static_cast<std::size_t>(index)];
    m_weights = layout::weightItems(a.config, layer);
    // A tile has the room of a few words: the layer and its kind, without "Inside".
    m_title = compact() ? tr("%1: %2").arg(layerTitle(a, index), kindName(a.config, layer))
                        : tr("Inside %1: %2").arg(layerTitle(a, index).toLower(), kindName(a.config, layer));
    m_subtitle = tr("Every weight at one scale: area ∝ parameters, drawn d_in (rows) × d_out (columns). "
                    "%1 parameters: %2 %3, feed-forward %4, norms %5.")
                     .arg(exactCount(params.total), qs(core::mixerName(layer.mixer)), shortCount(params.mixer),
                          shortCount(params.ffn), shortCount(params.norms));
    m_note.clear();
    m_litExperts.clear();
    if (layer.ffn != core::FfnKind::Moe) {
        return;
    }
    if (m_weights.expertsAsBlock) {
        m_note = tr("Too many experts to draw one by one: the block has the area of all of them. A token uses %1 of "
                    "this layer's %2 parameters.")
                     .arg(exactCount(params.active), exactCount(params.total));
        return;
    }
    // The routing view's simulation of this layer (simulated once per change between them).
    const std::shared_ptr<const core::RoutingSimulation> routing =
        core::sharedRouting(core::routingInputs(a.config, a.plan, index));
    if (routing->moe && !routing->tokens.empty()) {
        m_litExperts = routing->tokens.front().chosen;
        m_note =
            tr("Lit: the top-%1 experts of the sample token “%2” (MoE routing view). A token uses %3 of "
               "this layer's %4 parameters.")
                .arg(routing->topK)
                .arg(qs(routing->tokens.front().text).trimmed(), exactCount(params.active), exactCount(params.total));
    }
}

QString LayerWeightsView::contentKey() const {
    // A digest of everything paintContent() draws from: the texts, each drawing's shape, copies,
    // group and role, the lit experts, and the selected layer's kind (the colours).
    const core::Analysis& a = analysis();
    size_t digest = qHashMulti(0, a.valid, m_title, m_subtitle, m_note, m_weights.expertsAsBlock);
    if (const std::int64_t index = selectedLayer(); a.valid && index >= 0) {
        const core::LayerPlan& layer = a.plan.layers[static_cast<std::size_t>(index)];
        digest = qHashMulti(digest, int(layer.mixer), int(layer.attention), int(layer.ffn), layer.latent, layer.causal);
    }
    for (std::size_t i = 0; i < m_weights.items.size(); ++i) {
        const layout::WeightItem& item = m_weights.items[i];
        digest = qHashMulti(digest, item.name, item.detail, item.elements, item.aspect, item.copies, item.vector,
                            item.group, int(m_weights.roles[i]));
    }
    for (const layout::WeightGroup& group : m_weights.groups) {
        digest = qHashMulti(digest, group.title);
    }
    for (int expert : m_litExperts) {
        digest = qHashMulti(digest, expert);
    }
    return QString::number(digest, 16);
}

QColor LayerWeightsView::colorOf(layout::WeightRole role) const {
    const QPalette pal = snapshot().palette;
    const core::Analysis& a = analysis();
    const std::int64_t index = selectedLayer();
    const core::LayerPlan layer = index >= 0 ? a.plan.layers[static_cast<std::size_t>(index)] : core::LayerPlan{};
    switch (role) {
    case layout::WeightRole::Attention:
        return colors::attention(layer, pal);
    case layout::WeightRole::CrossAttention:
        return colors::crossAttention(pal);
    case layout::WeightRole::Mixer:
        return colors::component(core::Component::Mixer, pal);
    case layout::WeightRole::Router:
        return colors::component(core::Component::Router, pal);
    case layout::WeightRole::Experts:
        return colors::ffn(core::FfnKind::Moe, pal);
    case layout::WeightRole::SharedExperts:
        return colors::component(core::Component::SharedExperts, pal);
    case layout::WeightRole::Ffn:
        return colors::ffn(layer.ffn, pal);
    case layout::WeightRole::Vector:
        return colors::component(core::Component::Norm, pal);
    }
    return pal.color(QPalette::Text);
}

qreal LayerWeightsView::pickerReserve() const {
    return pickerShown() ? kPickerWidth + 8 : 0;
}

QRectF LayerWeightsView::contentRect(const QRectF& target) const {
    const widgets::TextMetrics metrics(snapshot().font);
    const qreal top = headerBottom(target, m_title, m_subtitle, pickerReserve()) + 10;
    const qreal noteHeight = m_note.isEmpty() || compact() ? 0 : metrics.height() + 4;
    return QRectF(target.left() + 14, top + noteHeight, target.width() - 28, target.bottom() - top - noteHeight - 10);
}

const layout::WeightLayout& LayerWeightsView::cachedLayout(const QRectF& target) const {
    if (m_layoutTarget != target || m_layoutGeneration != generation()) {
        m_layout = layout::layoutWeights(m_weights.items, m_weights.groups, contentRect(target),
                                         widgets::TextMetrics(smallFont()));
        m_layoutTarget = target;
        m_layoutGeneration = generation();
    }
    return m_layout;
}

const std::vector<int>& LayerWeightsView::litExperts() const {
    ensureBuilt();
    return m_litExperts;
}

layout::WeightLayout LayerWeightsView::layoutFor(const QRectF& target) const {
    ensureBuilt();
    return cachedLayout(target);
}

void LayerWeightsView::paintContent(QPainter& painter, const QRectF& target) const {
    const QRectF below = paintHeader(painter, target, m_title, m_subtitle, pickerReserve());
    const QPalette pal = snapshot().palette;
    const QColor text = pal.color(QPalette::Text);
    const QColor muted = colors::muted(pal);
    if (!m_note.isEmpty() && !compact()) {
        painter.setPen(muted);
        widgets::drawShaped(
            painter,
            QRectF(below.left(), below.top() - 4, below.width(), widgets::TextMetrics(snapshot().font).height()),
            Qt::AlignLeft | Qt::AlignVCenter, m_note);
    }
    const layout::WeightLayout& placed = cachedLayout(target);
    const QFont small = smallFont();
    const widgets::TextMetrics metrics(small);
    painter.setFont(small);
    for (const layout::PlacedGroup& group : placed.groups) {
        painter.setPen(QPen(colors::rule(pal), 1));
        painter.setBrush(colors::panel(pal));
        painter.drawRoundedRect(group.frame, 4, 4);
        painter.setPen(text);
        widgets::drawShaped(painter, group.title, Qt::AlignLeft | Qt::AlignVCenter,
                            widgets::fitted(metrics, m_weights.groups[static_cast<std::size_t>(group.group)].title,
                                            group.title.width()));
    }
    for (const layout::PlacedWeight& weight : placed.items) {
        const auto index = static_cast<std::size_t>(weight.item);
        const layout::WeightItem& item = m_weights.items[index];
        const layout::WeightRole role = m_weights.roles[index];
        const QColor color = colorOf(role);
        painter.setPen(Qt::NoPen);
        if (role == layout::WeightRole::Experts) {
            // Hundreds of small cells: filled without antialiasing, as whole pixels (the raster
            // engine then fills spans of memory instead of tracing a path per cell).
            const bool antialiased = painter.testRenderHint(QPainter::Antialiasing);
            const bool smooth = weight.cells.size() < 32 && antialiased;
            painter.setRenderHint(QPainter::Antialiasing, smooth);
            const QColor idle = colors::faded(color, 0.6, pal);
            // Batched by colour: one call fills every idle cell, one every lit cell, one the
            // gate | up | down separators (a thousand experts are three calls, not three thousand).
            std::vector<QRectF> idleCells;
            std::vector<QRectF> litCells;
            std::vector<QRectF> separators;
            const auto isLit = [&](std::size_t c) {
                return weight.cells.size() > 1 &&
                       std::find(m_litExperts.begin(), m_litExperts.end(), static_cast<int>(c)) != m_litExperts.end();
            };
            for (std::size_t c = 0; c < weight.cells.size(); ++c) {
                const QRectF& cell = weight.cells[c];
                (isLit(c) ? litCells : idleCells).push_back(cell);
                if (cell.width() >= 9) {
                    separators.emplace_back(cell.left() + cell.width() / 3, cell.top(), 1, cell.height());
                    separators.emplace_back(cell.left() + 2 * cell.width() / 3, cell.top(), 1, cell.height());
                }
            }
            painter.setPen(Qt::NoPen);
            for (const auto& [cells, fill] : {std::pair{&idleCells, idle}, std::pair{&litCells, color},
                                              std::pair{&separators, pal.color(QPalette::Base)}}) {
                painter.setBrush(fill);
                if (smooth) {
                    painter.drawRects(cells->data(), static_cast<int>(cells->size()));
                    continue;
                }
                std::vector<QRect> pixels(cells->size());
                std::transform(cells->begin(), cells->end(), pixels.begin(), widgets::pixelRect);
                painter.drawRects(pixels.data(), static_cast<int>(pixels.size()));
            }
            painter.setBrush(Qt::NoBrush);
            for (const QRectF& cell : litCells) {
                if (cell.width() >= 4) {
                    painter.setPen(QPen(text, 1));
                    painter.drawRect(cell.adjusted(-1, -1, 1, 1));
                }
            }
            painter.setPen(Qt::NoPen);
            // Large cells name their expert (as in the routing view) and their three matrices.
            for (std::size_t c = 0; c < weight.cells.size(); ++c) {
                const QRectF& cell = weight.cells[c];
                if (cell.width() < 40 || cell.height() < 2.2 * metrics.height()) {
                    continue;
                }
                painter.setPen(colors::textOn(isLit(c) ? color : idle));
                if (weight.cells.size() > 1) {
                    widgets::drawShaped(painter, cell.adjusted(4, 2, -2, -2), Qt::AlignLeft | Qt::AlignTop,
                                        QStringLiteral("e%1").arg(c));
                }
                if (cell.width() >= 3 * metrics.horizontalAdvance(QStringLiteral("down ")) && cell.height() >= 60) {
                    const char* parts[] = {"gate", "up", "down"};
                    for (int p = 0; p < 3; ++p) {
                        const QRectF stripe(cell.left() + p * cell.width() / 3, cell.top(), cell.width() / 3,
                                            cell.height() - 3);
                        widgets::drawShaped(painter, stripe, Qt::AlignHCenter | Qt::AlignBottom,
                                            QString::fromLatin1(parts[p]));
                    }
                }
                painter.setPen(Qt::NoPen);
            }
            painter.setRenderHint(QPainter::Antialiasing, antialiased);
        } else {
            painter.fillRect(weight.rect, color);
        }
        if (weight.label.isEmpty()) {
            continue; // a tile too small for labels: the full view and the tooltips name the weights
        }
        painter.setPen(text);
        const QRectF nameRect(weight.label.left(), weight.label.top(), weight.label.width(), metrics.height());
        widgets::drawShaped(painter, nameRect, Qt::AlignHCenter | Qt::AlignVCenter,
                            widgets::fitted(metrics, item.name, nameRect.width()));
        painter.setPen(muted);
        widgets::drawShaped(painter, nameRect.translated(0, metrics.height()), Qt::AlignHCenter | Qt::AlignVCenter,
                            widgets::fitted(metrics, item.detail, nameRect.width()));
    }
}

void LayerWeightsView::resizeEvent(QResizeEvent* event) {
    PaintedView::resizeEvent(event);
    m_picker->move(width() - kPickerWidth - 14, 8);
}

void LayerWeightsView::mouseMoveEvent(QMouseEvent* event) {
    ensureBuilt();
    if (!analysis().valid) {
        return;
    }
    const layout::WeightLayout& placed = cachedLayout(QRectF(rect()));
    for (const layout::PlacedWeight& weight : placed.items) {
        if (weight.rect.adjusted(-2, -2, 2, 2).contains(event->position()) ||
            weight.label.contains(event->position())) {
            QToolTip::showText(event->globalPosition().toPoint(),
                               m_weights.toolTips[static_cast<std::size_t>(weight.item)], this);
            return;
        }
    }
    QToolTip::hideText();
}

} // namespace archplay::ui::views
