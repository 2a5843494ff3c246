// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Helpers the command-line tests share: archplay-cli run in-process, and scratch files.

#include "app/cli/CliCommands.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace archplay::test {

/// What one archplay-cli invocation printed and returned.
struct CliResult {
    int exitCode = 0;
    std::string out;
    std::string err;
};

/// Runs archplay-cli with `args` (without the program name) through cli::run().
inline CliResult runCli(const std::vector<std::string>& args) {
    std::ostringstream out;
    std::ostringstream err;
    const int code = cli::run(args, out, err);
    return {code, out.str(), err.str()};
}

/// A fresh, empty directory under the temporary directory, named after `name`.
inline std::filesystem::path scratchDirectory(const std::string& name) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("archplay-cli-test-" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

/// Writes `text` to a file `name` in the temporary directory; returns its path.
inline std::string writeTempFile(const std::string& name, const std::string& text) {
    const std::filesystem::path path = std::filesystem::temp_directory_path() / ("archplay-cli-test-" + name);
    std::ofstream(path) << text;
    return path.string();
}

/// The whole content of a file, or empty when it cannot be read.
inline std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace archplay::test
