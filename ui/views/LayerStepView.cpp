// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/LayerStepView.h"

#include "ui/views/KindNames.h"
#include "ui/views/ViewColors.h"
#include "ui/widgets/ShapedText.h"

#include <QEvent>
#include <QPainter>

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
        m_typesetter = std::make_shared<const mathtext::MathTypesetter>(font());
    }
    core::Derivation derivation;
    derivation.sections.push_back(m_section);
    m_document = std::make_unique<layout::DerivationDocument>(derivation, font(), m_typesetter);
    ++m_documents;
}

QRectF LayerStepView::contentRect(const QRectF& target) const {
    const qreal top = headerBottom(target, m_title, QString()) + 4;
    return QRectF(target.left() + 14, top, target.width() - 28, target.bottom() - top - 8);
}

void LayerStepView::paintContent(QPainter& painter, const QRectF& target) const {
    paintHeader(painter, target, m_title, QString());
    if (!m_document) {
        return;
    }
    const QRectF area = contentRect(target);
    const widgets::TextMetrics metrics(smallFont());
    const QRectF more(area.left(), area.bottom() - metrics.height(), area.width(), metrics.height());
    if (m_fittedDocument != m_documents || m_fittedSize != area.size()) {
        // Legible first: what does not fit at 70 % waits in the full view, and no block is cut in half.
        m_fitted = m_document->fit(area.size(), 0.7);
        if (m_fitted.cut) {
            const qreal room = (area.height() - more.height() - 4) / m_fitted.scale;
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
    painter.save();
    painter.setClipRect(area, Qt::IntersectClip);
    m_document->paintFitted(painter, m_fitted, area.topLeft(), palette());
    painter.restore();
    if (m_fitted.cut) {
        painter.setFont(smallFont());
        painter.setPen(colors::muted(palette()));
        painter.drawText(more, Qt::AlignRight | Qt::AlignVCenter, tr("… the rest in the full view (Open)"));
    }
}

void LayerStepView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange) {
        m_typesetter.reset();
        m_key.clear();
    }
    PaintedView::changeEvent(event);
}

} // namespace archplay::ui::views
