// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/validate/Diagnostic.h"

#include <QColor>
#include <QIcon>
#include <QPalette>
#include <QString>

#include <optional>

namespace archplay::ui::theme {

/// System follows the desktop's palette as it was when the program started; Light and Dark are
/// the program's own palettes on the Fusion style.
enum class ThemeMode { System, Light, Dark };

QString toString(ThemeMode mode);
/// Parses "system", "light", "dark" (case-insensitive).
std::optional<ThemeMode> parseThemeMode(const QString& text);

/// Installs the style and palette of `mode` on the application. Widgets receive
/// QEvent::PaletteChange and repaint. Call once after the QApplication exists, then on every change.
void applyTheme(ThemeMode mode);
ThemeMode currentThemeMode();
/// The palette `mode` installs: the program's light or dark palette, or the desktop's for System.
/// Exports use it to draw in a theme other than the window's.
QPalette themePalette(ThemeMode mode);

/// Every colour the program paints with beyond the plain palette roles. Derived from a palette so
/// that views follow light and dark themes.
bool isDark(const QPalette& palette);
QColor severityColor(core::Severity severity, const QPalette& palette);
QColor goodColor(const QPalette& palette);
QColor cautionColor(const QPalette& palette);
QColor mutedText(const QPalette& palette);
QColor cardBackground(const QPalette& palette);
QColor cardBorder(const QPalette& palette);
/// Fill of the share bars in tables.
QColor shareBar(const QPalette& palette);
/// Background that briefly marks a field the user jumped to.
QColor flashBackground(const QPalette& palette);

/// A monochrome icon from ":/icons/NAME.svg", drawn in the palette's text colour at paint time,
/// so it follows the theme and stays crisp at any device pixel ratio.
QIcon icon(const QString& name);
/// A full-colour icon from ":/icons/NAME.svg" (status icons, the application icon).
QIcon colorIcon(const QString& name);
QIcon severityIcon(core::Severity severity);
QIcon okIcon();

} // namespace archplay::ui::theme
