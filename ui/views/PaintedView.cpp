// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/PaintedView.h"

#include "ui/views/FramePool.h"
#include "ui/views/LayerSelection.h"
#include "ui/views/ViewColors.h"
#include "ui/widgets/ShapedText.h"
#include "ui/widgets/TextLines.h"

#include <QBackingStore>
#include <QEvent>
#include <QImage>
#include <QPaintEngine>
#include <QPaintEvent>
#include <QPainter>
#include <QRunnable>
#include <QSet>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <semaphore>

namespace archplay::ui::views {

/// The view's pending repaint drawn on a worker (FramePool), straight into the window's backing
/// store: the view's pixels there, which no other widget paints until the view's paint event.
struct PaintedView::Frame final : QRunnable {
    explicit Frame(const PaintedView& owner)
        : view(owner) {
        setAutoDelete(false);
    }

    void run() override {
        // Pairs with startFrame()'s release: the pool's hand-over orders the same, but through
        // Qt's futex locks, which ThreadSanitizer cannot see.
        (void)started.load(std::memory_order_acquire);
        widgets::keepShapedTextOnThisThread();
        {
            QPainter painter(&image);
            painter.translate(offset);
            painter.setClipRegion(region);
            view.draw(painter, bounds);
        }
        done.release(); // the painter gone: nothing of the frame's runs after this
    }

    const PaintedView& view;
    QImage image;                      ///< the backing store's memory under the view (its part inside the window)
    QPointF offset;                    ///< where the view's origin lies in `image`
    QRectF bounds;                     ///< the view's rect when the frame started
    QRegion region;                    ///< what the frame draws, in the view's coordinates
    std::atomic<bool> started = false; ///< set before each start (see run())
    std::binary_semaphore done{0};     ///< released once drawn
    bool inFlight = false;             ///< started and not ended
};

PaintedView::PaintedView(QWidget* parent)
    : AnalysisView(parent)
    , m_selection(new LayerSelection(this)) {
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(320, 240);
    connect(m_selection, &LayerSelection::layerChanged, this, &PaintedView::onLayerChanged);
}

PaintedView::~PaintedView() {
    setFramePool(nullptr);
}

void PaintedView::setFramePool(FramePool* pool) {
    endFrame();
    if (m_framePool != nullptr) {
        m_framePool->remove(this);
    }
    m_framePool = pool;
    if (m_framePool != nullptr) {
        m_framePool->add(this);
    }
}

void PaintedView::setSharedAnalysis(core::AnalysisPtr analysis) {
    endFrame();
    m_analysis = std::move(analysis);
    m_dirty = true;
    if (m_compact && isVisible()) {
        ensureBuilt();
        QString key = contentKey();
        if (!key.isEmpty() && key == m_contentKey) {
            return;
        }
        const bool keyed = !key.isEmpty() && !m_contentKey.isEmpty();
        m_contentKey = std::move(key);
        if (keyed) {
            repaintLater(changedRegion());
            return;
        }
    }
    repaintLater(rect());
}

void PaintedView::setLayerSelection(LayerSelection* selection) {
    if (selection == nullptr || selection == m_selection) {
        return;
    }
    if (m_selection->parent() == this) {
        m_selection->deleteLater();
    }
    m_selection = selection;
    connect(m_selection, &LayerSelection::layerChanged, this, &PaintedView::onLayerChanged);
    onLayerChanged();
}

void PaintedView::onLayerChanged() {
    endFrame();
    selectedLayerChanged();
}

void PaintedView::setCompact(bool compact) {
    endFrame();
    if (compact != m_compact) {
        m_compact = compact;
        invalidate();
    }
}

void PaintedView::selectedLayerChanged() {
    invalidate();
}

std::int64_t PaintedView::selectedLayer() const {
    return m_selection->resolve(m_analysis->plan);
}

void PaintedView::invalidate() {
    endFrame();
    m_dirty = true;
    m_contentKey.clear();
    repaintLater(rect());
}

void PaintedView::repaintLater(const QRegion& region) {
    m_pending += region;
    update(region);
}

QImage* PaintedView::backingStoreImage() const {
    QBackingStore* store = backingStore();
    QPaintDevice* device = store != nullptr ? store->paintDevice() : nullptr;
    return device != nullptr && device->devType() == QInternal::Image ? static_cast<QImage*>(device) : nullptr;
}

void PaintedView::startFrame() {
    if (m_dirty || (m_frame && m_frame->inFlight) || !isVisible()) {
        return;
    }
    const QRegion region = m_pending & visibleRegion();
    QImage* store = backingStoreImage();
    const qreal ratio = devicePixelRatio();
    if (region.isEmpty() || store == nullptr || ratio != std::floor(ratio)) {
        return; // whole device pixels only: the view's place in the store is a rect of them
    }
    // The store's pixels under the view, shared: what the frame draws is on screen at once. The
    // painter of this repaint has detached the store already; bits() could detach it again.
    const QRect place = QRect(mapTo(window(), QPoint(0, 0)), size()) & QRect(QPoint(0, 0), window()->size());
    const QRect pixels(place.topLeft() * int(ratio), place.size() * int(ratio));
    if (place.isEmpty() || !store->rect().contains(pixels)) {
        return;
    }
    if (!m_frame) {
        m_frame = std::make_unique<Frame>(*this);
    }
    QImage& image = m_frame->image;
    image = QImage(const_cast<uchar*>(store->constBits()) + pixels.y() * store->bytesPerLine() +
                       pixels.x() * (store->depth() / 8),
                   pixels.width(), pixels.height(), store->bytesPerLine(), store->format());
    image.setDevicePixelRatio(ratio);
    // The widget's resolution, so that the fonts are the sizes they are on screen.
    image.setDotsPerMeterX(qRound(logicalDpiX() / 0.0254));
    image.setDotsPerMeterY(qRound(logicalDpiY() / 0.0254));
    m_frame->offset = QPointF(mapTo(window(), QPoint(0, 0)) - place.topLeft());
    m_frame->bounds = QRectF(rect());
    m_frame->region = region;
    m_frame->inFlight = true;
    m_exposed = region;
    m_frame->started.store(true, std::memory_order_release);
    m_framePool->start(m_frame.get());
}

bool PaintedView::endFrame() const {
    if (!m_frame || !m_frame->inFlight) {
        return false;
    }
    m_frame->inFlight = false;
    if (m_framePool->takeBack(m_frame.get())) {
        return false;
    }
    while (!m_frame->done.try_acquire()) {
        if (!m_framePool->runWaitingFrame()) {
            m_frame->done.acquire();
            break;
        }
    }
    return true;
}

bool PaintedView::runWaitingFrame() {
    if (!m_frame || !m_frame->inFlight || !m_framePool->takeBack(m_frame.get())) {
        return false;
    }
    m_frame->run(); // its paint event finds it drawn
    return true;
}

bool PaintedView::forScreen(const QPainter& painter) const {
    return painter.device() == this || (m_frame && painter.device() == &m_frame->image);
}

void PaintedView::ensureBuilt() const {
    if (m_dirty) {
        m_dirty = false;
        ++m_generation;
        // Derived data is a cache of the analysis; building it does not change what the view shows.
        const_cast<PaintedView*>(this)->rebuild();
    }
}

void PaintedView::render(QPainter& painter, const QRectF& target) const {
    endFrame();
    ensureBuilt();
    draw(painter, target);
}

void PaintedView::draw(QPainter& painter, const QRectF& target) const {
    painter.save();
    painter.setClipRect(target, Qt::IntersectClip);
    painter.fillRect(target, palette().color(QPalette::Base));
    painter.setFont(font());
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    if (m_analysis->valid) {
        paintContent(painter, target);
    } else {
        painter.setPen(colors::muted(palette()));
        painter.drawText(target.adjusted(24, 24, -24, -24), Qt::AlignCenter | Qt::TextWordWrap,
                         tr("Nothing to show: the configuration has errors.\nFix the fields listed under "
                            "Diagnostics."));
    }
    painter.restore();
}

QRegion PaintedView::changedRegion() const {
    if (m_drawn.empty() || !m_analysis->valid) {
        return rect();
    }
    const std::vector<DrawnItem> next = drawnItems(QRectF(rect()));
    if (next.empty()) {
        return rect();
    }
    QRect changed; // one rect (see the declaration)
    for (const QRect& place : differing(m_drawn, next)) {
        changed |= place;
    }
    return changed;
}

std::vector<QRect> PaintedView::differing(const std::vector<DrawnItem>& before, const std::vector<DrawnItem>& after) {
    const QSet<DrawnItem> kept(before.begin(), before.end());
    const QSet<DrawnItem> next(after.begin(), after.end());
    std::vector<QRect> places;
    for (const DrawnItem& item : before) {
        if (!next.contains(item)) {
            places.push_back(item.rect);
        }
    }
    for (const DrawnItem& item : after) {
        if (!kept.contains(item)) {
            places.push_back(item.rect);
        }
    }
    return places;
}

std::vector<PaintedView::DrawnItem> PaintedView::drawnItems(const QRectF&) const {
    return {};
}

PaintedView::DrawnItem PaintedView::drawnItem(const QRectF& rect, size_t digest, int margin) {
    return {rect.toAlignedRect().adjusted(-margin, -margin, margin, margin),
            qHashMulti(digest, rect.x(), rect.y(), rect.width(), rect.height())};
}

namespace {

constexpr qreal kHeaderMargin = 14;
constexpr qreal kCompactReserve = 56; // the overview's Open button
constexpr int kTitleLines = 2;
constexpr int kCompactTitleLines = 3; // a tile is narrow: "Layer 0 of 0–47: Gated DeltaNet · MoE 512 × top-10"
constexpr int kSubtitleLines = 3;

} // namespace

std::pair<QStringList, QStringList> PaintedView::headerLines(const QRectF& target, const QString& title,
                                                             const QString& subtitle, qreal reservedRight) const {
    if (m_compact) {
        reservedRight = std::max<qreal>(reservedRight, kCompactReserve);
    }
    const qreal titleWidth = target.width() - 2 * kHeaderMargin - reservedRight;
    QStringList titleLines =
        widgets::wrapLines(title, titleFont(), titleWidth, m_compact ? kCompactTitleLines : kTitleLines);
    QStringList subtitleLines;
    if (!subtitle.isEmpty() && !m_compact) {
        subtitleLines = widgets::wrapLines(subtitle, font(), target.width() - 2 * kHeaderMargin, kSubtitleLines);
    }
    return {std::move(titleLines), std::move(subtitleLines)};
}

qreal PaintedView::headerBottom(const QRectF& target, const QString& title, const QString& subtitle,
                                qreal reservedRight) const {
    const auto [titleLines, subtitleLines] = headerLines(target, title, subtitle, reservedRight);
    const qreal titleHeight = widgets::TextMetrics(titleFont()).height() * std::max<qsizetype>(1, titleLines.size());
    const qreal subtitleHeight =
        subtitleLines.isEmpty() ? 0 : 2 + widgets::TextMetrics(font()).height() * qreal(subtitleLines.size());
    return target.top() + 10 + titleHeight + subtitleHeight;
}

QRectF PaintedView::paintHeader(QPainter& painter, const QRectF& target, const QString& title, const QString& subtitle,
                                qreal reservedRight) const {
    const auto [titleLines, subtitleLines] = headerLines(target, title, subtitle, reservedRight);
    painter.save();
    const QFont heading = titleFont();
    const qreal titleLine = widgets::TextMetrics(heading).height();
    const qreal left = target.left() + kHeaderMargin;
    const qreal width = target.width() - 2 * kHeaderMargin;
    qreal y = target.top() + 10;
    painter.setFont(heading);
    painter.setPen(palette().color(QPalette::Text));
    for (const QString& line : titleLines) {
        widgets::drawShaped(painter, QRectF(left, y, width, titleLine), Qt::AlignLeft | Qt::AlignVCenter, line);
        y += titleLine;
    }
    if (titleLines.isEmpty()) {
        y += titleLine;
    }
    if (!subtitleLines.isEmpty()) {
        painter.setFont(font());
        painter.setPen(colors::muted(palette()));
        const qreal line = widgets::TextMetrics(font()).height();
        y += 2;
        for (const QString& text : subtitleLines) {
            widgets::drawShaped(painter, QRectF(left, y, width, line), Qt::AlignLeft | Qt::AlignVCenter, text);
            y += line;
        }
    }
    painter.restore();
    return QRectF(left, y + 10, width, target.bottom() - y - 20);
}

QFont PaintedView::titleFont() const {
    QFont heading = font();
    heading.setBold(true);
    heading.setPointSizeF(heading.pointSizeF() * 1.2);
    return heading;
}

QFont PaintedView::smallFont() const {
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.88);
    return small;
}

bool PaintedView::event(QEvent* event) {
    if (event->type() != QEvent::Paint) {
        endFrame(); // whatever the event changes, no frame is reading it
    }
    return AnalysisView::event(event);
}

void PaintedView::paintEvent(QPaintEvent* event) {
    QPainter painter(this);
    const QPaintEngine* engine = painter.paintEngine();
    const bool onScreen = engine != nullptr && engine->paintDevice() == backingStoreImage();
    if (onScreen && m_framePool != nullptr) {
        m_framePool->startFrames(this); // the other tiles' repaints, beside this one
    }
    const bool framed = endFrame();
    ensureBuilt();
    // A frame drawn is on screen already: the rest of the event's region, if any, is drawn here.
    const QRegion rest = framed && onScreen ? event->region().subtracted(m_frame->region) : event->region();
    if (framed && onScreen) {
        m_framePool->countShown();
    }
    if (!rest.isEmpty()) {
        m_exposed = rest;
        painter.setClipRegion(rest);
        draw(painter, QRectF(rect()));
    }
    m_pending -= event->region();
    m_drawn = m_analysis->valid ? drawnItems(QRectF(rect())) : std::vector<DrawnItem>{};
}

void PaintedView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        invalidate();
    }
    AnalysisView::changeEvent(event);
}

void PaintedView::showEvent(QShowEvent* event) {
    AnalysisView::showEvent(event);
    repaintLater(rect());
}

} // namespace archplay::ui::views
