// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The fuzz targets as plain functions: the libFuzzer entry points (build-fuzz/, clang) and the replay
// test of tests/fuzz/regressions (every build, any compiler) call the same code.

#include <stdexcept>
#include <string_view>

namespace archplay::fuzz {

/// An invariant the program promises that an input broke; the message says which.
struct BrokenInvariant : std::logic_error {
    using std::logic_error::logic_error;
};

/// config.json text: read as written and, when refused, best effort; then everything archplay-cli
/// params, kv, validate and export compute from it, in the default scenario and in one at the edge
/// of 64 bits; then written back and read again. Throws BrokenInvariant when a promise is broken
/// (a refusal without an error, a breakdown that does not add up, a written config that does not read
/// back as the same model); anything else thrown is a bug too.
void configTarget(std::string_view data);

/// Session text: read, analyzed with its scenario, written and read back as the same session.
void sessionTarget(std::string_view data);

/// An archplay-cli command line, one argument per line: read and checked without running it (no file
/// is read or written). Either a command or a usage error with a message.
void commandLineTarget(std::string_view data);

/// A devices catalogue (Tools > Devices, --gpu-file): read; every device kept has an id that is
/// neither a built-in one nor another's, nor digits alone, names without control characters and
/// figures in their ranges; written and read back as the same devices.
void gpuCatalogueTarget(std::string_view data);

/// A config.json found by the zoo: written into a folder, searched and read as the zoo reads folders
/// (bounded, best effort, invalid configs refused), tabled in the default scenario and at the edge of
/// 64 bits, and exported as JSON, CSV and Markdown. One row per file; a row is counted or says why not.
void zooFolderTarget(std::string_view data);

} // namespace archplay::fuzz
