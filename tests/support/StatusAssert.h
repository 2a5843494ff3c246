// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// core::Status in assertions: EXPECT_TRUE(test::succeeded(save(...))) prints the reason on failure.

#include "core/util/Status.h"

#include <gtest/gtest.h>

namespace archplay::test {

inline ::testing::AssertionResult succeeded(const core::Status& status) {
    if (status.ok()) {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "failed: " << status.error();
}

} // namespace archplay::test
