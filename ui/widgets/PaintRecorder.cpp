// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/PaintRecorder.h"

#include <QGradient>
#include <QImage>
#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <QSet>

#include <climits>
#include <cmath>
#include <vector>

namespace archplay::ui::widgets {
namespace {

/// What a primitive is, in its digest: a rect and a line through the same points differ.
enum class Primitive : int { Rects, Lines, Path, Polygon, Points, Image, Pixmap, TiledPixmap, Text };

/// How a primitive is painted: with the pen and brush (a shape), the pen's colour and a font (text),
/// or neither (an image).
enum class Paint { Shape, Text, Image };

size_t hashRect(size_t seed, const QRectF& rect) {
    return qHashMulti(seed, rect.x(), rect.y(), rect.width(), rect.height());
}

size_t hashBrush(size_t seed, const QBrush& brush) {
    seed = qHashMulti(seed, int(brush.style()), brush.color().rgba());
    if (const QGradient* gradient = brush.gradient()) {
        for (const QGradientStop& stop : gradient->stops()) {
            seed = qHashMulti(seed, stop.first, stop.second.rgba());
        }
    }
    if (brush.style() == Qt::TexturePattern) {
        seed = qHashMulti(seed, brush.textureImage().cacheKey());
    }
    return seed;
}

/// How far a transform stretches lengths, at most.
qreal stretch(const QTransform& transform) {
    return std::max(std::hypot(transform.m11(), transform.m12()), std::hypot(transform.m21(), transform.m22()));
}

} // namespace

class PaintRecorder::Engine final : public QPaintEngine {
public:
    explicit Engine(PaintRecorder& recorder)
        : QPaintEngine(QPaintEngine::AllFeatures)
        , m_recorder(recorder) {}

    bool begin(QPaintDevice*) override { return true; }
    bool end() override { return true; }
    void updateState(const QPaintEngineState&) override {} // read from the painter when drawing
    Type type() const override { return QPaintEngine::User; }

    void drawRects(const QRectF* rects, int count) override {
        QRectF bounds;
        size_t shape = qHash(int(Primitive::Rects));
        for (int i = 0; i < count; ++i) {
            bounds |= rects[i];
            shape = hashRect(shape, rects[i]);
        }
        record(*painter(), bounds, shape, Paint::Shape);
    }
    void drawRects(const QRect* rects, int count) override {
        std::vector<QRectF> exact(rects, rects + count);
        drawRects(exact.data(), count);
    }
    void drawLines(const QLineF* lines, int count) override {
        QRectF bounds;
        size_t shape = qHash(int(Primitive::Lines));
        for (int i = 0; i < count; ++i) {
            bounds |= QRectF(lines[i].p1(), lines[i].p2()).normalized(); // a level line's has no height
            shape = qHashMulti(shape, lines[i].x1(), lines[i].y1(), lines[i].x2(), lines[i].y2());
        }
        record(*painter(), bounds, shape, Paint::Shape);
    }
    void drawLines(const QLine* lines, int count) override {
        for (int i = 0; i < count; ++i) {
            const QLineF line(lines[i]);
            drawLines(&line, 1);
        }
    }
    void drawPath(const QPainterPath& path) override {
        size_t shape = qHashMulti(qHash(int(Primitive::Path)), int(path.fillRule()));
        for (int i = 0; i < path.elementCount(); ++i) {
            const QPainterPath::Element element = path.elementAt(i);
            shape = qHashMulti(shape, int(element.type), element.x, element.y);
        }
        record(*painter(), path.controlPointRect(), shape, Paint::Shape);
    }
    void drawPolygon(const QPointF* points, int count, PolygonDrawMode mode) override {
        QPolygonF polygon(count);
        size_t shape = qHashMulti(qHash(int(Primitive::Polygon)), int(mode));
        for (int i = 0; i < count; ++i) {
            polygon[i] = points[i];
            shape = qHashMulti(shape, points[i].x(), points[i].y());
        }
        record(*painter(), polygon.boundingRect(), shape, Paint::Shape);
    }
    void drawPolygon(const QPoint* points, int count, PolygonDrawMode mode) override {
        QPolygonF polygon(count);
        for (int i = 0; i < count; ++i) {
            polygon[i] = QPointF(points[i]);
        }
        drawPolygon(polygon.constData(), count, mode);
    }
    void drawPoints(const QPointF* points, int count) override {
        QPolygonF polygon(count);
        size_t shape = qHash(int(Primitive::Points));
        for (int i = 0; i < count; ++i) {
            polygon[i] = points[i];
            shape = qHashMulti(shape, points[i].x(), points[i].y());
        }
        record(*painter(), polygon.boundingRect(), shape, Paint::Shape);
    }
    void drawPixmap(const QRectF& target, const QPixmap& pixmap, const QRectF& source) override {
        record(*painter(), target, hashRect(qHashMulti(qHash(int(Primitive::Pixmap)), pixmap.cacheKey()), source),
               Paint::Image);
    }
    void drawTiledPixmap(const QRectF& target, const QPixmap& pixmap, const QPointF& offset) override {
        record(*painter(), target,
               qHashMulti(qHash(int(Primitive::TiledPixmap)), pixmap.cacheKey(), offset.x(), offset.y()), Paint::Image);
    }
    void drawImage(const QRectF& target, const QImage& image, const QRectF& source, Qt::ImageConversionFlags) override {
        record(*painter(), target, hashRect(qHashMulti(qHash(int(Primitive::Image)), image.cacheKey()), source),
               Paint::Image);
    }
    void drawTextItem(const QPointF& origin, const QTextItem& item) override {
        const QRectF box(origin.x(), origin.y() - item.ascent(), item.width(), item.ascent() + item.descent());
        record(*painter(), box, textShape(item.text(), item.font(), origin), Paint::Text);
    }

    /// Text by its characters, font and place.
    static size_t textShape(const QString& text, const QFont& font, QPointF at) {
        return qHashMulti(qHash(int(Primitive::Text)), text, font, at.x(), at.y());
    }

    /// Lists what `on` draws over `bounds` (its coordinates), `shape` digesting what it is.
    void record(const QPainter& on, const QRectF& bounds, size_t shape, Paint paint) {
        const QPen& pen = on.pen();
        size_t digest = qHashMulti(shape, int(paint), int(on.renderHints()), on.opacity(), int(on.compositionMode()));
        qreal margin = 1; // antialiased edges
        switch (paint) {
        case Paint::Shape:
            digest = hashBrush(qHashMulti(digest, int(pen.style())), on.brush());
            if (pen.style() != Qt::NoPen) {
                digest = hashBrush(qHashMulti(digest, pen.widthF(), int(pen.capStyle()), int(pen.joinStyle()),
                                              pen.isCosmetic(), pen.dashOffset()),
                                   pen.brush());
                for (const qreal dash : pen.dashPattern()) {
                    digest = qHashMulti(digest, dash);
                }
                // A whole width rather than half: miter joins reach past half a width.
                const qreal width = pen.isCosmetic() ? std::max<qreal>(pen.widthF(), 1) : pen.widthF();
                margin += pen.isCosmetic() ? width : width * stretch(on.combinedTransform());
            }
            break;
        case Paint::Text:
            digest = hashBrush(digest, pen.brush());
            margin = 2; // glyphs overhang their advance (bearings, italics)
            break;
        case Paint::Image:
            break;
        }
        m_recorder.add(on, bounds, digest, margin);
    }

private:
    PaintRecorder& m_recorder;
};

PaintRecorder::PaintRecorder(QSize size, int dpiX, int dpiY, qreal ratio)
    : m_engine(std::make_unique<Engine>(*this))
    , m_size(size)
    , m_dpiX(dpiX)
    , m_dpiY(dpiY)
    , m_ratio(ratio) {}

PaintRecorder::~PaintRecorder() = default;

QPaintEngine* PaintRecorder::paintEngine() const {
    return m_engine.get();
}

PaintRecorder* PaintRecorder::of(const QPainter& painter) {
    QPaintDevice* device = painter.device();
    return device != nullptr && device->devType() == QInternal::UnknownDevice ? dynamic_cast<PaintRecorder*>(device)
                                                                              : nullptr;
}

void PaintRecorder::addText(const QPainter& painter, const QRectF& box, const QString& text) {
    m_engine->record(painter, box, Engine::textShape(text, painter.font(), box.topLeft()), Paint::Text);
}

void PaintRecorder::add(const QPainter& painter, const QRectF& bounds, size_t digest, qreal margin) {
    const QTransform transform = painter.combinedTransform();
    if (!transform.isIdentity()) {
        digest = qHashMulti(digest, transform.m11(), transform.m12(), transform.m21(), transform.m22(), transform.dx(),
                            transform.dy());
    }
    const QRectF place = transform.mapRect(bounds).adjusted(-margin, -margin, margin, margin);
    m_items.push_back({place.toAlignedRect(), digest});
}

int PaintRecorder::metric(PaintDeviceMetric metric) const {
    switch (metric) {
    case PdmWidth:
        return m_size.width();
    case PdmHeight:
        return m_size.height();
    case PdmWidthMM:
        return qRound(m_size.width() * 25.4 / m_dpiX);
    case PdmHeightMM:
        return qRound(m_size.height() * 25.4 / m_dpiY);
    case PdmNumColors:
        return INT_MAX;
    case PdmDepth:
        return 32;
    case PdmDpiX:
    case PdmPhysicalDpiX:
        return m_dpiX;
    case PdmDpiY:
    case PdmPhysicalDpiY:
        return m_dpiY;
    case PdmDevicePixelRatio:
        return qRound(m_ratio);
    case PdmDevicePixelRatioScaled:
        return qRound(m_ratio * devicePixelRatioFScale());
    }
    return QPaintDevice::metric(metric);
}

std::vector<QRect> differingItems(const std::vector<PaintedItem>& before, const std::vector<PaintedItem>& after) {
    const QSet<PaintedItem> kept(before.begin(), before.end());
    const QSet<PaintedItem> next(after.begin(), after.end());
    std::vector<QRect> places;
    for (const PaintedItem& item : before) {
        if (!next.contains(item)) {
            places.push_back(item.rect);
        }
    }
    for (const PaintedItem& item : after) {
        if (!kept.contains(item)) {
            places.push_back(item.rect);
        }
    }
    return places;
}

} // namespace archplay::ui::widgets
