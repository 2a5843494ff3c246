// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/export/ReportComposer.h"

#include "ui/views/AnalysisView.h"
#include "ui/views/ViewColors.h"
#include "ui/views/charts/PlotSupport.h"
#include "ui/views/layout/DerivationDocument.h"

#include <QFontMetricsF>
#include <QPagedPaintDevice>
#include <QPainter>

#include <algorithm>

namespace archplay::ui::exports {
namespace {

constexpr qreal kCellPadX = 5;
constexpr qreal kCellPadY = 2.5;
constexpr qreal kIndent = 11;
constexpr int kWrap = Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop;

/// How a table cell's text is drawn: on one line when it fits, else wrapped at spaces, else (one long
/// word, a tensor name) wrapped anywhere, so that no cell is ever cut.
int cellFlags(const QString& text, const QFontMetricsF& metrics, qreal width) {
    if (metrics.horizontalAdvance(text) <= width) {
        return Qt::AlignTop;
    }
    const QRectF words = metrics.boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, text);
    return words.width() <= width + 0.5 ? Qt::TextWordWrap | Qt::AlignTop : Qt::TextWrapAnywhere | Qt::AlignTop;
}

qreal cellHeight(const QString& text, const QFont& font, qreal width) {
    const QFontMetricsF metrics(font);
    return metrics.boundingRect(QRectF(0, 0, width, 1e6), cellFlags(text, metrics, width), text).height();
}

/// `base` at `points`, without ligatures, so that text copied or extracted from the PDF reads "fi",
/// not "ﬁ": Qt shapes text without ligatures whenever letter spacing is set, and 1/64 of a
/// pixel (the smallest step Qt keeps) is invisible.
QFont sized(const QFont& base, qreal points, bool bold = false) {
    QFont font = base;
    font.setPointSizeF(points);
    font.setBold(bold);
    font.setLetterSpacing(QFont::AbsoluteSpacing, 1.0 / 64);
    return font;
}

} // namespace

ReportComposer::ReportComposer(const QRectF& page, const QRectF& content, const QPalette& palette, const QFont& base)
    : m_page(page)
    , m_content(content)
    , m_palette(palette)
    , m_body(sized(base, 9.5))
    , m_small(sized(base, 8))
    , m_table(sized(base, 8.5))
    , m_heading(sized(base, 13.5, true))
    , m_subheading(sized(base, 10.5, true))
    , m_title(sized(base, 22, true)) {}

ReportComposer::~ReportComposer() = default;

void ReportComposer::add(FlowItem flow, PaintFunction paint, int header) {
    m_blocks.push_back({flow, std::move(paint), header});
}

qreal ReportComposer::textHeight(const QString& text, const QFont& font, qreal width) const {
    return QFontMetricsF(font).boundingRect(QRectF(0, 0, width, 1e6), kWrap, text).height();
}

QColor ReportComposer::muted() const {
    return views::colors::muted(m_palette);
}

void ReportComposer::title(const QString& kicker, const QString& text, const QStringList& lines) {
    const qreal width = contentWidth();
    const qreal kickerHeight = QFontMetricsF(m_small).height();
    const qreal titleHeight = textHeight(text, m_title, width);
    const qreal lineHeight = QFontMetricsF(m_body).lineSpacing();
    const qreal height = kickerHeight + 4 + titleHeight + 8 + lineHeight * lines.size() + 10;
    add({height, 0, false, false, 0}, [=, this](QPainter& painter, const QRectF& rect) {
        qreal y = rect.top();
        painter.setFont(m_small);
        painter.setPen(muted());
        painter.drawText(QRectF(rect.left(), y, width, kickerHeight), Qt::AlignLeft | Qt::AlignVCenter, kicker);
        y += kickerHeight + 4;
        painter.setFont(m_title);
        painter.setPen(m_palette.color(QPalette::Text));
        painter.drawText(QRectF(rect.left(), y, width, titleHeight), kWrap, text);
        y += titleHeight + 8;
        painter.setFont(m_body);
        painter.setPen(muted());
        for (const QString& line : lines) {
            painter.drawText(QRectF(rect.left(), y, width, lineHeight), Qt::AlignLeft | Qt::AlignVCenter,
                             QFontMetricsF(m_body).elidedText(line, Qt::ElideRight, width));
            y += lineHeight;
        }
        painter.setPen(QPen(views::colors::rule(m_palette), 1.2));
        painter.drawLine(QPointF(rect.left(), rect.bottom() - 2), QPointF(rect.right(), rect.bottom() - 2));
    });
}

void ReportComposer::heading(const QString& text, bool newPage) {
    const QString label = QStringLiteral("%1  %2").arg(++m_sections).arg(text);
    const qreal height = textHeight(label, m_heading, contentWidth()) + 5;
    add({height, 20, true, newPage, 0}, [=, this](QPainter& painter, const QRectF& rect) {
        painter.setFont(m_heading);
        painter.setPen(m_palette.color(QPalette::Text));
        painter.drawText(rect.adjusted(0, 0, 0, -5), kWrap, label);
        painter.setPen(QPen(views::colors::rule(m_palette), 0.8));
        painter.drawLine(QPointF(rect.left(), rect.bottom() - 1), QPointF(rect.right(), rect.bottom() - 1));
    });
}

void ReportComposer::subheading(const QString& text) {
    const qreal height = textHeight(text, m_subheading, contentWidth());
    add({height, 12, true, false, 0}, [=, this](QPainter& painter, const QRectF& rect) {
        painter.setFont(m_subheading);
        painter.setPen(m_palette.color(QPalette::Text));
        painter.drawText(rect, kWrap, text);
    });
}

void ReportComposer::paragraph(const QString& text, bool isMuted) {
    const qreal height = textHeight(text, m_body, contentWidth());
    add({height, 7, false, false, 0}, [=, this](QPainter& painter, const QRectF& rect) {
        painter.setFont(m_body);
        painter.setPen(isMuted ? muted() : m_palette.color(QPalette::Text));
        painter.drawText(rect, kWrap, text);
    });
}

void ReportComposer::table(const std::vector<TableColumn>& columns, const std::vector<TableRow>& rows) {
    qreal total = 0;
    for (const TableColumn& column : columns) {
        total += column.width;
    }
    std::vector<qreal> lefts;
    std::vector<qreal> widths;
    qreal x = 0;
    for (const TableColumn& column : columns) {
        lefts.push_back(x);
        widths.push_back(contentWidth() * column.width / total);
        x += widths.back();
    }
    QFont bold = m_table;
    bold.setBold(true);
    const qreal line = QFontMetricsF(m_table).height();
    qreal titlesHeight = line;
    for (std::size_t c = 0; c < columns.size(); ++c) {
        titlesHeight = std::max(titlesHeight, cellHeight(columns[c].title, bold, widths[c] - 2 * kCellPadX));
    }
    const qreal headerHeight = titlesHeight + 2 * kCellPadY + 1;
    const int header = static_cast<int>(m_blocks.size());
    add({headerHeight, 8, true, false, 0}, [=, this](QPainter& painter, const QRectF& rect) {
        painter.fillRect(rect, views::colors::panel(m_palette));
        painter.setFont(bold);
        painter.setPen(m_palette.color(QPalette::Text));
        for (std::size_t c = 0; c < columns.size(); ++c) {
            const QRectF cell(rect.left() + lefts[c] + kCellPadX, rect.top(), widths[c] - 2 * kCellPadX, rect.height());
            painter.drawText(cell.adjusted(0, kCellPadY, 0, -kCellPadY),
                             int(columns[c].align) | cellFlags(columns[c].title, QFontMetricsF(bold), cell.width()),
                             columns[c].title);
        }
        painter.setPen(QPen(views::colors::rule(m_palette), 0.8));
        painter.drawLine(QPointF(rect.left(), rect.bottom()), QPointF(rect.right(), rect.bottom()));
    });
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const TableRow& row = rows[r];
        qreal height = line;
        QFont rowFont = m_table;
        rowFont.setBold(row.strong);
        for (std::size_t c = 0; c < columns.size() && c < static_cast<std::size_t>(row.cells.size()); ++c) {
            const qreal indent = c == 0 ? row.depth * kIndent : 0;
            height = std::max(height, cellHeight(row.cells[int(c)], rowFont, widths[c] - 2 * kCellPadX - indent));
        }
        height += 2 * kCellPadY;
        add(
            {height, 0, false, false, headerHeight},
            [=, this](QPainter& painter, const QRectF& rect) {
                if (r % 2 == 1) {
                    painter.fillRect(rect, m_palette.color(QPalette::AlternateBase));
                }
                QFont font = m_table;
                font.setBold(row.strong);
                painter.setFont(font);
                painter.setPen(row.muted ? muted() : m_palette.color(QPalette::Text));
                const QFontMetricsF metrics(font);
                for (std::size_t c = 0; c < columns.size() && c < static_cast<std::size_t>(row.cells.size()); ++c) {
                    const qreal indent = c == 0 ? row.depth * kIndent : 0;
                    const QRectF cell(rect.left() + lefts[c] + kCellPadX + indent, rect.top() + kCellPadY,
                                      widths[c] - 2 * kCellPadX - indent, rect.height() - 2 * kCellPadY);
                    // Never elided: a cell too long for its column wraps, at spaces when it can.
                    const QString& text = row.cells[int(c)];
                    painter.drawText(cell, int(columns[c].align) | cellFlags(text, metrics, cell.width()), text);
                }
                painter.setPen(QPen(views::colors::rule(m_palette), 0.4));
                painter.drawLine(QPointF(rect.left(), rect.bottom()), QPointF(rect.right(), rect.bottom()));
            },
            header);
    }
}

void ReportComposer::figure(const views::AnalysisView& view, const QSizeF& logical, const QString& caption) {
    const views::AnalysisView* drawn = &view;
    drawing([drawn](QPainter& painter, const QRectF& rect) { drawn->render(painter, rect); }, logical, caption);
}

void ReportComposer::chart(QCustomPlot& plot, const QSizeF& logical, const QString& caption) {
    QCustomPlot* drawn = &plot;
    drawing([drawn](QPainter& painter, const QRectF& rect) { views::plot::renderPlot(*drawn, painter, rect); }, logical,
            caption);
}

void ReportComposer::drawing(PaintFunction draw, const QSizeF& logical, const QString& caption) {
    const qreal scale = contentWidth() / logical.width();
    const qreal captionHeight = caption.isEmpty() ? 0 : textHeight(caption, m_small, contentWidth()) + 5;
    const qreal imageHeight = logical.height() * scale;
    const qreal pageHeight = m_content.height();
    // To finish a page rather than leave its bottom empty, a figure may be laid out shorter (down to
    // 55% of its height): the view lays itself out in the room it gets, at the same width and text size.
    FlowItem flow{imageHeight + captionHeight, 10, false, false, 0};
    flow.minHeight = imageHeight * 0.55 + captionHeight;
    add(flow, [=, this](QPainter& painter, const QRectF& rect) {
        const qreal room = std::min(rect.height(), pageHeight) - captionHeight;
        QSizeF laidOut = logical;
        qreal drawScale = scale;
        if (room < imageHeight * 0.55) {
            // Taller than a page even at its least height: scaled down as a whole.
            drawScale = room / logical.height();
        } else {
            laidOut.setHeight(std::min(logical.height(), room / scale));
        }
        const QSizeF size = laidOut * drawScale;
        const QRectF image(QPointF(rect.left() + (contentWidth() - size.width()) / 2, rect.top()), size);
        painter.save();
        painter.translate(image.topLeft());
        painter.scale(drawScale, drawScale);
        painter.setClipRect(QRectF(QPointF(0, 0), laidOut), Qt::IntersectClip);
        draw(painter, QRectF(QPointF(0, 0), laidOut));
        painter.restore();
        painter.setPen(QPen(views::colors::rule(m_palette), 0.8));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(image);
        if (!caption.isEmpty()) {
            painter.setFont(m_small);
            painter.setPen(muted());
            painter.drawText(QRectF(rect.left(), image.bottom() + 5, contentWidth(), captionHeight), kWrap, caption);
        }
    });
}

void ReportComposer::derivation(const views::layout::DerivationDocument& document) {
    const std::vector<views::layout::DocumentBlock> blocks = document.layout(contentWidth());
    const views::layout::DerivationDocument* source = &document;
    // The first block keeps a little air below the section heading's rule.
    qreal previousBottom = blocks.empty() ? 0 : blocks.front().rect.top() - 8;
    for (const views::layout::DocumentBlock& block : blocks) {
        FlowItem flow;
        flow.height = block.rect.height();
        flow.spaceBefore = std::max<qreal>(0, block.rect.top() - previousBottom);
        previousBottom = block.rect.bottom();
        // Titles and section headings stay with the paragraph below them.
        flow.keepWithNext = !block.texts.empty() && block.maths.empty() &&
                            std::all_of(block.texts.begin(), block.texts.end(),
                                        [](const views::layout::DocumentBlock::Text& text) { return text.font >= 2; });
        add(flow, [source, block, this](QPainter& painter, const QRectF& rect) {
            const QPointF offset(rect.left(), rect.top() - block.rect.top());
            source->paint(painter, {block}, offset, rect.adjusted(-40, -40, 40, 40), m_palette);
        });
    }
}

std::vector<FlowItem> ReportComposer::items() const {
    std::vector<FlowItem> flow;
    flow.reserve(m_blocks.size());
    for (const Block& block : m_blocks) {
        flow.push_back(block.flow);
    }
    return flow;
}

std::vector<FlowPlacement> ReportComposer::layout() const {
    return paginate(items(), m_content.height());
}

int ReportComposer::pageCount() const {
    return exports::pageCount(layout());
}

bool ReportComposer::paint(QPagedPaintDevice& device, const QString& footer) const {
    const std::vector<FlowPlacement> placements = layout();
    const int pages = exports::pageCount(placements);
    QPainter painter;
    if (!painter.begin(&device)) {
        return false;
    }
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    const QFontMetricsF footMetrics(m_small);
    const qreal footTop = m_content.bottom() + (m_page.bottom() - m_content.bottom() - footMetrics.height()) / 2;
    std::size_t next = 0;
    for (int page = 0; page < pages; ++page) {
        if (page > 0) {
            device.newPage();
        }
        painter.fillRect(m_page, m_palette.color(QPalette::Base));
        for (; next < m_blocks.size() && placements[next].page == page; ++next) {
            const Block& block = m_blocks[next];
            const FlowPlacement& placement = placements[next];
            if (placement.headerRepeated && block.header >= 0) {
                const Block& header = m_blocks[static_cast<std::size_t>(block.header)];
                painter.save();
                header.paint(painter, QRectF(m_content.left(), m_content.top(), m_content.width(), header.flow.height));
                painter.restore();
            }
            painter.save();
            block.paint(painter,
                        QRectF(m_content.left(), m_content.top() + placement.top, m_content.width(), placement.height));
            painter.restore();
        }
        painter.setFont(m_small);
        painter.setPen(muted());
        const QRectF foot(m_content.left(), footTop, m_content.width(), footMetrics.height());
        const QString number = QStringLiteral("Page %1 of %2").arg(page + 1).arg(pages);
        painter.drawText(foot, Qt::AlignRight | Qt::AlignVCenter, number);
        painter.drawText(
            foot.adjusted(0, 0, -footMetrics.horizontalAdvance(number) - 24, 0), Qt::AlignLeft | Qt::AlignVCenter,
            footMetrics.elidedText(footer, Qt::ElideRight, foot.width() - footMetrics.horizontalAdvance(number) - 24));
    }
    painter.end();
    return true;
}

} // namespace archplay::ui::exports
