// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/report/ModelZoo.h"
#include "core/report/ReportText.h"
#include "ui/theme/Theme.h"

#include <QByteArray>
#include <QPageSize>
#include <QString>

#include <cstdint>
#include <optional>

namespace archplay::ui::exports {

/// How a paged report is made.
struct ReportOptions {
    QPageSize::PageSizeId paper = QPageSize::A4;      ///< A4 or Letter
    theme::ThemeMode theme = theme::ThemeMode::Light; ///< Light for print; System: the window's palette
    std::optional<std::int64_t> layer;                ///< the layer whose matrices are shown; absent: the default
    const core::ModelZoo* zoo = nullptr;              ///< with a zoo: a section placing the design among its models
};

/// A PDF made in memory.
struct PdfResult {
    QByteArray pdf;
    int pages = 0;
    QString error; ///< set when `pdf` is empty
};

/// US Letter where the locale measures in US units, else A4.
QPageSize::PageSizeId defaultPaper();

/// The full report as one PDF: title (the config's name, origin and date), configuration, summary,
/// parameter breakdown (chart and exact table), layer stack, one layer's matrices, attention masks,
/// KV cache (figures, table and chart), MoE routing for MoE models, diagnostics, the forward-pass
/// derivation, the preset's source and the counting convention. Figures are the live views drawn
/// through render() (vector, real text); every page carries "Page N of M".
PdfResult reportPdf(const core::Analysis& analysis, const core::ReportInfo& info, const ReportOptions& options);

/// The forward-pass derivation alone, paged, with the same title block and page numbers.
PdfResult derivationPdf(const core::Analysis& analysis, const core::ReportInfo& info, const ReportOptions& options);

} // namespace archplay::ui::exports
