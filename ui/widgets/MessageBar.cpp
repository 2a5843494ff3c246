// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/MessageBar.h"

#include "ui/theme/Theme.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QTimer>
#include <QToolButton>

namespace archplay::ui::widgets {

namespace {

core::Severity severityOf(MessageBar::Level level) {
    switch (level) {
    case MessageBar::Level::Error:
        return core::Severity::Error;
    case MessageBar::Level::Warning:
        return core::Severity::Warning;
    case MessageBar::Level::Info:
        break;
    }
    return core::Severity::Hint;
}

} // namespace

MessageBar::MessageBar(QWidget* parent)
    : QWidget(parent)
    , m_icon(new QLabel(this))
    , m_text(new QLabel(this))
    , m_close(new QToolButton(this))
    , m_timer(new QTimer(this)) {
    setObjectName(QStringLiteral("messageBar"));
    m_text->setObjectName(QStringLiteral("messageBar.text"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_close->setText(QStringLiteral("✕"));
    m_close->setAutoRaise(true);
    m_close->setToolTip(tr("Close (Esc)"));
    m_close->setAccessibleName(tr("Close message"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    layout->setSpacing(8);
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &QWidget::hide);
    connect(m_close, &QToolButton::clicked, this, &QWidget::hide);
    hide();
}

QStringList MessageBar::capped(const QStringList& lines) {
    if (lines.size() <= kMaxDetails) {
        return lines;
    }
    QStringList shown = lines.mid(0, kMaxDetails - 1);
    shown << tr("... and %n more", nullptr, int(lines.size() - shown.size()));
    return shown;
}

void MessageBar::showMessage(Level level, const QString& text, const QStringList& allDetails) {
    const QStringList details = capped(allDetails);
    m_level = level;
    const int iconSize = fontMetrics().height();
    m_icon->setPixmap(theme::severityIcon(severityOf(level)).pixmap(QSize(iconSize, iconSize), devicePixelRatioF()));
    QString html = text.toHtmlEscaped();
    if (!details.isEmpty()) {
        html += QStringLiteral("<ul style=\"margin-top:2px; margin-bottom:0px; -qt-list-indent:1;\">");
        for (const QString& detail : details) {
            html += QStringLiteral("<li>%1</li>").arg(detail.toHtmlEscaped());
        }
        html += QStringLiteral("</ul>");
    }
    m_text->setText(html);
    m_text->setAccessibleDescription(text + QLatin1Char(' ') + details.join(QLatin1Char(' ')));
    show();
    update();
    if (level == Level::Info) {
        m_timer->start(6000);
    } else {
        m_timer->stop();
    }
}

QString MessageBar::text() const {
    return m_text->accessibleDescription();
}

void MessageBar::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    QColor accent = theme::severityColor(severityOf(m_level), palette());
    QColor fill = accent;
    fill.setAlpha(theme::isDark(palette()) ? 50 : 30);
    const QRectF box = QRectF(rect()).adjusted(1, 1, -1, -1);
    painter.setPen(QPen(accent, 1));
    painter.setBrush(fill);
    painter.drawRoundedRect(box, 5, 5);
}

void MessageBar::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape) {
        hide();
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace archplay::ui::widgets
