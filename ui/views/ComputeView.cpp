// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/ComputeView.h"

#include "core/report/Costs.h"
#include "core/util/Format.h"
#include "ui/views/KindNames.h"
#include "ui/views/ViewColors.h"
#include "ui/views/charts/FlopsCurvePlot.h"
#include "ui/views/layout/KvLayout.h"
#include "ui/widgets/ShapedText.h"
#include "ui/widgets/TextLines.h"

#include <QPainter>
#include <qcustomplot.h>

#include <algorithm>
#include <functional>

namespace archplay::ui::views {
namespace {

QString flops(std::uint64_t value) {
    return qs(core::flopText(double(value)));
}

/// One column of the table by layer kind.
struct KindColumn {
    QString header;
    int priority = 0;
    std::function<QString(const core::KindFlops&)> cell;
    qreal width = 0;
    bool shown = false;
};

} // namespace

ComputeView::ComputeView(QWidget* parent)
    : CostView(core::CostTopic::Compute, parent)
    , m_plot(std::make_unique<FlopsCurvePlot>(this)) {
    m_plot->applyPalette(snapshot().palette, snapshot().font);
}

ComputeView::~ComputeView() = default;

const std::vector<core::FlopsPart>& ComputeView::parts() const {
    ensureBuilt();
    return m_parts;
}

const std::vector<core::KindFlops>& ComputeView::kinds() const {
    ensureBuilt();
    return m_kinds;
}

const std::vector<core::TokenFlops>& ComputeView::curve() const {
    ensureBuilt();
    return m_curve;
}

const std::vector<core::SummaryRow>& ComputeView::rows() const {
    ensureBuilt();
    return m_rows;
}

const FlopsCurvePlot& ComputeView::plot() {
    prepareToRender();
    return *m_plot;
}

std::vector<CostChart*> ComputeView::charts() const {
    return {m_plot.get()};
}

void ComputeView::updateCharts() {
    if (!analysis().valid) {
        return;
    }
    m_plot->setCurve(m_curve, m_current, !analysis().config.hasDecoder());
}

void ComputeView::rebuildFigure() {
    m_parts.clear();
    m_kinds.clear();
    m_curve.clear();
    m_rows.clear();
    const core::Analysis& a = analysis();
    if (!a.valid) {
        return;
    }
    const core::ComputeReport& c = a.compute;
    m_parts = core::flopsByComponent(c);
    m_kinds = core::flopsByLayerKind(a.config, c);
    m_rows = core::computeRows(a);
    const bool encoderOnly = !a.config.hasDecoder();
    const std::uint64_t longest = std::max<std::uint64_t>(
        {static_cast<std::uint64_t>(std::max<std::int64_t>(a.config.maxPositions, 1)), c.context, 1});
    m_curve = core::flopsPerTokenCurve(c, core::flopsCurvePositions(c, longest, c.context));
    m_current = {};
    for (const core::TokenFlops& point : m_curve) {
        if (point.position == c.context) {
            m_current = point;
        }
    }
    const QString at = qs(core::tokenCount(c.context));
    if (encoderOnly) {
        m_subtitle = tr("What a token costs in a sequence of S = %1, averaged over its tokens: twice the weights it "
                        "multiplies and attention over the keys it sees. A multiply-add counts 2.")
                         .arg(at);
    } else {
        m_subtitle = tr("What a token costs at position S = %1: twice the weights it multiplies, attention over the "
                        "keys it sees%2. A multiply-add counts 2.")
                         .arg(at, c.state > 0 ? tr(", recurrent states") : QString());
        if (c.encoderDecoder) {
            m_subtitle += tr(" The encoder runs once per source token, in the prefill.");
        }
    }
}

QString ComputeView::legendText(std::size_t part) const {
    const core::FlopsPart& p = m_parts[part];
    return QStringLiteral("%1 %2 (%3)")
        .arg(qs(p.name), flops(p.flops), percentText(p.flops, analysis().compute.perToken));
}

std::vector<qreal> ComputeView::legendWidths() const {
    const widgets::TextMetrics metrics(snapshot().font);
    std::vector<qreal> widths;
    for (std::size_t i = 0; i < m_parts.size(); ++i) {
        widths.push_back(metrics.height() * 0.7 + 6 + metrics.horizontalAdvance(legendText(i)));
    }
    return widths;
}

layout::ComputeLayout ComputeView::layoutIn(const QRectF& content) const {
    return layout::layoutCompute(content, widgets::TextMetrics(snapshot().font), widgets::TextMetrics(headlineFont()),
                                 legendWidths(), static_cast<int>(m_kinds.size()));
}

layout::ComputeLayout ComputeView::layoutFor(const QRectF& target, bool onScreen) const {
    ensureBuilt();
    return layoutIn(contentRect(target, onScreen));
}

std::vector<QRectF> ComputeView::barSegments(const layout::ComputeLayout& placed) const {
    std::vector<std::uint64_t> values;
    for (const core::FlopsPart& part : m_parts) {
        values.push_back(part.flops);
    }
    return layout::proportionalSegments(values, placed.bar);
}

void ComputeView::placeCharts(const QRectF& content) {
    placeChart(*m_plot, layoutIn(content).curve, !m_curve.empty());
}

void ComputeView::paintFigure(QPainter& painter, const QRectF& content, bool onScreen) const {
    const layout::ComputeLayout placed = layoutIn(content);
    if (!m_rows.empty()) {
        const core::SummaryRow& first = m_rows.front();
        paintHeadline(painter, placed.headline, qs(first.value),
                      {tr("per token · %1").arg(qs(first.detail)), tr("per token")});
    }
    paintBar(painter, placed);
    paintKinds(painter, placed);
    if (!onScreen && placed.curve.width() >= 80 && placed.curve.height() >= 80) {
        m_plot->render(painter, placed.curve);
    }
    QFont bold = snapshot().font;
    bold.setBold(true);
    paintRows(painter, layout::layoutRows(placed.rows, snapshot().font, bold, rowTexts(m_rows)), m_rows);
}

void ComputeView::paintBar(QPainter& painter, const layout::ComputeLayout& placed) const {
    const QPalette pal = snapshot().palette;
    const widgets::TextMetrics metrics(snapshot().font);
    painter.fillRect(placed.bar, colors::panel(pal));
    const std::vector<QRectF> segments = barSegments(placed);
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const QColor color = colors::flops(m_parts[i].kind, m_parts[i].component, pal);
        painter.fillRect(segments[i], color);
        const QString label = qs(m_parts[i].name);
        if (metrics.horizontalAdvance(label) + 12 < segments[i].width()) {
            painter.setPen(colors::textOn(color));
            painter.drawText(segments[i], Qt::AlignCenter, label);
        }
    }
    const qreal swatch = metrics.height() * 0.7;
    for (std::size_t i = 0; i < placed.legend.size() && i < m_parts.size(); ++i) {
        const QRectF entry = placed.legend[i];
        painter.fillRect(QRectF(entry.left(), entry.center().y() - swatch / 2, swatch, swatch),
                         colors::flops(m_parts[i].kind, m_parts[i].component, pal));
        const QRectF text = entry.adjusted(swatch + 6, 0, 0, 0);
        if (metrics.horizontalAdvance(legendText(i)) <= text.width() + 0.5) {
            painter.setPen(pal.color(QPalette::Text));
            painter.drawText(text, Qt::AlignLeft | Qt::AlignVCenter, legendText(i));
        }
    }
}

void ComputeView::paintKinds(QPainter& painter, const layout::ComputeLayout& placed) const {
    if (placed.kindRows.empty()) {
        return;
    }
    const QPalette pal = snapshot().palette;
    const widgets::TextMetrics metrics(snapshot().font);
    const std::uint64_t whole = analysis().compute.perToken;
    const bool states =
        std::any_of(m_kinds.begin(), m_kinds.end(), [](const core::KindFlops& k) { return k.state > 0; });
    // Columns in reading order, each with its priority (0 first): those that do not fit the width are
    // left out, never cut.
    std::vector<KindColumn> columns = {
        {tr("Weights"), 1,
         [](const core::KindFlops& k) {
             return flops(k.weights);
         }},
        {tr("Attention"), 2,
         [](const core::KindFlops& k) {
             return k.attention > 0 ? flops(k.attention) : QString();
         }},
    };
    if (states) {
        columns.push_back({tr("States"), 3, [](const core::KindFlops& k) {
                               return k.state > 0 ? flops(k.state) : QString();
                           }});
    }
    columns.push_back({tr("Total"), 0, [](const core::KindFlops& k) {
                           return flops(k.total);
                       }});
    columns.push_back({tr("Share"), 4, [whole](const core::KindFlops& k) {
                           return percentText(k.total, whole);
                       }});
    const auto nameOf = [](const core::KindFlops& k) {
        return k.outside ? qs(k.name) : QStringLiteral("%1 × %2").arg(qs(k.name)).arg(k.layers);
    };
    qreal nameWidth = metrics.horizontalAdvance(tr("Layers"));
    for (const core::KindFlops& k : m_kinds) {
        nameWidth = std::max(nameWidth, metrics.horizontalAdvance(nameOf(k)));
    }
    for (KindColumn& column : columns) {
        column.width = metrics.horizontalAdvance(column.header);
        for (const core::KindFlops& k : m_kinds) {
            column.width = std::max(column.width, metrics.horizontalAdvance(column.cell(k)));
        }
        column.width += 18;
    }
    std::vector<KindColumn*> byPriority;
    for (KindColumn& column : columns) {
        byPriority.push_back(&column);
    }
    std::sort(byPriority.begin(), byPriority.end(),
              [](const KindColumn* a, const KindColumn* b) { return a->priority < b->priority; });
    qreal used = nameWidth;
    for (KindColumn* column : byPriority) {
        column->shown = used + column->width <= placed.kindHeader.width();
        used += column->shown ? column->width : 0;
    }
    const qreal nameColumn = placed.kindHeader.width() - (used - nameWidth);
    const auto paintRow = [&](const QRectF& row, const QString& name,
                              const std::function<QString(const KindColumn&)>& cell) {
        if (metrics.horizontalAdvance(name) <= nameColumn) {
            painter.drawText(QRectF(row.left(), row.top(), nameColumn, row.height()), Qt::AlignLeft | Qt::AlignVCenter,
                             name);
        }
        qreal x = row.left() + nameColumn;
        for (const KindColumn& column : columns) {
            if (column.shown) {
                painter.drawText(QRectF(x, row.top(), column.width, row.height()), Qt::AlignRight | Qt::AlignVCenter,
                                 cell(column));
                x += column.width;
            }
        }
    };
    QFont bold = snapshot().font;
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(colors::muted(pal));
    paintRow(placed.kindHeader, tr("Layers"), [](const KindColumn& c) { return c.header; });
    painter.setPen(colors::rule(pal));
    painter.drawLine(QLineF(placed.kindHeader.bottomLeft(), placed.kindHeader.bottomRight()));
    painter.setFont(snapshot().font);
    painter.setPen(pal.color(QPalette::Text));
    for (std::size_t i = 0; i < placed.kindRows.size() && i < m_kinds.size(); ++i) {
        const core::KindFlops& k = m_kinds[i];
        paintRow(placed.kindRows[i], nameOf(k), [&](const KindColumn& c) { return c.cell(k); });
    }
}

} // namespace archplay::ui::views
