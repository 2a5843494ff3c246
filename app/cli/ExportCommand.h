// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/cli/CliCommands.h"

#include <string>
#include <vector>

namespace archplay::cli {

/// The usage lines of the export command, for the tool's usage text.
extern const char* const kExportUsage;

/// Reads `archplay-cli export CONFIG --what W --format F -o FILE [options]` (`args` starts with
/// "export"); throws UsageError. Text formats (csv, md, json, tex) are written without Qt; images and
/// the PDF and Markdown reports are drawn by the window's own views on Qt's offscreen platform
/// (exportGraphics()). The command it returns writes the file atomically and returns 0; 1 for an
/// unreadable or invalid config or a failed write, with one line naming the file and the reason; 2
/// for combinations that make no sense for the config.
[[nodiscard]] CommandRunner parseExport(const std::vector<std::string>& args);

} // namespace archplay::cli
