// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/LayerStepView.h"

#include "ui/views/KindNames.h"
#include "ui/views/ViewColors.h"
#include "ui/widgets/PaintRecorder.h"
#include "ui/widgets/ShapedText.h"

#include <QEvent>
#include <QPainter>

#include <cmath>

namespace archplay::ui::views {
namespace {

QString sectionText(const core::DerivationSection& section) {
    QStringList parts{qs(section.title), qs(section.text)};
    for (const core::DerivationStep& step : section.steps) {
        parts << qs(step.title) << qs(step.text);
        for (const std::string& equation : step.equations) {
            parts << qs(equation);
        }
    }
    return parts.join(QChar(0x1f));
}

} // namespace

LayerStepView::LayerStepView(QWidget* parent)
    : PaintedView(parent) {}

LayerStepView::~LayerStepView() = default;

const core::DerivationSection& LayerStepView::section() const {
    ensureBuilt();
    return m_section;
}

void LayerStepView::rebuild() {
    const core::Analysis& a = analysis();
    const std::int64_t layer = selectedLayer();
    m_title = layer >= 0 ? tr("Forward pass of %1").arg(layerTitle(a, layer).toLower()) : tr("Forward pass");
    core::DerivationSection section =
        a.valid && layer >= 0 ? core::deriveLayerSection(a.config, a.plan, layer) : core::DerivationSection{};
    QString key = sectionText(section) + m_title;
    if (key == m_key && m_document) {
        return; // most slider moves outside this layer's shapes leave its maths alone
    }
    m_key = std::move(key);
    m_section = std::move(section);
    if (!m_typesetter) {
        m_typesetter = std::make_shared<const mathtext::MathTypesetter>(snapshot().font);
    }
    core::Derivation derivation;
    derivation.sections.push_back(m_section);
    m_document = std::make_unique<layout::DerivationDocument>(derivation, snapshot().font, m_typesetter);
    ++m_documents;
}

QRectF LayerStepView::contentRect(const QRectF& target) const {
    const qreal top = headerBottom(target, m_title, QString()) + 4;
    return QRectF(target.left() + 14, top, target.width() - 28, target.bottom() - top - 8);
}

QRectF LayerStepView::moreRect(const QRectF& area) const {
    const qreal line = widgets::TextMetrics(smallFont()).height();
    return QRectF(area.left(), area.bottom() - line, area.width(), line);
}

void LayerStepView::fitTo(const QRectF& area) const {
    if (m_fittedDocument == m_documents && m_fittedSize == area.size()) {
        return;
    }
    // Legible first: what does not fit at 70 % waits in the full view, and no block is cut in half.
    m_fitted = m_document->fit(area.size(), 0.7);
    if (m_fitted.cut) {
        const qreal room = (area.height() - moreRect(area).height() - 4) / m_fitted.scale;
        for (std::size_t i = m_fitted.blocks.size(); i-- > 0;) {
            if (m_fitted.offsets[i].y() + m_fitted.blocks[i].rect.bottom() > room) {
                m_fitted.blocks.erase(m_fitted.blocks.begin() + std::ptrdiff_t(i));
                m_fitted.offsets.erase(m_fitted.offsets.begin() + std::ptrdiff_t(i));
            }
        }
    }
    m_fittedSize = area.size();
    m_fittedDocument = m_documents;
}

void LayerStepView::paintContent(QPainter& painter, const QRectF& target) const {
    paintHeader(painter, target, m_title, QString());
    if (!m_document) {
        return;
    }
    const QRectF area = contentRect(target);
    fitTo(area);
    painter.save();
    painter.setClipRect(area, Qt::IntersectClip);
    // Images need whole device pixels under an untransformed painter: the screen at 1x or 2x, not an
    // export (scaled, or a PDF that keeps its text as text). A recording lists each block as the
    // screen places it, with its digest: what the typeset block draws.
    const qreal ratio = painter.device()->devicePixelRatio();
    if (widgets::PaintRecorder* recorder = widgets::PaintRecorder::of(painter)) {
        for (const Placed& placed : placements(area.topLeft(), ratio)) {
            recorder->add(painter, QRectF(placed.rect), placed.key, 0);
        }
    } else if (forScreen(painter) && painter.transform().isIdentity() && ratio == std::floor(ratio)) {
        paintBlocks(painter, area.topLeft(), ratio);
    } else {
        m_document->paintFitted(painter, m_fitted, area.topLeft(), snapshot().palette);
    }
    painter.restore();
    if (m_fitted.cut) {
        painter.setFont(smallFont());
        painter.setPen(colors::muted(snapshot().palette));
        widgets::drawShaped(painter, moreRect(area), Qt::AlignRight | Qt::AlignVCenter,
                            tr("… the rest in the full view (Open)"));
    }
}

std::vector<LayerStepView::Placed> LayerStepView::placements(QPointF topLeft, qreal ratio) const {
    // Opaque images on the tile's base colour, copied rather than blended. Their margin is under half
    // the smallest gap between blocks (10 units at a scale of at least 0.7), so neighbours never
    // overlap; a block's ink stays inside its box, which includes its descent.
    constexpr int kPad = 3;
    const QPalette pal = snapshot().palette;
    const qreal scale = m_fitted.scale;
    const size_t look = qHashMulti(0, scale, ratio, pal.color(QPalette::Base).rgba(), pal.color(QPalette::Text).rgba(),
                                   colors::muted(pal).rgba(), colors::rule(pal).rgba());
    std::vector<Placed> placed;
    for (std::size_t i = 0; i < m_fitted.blocks.size(); ++i) {
        const QRectF rect = m_fitted.blocks[i].rect.translated(m_fitted.offsets[i]);
        const QPointF at = topLeft + rect.topLeft() * scale;
        const QPoint pixel(static_cast<int>(std::floor(at.x())) - kPad, static_cast<int>(std::floor(at.y())) - kPad);
        const QPointF inside = at - QPointF(pixel);
        const QSize size = (rect.size() * scale + QSizeF(2 * kPad + 1, 2 * kPad + 1)).toSize();
        placed.push_back(
            {qHashMulti(look, m_fitted.blocks[i].digest(), inside.x(), inside.y()), QRect(pixel, size), inside, i});
    }
    return placed;
}

void LayerStepView::paintBlocks(QPainter& painter, QPointF topLeft, qreal ratio) const {
    const QPalette pal = snapshot().palette;
    const QRectF everything(-1e6, -1e6, 2e6, 2e6);
    QHash<size_t, QImage> kept;
    for (const Placed& placed : placements(topLeft, ratio)) {
        const layout::DocumentBlock& block = m_fitted.blocks[placed.block];
        const auto cached = m_blockImages.constFind(placed.key);
        QImage image = cached != m_blockImages.cend() ? *cached : QImage();
        if (!exposedRegion().intersects(placed.rect)) {
            // Outside this paint: the screen keeps it (repaintChanged() covers every block that moved).
        } else if (!image.isNull()) {
            painter.drawImage(placed.rect.topLeft(), image);
        } else if (cached != m_blockImages.cend()) {
            // Drawn a second time (a full repaint, an expose): worth keeping as an image.
            image = QImage(placed.rect.size() * ratio, QImage::Format_RGB32);
            image.setDevicePixelRatio(ratio);
            image.fill(pal.color(QPalette::Base));
            QPainter blockPainter(&image);
            blockPainter.setRenderHints(painter.renderHints());
            blockPainter.translate(placed.inside);
            blockPainter.scale(m_fitted.scale, m_fitted.scale);
            m_document->paint(blockPainter, {block}, -block.rect.topLeft(), everything, pal);
            blockPainter.end();
            painter.drawImage(placed.rect.topLeft(), image);
        } else {
            // New numbers, most likely gone at the next slider step: drawn straight on the tile,
            // placed as paintFitted() places it.
            painter.save();
            painter.setClipRect(placed.rect, Qt::IntersectClip);
            painter.translate(topLeft);
            painter.scale(m_fitted.scale, m_fitted.scale);
            m_document->paint(painter, {block}, m_fitted.offsets[placed.block], everything, pal);
            painter.restore();
        }
        kept.insert(placed.key, image);
    }
    m_blockImages = std::move(kept);
}

void LayerStepView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange) {
        m_typesetter.reset();
        m_key.clear();
    }
    PaintedView::changeEvent(event);
}

} // namespace archplay::ui::views
