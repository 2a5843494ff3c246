// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/export/ReportLayout.h"

#include <QFont>
#include <QPalette>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <vector>

class QCustomPlot;
class QPagedPaintDevice;
class QPainter;

namespace archplay::ui::views {
class AnalysisView;
}
namespace archplay::ui::views::layout {
class DerivationDocument;
}

namespace archplay::ui::exports {

/// A column of a report table.
struct TableColumn {
    QString title;
    qreal width = 1;                     ///< share of the table's width (normalised over the columns)
    Qt::Alignment align = Qt::AlignLeft; ///< a cell too long for its column wraps; none is ever cut
};

/// One row of a report table: its cells and how deep its first cell is indented (a tree).
struct TableRow {
    QStringList cells;
    int depth = 0;
    bool strong = false; ///< drawn bold (a total)
    bool muted = false;  ///< drawn muted (not counted)
};

/// Lays a report out as a flow of blocks (title, headings, paragraphs, table rows, figures,
/// typeset derivation) on pages of one size, then paints them with page numbers. Blocks are
/// measured when added and placed by paginate(), so the page count is known before painting.
/// Units: device-independent pixels at exportDpi(); fonts in points.
class ReportComposer {
public:
    /// `page` is the whole page, `content` the area inside its margins, both in pixels.
    ReportComposer(const QRectF& page, const QRectF& content, const QPalette& palette, const QFont& base);
    ~ReportComposer();

    qreal contentWidth() const { return m_content.width(); }
    const QFont& bodyFont() const { return m_body; }

    /// The report's title block: a small kicker line, the title, and muted lines under it.
    void title(const QString& kicker, const QString& title, const QStringList& lines);
    /// A numbered section heading, kept with what follows; `newPage` starts it on a fresh page.
    void heading(const QString& text, bool newPage = false);
    /// A smaller heading inside a section.
    void subheading(const QString& text);
    void paragraph(const QString& text, bool muted = false);
    /// A table; its header is drawn again on every page it continues on.
    void table(const std::vector<TableColumn>& columns, const std::vector<TableRow>& rows);
    /// A view drawn through render() at `logical` size, scaled to the content width, with a caption.
    /// To finish a page it may be laid out shorter, down to 55% of its height, at the same width and
    /// text size (the view lays itself out in the room). The view must outlive paint().
    void figure(const views::AnalysisView& view, const QSizeF& logical, const QString& caption);
    /// A QCustomPlot chart as figure() places a view. The plot must outlive paint().
    void chart(QCustomPlot& plot, const QSizeF& logical, const QString& caption);
    /// The typeset derivation, one block per paragraph or equation. The document must outlive paint().
    void derivation(const views::layout::DerivationDocument& document);

    /// Where every block goes: one placement per block, in order.
    std::vector<FlowPlacement> layout() const;
    int pageCount() const;
    /// Paints every page onto `device` (newPage() between pages), with "`footer`" on the left of each
    /// page's foot and "Page N of M" on the right. False when the painter could not start.
    bool paint(QPagedPaintDevice& device, const QString& footer) const;

    /// The blocks' flow items, for tests.
    std::vector<FlowItem> items() const;

private:
    using PaintFunction = std::function<void(QPainter&, const QRectF&)>;
    struct Block {
        FlowItem flow;
        PaintFunction paint;
        int header = -1; ///< index of the table header block to repeat above this row
    };
    void add(FlowItem flow, PaintFunction paint, int header = -1);
    /// A figure whose `draw` paints it at its laid-out size from (0, 0).
    void drawing(PaintFunction draw, const QSizeF& logical, const QString& caption);
    qreal textHeight(const QString& text, const QFont& font, qreal width) const;
    QColor muted() const;

    QRectF m_page;
    QRectF m_content;
    QPalette m_palette;
    QFont m_body;
    QFont m_small;
    QFont m_table;
    QFont m_heading;
    QFont m_subheading;
    QFont m_title;
    std::vector<Block> m_blocks;
    int m_sections = 0;
};

} // namespace archplay::ui::exports
