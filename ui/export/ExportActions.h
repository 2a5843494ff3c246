// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/report/Exports.h"
#include "core/report/ReportText.h"
#include "core/util/Status.h"
#include "ui/export/ExportDialog.h"
#include "ui/views/Views.h"

#include <QObject>
#include <QPageSize>
#include <QString>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

class QAction;
class QActionGroup;
class QMenu;
class QTabWidget;
class QWidget;

namespace archplay::ui::views {
class AnalysisView;
}
namespace archplay::ui::session {
class ModelBridge;
}

namespace archplay::ui::exports {

/// The window's exports: "Export…" and "Copy Image" for every view (File > Export, the view's
/// context menu and the tab's), the PDF and Markdown reports, and the tables as CSV, Markdown,
/// JSON and LaTeX. Context menus are installed from outside the views: an event filter on every
/// view, its children and the tab bar adds the export entries after the view's own actions.
class ExportActions : public QObject {
    Q_OBJECT

public:
    /// `tabs` holds the views; `window` parents the dialogs.
    ExportActions(session::ModelBridge* bridge, QTabWidget* tabs, views::ViewSet views, QWidget* window);
    ~ExportActions() override;

    /// Adds every export entry to `menu` (the window's File > Export).
    void populate(QMenu* menu);
    QAction* exportViewAction() const { return m_exportView; }
    QAction* copyImageAction() const { return m_copyImage; }
    QAction* reportPdfAction() const { return m_reportPdf; }
    QAction* reportMarkdownAction() const { return m_reportMarkdown; }
    QAction* reportZooAction() const { return m_reportZoo; }

    /// Draws `view` as `settings` say, in the colours asked for, and writes it; emits finished()
    /// either way.
    [[nodiscard]] core::Status exportView(views::AnalysisView& view, const FigureExportSettings& settings);
    /// Puts `view` on the clipboard as PNG (at the screen's pixel ratio) and SVG, at its size on screen.
    void copyImage(views::AnalysisView& view);
    /// Writes the report as PDF (on paper()) or Markdown with PNG figures beside it.
    [[nodiscard]] core::Status exportReport(core::ExportFormat format, const QString& path);
    /// Writes a table or text (summary, breakdown, KV cache, derivation, the report as JSON).
    [[nodiscard]] core::Status exportText(core::ExportWhat what, core::ExportFormat format, const QString& path);

    /// Title, origin, date and preset of the current config, for reports.
    core::ReportInfo reportInfo() const;
    /// The caption of the figures exported from the window: the model and the scenario.
    QString caption() const;
    /// The layer the window's views show, as a position in the plan (-1 when there is none).
    std::int64_t selectedLayer() const;
    /// A file name stem for the current config: the preset id, or the file or preset name made safe.
    QString fileStem() const;
    QPageSize::PageSizeId paper() const { return m_paper; }
    void setPaper(QPageSize::PageSizeId paper);

    /// The menu shown on a right click in `view`: the view's own actions, then Export and Copy Image.
    /// `at` is the widget clicked (its ActionsContextMenu actions are included).
    QMenu* contextMenu(views::AnalysisView& view, QWidget* at, QWidget* parent);

    /// Replaces the save-file dialog (tests, scripts): returns a path, or empty for cancel.
    using FileChooser = std::function<QString(const QString& caption, const QString& suggested, const QString& filter)>;
    void setFileChooser(FileChooser chooser) { m_chooseFile = std::move(chooser); }
    /// Replaces the export dialog: returns the settings, or nullopt for cancel.
    using DialogRunner =
        std::function<std::optional<FigureExportSettings>(views::AnalysisView&, const FigureExportSettings&)>;
    void setDialogRunner(DialogRunner runner) { m_runDialog = std::move(runner); }

signals:
    /// An export ended: `ok`, and a sentence for the status bar (success) or message bar (failure).
    void finished(bool ok, const QString& message);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    views::AnalysisView* currentView() const;
    views::AnalysisView* viewOf(QObject* object) const;
    void exportWithDialog(views::AnalysisView& view);
    void exportReportInteractive(core::ExportFormat format);
    void exportTextInteractive(core::ExportWhat what, core::ExportFormat format);
    QString chooseFile(const QString& caption, const QString& fileName, const QString& filter);
    /// Emits finished() with what happened to the export of `what` to `path`; returns `written`.
    core::Status report(core::Status written, const QString& what, const QString& path);
    void installContextMenus();

    session::ModelBridge* m_bridge;
    QTabWidget* m_tabs;
    QWidget* m_window;
    views::ViewSet m_views;
    QAction* m_exportView;
    QAction* m_copyImage;
    QAction* m_reportPdf;
    QAction* m_reportMarkdown;
    QAction* m_reportZoo; ///< checked: reports place the design among the zoo's models
    QActionGroup* m_paperGroup;
    std::vector<QAction*> m_textActions;
    QPageSize::PageSizeId m_paper;
    FigureExportSettings m_last;
    QString m_directory;
    FileChooser m_chooseFile;
    DialogRunner m_runDialog;
};

} // namespace archplay::ui::exports
