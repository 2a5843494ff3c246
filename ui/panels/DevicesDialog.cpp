// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/DevicesDialog.h"

#include "core/io/GpuJson.h"
#include "ui/Strings.h"
#include "ui/session/GpuCatalogue.h"
#include "ui/theme/Theme.h"
#include "ui/widgets/MessageBar.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <climits>

namespace archplay::ui::panels {

namespace {

enum Column { NameColumn, MemoryColumn, BandwidthColumn, Bf16Column, Fp8Column, SourceColumn, ColumnCount };
constexpr int kDeviceIdRole = Qt::UserRole;
constexpr int kBuiltinRole = Qt::UserRole + 1;

QDoubleSpinBox* figureBox(int decimals, QWidget* parent) {
    auto* box = new QDoubleSpinBox(parent);
    // core decides what is in range (gpuFromFigures); the box only holds what can be typed.
    box->setRange(0.0, 1e9);
    box->setDecimals(decimals);
    box->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    box->setGroupSeparatorShown(true);
    return box;
}

/// A figure as the list shows it: "—" for none, "≈" before a throughput derived rather than published.
QString figureText(double value, bool estimated = false) {
    if (!(value > 0)) {
        return QStringLiteral("—");
    }
    const QString text = QLocale().toString(value, 'f', QLocale::FloatingPointShortest);
    return estimated ? QStringLiteral("≈") + text : text;
}

} // namespace

DeviceForm::DeviceForm(const QString& title, const core::Gpu& device, Commit commit, QWidget* parent)
    : QDialog(parent)
    , m_commit(std::move(commit))
    , m_estimated(device.estimated)
    , m_id(new QLineEdit(this))
    , m_name(new QLineEdit(this))
    , m_memory(new QSpinBox(this))
    , m_bandwidth(figureBox(1, this))
    , m_bf16(figureBox(2, this))
    , m_fp8(figureBox(2, this))
    , m_source(new QLineEdit(this))
    , m_measuredLow(figureBox(2, this))
    , m_measuredHigh(figureBox(2, this))
    , m_measuredSource(new QLineEdit(this))
    , m_problems(new QLabel(this)) {
    setObjectName(QStringLiteral("dialog.device"));
    setWindowTitle(title);
    const core::GpuFigures figures = core::gpuFigures(device);
    m_id->setObjectName(QStringLiteral("device.id"));
    m_id->setText(qs(figures.id));
    m_id->setPlaceholderText(tr("my-gpu: how sessions and archplay-cli --gpu name it"));
    m_name->setObjectName(QStringLiteral("device.name"));
    m_name->setText(qs(figures.name));
    m_name->setPlaceholderText(tr("as the device lists show it; the id when empty"));
    m_memory->setObjectName(QStringLiteral("device.memory"));
    m_memory->setRange(0, INT_MAX);
    m_memory->setGroupSeparatorShown(true);
    m_memory->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_memory->setValue(int(std::min<double>(figures.memoryGiB, INT_MAX)));
    m_bandwidth->setObjectName(QStringLiteral("device.bandwidth"));
    m_bandwidth->setValue(figures.bandwidthGBs);
    m_bf16->setObjectName(QStringLiteral("device.bf16"));
    m_bf16->setValue(figures.bf16Tflops);
    m_fp8->setObjectName(QStringLiteral("device.fp8"));
    m_fp8->setValue(figures.fp8Tflops);
    m_fp8->setSpecialValueText(tr("none"));
    m_source->setObjectName(QStringLiteral("device.source"));
    m_source->setText(qs(figures.source));
    m_source->setPlaceholderText(tr("where the figures come from: a datasheet, a measurement"));
    // What kernels achieve of the peak bandwidth: the expected decode speed scales the bound by it.
    m_measuredLow->setObjectName(QStringLiteral("device.measured_low"));
    m_measuredLow->setValue(figures.measuredLowTBs);
    m_measuredLow->setSpecialValueText(tr("none"));
    m_measuredHigh->setObjectName(QStringLiteral("device.measured_high"));
    m_measuredHigh->setValue(figures.measuredHighTBs);
    m_measuredHigh->setSpecialValueText(tr("none"));
    m_measuredSource->setObjectName(QStringLiteral("device.measured_source"));
    m_measuredSource->setText(qs(figures.measuredSource));
    m_measuredSource->setPlaceholderText(tr("where the measured bandwidth comes from"));
    m_problems->setObjectName(QStringLiteral("device.problems"));
    m_problems->setWordWrap(true);
    m_problems->setTextFormat(Qt::PlainText);
    m_problems->hide();

    auto* form = new QFormLayout;
    form->addRow(tr("&Id"), m_id);
    form->addRow(tr("&Name"), m_name);
    form->addRow(tr("&Memory (GiB)"), m_memory);
    form->addRow(tr("&Bandwidth (GB/s)"), m_bandwidth);
    form->addRow(tr("BF16 &throughput (TFLOPS, dense)"), m_bf16);
    form->addRow(tr("&FP8 throughput (TFLOPS, dense)"), m_fp8);
    form->addRow(tr("&Source"), m_source);
    form->addRow(tr("Measured bandwidth, &lowest (TB/s)"), m_measuredLow);
    form->addRow(tr("Measured bandwidth, &highest (TB/s)"), m_measuredHigh);
    form->addRow(tr("Measured bandwidth's s&ource"), m_measuredSource);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &DeviceForm::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &DeviceForm::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_problems);
    layout->addWidget(buttons);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    setMinimumWidth(fontMetrics().horizontalAdvance(QLatin1Char('x')) * 90);
}

bool DeviceForm::readDevice(core::Gpu& device, QStringList& problems) const {
    core::GpuFigures figures;
    figures.id = m_id->text().trimmed().toStdString();
    figures.name = m_name->text().trimmed().toStdString();
    figures.memoryGiB = m_memory->value();
    figures.bandwidthGBs = m_bandwidth->value();
    figures.bf16Tflops = m_bf16->value();
    figures.fp8Tflops = m_fp8->value();
    figures.source = m_source->text().trimmed().toStdString();
    figures.estimated = m_estimated;
    figures.measuredLowTBs = m_measuredLow->value();
    figures.measuredHighTBs = m_measuredHigh->value();
    figures.measuredSource = m_measuredSource->text().trimmed().toStdString();
    core::Diagnostics diagnostics;
    if (!core::gpuFromFigures(figures, device, diagnostics)) {
        problems = session::describeDiagnostics(diagnostics);
        return false;
    }
    return true;
}

void DeviceForm::accept() {
    core::Gpu device;
    QStringList problems;
    if (!readDevice(device, problems)) {
        showProblems(problems);
        return;
    }
    const session::CatalogueResult result = m_commit(device);
    if (!result.ok) {
        showProblems(result.details.isEmpty() ? QStringList{result.message} : result.details);
        return;
    }
    QDialog::accept();
}

void DeviceForm::showProblems(const QStringList& problems) {
    QPalette palette;
    palette.setColor(QPalette::WindowText, theme::severityColor(core::Severity::Error, this->palette()));
    m_problems->setPalette(palette);
    m_problems->setText(widgets::MessageBar::capped(problems).join(QLatin1Char('\n')));
    m_problems->show();
    // The first problem names the field to fix.
    const QString first = problems.value(0);
    const std::pair<const char*, QWidget*> fields[] = {{"id", m_id},
                                                       {"name", m_name},
                                                       {"memory_gib", m_memory},
                                                       {"bandwidth_gb_s", m_bandwidth},
                                                       {"bf16_tflops", m_bf16},
                                                       {"fp8_tflops", m_fp8},
                                                       {"source", m_source}};
    for (const auto& [key, widget] : fields) {
        if (first.startsWith(QLatin1String(key) + QLatin1Char(':'))) {
            widget->setFocus(Qt::OtherFocusReason);
        }
    }
}

DevicesDialog::DevicesDialog(session::GpuCatalogue* catalogue, QWidget* parent)
    : QDialog(parent)
    , m_catalogue(catalogue)
    , m_messages(new widgets::MessageBar(this))
    , m_list(new QTreeWidget(this))
    , m_copy(new QPushButton(tr("&Copy…"), this))
    , m_edit(new QPushButton(tr("&Edit…"), this))
    , m_remove(new QPushButton(tr("&Remove"), this))
    , m_export(new QPushButton(tr("E&xport…"), this)) {
    setObjectName(QStringLiteral("dialog.devices"));
    setWindowTitle(tr("Devices"));
    m_messages->setObjectName(QStringLiteral("devices.messages"));
    m_list->setObjectName(QStringLiteral("devices.list"));
    m_list->setColumnCount(ColumnCount);
    m_list->setHeaderLabels(
        {tr("Device"), tr("Memory (GiB)"), tr("Bandwidth (GB/s)"), tr("BF16 TFLOPS"), tr("FP8 TFLOPS"), tr("Source")});
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAlternatingRowColors(true);
    m_list->header()->setStretchLastSection(true);

    auto* add = new QPushButton(tr("&Add…"), this);
    add->setObjectName(QStringLiteral("devices.add"));
    add->setToolTip(tr("A device of your own, from its datasheet figures"));
    m_copy->setObjectName(QStringLiteral("devices.copy"));
    m_copy->setToolTip(tr("A device of your own that starts from the selected one's figures"));
    m_edit->setObjectName(QStringLiteral("devices.edit"));
    m_remove->setObjectName(QStringLiteral("devices.remove"));
    auto* import = new QPushButton(tr("&Import…"), this);
    import->setObjectName(QStringLiteral("devices.import"));
    import->setToolTip(tr("Add the devices of a device file (JSON), replacing yours of the same id"));
    m_export->setObjectName(QStringLiteral("devices.export"));
    m_export->setToolTip(tr("Write your devices to a device file (JSON) to share or keep"));
    auto* buttons = new QVBoxLayout;
    for (QPushButton* button : {add, m_copy, m_edit, m_remove}) {
        buttons->addWidget(button);
    }
    buttons->addSpacing(12);
    buttons->addWidget(import);
    buttons->addWidget(m_export);
    buttons->addStretch(1);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* note =
        new QLabel(tr("Built-in figures are the vendors' dense peaks (≈: derived from cores and clocks); hover "
                      "a device for its source. Your devices are kept with archplay's settings and listed "
                      "after the built-in ones in the Scenario's GPU field."),
                   this);
    note->setWordWrap(true);
    auto* body = new QHBoxLayout;
    body->addWidget(m_list, 1);
    body->addLayout(buttons);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_messages);
    layout->addWidget(note);
    layout->addLayout(body, 1);
    layout->addWidget(close);

    connect(add, &QPushButton::clicked, this, &DevicesDialog::addDevice);
    connect(m_copy, &QPushButton::clicked, this, &DevicesDialog::copyDevice);
    connect(m_edit, &QPushButton::clicked, this, &DevicesDialog::editDevice);
    connect(m_remove, &QPushButton::clicked, this, &DevicesDialog::removeDevice);
    connect(import, &QPushButton::clicked, this, &DevicesDialog::importInteractive);
    connect(m_export, &QPushButton::clicked, this, &DevicesDialog::exportInteractive);
    connect(m_list, &QTreeWidget::itemSelectionChanged, this, &DevicesDialog::updateButtons);
    connect(m_list, &QTreeWidget::itemDoubleClicked, this, [this] {
        bool builtin = true;
        if (!selectedId(&builtin).isEmpty()) {
            builtin ? copyDevice() : editDevice();
        }
    });
    connect(m_catalogue, &session::GpuCatalogue::changed, this, &DevicesDialog::rebuild);
    rebuild();
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setTextElideMode(Qt::ElideRight);
    resize(fontMetrics().horizontalAdvance(QLatin1Char('x')) * 150, fontMetrics().height() * 32);
}

void DevicesDialog::rebuild() {
    const QString selected = selectedId();
    m_list->clear();
    auto* builtins = new QTreeWidgetItem(m_list, {tr("Built-in")});
    auto* yours = new QTreeWidgetItem(m_list, {tr("Yours")});
    for (QTreeWidgetItem* group : {builtins, yours}) {
        group->setFlags(Qt::ItemIsEnabled);
        group->setFirstColumnSpanned(true);
        QFont font = group->font(NameColumn);
        font.setBold(true);
        group->setFont(NameColumn, font);
    }
    for (const core::Gpu& gpu : m_catalogue->devices()) {
        const core::GpuFigures figures = core::gpuFigures(gpu);
        const QString source = qs(gpu.source);
        auto* item = new QTreeWidgetItem(
            gpu.builtin ? builtins : yours,
            {qs(gpu.name), QLocale().toString(qulonglong(gpu.memoryGiB)), figureText(figures.bandwidthGBs),
             figureText(figures.bf16Tflops, gpu.estimated), figureText(figures.fp8Tflops, gpu.estimated), source});
        item->setData(NameColumn, kDeviceIdRole, qs(gpu.id));
        item->setData(NameColumn, kBuiltinRole, gpu.builtin);
        for (int column = MemoryColumn; column <= Fp8Column; ++column) {
            item->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
        }
        const QString tip = tr("<p><b>%1</b> (id <code>%2</code>)</p><p>%3</p>")
                                .arg(qs(gpu.name).toHtmlEscaped(), qs(gpu.id).toHtmlEscaped(),
                                     source.isEmpty() ? tr("No source given.") : source.toHtmlEscaped());
        for (int column = 0; column < ColumnCount; ++column) {
            item->setToolTip(column, tip);
        }
        if (qs(gpu.id) == selected) {
            m_list->setCurrentItem(item);
        }
    }
    if (yours->childCount() == 0) {
        auto* empty = new QTreeWidgetItem(yours, {tr("None yet: Add, Copy or Import one.")});
        empty->setFlags(Qt::ItemIsEnabled);
        empty->setFirstColumnSpanned(true);
    }
    m_list->expandAll();
    for (int column = NameColumn; column < SourceColumn; ++column) {
        m_list->resizeColumnToContents(column);
    }
    updateButtons();
}

QString DevicesDialog::selectedId(bool* builtin) const {
    const QTreeWidgetItem* item = m_list->currentItem();
    if (!item || !item->isSelected() || !item->data(NameColumn, kDeviceIdRole).isValid()) {
        return {};
    }
    if (builtin) {
        *builtin = item->data(NameColumn, kBuiltinRole).toBool();
    }
    return item->data(NameColumn, kDeviceIdRole).toString();
}

void DevicesDialog::updateButtons() {
    bool builtin = true;
    const bool any = !selectedId(&builtin).isEmpty();
    m_copy->setEnabled(any);
    m_edit->setEnabled(any && !builtin);
    m_remove->setEnabled(any && !builtin);
    m_export->setEnabled(!m_catalogue->userDevices().empty());
}

DeviceForm* DevicesDialog::openForm(const core::Gpu& start, const QString& replacing) {
    const bool editing = !replacing.isEmpty();
    auto commit = [this, replacing](const core::Gpu& device) {
        session::CatalogueResult result =
            replacing.isEmpty() ? m_catalogue->add(device) : m_catalogue->replace(replacing, device);
        if (result.ok) {
            showResult(result);
        }
        return result;
    };
    auto* form =
        new DeviceForm(editing ? tr("Edit %1").arg(qs(start.name)) : tr("New device"), start, std::move(commit), this);
    form->setAttribute(Qt::WA_DeleteOnClose);
    form->open();
    return form;
}

void DevicesDialog::addDevice() {
    openForm(core::Gpu{});
}

void DevicesDialog::copyDevice() {
    const core::Gpu* selected = m_catalogue->find(selectedId());
    if (!selected) {
        return;
    }
    core::Gpu start = *selected;
    start.id += "-copy";
    start.name = tr("%1 (copy)").arg(qs(selected->name)).toStdString();
    start.builtin = false;
    openForm(start);
}

void DevicesDialog::editDevice() {
    bool builtin = true;
    const QString id = selectedId(&builtin);
    const core::Gpu* selected = m_catalogue->find(id);
    if (selected && !builtin) {
        openForm(*selected, id);
    }
}

void DevicesDialog::removeDevice() {
    bool builtin = true;
    const QString id = selectedId(&builtin);
    const core::Gpu* selected = m_catalogue->find(id);
    if (!selected || builtin) {
        return;
    }
    const QString name = qs(selected->name);
    QMessageBox box(QMessageBox::Question, tr("Remove device"), tr("Remove %1 from your devices?").arg(name),
                    QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("dialog.removeDevice"));
    box.setInformativeText(tr("This cannot be undone; export your devices first to keep a copy."));
    QPushButton* confirm = box.addButton(tr("Remove"), QMessageBox::DestructiveRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    if (box.clickedButton() == confirm && m_catalogue->remove(id)) {
        showResult({true, tr("Removed %1. A scenario that uses it keeps its figures.").arg(name), {}});
    }
}

void DevicesDialog::importFrom(const QString& path) {
    showResult(m_catalogue->importFile(path));
}

void DevicesDialog::exportTo(const QString& path) {
    showResult(m_catalogue->exportFile(path));
}

void DevicesDialog::importInteractive() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Import devices"), {}, tr("Device files (*.json);;All files (*)"));
    if (!path.isEmpty()) {
        importFrom(path);
    }
}

void DevicesDialog::exportInteractive() {
    QString path = QFileDialog::getSaveFileName(this, tr("Export devices"), QStringLiteral("archplay-devices.json"),
                                                tr("Device files (*.json)"));
    if (!path.isEmpty()) {
        exportTo(path);
    }
}

void DevicesDialog::showResult(const session::CatalogueResult& result) {
    m_messages->showMessage(result.ok ? widgets::MessageBar::Level::Info : widgets::MessageBar::Level::Error,
                            result.message, result.details);
}

} // namespace archplay::ui::panels
