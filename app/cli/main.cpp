// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/CliCommands.h"

#include <iostream>

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    return archplay::cli::run(args, std::cout, std::cerr);
}
