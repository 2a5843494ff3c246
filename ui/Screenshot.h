// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/CommandLine.h"

#include <QImage>
#include <QSize>
#include <QString>

class QWidget;

namespace archplay::ui {

class AnalysisView;
class MainWindow;

/// Draws a view through its render() into an image of `size` device-independent pixels.
QImage renderView(const AnalysisView& view, const QSize& size, qreal devicePixelRatio = 1.0);
/// Each returns an empty string on success, else the reason.
QString saveViewPng(const AnalysisView& view, const QSize& size, qreal devicePixelRatio, const QString& path);
QString saveViewSvg(const AnalysisView& view, const QSize& size, const QString& path);
QString saveWidgetPng(QWidget& widget, const QString& path);

/// Applies --preset, --config and --view to a window. Returns 0, or 2 with `error` set.
int applyOptions(MainWindow& window, const GuiOptions& options, QString* error);

/// `archplay --screenshot`: builds a window without touching the settings, renders it (or the
/// chosen view) at options.size, writes the PNG. Returns the exit status: 0, 1 when the file
/// cannot be written, 2 for bad arguments; `error` says why.
int runScreenshot(const GuiOptions& options, QString* error);

} // namespace archplay::ui
