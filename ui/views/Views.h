// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <vector>

class QWidget;

namespace archplay::ui {

class AnalysisView;

/// Every live view, in tab order, parented to `parent`. The window shows them as tabs and
/// `archplay --view ID` picks one by its viewId().
std::vector<AnalysisView*> createViews(QWidget* parent);

} // namespace archplay::ui
