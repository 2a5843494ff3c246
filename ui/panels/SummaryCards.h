// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "ui/session/ModelBridge.h"

#include <QPixmap>
#include <QWidget>

#include <vector>

class QGridLayout;
class QLabel;

namespace archplay::ui::panels {

/// What one card says. Tone colours the detail line: a match badge is good, a mismatch cautions.
struct CardContent {
    enum class Tone { Normal, Good, Caution, Bad };
    QString id; ///< the core summary row it shows: "total_params", "kv_bytes_per_token", "weight_bytes", ...
    QString title;
    QString value;   ///< short, with units
    QString detail;  ///< one line under the value
    QString toolTip; ///< the exact integers
    Tone tone = Tone::Normal;

    bool operator==(const CardContent&) const = default;
};

/// The cards for an analysis, in display order. Pure: formats numbers the core computed.
std::vector<CardContent> summaryCards(const core::Analysis& analysis, const session::OriginSummary& origin);
/// The line above the cards: where the config came from and whether it was edited.
QString originText(const session::OriginSummary& origin);

/// One painted card: a small title, a large value, a detail line.
class SummaryCard : public QWidget {
    Q_OBJECT

public:
    explicit SummaryCard(QWidget* parent = nullptr);
    void setContent(const CardContent& content);
    const CardContent& content() const { return m_content; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    /// The card's rounded frame at this size and palette, drawn once: tracing its antialiased
    /// outline was most of a card's repaint. Its corners take the colour behind the card.
    const QPixmap& frame();

    CardContent m_content;
    QPixmap m_frame;
    QRgb m_frameColors[3] = {0, 0, 0};
};

/// The row of summary cards along the top of the window, with the origin line above them.
class SummaryCards : public QWidget {
    Q_OBJECT

public:
    explicit SummaryCards(QWidget* parent = nullptr);

    /// The card with this id, or nullptr (tests read its content).
    const SummaryCard* card(const QString& id) const;
    QLabel* originLabel() const { return m_origin; }

public slots:
    void setAnalysis(const core::AnalysisPtr& analysis);
    void setOrigin(const archplay::ui::session::OriginSummary& origin);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void refresh();
    void arrange(int columns);

    QLabel* m_origin;
    QGridLayout* m_grid;
    std::vector<SummaryCard*> m_cards;
    core::AnalysisPtr m_analysis = std::make_shared<const core::Analysis>();
    session::OriginSummary m_originSummary;
    int m_columns = 0;
};

} // namespace archplay::ui::panels
