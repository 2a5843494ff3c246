// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/Gpus.h"

#include <QDialog>

#include <functional>

class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace archplay::ui::session {
class GpuCatalogue;
struct CatalogueResult;
} // namespace archplay::ui::session
namespace archplay::ui::widgets {
class MessageBar;
}

namespace archplay::ui::panels {

/// One device's figures in a form (id, name, memory, bandwidth, BF16 and FP8 throughput, source).
/// OK reads them through core (core::gpuFromFigures) and hands the device to `commit`; a device core
/// or the catalogue refuses keeps the form open with the reasons, each naming its field.
class DeviceForm : public QDialog {
    Q_OBJECT

public:
    using Commit = std::function<session::CatalogueResult(const core::Gpu&)>;

    DeviceForm(const QString& title, const core::Gpu& device, Commit commit, QWidget* parent = nullptr);

    /// The device the fields describe, or the reasons it cannot be read ("memory_gib: ...").
    bool readDevice(core::Gpu& device, QStringList& problems) const;

public slots:
    void accept() override;

private:
    void showProblems(const QStringList& problems);

    Commit m_commit;
    bool m_estimated;
    QLineEdit* m_id;
    QLineEdit* m_name;
    QSpinBox* m_memory;
    QDoubleSpinBox* m_bandwidth;
    QDoubleSpinBox* m_bf16;
    QDoubleSpinBox* m_fp8;
    QLineEdit* m_source;
    QDoubleSpinBox* m_measuredLow;
    QDoubleSpinBox* m_measuredHigh;
    QLineEdit* m_measuredSource;
    QLabel* m_problems;
};

/// Tools > Devices: the built-in devices with their sources, and the user's own, which can be added,
/// copied from any device, edited, removed, imported from and exported to device files.
class DevicesDialog : public QDialog {
    Q_OBJECT

public:
    explicit DevicesDialog(session::GpuCatalogue* catalogue, QWidget* parent = nullptr);

    /// Reads a device file into the catalogue and reports the outcome in the dialog (no file dialog).
    void importFrom(const QString& path);
    /// Writes the user's devices to a device file and reports the outcome (no file dialog).
    void exportTo(const QString& path);
    widgets::MessageBar* messageBar() const { return m_messages; }
    QTreeWidget* deviceList() const { return m_list; }
    /// Opens the form for a new device, starting from `start` (figures of a device to copy).
    DeviceForm* openForm(const core::Gpu& start, const QString& replacing = {});

private:
    void rebuild();
    void updateButtons();
    QString selectedId(bool* builtin = nullptr) const;
    void addDevice();
    void copyDevice();
    void editDevice();
    void removeDevice();
    void importInteractive();
    void exportInteractive();
    void showResult(const session::CatalogueResult& result);

    session::GpuCatalogue* m_catalogue;
    widgets::MessageBar* m_messages;
    QTreeWidget* m_list;
    QPushButton* m_copy;
    QPushButton* m_edit;
    QPushButton* m_remove;
    QPushButton* m_export;
};

} // namespace archplay::ui::panels
