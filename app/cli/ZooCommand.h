// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/cli/CliCommands.h"

#include <string>
#include <vector>

namespace archplay::cli {

/// Reads `archplay-cli zoo [--dir FOLDER ...] [--hf-cache] [--hf-root DIR] [--presets] [--filter EXPR]
/// [--sort [-]KEY] [--json|--csv|--md] [scenario flags]` (`args` starts with "zoo"); throws UsageError
/// (a bad filter names its clause). The command tables the built-in presets (or, with --dir and
/// --hf-cache, the configs found there; --presets adds the presets back) in one scenario; rows that
/// cannot be counted are listed with their reason. Exit 0 even when some rows are not counted.
[[nodiscard]] CommandRunner parseZoo(const std::vector<std::string>& args);

} // namespace archplay::cli
