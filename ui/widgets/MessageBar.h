// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QLabel;
class QTimer;
class QToolButton;

namespace archplay::ui::widgets {

/// An inline notice above the views (a failed open, a save error, import notes): never modal,
/// so headless runs and tests are not blocked, and closed with its button or Esc.
class MessageBar : public QWidget {
    Q_OBJECT

public:
    enum class Level { Info, Warning, Error };

    explicit MessageBar(QWidget* parent = nullptr);

    /// The most detail lines a notice lists; the rest are summarised in one line.
    static constexpr int kMaxDetails = 8;
    /// `lines` capped at kMaxDetails, the rest as "... and N more": a file with thousands of problems
    /// must not grow a notice or a dialog beyond the screen.
    static QStringList capped(const QStringList& lines);

    /// Shows `text` (plain text; `details`, capped(), become a list below it). Info notices close
    /// themselves.
    void showMessage(Level level, const QString& text, const QStringList& details = {});
    QString text() const;
    Level level() const { return m_level; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    QLabel* m_icon;
    QLabel* m_text;
    QToolButton* m_close;
    QTimer* m_timer;
    Level m_level = Level::Info;
};

} // namespace archplay::ui::widgets
