// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/export/ExportDialog.h"

#include "ui/export/ViewExporter.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include <cmath>

namespace archplay::ui::exports {
namespace {

constexpr qreal kScales[] = {1, 2, 3, 4};

QString suffix(core::ExportFormat format) {
    return QString::fromUtf8(core::toString(format));
}

} // namespace

ExportDialog::ExportDialog(const QString& viewTitle, const QSize& viewSize, const FigureExportSettings& settings,
                           QWidget* parent)
    : QDialog(parent)
    , m_viewSize(viewSize)
    , m_path(new QLineEdit(this))
    , m_format(new QComboBox(this))
    , m_sizePreset(new QComboBox(this))
    , m_width(new QSpinBox(this))
    , m_height(new QSpinBox(this))
    , m_scale(new QComboBox(this))
    , m_colours(new QComboBox(this))
    , m_summary(new QLabel(this))
    , m_problem(new QLabel(this)) {
    setWindowTitle(tr("Export %1").arg(viewTitle));
    setObjectName(QStringLiteral("exportDialog"));

    m_path->setObjectName(QStringLiteral("export.path"));
    m_path->setMinimumWidth(360);
    auto* browse = new QPushButton(tr("Browse…"), this);
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(m_path, 1);
    fileRow->addWidget(browse);

    m_format->setObjectName(QStringLiteral("export.format"));
    m_format->addItem(tr("PNG image"), int(core::ExportFormat::Png));
    m_format->addItem(tr("SVG vector drawing"), int(core::ExportFormat::Svg));
    m_format->addItem(tr("PDF vector page"), int(core::ExportFormat::Pdf));

    m_sizePreset->setObjectName(QStringLiteral("export.sizePreset"));
    m_sizePreset->addItem(tr("View size (%1 × %2)").arg(viewSize.width()).arg(viewSize.height()), viewSize);
    m_sizePreset->addItem(tr("Slide 16:9 (1920 × 1080)"), QSize(1920, 1080));
    m_sizePreset->addItem(tr("Screen (1280 × 800)"), QSize(1280, 800));
    m_sizePreset->addItem(tr("Paper column (960 × 640)"), QSize(960, 640));
    m_sizePreset->addItem(tr("Custom"), QSize());
    for (QSpinBox* box : {m_width, m_height}) {
        box->setRange(64, 8192);
        box->setSuffix(tr(" px"));
    }
    m_width->setObjectName(QStringLiteral("export.width"));
    m_height->setObjectName(QStringLiteral("export.height"));
    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(m_sizePreset, 1);
    sizeRow->addWidget(m_width);
    sizeRow->addWidget(new QLabel(QStringLiteral("×"), this));
    sizeRow->addWidget(m_height);

    m_scale->setObjectName(QStringLiteral("export.scale"));
    for (qreal scale : kScales) {
        m_scale->addItem(tr("%1×").arg(scale), scale);
    }
    m_colours->setObjectName(QStringLiteral("export.colours"));
    m_colours->addItem(tr("As shown"), int(theme::ThemeMode::System));
    m_colours->addItem(tr("Light"), int(theme::ThemeMode::Light));
    m_colours->addItem(tr("Dark"), int(theme::ThemeMode::Dark));

    m_summary->setForegroundRole(QPalette::PlaceholderText);
    m_problem->setObjectName(QStringLiteral("export.problem"));
    m_problem->setWordWrap(true);
    m_problem->setVisible(false);

    // Rows holding a layout need their label's buddy set by hand for the mnemonic to work.
    auto* fileLabel = new QLabel(tr("&File:"), this);
    fileLabel->setBuddy(m_path);
    auto* sizeLabel = new QLabel(tr("&Size:"), this);
    sizeLabel->setBuddy(m_sizePreset);
    auto* form = new QFormLayout;
    form->addRow(fileLabel, fileRow);
    form->addRow(tr("F&ormat:"), m_format);
    form->addRow(sizeLabel, sizeRow);
    form->addRow(tr("S&cale:"), m_scale);
    form->addRow(tr("&Colours:"), m_colours);
    form->addRow(QString(), m_summary);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);

    setSettings(settings);
    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ExportDialog::formatChanged);
    connect(m_sizePreset, &QComboBox::activated, this, &ExportDialog::sizePresetChosen);
    for (QSpinBox* box : {m_width, m_height}) {
        connect(box, &QSpinBox::valueChanged, this, [this] {
            const QSize size(m_width->value(), m_height->value());
            const int preset = m_sizePreset->findData(size);
            m_sizePreset->setCurrentIndex(preset >= 0 ? preset : m_sizePreset->count() - 1);
            updateSummary();
        });
    }
    connect(m_scale, &QComboBox::currentIndexChanged, this, &ExportDialog::updateSummary);
    connect(m_path, &QLineEdit::textChanged, this, [this] { m_problem->setVisible(false); });
    connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ExportDialog::reject);
}

FigureExportSettings ExportDialog::settings() const {
    FigureExportSettings settings;
    settings.format = static_cast<core::ExportFormat>(m_format->currentData().toInt());
    settings.size = QSize(m_width->value(), m_height->value());
    settings.scale = settings.format == core::ExportFormat::Png || settings.format == core::ExportFormat::Svg
                         ? m_scale->currentData().toReal()
                         : 1.0;
    settings.colours = static_cast<theme::ThemeMode>(m_colours->currentData().toInt());
    settings.path = m_path->text().trimmed();
    return settings;
}

void ExportDialog::setSettings(const FigureExportSettings& settings) {
    m_path->setText(settings.path);
    m_format->setCurrentIndex(std::max(0, m_format->findData(int(settings.format))));
    m_width->setValue(settings.size.width());
    m_height->setValue(settings.size.height());
    const int preset = m_sizePreset->findData(settings.size);
    m_sizePreset->setCurrentIndex(preset >= 0 ? preset : m_sizePreset->count() - 1);
    int scale = 0;
    for (int i = 0; i < m_scale->count(); ++i) {
        if (std::abs(m_scale->itemData(i).toReal() - settings.scale) < 1e-6) {
            scale = i;
        }
    }
    m_scale->setCurrentIndex(scale);
    m_colours->setCurrentIndex(std::max(0, m_colours->findData(int(settings.colours))));
    formatChanged();
}

QString ExportDialog::problem() const {
    const QString path = m_path->text().trimmed();
    if (path.isEmpty()) {
        return tr("Choose a file to write.");
    }
    const QFileInfo info(path);
    if (!info.absoluteDir().exists()) {
        return tr("The folder %1 does not exist.").arg(QDir::toNativeSeparators(info.absolutePath()));
    }
    if (info.isDir()) {
        return tr("%1 is a folder; choose a file name.").arg(QDir::toNativeSeparators(path));
    }
    return {};
}

void ExportDialog::accept() {
    const QString reason = problem();
    if (!reason.isEmpty()) {
        m_problem->setText(reason);
        m_problem->setVisible(true);
        return;
    }
    QDialog::accept();
}

void ExportDialog::formatChanged() {
    const auto format = static_cast<core::ExportFormat>(m_format->currentData().toInt());
    m_scale->setEnabled(format == core::ExportFormat::Png || format == core::ExportFormat::Svg);
    // The file name follows the format: picture.png becomes picture.svg.
    const QString path = m_path->text().trimmed();
    if (!path.isEmpty()) {
        QString base = path;
        if (const auto current = core::formatFromPath(path.toStdString()); current && core::isImageFormat(*current)) {
            base.chop(QFileInfo(path).suffix().size() + 1);
        }
        const QString updated = base + QLatin1Char('.') + suffix(format);
        if (updated != path) {
            m_path->setText(updated);
        }
    }
    updateSummary();
}

void ExportDialog::sizePresetChosen(int index) {
    const QSize size = m_sizePreset->itemData(index).toSize();
    if (size.isValid()) {
        m_width->setValue(size.width());
        m_height->setValue(size.height());
    }
    updateSummary();
}

void ExportDialog::updateSummary() {
    const FigureExportSettings current = settings();
    // Text grows with the figure (core::figureTextScale): say by how much.
    const double textScale = core::figureTextScale(current.size.width(), current.size.height());
    const QString text = textScale > 1.001 ? tr("; text %1× the screen's").arg(textScale, 0, 'f', 2) : QString();
    if (current.format == core::ExportFormat::Png) {
        m_summary->setText(tr("%1 × %2 pixels%3")
                               .arg(std::lround(current.size.width() * current.scale))
                               .arg(std::lround(current.size.height() * current.scale))
                               .arg(text));
    } else if (current.format == core::ExportFormat::Svg) {
        m_summary->setText(tr("Vector with real text; %1 × %2 px%3")
                               .arg(std::lround(current.size.width() * current.scale))
                               .arg(std::lround(current.size.height() * current.scale))
                               .arg(text));
    } else {
        const qreal points = 72.0 / exportDpi();
        m_summary->setText(tr("Vector with real text; a %1 × %2 pt page%3")
                               .arg(std::lround(current.size.width() * points))
                               .arg(std::lround(current.size.height() * points))
                               .arg(text));
    }
}

void ExportDialog::browse() {
    const FigureExportSettings current = settings();
    const QString ext = suffix(current.format);
    const QString path =
        QFileDialog::getSaveFileName(this, windowTitle(), current.path, tr("%1 files (*.%2)").arg(ext.toUpper(), ext));
    if (!path.isEmpty()) {
        m_path->setText(path);
        if (const auto format = core::formatFromPath(path.toStdString()); format && core::isImageFormat(*format)) {
            m_format->setCurrentIndex(m_format->findData(int(*format)));
        }
    }
}

} // namespace archplay::ui::exports
