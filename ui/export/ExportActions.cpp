// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/export/ExportActions.h"

#include "ui/Strings.h"
#include "ui/export/MarkdownReport.h"
#include "ui/export/ReportBuilder.h"
#include "ui/export/ViewExporter.h"
#include "ui/session/AtomicWrite.h"
#include "ui/session/ModelBridge.h"
#include "ui/session/ZooSettings.h"
#include "ui/theme/Theme.h"
#include "ui/views/AnalysisView.h"
#include "ui/views/LayerSelection.h"
#include "ui/views/PaintedView.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QDate>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QTabWidget>

#include <utility>

namespace archplay::ui::exports {
namespace {

QString formatName(core::ExportFormat format) {
    switch (format) {
    case core::ExportFormat::Csv:
        return QStringLiteral("CSV");
    case core::ExportFormat::Markdown:
        return QStringLiteral("Markdown");
    case core::ExportFormat::Json:
        return QStringLiteral("JSON");
    case core::ExportFormat::Latex:
        return QStringLiteral("LaTeX");
    case core::ExportFormat::Pdf:
        return QStringLiteral("PDF");
    case core::ExportFormat::Png:
        return QStringLiteral("PNG");
    case core::ExportFormat::Svg:
        return QStringLiteral("SVG");
    }
    return {};
}

QString filterFor(core::ExportFormat format) {
    return QStringLiteral("%1 (*.%2)").arg(formatName(format), qs(core::toString(format)));
}

/// Shows the wait cursor while a report is drawn (a second or two for the largest models).
class BusyCursor {
public:
    BusyCursor() { QApplication::setOverrideCursor(Qt::WaitCursor); }
    ~BusyCursor() { QApplication::restoreOverrideCursor(); }
    BusyCursor(const BusyCursor&) = delete;
    BusyCursor& operator=(const BusyCursor&) = delete;
};

} // namespace

ExportActions::ExportActions(session::ModelBridge* bridge, QTabWidget* tabs, views::ViewSet views, QWidget* window)
    : QObject(window)
    , m_bridge(bridge)
    , m_tabs(tabs)
    , m_window(window)
    , m_views(std::move(views))
    , m_exportView(new QAction(tr("Export Current &View…"), this))
    , m_copyImage(new QAction(tr("&Copy Current View as Image"), this))
    , m_reportPdf(new QAction(tr("&Report as PDF…"), this))
    , m_reportMarkdown(new QAction(tr("Report as &Markdown…"), this))
    , m_reportZoo(new QAction(tr("Reports Include the Model &Zoo"), this))
    , m_paperGroup(new QActionGroup(this))
    , m_paper(defaultPaper())
    , m_directory(QDir::homePath()) {
    m_exportView->setObjectName(QStringLiteral("export.view"));
    m_exportView->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportView->setIcon(theme::icon(QStringLiteral("export")));
    m_exportView->setToolTip(tr("Export the view shown as PNG, SVG or PDF"));
    connect(m_exportView, &QAction::triggered, this, [this] {
        if (views::AnalysisView* view = currentView()) {
            exportWithDialog(*view);
        }
    });
    m_copyImage->setObjectName(QStringLiteral("export.copyImage"));
    m_copyImage->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_copyImage->setIcon(theme::icon(QStringLiteral("edit-copy")));
    connect(m_copyImage, &QAction::triggered, this, [this] {
        if (views::AnalysisView* view = currentView()) {
            copyImage(*view);
        }
    });
    m_reportPdf->setObjectName(QStringLiteral("export.reportPdf"));
    m_reportPdf->setToolTip(tr("Every view and table of the current config as one PDF, with page numbers"));
    connect(m_reportPdf, &QAction::triggered, this, [this] { exportReportInteractive(core::ExportFormat::Pdf); });
    m_reportMarkdown->setObjectName(QStringLiteral("export.reportMarkdown"));
    m_reportMarkdown->setToolTip(tr("The report as Markdown, with its figures as PNG files in a folder beside it"));
    connect(m_reportMarkdown, &QAction::triggered, this,
            [this] { exportReportInteractive(core::ExportFormat::Markdown); });
    m_reportZoo->setObjectName(QStringLiteral("export.reportZoo"));
    m_reportZoo->setCheckable(true);
    m_reportZoo->setToolTip(tr("A section placing the design among the zoo's models (the presets and the configs "
                               "added on Tools > Design > Zoo): its nearest models and every zoo plot"));
    for (const auto& [paper, label] :
         {std::pair{QPageSize::A4, tr("A&4")}, std::pair{QPageSize::Letter, tr("US &Letter")}}) {
        QAction* action = m_paperGroup->addAction(label);
        action->setCheckable(true);
        action->setChecked(paper == m_paper);
        connect(action, &QAction::triggered, this, [this, paper = paper] { setPaper(paper); });
    }

    const std::pair<core::ExportWhat, QString> texts[] = {{core::ExportWhat::Summary, tr("Summary")},
                                                          {core::ExportWhat::Breakdown, tr("Parameter Breakdown")},
                                                          {core::ExportWhat::KvCache, tr("KV Cache")},
                                                          {core::ExportWhat::Derivation, tr("Forward-Pass Derivation")},
                                                          {core::ExportWhat::Report, tr("Whole Report")}};
    for (const auto& [what, label] : texts) {
        for (core::ExportFormat format : core::formatsFor(what)) {
            if (core::needsRendering(what, format)) {
                continue;
            }
            auto* action = new QAction(tr("%1 as %2…").arg(label, formatName(format)), this);
            action->setObjectName(
                QStringLiteral("export.%1.%2").arg(qs(core::toString(what)), qs(core::toString(format))));
            connect(action, &QAction::triggered, this,
                    [this, what = what, format] { exportTextInteractive(what, format); });
            m_textActions.push_back(action);
        }
    }
    auto enable = [this](const core::Analysis& analysis) {
        for (QAction* action : m_textActions) {
            action->setEnabled(analysis.valid);
        }
        m_reportPdf->setEnabled(analysis.valid);
        m_reportMarkdown->setEnabled(analysis.valid);
    };
    enable(m_bridge->analysis());
    connect(m_bridge, &session::ModelBridge::analysisChanged, this,
            [enable](const core::AnalysisPtr& analysis) { enable(*analysis); });
    installContextMenus();
}

ExportActions::~ExportActions() = default;

void ExportActions::populate(QMenu* menu) {
    menu->addAction(m_exportView);
    menu->addAction(m_copyImage);
    menu->addSeparator();
    menu->addAction(m_reportPdf);
    menu->addAction(m_reportMarkdown);
    menu->addAction(m_reportZoo);
    QMenu* paper = menu->addMenu(tr("Report &Paper Size"));
    paper->addActions(m_paperGroup->actions());
    menu->addSeparator();
    QMenu* tables = menu->addMenu(tr("&Tables and Text"));
    for (QAction* action : m_textActions) {
        tables->addAction(action);
    }
}

void ExportActions::setPaper(QPageSize::PageSizeId paper) {
    m_paper = paper;
    const QList<QAction*> actions = m_paperGroup->actions();
    actions[0]->setChecked(paper == QPageSize::A4);
    actions[1]->setChecked(paper == QPageSize::Letter);
}

views::AnalysisView* ExportActions::currentView() const {
    return viewOf(m_tabs->currentWidget());
}

views::AnalysisView* ExportActions::viewOf(QObject* object) const {
    for (QObject* at = object; at; at = at->parent()) {
        for (views::AnalysisView* view : m_views.views) {
            if (view == at) {
                return view;
            }
        }
    }
    return nullptr;
}

core::ReportInfo ExportActions::reportInfo() const {
    const session::OriginSummary origin = m_bridge->originSummary();
    core::ReportInfo info;
    info.title = origin.label.isEmpty() ? "Untitled" : origin.label.toStdString();
    info.modified = origin.modified;
    info.date = QDate::currentDate().toString(Qt::ISODate).toStdString();
    switch (origin.kind) {
    case session::ConfigOrigin::Kind::Preset:
        info.origin = "preset " + m_bridge->origin().presetId.toStdString();
        break;
    case session::ConfigOrigin::Kind::File:
        info.origin = "file " + QDir::toNativeSeparators(m_bridge->origin().path).toStdString();
        break;
    case session::ConfigOrigin::Kind::Clipboard:
        info.origin = "a pasted config";
        break;
    case session::ConfigOrigin::Kind::None:
        info.origin = "the default config";
        break;
    }
    if (const core::Preset* preset = m_bridge->preset()) {
        info.preset = preset->info;
    }
    return info;
}

QString ExportActions::caption() const {
    return qs(core::figureCaption(m_bridge->analysis(), reportInfo()));
}

std::int64_t ExportActions::selectedLayer() const {
    // The layer stack picks the layer; the views that show one layer follow its selection.
    return m_views.layerSelection->resolve(m_bridge->analysis().plan);
}

QString ExportActions::fileStem() const {
    const session::ConfigOrigin& origin = m_bridge->origin();
    QString stem = origin.presetId.isEmpty() ? QFileInfo(origin.label).completeBaseName() : origin.presetId;
    stem = stem.toLower();
    QString safe;
    for (const QChar ch : std::as_const(stem)) {
        safe += ch.isLetterOrNumber() || ch == QLatin1Char('.') || ch == QLatin1Char('_') ? ch : QLatin1Char('-');
    }
    while (safe.contains(QStringLiteral("--"))) {
        safe.replace(QStringLiteral("--"), QStringLiteral("-"));
    }
    return safe.isEmpty() || safe == QLatin1String("-") ? QStringLiteral("archplay") : safe;
}

QString ExportActions::chooseFile(const QString& caption, const QString& fileName, const QString& filter) {
    const QString suggested = QDir(m_directory).filePath(fileName);
    const QString path = m_chooseFile ? m_chooseFile(caption, suggested, filter)
                                      : QFileDialog::getSaveFileName(m_window, caption, suggested, filter);
    if (!path.isEmpty()) {
        m_directory = QFileInfo(path).absolutePath();
    }
    return path;
}

core::Status ExportActions::report(core::Status written, const QString& what, const QString& path) {
    if (written.ok()) {
        emit finished(true, tr("Exported %1 to %2.").arg(what, QFileInfo(path).fileName()));
    } else {
        emit finished(
            false, tr("Could not export %1 to %2: %3").arg(what, QDir::toNativeSeparators(path), qs(written.error())));
    }
    return written;
}

core::Status ExportActions::exportView(views::AnalysisView& view, const FigureExportSettings& settings) {
    view.ensureCurrent();
    core::Status written;
    {
        const std::optional<QPalette> palette = settings.colours == theme::ThemeMode::System
                                                    ? std::nullopt
                                                    : std::optional<QPalette>(theme::themePalette(settings.colours));
        const ScopedPalette scoped(view, palette);
        written = exportFigure(view, settings.format,
                               {settings.size, settings.scale, core::ReadOnlyTarget::Refuse, caption()}, settings.path);
    }
    return report(std::move(written), view.title(), settings.path);
}

void ExportActions::exportWithDialog(views::AnalysisView& view) {
    FigureExportSettings settings = m_last;
    settings.size = view.size();
    settings.path =
        QDir(m_directory)
            .filePath(QStringLiteral("%1-%2.%3").arg(fileStem(), view.name(), qs(core::toString(settings.format))));
    std::optional<FigureExportSettings> chosen;
    if (m_runDialog) {
        chosen = m_runDialog(view, settings);
    } else {
        ExportDialog dialog(view.title(), view.size(), settings, m_window);
        if (dialog.exec() == QDialog::Accepted) {
            chosen = dialog.settings();
        }
    }
    if (!chosen) {
        return;
    }
    m_last = *chosen;
    m_directory = QFileInfo(chosen->path).absolutePath();
    (void)exportView(view, *chosen); // reported through finished()
}

void ExportActions::copyImage(views::AnalysisView& view) {
    view.ensureCurrent();
    const QSize size = view.size().isValid() && !view.size().isEmpty() ? view.size() : QSize(1280, 800);
    QApplication::clipboard()->setMimeData(
        figureMimeData(view, {size, view.devicePixelRatioF(), core::ReadOnlyTarget::Refuse, caption()}));
    emit finished(true, tr("Copied %1 as an image.").arg(view.title()));
}

core::Status ExportActions::exportReport(core::ExportFormat format, const QString& path) {
    const core::Analysis& analysis = m_bridge->analysis();
    const core::ReportInfo info = reportInfo();
    const BusyCursor busy;
    core::Status written;
    const std::optional<core::ModelZoo> zoo =
        m_reportZoo->isChecked() ? std::optional(session::reportZoo(analysis.scenario)) : std::nullopt;
    const core::ModelZoo* zooPointer = zoo ? &*zoo : nullptr;
    if (format == core::ExportFormat::Pdf) {
        const PdfResult result =
            reportPdf(analysis, info, {m_paper, theme::ThemeMode::Light, selectedLayer(), zooPointer});
        written = result.pdf.isEmpty() ? core::Status::failure(result.error.toStdString())
                                       : session::writeAtomically(path, result.pdf);
    } else if (format == core::ExportFormat::Markdown) {
        written = exportMarkdownReport(
            analysis, info, {theme::ThemeMode::Light, selectedLayer(), 2.0, core::ReadOnlyTarget::Refuse, zooPointer},
            path);
    } else {
        written = core::Status::failure("the report is written as PDF or Markdown");
    }
    return report(std::move(written), tr("the report"), path);
}

core::Status ExportActions::exportText(core::ExportWhat what, core::ExportFormat format, const QString& path) {
    const core::Analysis& analysis = m_bridge->analysis();
    const auto text = core::exportText(analysis, what, format, reportInfo());
    core::Status written;
    if (!text) {
        const std::string reason = core::unsupportedReason(what, format, analysis);
        written = core::Status::failure(reason.empty() ? "the configuration has errors" : reason);
    } else {
        written = session::writeAtomically(path, QByteArray::fromStdString(*text));
    }
    return report(std::move(written), tr("the %1").arg(qs(core::toString(what))), path);
}

void ExportActions::exportReportInteractive(core::ExportFormat format) {
    const QString path =
        chooseFile(tr("Export Report"), QStringLiteral("%1-report.%2").arg(fileStem(), qs(core::toString(format))),
                   filterFor(format));
    if (!path.isEmpty()) {
        (void)exportReport(format, path); // reported through finished()
    }
}

void ExportActions::exportTextInteractive(core::ExportWhat what, core::ExportFormat format) {
    const QString path =
        chooseFile(tr("Export %1").arg(qs(core::toString(what))),
                   QStringLiteral("%1-%2.%3").arg(fileStem(), qs(core::toString(what)), qs(core::toString(format))),
                   filterFor(format));
    if (!path.isEmpty()) {
        (void)exportText(what, format, path); // reported through finished()
    }
}

} // namespace archplay::ui::exports
