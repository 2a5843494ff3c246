// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/io/Files.h"
#include "core/report/Exports.h"
#include "core/report/ReportText.h"
#include "ui/theme/Theme.h"

#include <QPageSize>
#include <QSize>
#include <QString>

#include <cstdint>
#include <optional>

namespace archplay::ui::exports {

/// One export of an analysis, as the command line asks for it.
struct ExportRequest {
    core::ExportWhat what = core::ExportWhat::Report;
    core::ExportFormat format = core::ExportFormat::Pdf;
    QString path;
    QSize size;                 ///< figure size; empty: defaultFigureSize(what)
    std::optional<qreal> scale; ///< PNG pixels per device-independent pixel; absent: 1 for
                                ///< figures, 2 for the Markdown report's figures
    theme::ThemeMode theme = theme::ThemeMode::Light;
    QPageSize::PageSizeId paper = QPageSize::A4; ///< paged PDFs
    std::optional<std::int64_t> layer;           ///< position in the plan; absent: the views' default
    core::ReportInfo info;
    core::ReadOnlyTarget readOnly = core::ReadOnlyTarget::Refuse; ///< whether read-only files are replaced
    bool zoo = false; ///< a report places the design among the built-in presets (core::modelZoo())
};

/// 1280x800 for figures; 1280x1600 for the derivation, which is long.
QSize defaultFigureSize(core::ExportWhat what);

/// Writes `request` for `analysis` from a private set of offscreen views (OffscreenViews): figures
/// through the views' render(), the paged PDFs through ReportBuilder, the Markdown report with its
/// PNG figures, text through core::exportText(). Needs a QApplication. A failure says why (the
/// combination makes no sense, the drawing or the write failed).
[[nodiscard]] core::Status exportAnalysis(const core::Analysis& analysis, const ExportRequest& request);

} // namespace archplay::ui::exports
