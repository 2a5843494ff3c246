// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer's entry point, built once per target with ARCHPLAY_FUZZ_TARGET naming its function.
#include "tests/fuzz/FuzzTargets.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    archplay::fuzz::ARCHPLAY_FUZZ_TARGET(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
