// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/views/layout/PlotLabels.h"

#include <QString>

#include <functional>
#include <string>

class QCPAxis;
class QWidget;
class QCustomPlot;
class QFont;
class QPainter;
class QPalette;
class QRectF;
class QSize;

namespace archplay::ui::views::plot {

/// QCustomPlot shared set-up: one look from the palette, core's number formatters (shortCount,
/// tokenCount, binaryBytes) for axes and labels, one way to paint a plot into an export. The
/// QCustomPlot header stays in .cpp files.

/// A plot with the program's defaults: no OpenGL, antialiased, the view's font, colours from `palette`.
QCustomPlot* createPlot(QWidget* parent);
/// Background, axes, grids, legend and text elements from the palette; call again on PaletteChange.
void applyPalette(QCustomPlot& plot, const QPalette& palette, const QFont& font);

/// Linear axis whose labels are parameter counts: 0, 2B, 4B.
void useCountTicker(QCPAxis* axis);
/// Linear axis whose labels `format` writes (one of core's formatters, e.g. core::figureText).
void useFormattedTicker(QCPAxis* axis, std::function<std::string(double)> format);
/// Logarithmic axis of parameter counts in powers of ten: 1B, 10B, 100B (core::shortCount).
void useCountLogTicker(QCPAxis* axis);
/// Logarithmic axis of tokens in powers of four: 1K, 4K, 16K, 64K, 256K, 1M.
void useTokenLogTicker(QCPAxis* axis);
/// Logarithmic axis of bytes: 1 KiB, 1 MiB, 1 GiB.
void useBytesLogTicker(QCPAxis* axis);

/// Logarithmic axis of FLOPs in powers of ten: 1 MFLOP, 10 GFLOP (core::flopText).
void useFlopLogTicker(QCPAxis* axis);
/// Logarithmic axis of FLOP/s in powers of ten: 1 TFLOP/s (core::flopRateText).
void useFlopRateLogTicker(QCPAxis* axis);
/// Logarithmic axis of tokens per second in powers of ten: 10 tok/s, 1K tok/s (core::tokenRateText).
void useTokenRateLogTicker(QCPAxis* axis);
/// Logarithmic axis of plain numbers in powers of `base`: batches (2) and FLOP/byte (10).
void usePlainLogTicker(QCPAxis* axis, double base);
/// Logarithmic axis of vocabularies in powers of two, as people write them: 32K, 64K, 128K, 256K.
void useVocabularyLogTicker(QCPAxis* axis);
/// Linear axis of dates in years, a tick on whole years (every 1, 2 or 5): 2018, 2020, 2022.
void useYearTicker(QCPAxis* axis);

/// Moves the legend out of the axis rect into a row below it, entries side by side, so it never
/// covers a point or a curve.
void placeLegendBelow(QCustomPlot& plot);

/// Puts the legend in the axis rect's inset layout (`inside`: one column of rows), or in a row below
/// the plot wrapping after `columns` entries, a compact block so that a small plot keeps its height.
void putLegend(QCustomPlot& plot, bool inside, int columns);

/// Places the legend where it hides no curve and no mark (layout::placeLegend): in the free corner of
/// the axis rect, or below the plot in as many columns as `size` holds; no entries, no legend.
/// `layOut` lays the plot out again at `size`. Below the plot the axis rect has moved, so the caller
/// measures again what it drew.
layout::LegendPlacement placeLegendClear(QCustomPlot& plot, const QSize& size,
                                         const std::vector<layout::Polyline>& curves, const std::vector<QRectF>& marks,
                                         const std::function<void()>& layOut);

/// Paints `plot` laid out at the size of `target` onto any painter (screen, image, SVG, PDF):
/// QCustomPlot draws into a QPicture through its own painter, which `painter` then replays.
void renderPlot(QCustomPlot& plot, QPainter& painter, const QRectF& target);

} // namespace archplay::ui::views::plot
