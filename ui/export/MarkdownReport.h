// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/io/Files.h"
#include "core/report/ModelZoo.h"
#include "core/report/ReportText.h"
#include "ui/theme/Theme.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

namespace archplay::ui::exports {

/// How the Markdown report draws its figures.
struct MarkdownReportOptions {
    theme::ThemeMode theme = theme::ThemeMode::Light;
    std::optional<std::int64_t> layer; ///< the layer whose matrices are shown; absent: the default
    qreal scale = 2.0;                 ///< PNG pixels per device-independent pixel
    core::ReadOnlyTarget readOnly = core::ReadOnlyTarget::Refuse; ///< whether read-only files are replaced
    const core::ModelZoo* zoo = nullptr; ///< with a zoo: a section placing the design among its models
};

/// The folder the figures of the Markdown report `path` go in: "NAME_figures" beside "NAME.md".
QString markdownFiguresDir(const QString& path);

/// Writes the report as Markdown (core::reportMarkdown) to `path` and its figures as PNG files in
/// markdownFiguresDir(path), linked by relative paths. Every file is written atomically; the
/// Markdown last, so it never links a figure that is missing. `written` (optional) receives every
/// file written.
[[nodiscard]] core::Status exportMarkdownReport(const core::Analysis& analysis, const core::ReportInfo& info,
                                                const MarkdownReportOptions& options, const QString& path,
                                                QStringList* written = nullptr);

} // namespace archplay::ui::exports
