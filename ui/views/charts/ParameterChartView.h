// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/views/AnalysisView.h"

#include <QHash>
#include <QString>

#include <cstdint>
#include <vector>

class QCPAbstractItem;
class QCPAxisRect;
class QCPItemRect;
class QCPItemText;
class QCPTextElement;
class QCustomPlot;

namespace archplay::ui::views {

/// One horizontal bar of the parameter chart, as drawn.
struct ParameterBar {
    QString label;            ///< the category on the axis
    std::uint64_t total = 0;  ///< bar length. Units: parameters
    std::uint64_t active = 0; ///< solid part; the rest is drawn faded (experts a token skips)
    bool storedApart = false; ///< not in the total (DeepSeek-V3's MTP module), hatched
};

/// Where the parameters sit: a QCustomPlot chart by component (embeddings, attention, FFN or
/// experts, norms, output head, extras) and by layer kind (stacked attention / FFN / norms), with
/// total versus active for MoE and exact values on hover.
class ParameterChartView : public AnalysisView {
    Q_OBJECT

public:
    explicit ParameterChartView(QWidget* parent = nullptr);
    ~ParameterChartView() override;

    core::ViewKind kind() const override { return core::ViewKind::ParameterChart; }
    QString title() const override { return tr("Parameter chart"); }
    QString tabTitle() const override { return tr("Chart"); }
    void setSharedAnalysis(core::AnalysisPtr analysis) override;
    void render(QPainter& painter, const QRectF& target) const override;

    QCustomPlot* plot() const { return m_plot; }
    /// The bars of the component chart and of the layer-kind chart, top to bottom.
    const std::vector<ParameterBar>& componentBars() const;
    const std::vector<ParameterBar>& kindBars() const;

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    struct Segment {
        double from = 0;
        double to = 0;
        QColor color;
        bool faded = false;
        bool hatched = false;
        QString toolTip;
    };
    void ensureBuilt() const;
    void rebuild();
    void applyColors();
    void fillAxisRect(QCPAxisRect* rect, const std::vector<ParameterBar>& bars,
                      const std::vector<std::vector<Segment>>& segments, const std::vector<QString>& labels);
    QCPItemRect* segmentItem(std::size_t index);
    QCPItemText* labelItem(std::size_t index);
    void showToolTip(const QPoint& position);

    QCustomPlot* m_plot;
    QCPTextElement* m_title;
    QCPTextElement* m_componentTitle;
    QCPTextElement* m_kindTitle;
    QCPAxisRect* m_componentRect;
    QCPAxisRect* m_kindRect;
    std::vector<QCPItemRect*> m_segments;
    std::vector<QCPItemText*> m_labels;
    std::size_t m_usedSegments = 0;
    std::size_t m_usedLabels = 0;
    QHash<QCPAbstractItem*, QString> m_toolTips;
    std::vector<ParameterBar> m_componentBars;
    std::vector<ParameterBar> m_kindBars;
    core::AnalysisPtr m_analysis = std::make_shared<const core::Analysis>();
    mutable bool m_dirty = true;
};

} // namespace archplay::ui::views
