// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/report/Exports.h"
#include "ui/theme/Theme.h"

#include <QDialog>
#include <QSize>
#include <QString>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace archplay::ui::exports {

/// What the export dialog asks for.
struct FigureExportSettings {
    core::ExportFormat format = core::ExportFormat::Png;
    QSize size{1280, 800};                               ///< device-independent pixels
    qreal scale = 1.0;                                   ///< PNG only
    theme::ThemeMode colours = theme::ThemeMode::System; ///< System: as the window shows it
    QString path;
};

/// "Export…" for one view: file, format (PNG, SVG, PDF), size (the view's own, or presets for slides
/// and papers), PNG scale (1x to 4x, with the resulting pixel size shown), colours (as shown, light
/// or dark). Changing the format changes the file's extension. OK is refused, with the reason shown,
/// while the file's folder does not exist.
class ExportDialog : public QDialog {
    Q_OBJECT

public:
    /// `viewSize` is offered as "View size"; `settings` fills the fields.
    ExportDialog(const QString& viewTitle, const QSize& viewSize, const FigureExportSettings& settings,
                 QWidget* parent = nullptr);

    FigureExportSettings settings() const;
    void setSettings(const FigureExportSettings& settings);
    /// Why OK is refused right now, or empty.
    QString problem() const;

    void accept() override;

private:
    void formatChanged();
    void sizePresetChosen(int index);
    void updateSummary();
    void browse();

    QSize m_viewSize;
    QLineEdit* m_path;
    QComboBox* m_format;
    QComboBox* m_sizePreset;
    QSpinBox* m_width;
    QSpinBox* m_height;
    QComboBox* m_scale;
    QComboBox* m_colours;
    QLabel* m_summary;
    QLabel* m_problem;
};

} // namespace archplay::ui::exports
