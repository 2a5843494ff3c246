// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/DerivationView.h"

#include "ui/views/ViewColors.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPaintEvent>
#include <QPainter>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>

namespace archplay::ui::views {
namespace {

constexpr int kMargin = 18;

} // namespace

/// The scrolled page: paints the laid-out document, only the exposed part.
class DerivationView::Canvas : public QWidget {
public:
    explicit Canvas(DerivationView* view)
        : QWidget(nullptr)
        , m_view(view) {
        setAttribute(Qt::WA_OpaquePaintEvent);
    }

protected:
    void paintEvent(QPaintEvent* event) override {
        QPainter painter(this);
        m_view->paintCanvas(painter, event->rect());
    }
    void contextMenuEvent(QContextMenuEvent* event) override {
        QMenu menu(this);
        menu.addAction(m_view->m_copyLatex);
        menu.addAction(m_view->m_copyMarkdown);
        menu.exec(event->globalPos());
    }

private:
    DerivationView* m_view;
};

DerivationView::DerivationView(QWidget* parent)
    : AnalysisView(parent)
    , m_scroll(new QScrollArea(this))
    , m_canvas(new Canvas(this))
    , m_copyLatex(new QAction(tr("Copy as LaTeX"), this))
    , m_copyMarkdown(new QAction(tr("Copy as Markdown"), this)) {
    m_copyLatex->setToolTip(tr("The whole derivation as LaTeX (amsmath, amssymb)"));
    m_copyMarkdown->setToolTip(tr("The whole derivation as Markdown with $…$ and $$…$$ maths"));
    connect(m_copyLatex, &QAction::triggered, this, [this] { QApplication::clipboard()->setText(latex()); });
    connect(m_copyMarkdown, &QAction::triggered, this, [this] { QApplication::clipboard()->setText(markdown()); });
    addAction(m_copyLatex);
    addAction(m_copyMarkdown);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(14, 8, 14, 4);
    auto* note = new QLabel(tr("The forward pass of the current config, every shape substituted; one section per layer "
                               "kind."),
                            this);
    note->setForegroundRole(QPalette::PlaceholderText);
    bar->addWidget(note, 1);
    for (QAction* action : {m_copyLatex, m_copyMarkdown}) {
        auto* button = new QToolButton(this);
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
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
    setMinimumSize(320, 240);
}

DerivationView::~DerivationView() = default;

void DerivationView::setSharedAnalysis(core::AnalysisPtr analysis) {
    m_analysis = std::move(analysis);
    m_dirty = true;
    if (isVisible()) {
        ensureBuilt();
        m_canvas->update();
    }
}

QString DerivationView::latex() const {
    ensureBuilt();
    return QString::fromStdString(core::toLatex(m_derivation));
}

QString DerivationView::markdown() const {
    ensureBuilt();
    return QString::fromStdString(core::toMarkdown(m_derivation));
}

const layout::DerivationDocument* DerivationView::document() const {
    ensureBuilt();
    return m_document.get();
}

void DerivationView::ensureBuilt() const {
    if (m_dirty) {
        m_dirty = false;
        // The document is a cache of the analysis; building it does not change what the view shows.
        const_cast<DerivationView*>(this)->rebuild();
    }
}

void DerivationView::rebuild() {
    m_derivation =
        m_analysis->valid ? core::deriveForwardPass(m_analysis->config, m_analysis->plan) : core::Derivation{};
    if (!m_typesetter) {
        m_typesetter = std::make_shared<const mathtext::MathTypesetter>(font());
    }
    m_document = std::make_unique<layout::DerivationDocument>(m_derivation, font(), m_typesetter);
    relayout();
}

void DerivationView::relayout() {
    if (!m_document) {
        return;
    }
    const int width = std::max(200, m_scroll->viewport()->width());
    m_blocks = m_document->layout(width - 2 * kMargin);
    const int height = static_cast<int>(layout::DerivationDocument::height(m_blocks)) + 2 * kMargin;
    m_canvas->resize(width, std::max(height, m_scroll->viewport()->height()));
    m_canvas->update();
}

void DerivationView::paintCanvas(QPainter& painter, const QRect& exposed) const {
    ensureBuilt();
    painter.fillRect(exposed, palette().color(QPalette::Base));
    if (!m_analysis->valid) {
        painter.setPen(colors::muted(palette()));
        painter.drawText(m_canvas->rect().adjusted(24, 24, -24, -24),
                         Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap,
                         tr("Nothing to derive: the configuration has errors."));
        return;
    }
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    m_document->paint(painter, m_blocks, QPointF(kMargin, kMargin), QRectF(exposed), palette());
}

void DerivationView::render(QPainter& painter, const QRectF& target) const {
    ensureBuilt();
    painter.save();
    painter.setClipRect(target, Qt::IntersectClip);
    painter.fillRect(target, palette().color(QPalette::Base));
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    if (m_analysis->valid) {
        m_document->paintFitted(painter, target.adjusted(kMargin, 14, -kMargin, -14), palette());
    } else {
        painter.setPen(colors::muted(palette()));
        painter.drawText(target.adjusted(24, 24, -24, -24), Qt::AlignCenter | Qt::TextWordWrap,
                         tr("Nothing to derive: the configuration has errors."));
    }
    painter.restore();
}

void DerivationView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange) {
        m_typesetter.reset();
        m_dirty = true;
    }
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        m_canvas->update();
    }
    AnalysisView::changeEvent(event);
}

void DerivationView::showEvent(QShowEvent* event) {
    AnalysisView::showEvent(event);
    ensureBuilt();
    relayout();
}

bool DerivationView::eventFilter(QObject* watched, QEvent* event) {
    // The page follows the viewport's width; its height follows the text.
    if (watched == m_scroll->viewport() && event->type() == QEvent::Resize && !m_dirty &&
        m_canvas->width() != m_scroll->viewport()->width()) {
        relayout();
    }
    return AnalysisView::eventFilter(watched, event);
}

} // namespace archplay::ui::views
