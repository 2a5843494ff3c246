// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace archplay::cli {

/// The usage lines of the design command, for the tool's usage text.
extern const char* const kDesignUsage;

/// `archplay-cli design --params COUNT [options]` (`args` starts with "design"): the dense Llama-style
/// designs nearest a parameter budget (core::searchDesigns), as a table or --json. Returns 0, also
/// when no design meets the targets; 2 for bad usage, including a space the core rejects.
int commandDesign(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace archplay::cli
