// SPDX-License-Identifier: GPL-3.0-or-later
// Runs a real executable as a user's shell would, for the integration tests: arguments, exit
// status, and what it printed on each stream.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace archplay::test {

struct ProcessResult {
    int exitCode = -1; ///< the exit status, or -1 when the process did not exit normally
    std::string out;   ///< standard output
    std::string err;   ///< standard error
};

/// `text` quoted for a POSIX shell.
inline std::string shellQuoted(const std::string& text) {
    std::string quoted = "'";
    for (char ch : text) {
        quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    }
    return quoted + "'";
}

/// Runs `program` with `arguments`, standard input from /dev/null, and collects its streams.
inline ProcessResult runProcess(const std::string& program, const std::vector<std::string>& arguments) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path();
    static int runs = 0;
    const std::string stem = "archplay-process-" + std::to_string(::getpid()) + "-" + std::to_string(++runs);
    const std::filesystem::path outPath = dir / (stem + ".out");
    const std::filesystem::path errPath = dir / (stem + ".err");
    std::string command = shellQuoted(program);
    for (const std::string& argument : arguments) {
        command += " " + shellQuoted(argument);
    }
    command += " </dev/null >" + shellQuoted(outPath.string()) + " 2>" + shellQuoted(errPath.string());
    const int status = std::system(command.c_str());
    auto slurp = [](const std::filesystem::path& path) {
        std::ifstream in(path, std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    };
    ProcessResult result;
    result.exitCode = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = slurp(outPath);
    result.err = slurp(errPath);
    std::filesystem::remove(outPath);
    std::filesystem::remove(errPath);
    return result;
}

} // namespace archplay::test
