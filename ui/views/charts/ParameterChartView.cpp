// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/charts/ParameterChartView.h"

#include "core/params/ParamGroups.h"
#include "ui/views/KindNames.h"
#include "ui/views/PaintedView.h"
#include "ui/views/ViewColors.h"
#include "ui/views/charts/PlotSupport.h"

#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace archplay::ui::views {
namespace {

QString exactText(std::uint64_t value) {
    return exactCount(value);
}
QString approx(std::uint64_t value) {
    return shortCount(value);
}
QString percent(std::uint64_t part, std::uint64_t total) {
    return percentText(part, total);
}

QCPTextElement* addTitle(QCustomPlot* plot, const QFont& font) {
    auto* title = new QCPTextElement(plot, QString(), font);
    title->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
    title->setMargins(QMargins(14, 6, 14, 2));
    return title;
}

} // namespace

ParameterChartView::ParameterChartView(QWidget* parent)
    : AnalysisView(parent)
    , m_plot(plot::createPlot(this)) {
    // Bars are axis-parallel rectangles: crisp without antialiasing.
    m_plot->setNotAntialiasedElements(QCP::aeItems | QCP::aeGrid | QCP::aeSubGrid | QCP::aeAxes);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);

    QCPLayoutGrid* grid = m_plot->plotLayout();
    grid->clear();
    QFont heading = font();
    heading.setBold(true);
    heading.setPointSizeF(heading.pointSizeF() * 1.2);
    QFont subheading = font();
    subheading.setBold(true);
    m_title = addTitle(m_plot, heading);
    m_componentTitle = addTitle(m_plot, subheading);
    m_kindTitle = addTitle(m_plot, subheading);
    m_componentRect = new QCPAxisRect(m_plot);
    m_kindRect = new QCPAxisRect(m_plot);
    grid->addElement(0, 0, m_title);
    grid->addElement(1, 0, m_componentTitle);
    grid->addElement(2, 0, m_componentRect);
    grid->addElement(3, 0, m_kindTitle);
    grid->addElement(4, 0, m_kindRect);
    auto* margins = new QCPMarginGroup(m_plot);
    for (QCPAxisRect* rect : {m_componentRect, m_kindRect}) {
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        rect->setMinimumMargins(QMargins(14, 4, 24, 4));
        rect->axis(QCPAxis::atLeft)->setRangeReversed(true);
        rect->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<QCPAxisTickerText>::create());
        rect->axis(QCPAxis::atLeft)->setTickLength(0, 0);
        rect->axis(QCPAxis::atLeft)->setSubTicks(false);
        rect->axis(QCPAxis::atLeft)->grid()->setVisible(false);
        plot::useCountTicker(rect->axis(QCPAxis::atBottom));
    }
    m_kindRect->axis(QCPAxis::atBottom)->setLabel(tr("parameters"));

    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) { showToolTip(event->pos()); });
    applyColors();
}

ParameterChartView::~ParameterChartView() = default;

void ParameterChartView::setSharedAnalysis(core::AnalysisPtr analysis) {
    m_analysis = std::move(analysis);
    m_dirty = true;
    if (isVisible()) {
        ensureBuilt();
    }
}

const std::vector<ParameterBar>& ParameterChartView::componentBars() const {
    ensureBuilt();
    return m_componentBars;
}

const std::vector<ParameterBar>& ParameterChartView::kindBars() const {
    ensureBuilt();
    return m_kindBars;
}

void ParameterChartView::ensureBuilt() const {
    if (m_dirty) {
        m_dirty = false;
        // The chart is a cache of the analysis; filling it does not change what the view shows.
        const_cast<ParameterChartView*>(this)->rebuild();
    }
}

void ParameterChartView::render(QPainter& painter, const QRectF& target) const {
    ensureBuilt();
    plot::renderPlot(*m_plot, painter, target);
}

void ParameterChartView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        applyColors();
        m_dirty = true;
        if (isVisible()) {
            ensureBuilt();
        }
    }
    AnalysisView::changeEvent(event);
}

void ParameterChartView::showEvent(QShowEvent* event) {
    AnalysisView::showEvent(event);
    ensureBuilt();
}

void ParameterChartView::applyColors() {
    plot::applyPalette(*m_plot, palette(), font());
}

QCPItemRect* ParameterChartView::segmentItem(std::size_t index) {
    while (m_segments.size() <= index) {
        auto* item = new QCPItemRect(m_plot);
        item->setSelectable(false);
        m_segments.push_back(item);
    }
    return m_segments[index];
}

QCPItemText* ParameterChartView::labelItem(std::size_t index) {
    while (m_labels.size() <= index) {
        auto* item = new QCPItemText(m_plot);
        item->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        item->setPadding(QMargins(6, 0, 0, 0));
        item->setSelectable(false);
        m_labels.push_back(item);
    }
    return m_labels[index];
}

void ParameterChartView::fillAxisRect(QCPAxisRect* rect, const std::vector<ParameterBar>& bars,
                                      const std::vector<std::vector<Segment>>& segments,
                                      const std::vector<QString>& labels) {
    QCPAxis* keyAxis = rect->axis(QCPAxis::atLeft);
    QCPAxis* valueAxis = rect->axis(QCPAxis::atBottom);
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(keyAxis->ticker());
    ticker->clear();
    std::uint64_t longest = 1;
    for (std::size_t i = 0; i < bars.size(); ++i) {
        ticker->addTick(static_cast<double>(i), bars[i].label);
        longest = std::max(longest, bars[i].total);
    }
    keyAxis->setRange(-0.6, static_cast<double>(bars.size()) - 0.4);
    // Room on the right for the value labels.
    valueAxis->setRange(0, static_cast<double>(longest) * 1.38);
    const QColor muted = colors::muted(palette());
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const double key = static_cast<double>(i);
        for (const Segment& segment : segments[i]) {
            QCPItemRect* item = segmentItem(m_usedSegments++);
            item->setVisible(true);
            item->setClipAxisRect(rect);
            item->topLeft->setAxes(valueAxis, keyAxis);
            item->bottomRight->setAxes(valueAxis, keyAxis);
            item->topLeft->setCoords(segment.from, key - 0.34);
            item->bottomRight->setCoords(segment.to, key + 0.34);
            const QColor fill = segment.faded ? colors::faded(segment.color, 0.62, palette()) : segment.color;
            // Stored-apart parameters: a pale bar with a dashed outline, which every export keeps.
            item->setBrush(segment.hatched ? QBrush(colors::faded(segment.color, 0.8, palette())) : QBrush(fill));
            item->setPen(segment.hatched ? QPen(segment.color, 1, Qt::DashLine) : QPen(Qt::NoPen));
            m_toolTips.insert(item, segment.toolTip);
        }
        QCPItemText* label = labelItem(m_usedLabels++);
        label->setVisible(true);
        label->setClipAxisRect(rect);
        label->position->setAxes(valueAxis, keyAxis);
        label->position->setCoords(static_cast<double>(bars[i].total), key);
        label->setText(labels[i]);
        label->setColor(muted);
        label->setFont(font());
    }
}

void ParameterChartView::rebuild() {
    m_toolTips.clear();
    m_usedSegments = 0;
    m_usedLabels = 0;
    m_componentBars.clear();
    m_kindBars.clear();
    const QPalette pal = palette();
    const core::ParamReport& params = m_analysis->params;
    const bool valid = m_analysis->valid;
    const bool moe = valid && params.active < params.total;

    if (!valid) {
        m_title->setText(tr("Nothing to show: the configuration has errors."));
    } else if (moe) {
        m_title->setText(tr("Parameters: %1 total, %2 active per token (%3)")
                             .arg(approx(params.total), approx(params.active), percent(params.active, params.total)));
    } else {
        m_title->setText(tr("Parameters: %1 (%2), all active").arg(approx(params.total), exactText(params.total)));
    }
    m_componentTitle->setText(moe ? tr("By component: faded = routed experts a token skips") : tr("By component"));
    m_kindTitle->setText(tr("By layer kind: attention, feed-forward, norms (all layers of the kind)"));

    std::vector<std::vector<Segment>> componentSegments;
    std::vector<QString> componentLabels;
    std::vector<std::vector<Segment>> kindSegments;
    std::vector<QString> kindLabels;
    if (valid) {
        for (const core::ComponentParams& component : core::paramsByComponent(params)) {
            const QString name = qs(std::string(core::toString(component.component)));
            const QColor color = colors::component(component.component, pal);
            m_componentBars.push_back({name, component.total, component.active, false});
            QString tip = tr("%1\n%2 parameters (%3 of the total)")
                              .arg(name, exactText(component.total), percent(component.total, params.total));
            std::vector<Segment> segments;
            if (component.active < component.total) {
                tip += tr("\nactive per token: %1").arg(exactText(component.active));
                segments.push_back({0, double(component.active), color, false, false, tip});
                segments.push_back({double(component.active), double(component.total), color, true, false, tip});
                componentLabels.push_back(tr("%1, %2 active").arg(approx(component.total), approx(component.active)));
            } else {
                segments.push_back({0, double(component.total), color, false, false, tip});
                componentLabels.push_back(
                    QStringLiteral("%1 · %2").arg(approx(component.total), percent(component.total, params.total)));
            }
            componentSegments.push_back(std::move(segments));
        }
        if (params.extras.params > 0) {
            const QColor color = colors::muted(pal);
            const QString name = tr("Stored apart (MTP)");
            m_componentBars.push_back({name, params.extras.params, params.extras.params, true});
            componentSegments.push_back(
                {{0, double(params.extras.params), color, false, true,
                  tr("%1\n%2 parameters in the checkpoint, not in the total")
                      .arg(
                          qs(params.extras.children.empty() ? params.extras.name : params.extras.children.front().name),
                          exactText(params.extras.params))}});
            componentLabels.push_back(tr("%1, not counted").arg(approx(params.extras.params)));
        }

        for (const core::LayerKindParams& kind :
             core::paramsByLayerKind(m_analysis->config, m_analysis->plan, params)) {
            const QString name =
                QStringLiteral("%1 ×%2").arg(qs(kind.name)).arg(static_cast<qulonglong>(kind.layers.size()));
            m_kindBars.push_back({name, kind.total, kind.active, false});
            const QString head = tr("%1 (%2 layers, %3 each)")
                                     .arg(qs(kind.name))
                                     .arg(static_cast<qulonglong>(kind.layers.size()))
                                     .arg(exactText(kind.perLayer));
            const double attentionEnd = double(kind.mixer);
            const double ffnEnd = attentionEnd + double(kind.ffn);
            std::vector<Segment> segments;
            segments.push_back(
                {0, attentionEnd, colors::attention(kind.kind, pal), false, false,
                 tr("%1\n%2: %3").arg(head, qs(core::mixerName(kind.kind.mixer)), exactText(kind.mixer))});
            const QColor ffnColor = colors::ffn(kind.kind.ffn, pal);
            QString ffnTip = tr("%1\nfeed-forward: %2").arg(head, exactText(kind.ffn));
            if (kind.ffnActive < kind.ffn) {
                ffnTip += tr("\nactive per token: %1").arg(exactText(kind.ffnActive));
                segments.push_back(
                    {attentionEnd, attentionEnd + double(kind.ffnActive), ffnColor, false, false, ffnTip});
                segments.push_back({attentionEnd + double(kind.ffnActive), ffnEnd, ffnColor, true, false, ffnTip});
                kindLabels.push_back(tr("%1, %2 active").arg(approx(kind.total), approx(kind.active)));
            } else {
                segments.push_back({attentionEnd, ffnEnd, ffnColor, false, false, ffnTip});
                kindLabels.push_back(
                    QStringLiteral("%1 · %2").arg(approx(kind.total), percent(kind.total, params.total)));
            }
            segments.push_back({ffnEnd, ffnEnd + double(kind.norms), colors::component(core::Component::Norm, pal),
                                false, false, tr("%1\nnorms: %2").arg(head, exactText(kind.norms))});
            kindSegments.push_back(std::move(segments));
        }
    }
    fillAxisRect(m_componentRect, m_componentBars, componentSegments, componentLabels);
    fillAxisRect(m_kindRect, m_kindBars, kindSegments, kindLabels);
    for (std::size_t i = m_usedSegments; i < m_segments.size(); ++i) {
        m_segments[i]->setVisible(false);
    }
    for (std::size_t i = m_usedLabels; i < m_labels.size(); ++i) {
        m_labels[i]->setVisible(false);
    }
    const auto rows = [](std::size_t count) {
        return static_cast<double>(std::max<std::size_t>(count, 1)) + 1.2;
    };
    m_plot->plotLayout()->setRowStretchFactors(
        {0.001, 0.001, rows(m_componentBars.size()), 0.001, rows(m_kindBars.size())});
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ParameterChartView::showToolTip(const QPoint& position) {
    QCPAbstractItem* item = m_plot->itemAt(position, false);
    auto found = item ? m_toolTips.constFind(item) : m_toolTips.constEnd();
    if (found == m_toolTips.constEnd()) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(m_plot->mapToGlobal(position), *found, m_plot);
}

} // namespace archplay::ui::views
