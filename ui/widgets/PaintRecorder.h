// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHashFunctions>
#include <QPaintDevice>
#include <QRect>
#include <QRectF>
#include <QSize>
#include <QString>

#include <cstddef>
#include <memory>
#include <vector>

class QPainter;

namespace archplay::ui::widgets {

/// One thing painted: every device-independent pixel it may touch, and a digest of how it paints
/// them (its shape and place, the pen, brush, font, text or image, the transform and hints).
struct PaintedItem {
    QRect rect;
    size_t digest = 0;
    bool operator==(const PaintedItem&) const = default;
    friend size_t qHash(const PaintedItem& item, size_t seed = 0) {
        return qHashMulti(seed, item.digest, item.rect.x(), item.rect.y(), item.rect.width(), item.rect.height());
    }
};

/// A paint device that draws nothing and lists what is painted on it, call by call (PaintedItem):
/// running a view's paint code on it tells what that code paints and where, so that a repaint can
/// be limited to the items that changed. The paint code is the only description of a view; nothing
/// kept beside it can fall out of step. Text drawn by drawShaped() is listed as one item per call.
/// Clipping is not applied: an item's rect may be larger than what it shows, never smaller.
class PaintRecorder final : public QPaintDevice {
public:
    /// Stands for a target of `size` pixels at `dpiX` x `dpiY` dots per inch and `ratio` device
    /// pixels per pixel, so that fonts have the sizes they have there.
    PaintRecorder(QSize size, int dpiX, int dpiY, qreal ratio);
    ~PaintRecorder() override;
    PaintRecorder(const PaintRecorder&) = delete;
    PaintRecorder& operator=(const PaintRecorder&) = delete;

    QPaintEngine* paintEngine() const override;

    /// The recorder `painter` paints on, or null.
    static PaintRecorder* of(const QPainter& painter);
    /// Lists `text` drawn in the painter's font and pen in `box` (the painter's coordinates).
    void addText(const QPainter& painter, const QRectF& box, const QString& text);
    /// Lists an item drawn by `painter` over `bounds` (its coordinates), `margin` pixels wider on
    /// each side (antialiased edges, strokes): `digest` says how it is drawn, bar the transform.
    void add(const QPainter& painter, const QRectF& bounds, size_t digest, qreal margin);

    /// What was painted so far, in paint order.
    std::vector<PaintedItem> takeItems() { return std::move(m_items); }

protected:
    int metric(PaintDeviceMetric metric) const override;

private:
    class Engine;
    std::unique_ptr<Engine> m_engine;
    QSize m_size;
    int m_dpiX;
    int m_dpiY;
    qreal m_ratio;
    std::vector<PaintedItem> m_items;
};

/// The places of the items in one list and not the other: gone, new, moved or painted differently.
std::vector<QRect> differingItems(const std::vector<PaintedItem>& before, const std::vector<PaintedItem>& after);

} // namespace archplay::ui::widgets
