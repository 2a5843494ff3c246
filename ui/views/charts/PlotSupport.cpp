// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/charts/PlotSupport.h"

#include "core/util/Format.h"
#include "ui/Strings.h"
#include "ui/views/ViewColors.h"

#include <QPainter>
#include <QPicture>
#include <qcustomplot.h>

#include <cmath>

namespace archplay::ui::views::plot {
namespace {

std::uint64_t toCount(double value) {
    if (!(value > 0)) {
        return 0;
    }
    return value >= 1.8e19 ? UINT64_MAX : static_cast<std::uint64_t>(std::llround(value));
}

class CountTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return qs(core::shortCount(toCount(tick)));
    }
};

/// Powers of four, so the ticks land where context lengths do: 1K, 4K, 16K, 64K, 256K, 1M.
class TokenLogTicker : public QCPAxisTickerLog {
public:
    TokenLogTicker() { setLogBase(4); }

protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return qs(core::tokenCount(toCount(tick)));
    }
};

class BytesLogTicker : public QCPAxisTickerLog {
public:
    BytesLogTicker() { setLogBase(4); }

protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return qs(core::binaryBytes(toCount(tick)));
    }
};

/// A logarithmic axis whose labels come from one of core's formatters.
class FormattedLogTicker : public QCPAxisTickerLog {
public:
    FormattedLogTicker(double base, std::string (*format)(double))
        : m_format(format) {
        setLogBase(base);
    }

protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override { return qs(m_format(tick)); }

private:
    std::string (*m_format)(double);
};

/// A linear axis whose labels come from any formatter.
class FormattedTicker : public QCPAxisTicker {
public:
    explicit FormattedTicker(std::function<std::string(double)> format)
        : m_format(std::move(format)) {}

protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override { return qs(m_format(tick)); }

private:
    std::function<std::string(double)> m_format;
};

std::string plainNumber(double value) {
    return value >= 1 ? core::withThousands(toCount(value)) : QString::number(value, 'g', 2).toStdString();
}

void useFormattedLogTicker(QCPAxis* axis, double base, std::string (*format)(double)) {
    auto ticker = QSharedPointer<FormattedLogTicker>::create(base, format);
    ticker->setSubTickCount(base == 10 ? 8 : 0);
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(ticker);
}

void styleAxis(QCPAxis* axis, const QPalette& palette, const QFont& font) {
    const QColor text = palette.color(QPalette::Text);
    const QColor muted = colors::muted(palette);
    axis->setBasePen(QPen(colors::rule(palette), 1));
    axis->setTickPen(QPen(colors::rule(palette), 1));
    axis->setSubTickPen(QPen(colors::rule(palette), 1));
    axis->setTickLabelColor(muted);
    axis->setLabelColor(text);
    axis->setTickLabelFont(font);
    axis->setLabelFont(font);
    QColor grid = colors::rule(palette);
    grid.setAlpha(grid.alpha() / 2);
    axis->grid()->setPen(QPen(grid, 1, Qt::SolidLine));
    QColor subGrid = grid;
    subGrid.setAlpha(grid.alpha() / 2);
    axis->grid()->setSubGridPen(QPen(subGrid, 1, Qt::DotLine));
    axis->grid()->setZeroLinePen(Qt::NoPen);
}

} // namespace

QCustomPlot* createPlot(QWidget* parent) {
    auto* plot = new QCustomPlot(parent);
    // Axis-parallel lines and rectangles are crisp without antialiasing, and cheaper.
    plot->setAntialiasedElements(QCP::aePlottables | QCP::aeLegendItems | QCP::aeScatters | QCP::aeItems);
    plot->setNotAntialiasedElements(QCP::aeGrid | QCP::aeSubGrid | QCP::aeAxes | QCP::aeLegend | QCP::aeZeroLine);
    plot->setNoAntialiasingOnDrag(false);
    plot->setInteractions({});
    plot->setMouseTracking(true);
    return plot;
}

void applyPalette(QCustomPlot& plot, const QPalette& palette, const QFont& font) {
    plot.setBackground(palette.color(QPalette::Base));
    for (QCPAxisRect* rect : plot.axisRects()) {
        rect->setBackground(Qt::NoBrush);
        for (QCPAxis* axis : rect->axes()) {
            styleAxis(axis, palette, font);
        }
    }
    for (int i = 0; i < plot.plotLayout()->elementCount(); ++i) {
        if (auto* text = qobject_cast<QCPTextElement*>(plot.plotLayout()->elementAt(i))) {
            text->setTextColor(palette.color(QPalette::Text));
        }
    }
    if (plot.legend) {
        plot.legend->setBrush(colors::panel(palette));
        plot.legend->setBorderPen(QPen(colors::rule(palette)));
        plot.legend->setTextColor(palette.color(QPalette::Text));
        plot.legend->setFont(font);
    }
}

void useFormattedTicker(QCPAxis* axis, std::function<std::string(double)> format) {
    auto ticker = QSharedPointer<FormattedTicker>::create(std::move(format));
    ticker->setTickCount(5);
    axis->setScaleType(QCPAxis::stLinear);
    axis->setTicker(ticker);
}

void useCountTicker(QCPAxis* axis) {
    auto ticker = QSharedPointer<CountTicker>::create();
    ticker->setTickCount(5);
    axis->setTicker(ticker);
}

void useTokenLogTicker(QCPAxis* axis) {
    auto ticker = QSharedPointer<TokenLogTicker>::create();
    ticker->setSubTickCount(2);
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(ticker);
}

void useBytesLogTicker(QCPAxis* axis) {
    auto ticker = QSharedPointer<BytesLogTicker>::create();
    ticker->setSubTickCount(2);
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(ticker);
}

void useCountLogTicker(QCPAxis* axis) {
    useFormattedLogTicker(axis, 10, [](double value) { return core::shortCount(toCount(value)); });
}

void useFlopLogTicker(QCPAxis* axis) {
    useFormattedLogTicker(axis, 10, &core::flopText);
}

void useFlopRateLogTicker(QCPAxis* axis) {
    useFormattedLogTicker(axis, 10, &core::flopRateText);
}

void useTokenRateLogTicker(QCPAxis* axis) {
    useFormattedLogTicker(axis, 10, &core::tokenRateText);
}

void usePlainLogTicker(QCPAxis* axis, double base) {
    useFormattedLogTicker(axis, base, &plainNumber);
}

void useVocabularyLogTicker(QCPAxis* axis) {
    useFormattedLogTicker(axis, 2, [](double tick) { return core::tokenCount(toCount(tick)); });
}

void useYearTicker(QCPAxis* axis) {
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(1);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    ticker->setTickCount(8);
    axis->setScaleType(QCPAxis::stLinear);
    axis->setNumberFormat(QStringLiteral("f"));
    axis->setNumberPrecision(0);
    axis->setTicker(ticker);
}

void placeLegendBelow(QCustomPlot& plot) {
    plot.legend->setVisible(true);
    plot.axisRect()->insetLayout()->take(plot.legend);
    plot.plotLayout()->addElement(1, 0, plot.legend);
    plot.plotLayout()->setRowStretchFactor(1, 0.001);
    plot.legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot.legend->setMargins(QMargins(4, 2, 4, 2));
}

void putLegend(QCustomPlot& plot, bool inside, int columns) {
    QCPLegend* legend = plot.legend;
    QCPLayoutInset* inset = plot.axisRect()->insetLayout();
    if (inside && legend->layout() != inset) {
        plot.plotLayout()->take(legend);
        plot.plotLayout()->simplify();
        inset->addElement(legend, Qt::AlignBottom | Qt::AlignRight);
    } else if (!inside && legend->layout() == inset) {
        inset->take(legend);
        plot.plotLayout()->addElement(plot.plotLayout()->rowCount(), 0, legend);
        plot.plotLayout()->setRowStretchFactor(plot.plotLayout()->rowCount() - 1, 0.001);
    }
    legend->setWrap(inside ? 0 : columns);
    legend->setFillOrder(inside ? QCPLayoutGrid::foRowsFirst : QCPLayoutGrid::foColumnsFirst, true);
    legend->setRowSpacing(inside ? 3 : 0);
    legend->setColumnSpacing(inside ? 8 : 14);
    legend->setMargins(inside ? QMargins(7, 5, 7, 4) : QMargins(4, 2, 4, 2));
}

layout::LegendPlacement placeLegendClear(QCustomPlot& plot, const QSize& size,
                                         const std::vector<layout::Polyline>& curves, const std::vector<QRectF>& marks,
                                         const std::function<void()>& layOut) {
    const bool entries = plot.legend->itemCount() > 0;
    plot.legend->setVisible(entries);
    if (!entries) {
        return {true, QRectF()};
    }
    const QRectF area = plot.axisRect()->rect();
    const layout::LegendPlacement placed =
        layout::placeLegend(area, QSizeF(plot.legend->minimumOuterSizeHint()), curves, marks, 6);
    if (placed.inside) {
        if (!placed.rect.isEmpty()) {
            QCPLayoutInset* inset = plot.axisRect()->insetLayout();
            inset->setInsetPlacement(0, QCPLayoutInset::ipFree);
            inset->setInsetRect(0, QRectF((placed.rect.left() - area.left()) / area.width(),
                                          (placed.rect.top() - area.top()) / area.height(),
                                          placed.rect.width() / area.width(), placed.rect.height() / area.height()));
            layOut();
        }
        return placed;
    }
    std::vector<qreal> widths;
    for (int i = 0; i < plot.legend->itemCount(); ++i) {
        widths.push_back(plot.legend->item(i)->minimumOuterSizeHint().width());
    }
    putLegend(plot, false, layout::legendColumns(widths, size.width() - 20, 8));
    layOut();
    return placed;
}

void renderPlot(QCustomPlot& plot, QPainter& painter, const QRectF& target) {
    const int width = std::max(1, static_cast<int>(std::lround(target.width())));
    const int height = std::max(1, static_cast<int>(std::lround(target.height())));
    QPicture picture;
    {
        QCPPainter plotPainter(&picture);
        plot.toPainter(&plotPainter, width, height);
    }
    painter.save();
    painter.setClipRect(target, Qt::IntersectClip);
    // QPicture replays scaled by the target's resolution over its own (an SVG at 72 dpi shrinks it);
    // undo that so the plot fills `target` on every device, as the rest of the view does.
    const QPaintDevice* device = painter.device();
    const qreal scaleX =
        device && device->logicalDpiX() > 0 ? qreal(picture.logicalDpiX()) / device->logicalDpiX() : 1.0;
    const qreal scaleY =
        device && device->logicalDpiY() > 0 ? qreal(picture.logicalDpiY()) / device->logicalDpiY() : 1.0;
    painter.translate(target.topLeft());
    painter.scale(scaleX, scaleY);
    painter.drawPicture(QPointF(0, 0), picture);
    painter.restore();
    // toPainter leaves the layout at the export's size; lay the widget out again at its own.
    plot.replot(QCustomPlot::rpQueuedReplot);
}

} // namespace archplay::ui::views::plot
