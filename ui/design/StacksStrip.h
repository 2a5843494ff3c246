// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/design/Compare.h"

#include <QWidget>

namespace archplay::ui::design {

/// The compared layer stacks side by side: one column per config, its height in proportion to its
/// layer count, each run of identical layers a band whose left half is coloured by its token mixer
/// (attention kind) and its right half by its FFN kind, as the layer-stack view colours them.
class StacksStrip : public QWidget {
    Q_OBJECT

public:
    explicit StacksStrip(QWidget* parent = nullptr);

    void setComparison(const core::Comparison* comparison);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    const core::Comparison* m_comparison = nullptr;
};

} // namespace archplay::ui::design
