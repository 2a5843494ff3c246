// SPDX-License-Identifier: GPL-3.0-or-later
// ModelConfig.h is included by nearly every translation unit; it declares the JSON type without the
// JSON library. This file includes nothing else before asking which of the two headers came in.
#include "core/config/ModelConfig.h"

#include <gtest/gtest.h>

namespace archplay::test {
namespace {

#ifdef INCLUDE_NLOHMANN_JSON_HPP_
constexpr bool kJsonLibraryIncluded = true;
#else
constexpr bool kJsonLibraryIncluded = false;
#endif

#ifdef INCLUDE_NLOHMANN_JSON_FWD_HPP_
constexpr bool kJsonDeclared = true;
#else
constexpr bool kJsonDeclared = false;
#endif

TEST(ModelConfigHeader, DeclaresTheJsonTypeWithoutItsLibrary) {
    EXPECT_FALSE(kJsonLibraryIncluded);
    EXPECT_TRUE(kJsonDeclared);
}

} // namespace
} // namespace archplay::test
