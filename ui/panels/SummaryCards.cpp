// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/SummaryCards.h"

#include "ui/theme/Theme.h"
#include "ui/widgets/TextLines.h"

#include <QGridLayout>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QResizeEvent>
#include <QVBoxLayout>

namespace archplay::ui::panels {

namespace {

constexpr int kCardCount = 8;
constexpr int kCardMinimumWidth = 128;
constexpr int kPadding = 10;
constexpr int kDetailLines = 2; ///< the detail wraps rather than being cut

} // namespace

SummaryCard::SummaryCard(QWidget* parent)
    : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setFocusPolicy(Qt::NoFocus);
    // The frame's corners are filled with the background behind the card: painting a card does not
    // make Qt paint its parents under it (a drag repaints the changed cards, 80,000 pixels at
    // 2560x1440, and with transparent corners the dock and the window under them too).
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void SummaryCard::setContent(const CardContent& content) {
    if (content == m_content) {
        return; // most edits change a few cards; the others keep their pixels
    }
    m_content = content;
    setObjectName(QStringLiteral("card.") + content.id);
    setToolTip(content.toolTip.isEmpty() ? QString() : QStringLiteral("<p>%1</p>").arg(content.toolTip));
    setAccessibleName(content.title);
    setAccessibleDescription(content.value + QLatin1Char(' ') + content.detail);
    update();
}

QSize SummaryCard::minimumSizeHint() const {
    QFont title = font();
    title.setPointSizeF(font().pointSizeF() * 0.85);
    QFont value = font();
    value.setPointSizeF(font().pointSizeF() * 1.5);
    value.setBold(true);
    const int height =
        QFontMetrics(title).height() * (1 + kDetailLines) + QFontMetrics(value).height() + 2 * kPadding + 4;
    return {kCardMinimumWidth, height};
}

QSize SummaryCard::sizeHint() const {
    return minimumSizeHint() + QSize(40, 0);
}

const QPixmap& SummaryCard::frame() {
    const QPalette& pal = palette();
    const QColor background = theme::cardBackground(pal);
    const QColor border = theme::cardBorder(pal);
    const QWidget* behind = parentWidget();
    const QColor corners =
        behind != nullptr ? behind->palette().color(behind->backgroundRole()) : pal.color(QPalette::Window);
    const qreal ratio = devicePixelRatioF();
    const QSize pixels = (QSizeF(size()) * ratio).toSize();
    if (m_frame.size() != pixels || m_frame.devicePixelRatio() != ratio || m_frameColors[0] != background.rgba() ||
        m_frameColors[1] != border.rgba() || m_frameColors[2] != corners.rgba()) {
        m_frame = QPixmap(pixels);
        m_frame.setDevicePixelRatio(ratio);
        m_frame.fill(corners);
        QPainter painter(&m_frame);
        painter.setRenderHint(QPainter::Antialiasing);
        QPainterPath path;
        path.addRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
        painter.fillPath(path, background);
        painter.setPen(QPen(border, 1));
        painter.drawPath(path);
        m_frameColors[0] = background.rgba();
        m_frameColors[1] = border.rgba();
        m_frameColors[2] = corners.rgba();
    }
    return m_frame;
}

void SummaryCard::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.drawPixmap(0, 0, frame());
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();

    QFont titleFont = font();
    titleFont.setPointSizeF(font().pointSizeF() * 0.85);
    QFont valueFont = font();
    valueFont.setPointSizeF(font().pointSizeF() * 1.5);
    valueFont.setBold(true);
    const widgets::TextMetrics titleMetrics(titleFont);
    const widgets::TextMetrics valueMetrics(valueFont);
    const int titleLine = QFontMetrics(titleFont).height();
    const int valueLine = QFontMetrics(valueFont).height();
    const int width = rect().width() - 2 * kPadding;
    qreal y = kPadding;

    painter.setFont(titleFont);
    painter.setPen(theme::mutedText(pal));
    widgets::drawShaped(painter, QRectF(kPadding, y, width, titleLine), Qt::AlignLeft | Qt::AlignVCenter,
                        widgets::fitted(titleMetrics, m_content.title, width));
    y += titleLine + 2;

    painter.setFont(valueFont);
    painter.setPen(pal.color(QPalette::Text));
    widgets::drawShaped(painter, QRectF(kPadding, y, width, valueLine), Qt::AlignLeft | Qt::AlignVCenter,
                        widgets::fitted(valueMetrics, m_content.value, width));
    y += valueLine + 2;

    QColor detailColor = theme::mutedText(pal);
    switch (m_content.tone) {
    case CardContent::Tone::Good:
        detailColor = theme::goodColor(pal);
        break;
    case CardContent::Tone::Caution:
        detailColor = theme::cautionColor(pal);
        break;
    case CardContent::Tone::Bad:
        detailColor = theme::severityColor(core::Severity::Error, pal);
        break;
    case CardContent::Tone::Normal:
        break;
    }
    painter.setFont(titleFont);
    painter.setPen(detailColor);
    widgets::drawLines(painter, widgets::wrapLines(m_content.detail, titleFont, width, kDetailLines), kPadding, y,
                       width, titleLine);
}

SummaryCards::SummaryCards(QWidget* parent)
    : QWidget(parent)
    , m_origin(new QLabel(this))
    , m_grid(new QGridLayout) {
    m_origin->setObjectName(QStringLiteral("summary.origin"));
    m_origin->setTextFormat(Qt::RichText);
    m_origin->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_origin->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 6);
    layout->setSpacing(4);
    layout->addWidget(m_origin);
    layout->addLayout(m_grid);
    m_grid->setSpacing(6);
    for (int i = 0; i < kCardCount; ++i) {
        m_cards.push_back(new SummaryCard(this));
    }
    arrange(kCardCount);
}

const SummaryCard* SummaryCards::card(const QString& id) const {
    for (const SummaryCard* card : m_cards) {
        if (card->content().id == id) {
            return card;
        }
    }
    return nullptr;
}

void SummaryCards::setAnalysis(const core::AnalysisPtr& analysis) {
    m_analysis = analysis;
    refresh();
}

void SummaryCards::setOrigin(const session::OriginSummary& origin) {
    m_originSummary = origin;
    m_origin->setText(originText(origin));
    refresh();
}

void SummaryCards::refresh() {
    const std::vector<CardContent> contents = summaryCards(*m_analysis, m_originSummary);
    for (std::size_t i = 0; i < contents.size() && i < m_cards.size(); ++i) {
        m_cards[i]->setContent(contents[i]);
    }
}

void SummaryCards::arrange(int columns) {
    if (columns == m_columns) {
        return;
    }
    m_columns = columns;
    for (SummaryCard* card : m_cards) {
        m_grid->removeWidget(card);
    }
    for (int i = 0; i < int(m_cards.size()); ++i) {
        m_grid->addWidget(m_cards[std::size_t(i)], i / columns, i % columns);
    }
    for (int c = 0; c < kCardCount; ++c) {
        m_grid->setColumnStretch(c, c < columns ? 1 : 0);
    }
}

void SummaryCards::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    const int available = event->size().width() - 16;
    const int perCard = kCardMinimumWidth + m_grid->horizontalSpacing();
    arrange(available >= kCardCount * perCard ? kCardCount : kCardCount / 2);
}

} // namespace archplay::ui::panels
