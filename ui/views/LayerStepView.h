// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/derivation/Derivation.h"
#include "ui/views/PaintedView.h"
#include "ui/views/layout/DerivationDocument.h"

#include <QHash>
#include <QImage>

#include <memory>
#include <vector>

namespace archplay::ui::views {

/// The forward pass of the selected layer alone (core::deriveLayerSection): its norms, attention,
/// feed-forward and residuals with the config's sizes, typeset and fitted to the view. The overview's
/// tile of the forward-pass derivation; the derivation view is its full form.
class LayerStepView : public PaintedView {
    Q_OBJECT

public:
    explicit LayerStepView(QWidget* parent = nullptr);
    ~LayerStepView() override;

    core::ViewKind kind() const override { return core::ViewKind::Derivation; }
    QString title() const override { return tr("Forward pass"); }

    /// The section drawn: the selected layer's.
    const core::DerivationSection& section() const;

protected:
    void rebuild() override;
    void paintContent(QPainter& painter, const QRectF& target) const override;
    QString contentKey() const override { return m_key; }
    void changeEvent(QEvent* event) override;

private:
    /// A block as the screen shows it: what it draws and where (whole device pixels), from m_fitted.
    struct Placed {
        size_t key = 0; ///< the block's digest, its sub-pixel offset, the scale and the colours
        QRect rect;     ///< its image's place, with a margin for ink
        QPointF inside; ///< the block's top-left inside its image
        std::size_t block = 0;
    };

    QRectF contentRect(const QRectF& target) const;
    /// The "… the rest in the full view" line at the bottom of `area`.
    QRectF moreRect(const QRectF& area) const;
    /// Fits the document to `area` unless it already is (m_fitted).
    void fitTo(const QRectF& area) const;
    /// The fitted blocks' images placed below `topLeft` on a screen of `ratio` device pixels per pixel.
    std::vector<Placed> placements(QPointF topLeft, qreal ratio) const;
    /// Paints the fitted document on screen. A block new to the screen is drawn directly; one drawn
    /// again unchanged (a full repaint) is kept as an image while the block, its place to the pixel
    /// and the palette stay. A slider step draws the blocks whose numbers moved; the others cost
    /// nothing outside the region repaintChanged() repaints, or a copy inside it.
    void paintBlocks(QPainter& painter, QPointF topLeft, qreal ratio) const;

    core::DerivationSection m_section;
    QString m_key; ///< the section as text: the document is typeset again only when it changes
    QString m_title;
    std::shared_ptr<const mathtext::MathTypesetter> m_typesetter;
    std::unique_ptr<layout::DerivationDocument> m_document;
    mutable layout::FittedDocument m_fitted;
    mutable QSizeF m_fittedSize;
    quint64 m_documents = 0; ///< documents typeset so far
    mutable quint64 m_fittedDocument = 0;
    /// The blocks on screen, by what and where they draw: an image once a block has been drawn
    /// twice, a null image before.
    mutable QHash<size_t, QImage> m_blockImages;
};

} // namespace archplay::ui::views
