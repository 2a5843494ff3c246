// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Saving what the design window shows: its charts as PNG, SVG or PDF with a caption, its tables as
// the text core writes (CSV, Markdown, JSON, LaTeX). Every file is written atomically.

#include "core/report/Exports.h"

#include <QByteArray>
#include <QString>

#include <functional>

class QCustomPlot;
class QToolButton;
class QWidget;

namespace archplay::ui::design {

/// A chart to save: the plot and the caption drawn under it (the models and the scenario).
struct ChartFigure {
    QCustomPlot* plot = nullptr;
    QString caption;
};

/// The chart's bytes as PNG, SVG or PDF at 1600 x 1000 (a slide), the caption under the plot; empty
/// with `error` set when drawing failed or the format is not a picture.
[[nodiscard]] QByteArray chartBytes(const ChartFigure& figure, core::ExportFormat format, QString* error);

/// The file filter of a format for a file dialog: "PNG image (*.png)".
[[nodiscard]] QString formatFilter(core::ExportFormat format);

/// Asks for a file (through `chooseFile` when set, for tests; else a file dialog) and writes
/// `bytes()` to it atomically. Returns a message for the status line: where it went, or why not;
/// empty when the user cancelled.
using ChooseFile = std::function<QString(const QString& caption, const QString& suggested, const QString& filter)>;
[[nodiscard]] QString saveWithDialog(QWidget* parent, const ChooseFile& chooseFile, const QString& what,
                                     const QString& fileName, core::ExportFormat format,
                                     const std::function<QByteArray(QString* error)>& bytes);

/// saveWithDialog() of a chart: the file is `baseName` with the format's extension ("sweep.svg").
[[nodiscard]] QString saveChart(QWidget* parent, const ChooseFile& chooseFile, const QString& what,
                                const QString& baseName, const ChartFigure& figure, core::ExportFormat format);

/// The pages' Export button: a tool button whose menu (button->menu()) the page fills.
[[nodiscard]] QToolButton* exportButton(QWidget* parent);

} // namespace archplay::ui::design
