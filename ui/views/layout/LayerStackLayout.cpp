// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/layout/LayerStackLayout.h"

#include "ui/widgets/ShapedText.h"
#include "ui/widgets/TextLines.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace archplay::ui::views::layout {
namespace {

constexpr qreal kStackColumnGap = 56;
constexpr int kRunLabelLines = 3; ///< a run label wraps to at most this many lines

/// The smallest of 1, 2, 5, 10, 20, 50, ... layers between ticks that keeps tick labels a line apart.
int tickStep(qreal slabHeight, qreal lineHeight) {
    for (int scale = 1; scale < 1000000; scale *= 10) {
        for (int step : std::array{1, 2, 5}) {
            if (static_cast<qreal>(step * scale) * slabHeight >= lineHeight * 1.05) {
                return step * scale;
            }
        }
    }
    return 1000000;
}

StackColumn layoutColumn(const StackColumnInput& input, const QRectF& frame, bool ticksRight, const QFont& font) {
    const widgets::TextMetrics metrics(font);
    StackColumn column;
    column.frame = frame;
    const qreal line = metrics.height();
    qreal top = frame.top();
    if (!input.title.isEmpty()) {
        column.title = QRectF(frame.left(), top, frame.width(), line);
        top += line + 6;
    }
    const qreal tickWidth = metrics.horizontalAdvance(QStringLiteral("000")) + 10;
    qreal labelWanted = 0;
    for (const auto& run : input.runs) {
        labelWanted = std::max(labelWanted, metrics.horizontalAdvance(run.label) + 22);
    }
    // Two bar columns at the right when the frame has room for them beside slabs and labels.
    const qreal barColumn = std::max(90.0, metrics.horizontalAdvance(QStringLiteral("KV cache at S")) + 12);
    const bool bars = frame.width() >= 2 * barColumn + 24 + tickWidth + 200 + labelWanted;
    const qreal barsWidth = bars ? 2 * barColumn + 24 : 0;
    const qreal available = frame.width() - tickWidth - barsWidth;
    const qreal slabWidth = std::clamp(available - labelWanted, available * 0.36,
                                       std::max(available * 0.36, std::min(available * 0.6, 440.0)));
    const qreal slabLeft = ticksRight ? frame.left() : frame.left() + tickWidth;
    const qreal slabRight = slabLeft + slabWidth;
    const qreal boxHeight = line * 1.7;

    if (!input.topLabel.isEmpty()) {
        column.top = QRectF(slabLeft, top, slabWidth, boxHeight);
        top += boxHeight + 5;
    }
    if (!input.normLabel.isEmpty()) {
        column.norm = QRectF(slabLeft, top, slabWidth, line * 1.15);
        top += line * 1.15 + 5;
    }
    column.bottom = QRectF(slabLeft, frame.bottom() - boxHeight, slabWidth, boxHeight);
    const qreal layersBottom = column.bottom.top() - 6;
    const qreal layersTop = top;
    const int count = static_cast<int>(input.layers.size());
    if (count == 0 || layersBottom <= layersTop) {
        return column;
    }
    const qreal height = (layersBottom - layersTop) / count;
    const qreal gap = height >= 8 ? std::round(std::min(3.0, height * 0.18)) : (height >= 4 ? 1.0 : 0.0);
    // Right after the run labels, so each bar sits near the words about its layer.
    const qreal barsLeft = std::min(frame.right() - barsWidth + 24,
                                    (ticksRight ? slabRight + tickWidth + 12 : slabRight + 16) + labelWanted + 16);
    if (bars) {
        column.parameterHeader = QRectF(barsLeft, layersTop - 2 * line - 4, barColumn - 8, 2 * line);
        column.cacheHeader = QRectF(barsLeft + barColumn, layersTop - 2 * line - 4, barColumn - 8, 2 * line);
    }
    column.slabs.reserve(input.layers.size());
    for (int i = 0; i < count; ++i) {
        const auto& layer = input.layers[static_cast<std::size_t>(i)];
        StackSlab slab;
        slab.planIndex = layer.planIndex;
        // Whole-pixel edges: a hundred thin slabs with fractional edges shimmer.
        const qreal slabTop = std::round(layersBottom - (i + 1) * height);
        const qreal slabBottom = std::round(layersBottom - i * height);
        slab.rect = QRectF(std::round(slabLeft), slabTop + std::floor(gap / 2), std::round(slabWidth),
                           std::max(1.0, slabBottom - slabTop - gap));
        if (bars) {
            const qreal barHeight = slab.rect.height();
            slab.parameterBar =
                QRectF(barsLeft, slab.rect.top(), (barColumn - 8) * std::clamp(layer.parameters, 0.0, 1.0), barHeight);
            slab.cacheBar = QRectF(barsLeft + barColumn, slab.rect.top(),
                                   (barColumn - 8) * std::clamp(layer.cache, 0.0, 1.0), barHeight);
        }
        const qreal attentionShare = layer.cross ? 0.38 : 0.45;
        const qreal crossShare = layer.cross ? 0.22 : 0.0;
        slab.attention = QRectF(slab.rect.left(), slab.rect.top(), std::round(slab.rect.width() * attentionShare),
                                slab.rect.height());
        if (layer.cross) {
            slab.cross = QRectF(slab.attention.right(), slab.rect.top(), std::round(slab.rect.width() * crossShare),
                                slab.rect.height());
        }
        const qreal ffnLeft = slab.attention.right() + (layer.cross ? slab.cross.width() : 0);
        slab.ffn = QRectF(ffnLeft, slab.rect.top(), slab.rect.right() - ffnLeft, slab.rect.height());
        column.slabs.push_back(slab);
    }

    const qreal tickLeft = ticksRight ? slabRight + 4 : frame.left();
    const qreal bracketX = ticksRight ? slabRight + tickWidth + 4 : slabRight + 8;
    const qreal textLeft = bracketX + 8;
    const qreal textWidth = std::max(0.0, (bars ? barsLeft - 16 : frame.right()) - textLeft);
    const int step = tickStep(height, line);
    for (int i = 0; i < count; i += step) {
        const qreal centre = column.slabs[static_cast<std::size_t>(i)].rect.center().y();
        column.ticks.push_back({i, QRectF(tickLeft, centre - line / 2, tickWidth - 8, line)});
    }

    // Labels go from the top of the screen down, each at its run's middle or pushed just below the
    // label above; a label pushed well past its run is dropped rather than mislabel another run.
    qreal previousBottom = frame.top() - line;
    for (int r = static_cast<int>(input.runs.size()) - 1; r >= 0; --r) {
        const auto& run = input.runs[static_cast<std::size_t>(r)];
        if (run.count <= 0 || run.first < 0 || run.first + run.count > count) {
            continue;
        }
        const qreal runTop = column.slabs[static_cast<std::size_t>(run.first + run.count - 1)].rect.top();
        const qreal runBottom = column.slabs[static_cast<std::size_t>(run.first)].rect.bottom();
        const QLineF bracket(bracketX, runTop + 0.5, bracketX, runBottom - 0.5);
        column.brackets.push_back(bracket);
        // A label goes whole, on at most three lines with no word broken, or not at all: the
        // bracket and the legend still say what the run is.
        QStringList lines = widgets::wrapLines(run.label, font, textWidth, widgets::kEveryLine);
        const QStringList words = run.label.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        const bool wordsFit = std::all_of(words.begin(), words.end(), [&](const QString& word) {
            return metrics.horizontalAdvance(word) <= textWidth;
        });
        if (lines.isEmpty() || lines.size() > kRunLabelLines || !wordsFit) {
            continue;
        }
        const qreal textHeight = line * static_cast<qreal>(lines.size());
        const qreal wanted = (runTop + runBottom) / 2 - textHeight / 2;
        const qreal placed = std::max({wanted, previousBottom + 1, frame.top()});
        const qreal slack = std::max(line * 0.6, (runBottom - runTop) / 2);
        if (placed - wanted > slack || placed + textHeight > frame.bottom()) {
            continue;
        }
        column.labels.push_back({r, bracket, QRectF(textLeft, placed, textWidth, textHeight), std::move(lines)});
        previousBottom = placed + textHeight;
    }
    return column;
}

} // namespace

LayerStackLayout layoutLayerStack(const std::vector<StackColumnInput>& columns, const QRectF& bounds,
                                  const QFont& font) {
    LayerStackLayout result;
    if (columns.empty() || bounds.width() <= 0 || bounds.height() <= 0) {
        return result;
    }
    const int count = static_cast<int>(columns.size());
    const qreal gap = count > 1 ? kStackColumnGap : 0;
    const qreal width = (bounds.width() - gap * (count - 1)) / count;
    for (int i = 0; i < count; ++i) {
        const QRectF frame(bounds.left() + i * (width + gap), bounds.top(), width, bounds.height());
        // With a cross-attention bus on the left of the second column, its ticks move right.
        const bool ticksRight = i > 0;
        result.columns.push_back(layoutColumn(columns[static_cast<std::size_t>(i)], frame, ticksRight, font));
    }
    if (count == 2) {
        const StackColumn& encoder = result.columns[0];
        const StackColumn& decoder = result.columns[1];
        const auto& decoderLayers = columns[1].layers;
        const QRectF source = !encoder.top.isEmpty()   ? encoder.top
                              : !encoder.slabs.empty() ? encoder.slabs.back().rect
                                                       : QRectF();
        const qreal busX = encoder.frame.right() + gap / 2;
        qreal lowest = source.center().y();
        for (std::size_t i = 0; i < decoder.slabs.size(); ++i) {
            if (!decoderLayers[i].cross) {
                continue;
            }
            const QRectF& slab = decoder.slabs[i].rect;
            result.crossLinks.emplace_back(busX, slab.center().y(), slab.left(), slab.center().y());
            lowest = std::max(lowest, slab.center().y());
        }
        if (!result.crossLinks.empty() && !source.isEmpty()) {
            result.crossFeed = QLineF(source.right(), source.center().y(), busX, source.center().y());
            result.crossBus = QLineF(busX, source.center().y(), busX, lowest);
        }
    }
    return result;
}

} // namespace archplay::ui::views::layout
