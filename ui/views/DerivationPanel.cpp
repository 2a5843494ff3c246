// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/DerivationPanel.h"

#include "ui/Strings.h"
#include "ui/views/ViewColors.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPaintEvent>
#include <QPainter>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>

namespace archplay::ui::views {
/// The scrolled page: paints the laid-out document, only the exposed part.
class DerivationPanel::Canvas : public QWidget {
public:
    explicit Canvas(DerivationPanel* panel)
        : QWidget(nullptr)
        , m_panel(panel) {
        setAttribute(Qt::WA_OpaquePaintEvent);
    }

protected:
    void paintEvent(QPaintEvent* event) override {
        QPainter painter(this);
        m_panel->paintCanvas(painter, event->rect());
    }
    void contextMenuEvent(QContextMenuEvent* event) override {
        QMenu menu(this);
        menu.addAction(m_panel->m_copyLatex);
        menu.addAction(m_panel->m_copyMarkdown);
        menu.exec(event->globalPos());
    }

private:
    DerivationPanel* m_panel;
};

DerivationPanel::DerivationPanel(QWidget* parent, const QString& note)
    : QWidget(parent)
    , m_scroll(new QScrollArea(this))
    , m_canvas(new Canvas(this))
    , m_copyLatex(new QAction(tr("Copy as LaTeX"), this))
    , m_copyMarkdown(new QAction(tr("Copy as Markdown"), this)) {
    m_copyLatex->setToolTip(tr("The explanation as LaTeX (amsmath, amssymb)"));
    m_copyMarkdown->setToolTip(tr("The explanation as Markdown with $…$ and $$…$$ maths"));
    connect(m_copyLatex, &QAction::triggered, this, [this] { QApplication::clipboard()->setText(latex()); });
    connect(m_copyMarkdown, &QAction::triggered, this, [this] { QApplication::clipboard()->setText(markdown()); });
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(kMargin, note.isEmpty() ? 0 : 8, kMargin, note.isEmpty() ? 0 : 4);
    if (note.isEmpty()) {
        bar->addStretch(1);
    } else {
        auto* label = new QLabel(note, this);
        label->setForegroundRole(QPalette::PlaceholderText);
        bar->addWidget(label, 1);
    }
    for (QAction* action : {m_copyLatex, m_copyMarkdown}) {
        auto* button = new QToolButton(this);
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        button->setAutoRaise(true);
        bar->addWidget(button);
    }
    m_scroll->setWidget(m_canvas);
    m_scroll->setWidgetResizable(false);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->viewport()->installEventFilter(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_scroll, 1);
}

DerivationPanel::~DerivationPanel() = default;

void DerivationPanel::setDerivation(core::Derivation derivation) {
    m_nothing.clear();
    m_derivation = std::move(derivation);
    m_blocks.clear(); // they point into the document
    m_document.reset();
    if (isVisible()) {
        relayout();
    }
}

void DerivationPanel::showNothing(const QString& why) {
    setDerivation({});
    m_nothing = why;
    m_canvas->update();
}

QString DerivationPanel::latex() const {
    return qs(core::toLatex(m_derivation));
}

QString DerivationPanel::markdown() const {
    return qs(core::toMarkdown(m_derivation));
}

const layout::DerivationDocument& DerivationPanel::document() const {
    if (!m_typesetter) {
        m_typesetter = std::make_shared<const mathtext::MathTypesetter>(font());
    }
    if (!m_document) {
        m_document = std::make_unique<layout::DerivationDocument>(m_derivation, font(), m_typesetter);
    }
    return *m_document;
}

void DerivationPanel::relayout() {
    const int width = std::max(200, m_scroll->viewport()->width());
    m_blocks = document().layout(width - 2 * kMargin);
    const int height = static_cast<int>(layout::DerivationDocument::height(m_blocks)) + 2 * kMargin;
    m_canvas->resize(width, std::max(height, m_scroll->viewport()->height()));
    m_canvas->update();
}

void DerivationPanel::paintCanvas(QPainter& painter, const QRect& exposed) const {
    painter.fillRect(exposed, palette().color(QPalette::Base));
    if (!m_nothing.isEmpty()) {
        painter.setPen(colors::muted(palette()));
        painter.drawText(m_canvas->rect().adjusted(24, 24, -24, -24),
                         Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, m_nothing);
        return;
    }
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    document().paint(painter, m_blocks, QPointF(kMargin, kMargin), QRectF(exposed), palette());
}

void DerivationPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange) {
        m_typesetter.reset();
        m_blocks.clear();
        m_document.reset();
        if (isVisible()) {
            relayout();
        }
    }
    if (event->type() == QEvent::PaletteChange) {
        m_canvas->update();
    }
    QWidget::changeEvent(event);
}

void DerivationPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    relayout();
}

bool DerivationPanel::eventFilter(QObject* watched, QEvent* event) {
    // The page follows the viewport's width; its height follows the text.
    if (watched == m_scroll->viewport() && event->type() == QEvent::Resize && isVisible() &&
        m_canvas->width() != m_scroll->viewport()->width()) {
        relayout();
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace archplay::ui::views
