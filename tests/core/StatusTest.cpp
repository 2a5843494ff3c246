// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/util/Status.h"

#include <gtest/gtest.h>

namespace archplay::test {
namespace {

TEST(Status, SuccessHasNoError) {
    const core::Status status;
    EXPECT_TRUE(status.ok());
    EXPECT_TRUE(status.error().empty());
}

TEST(Status, FailureKeepsItsReasonAndAnEmptyReasonStillFails) {
    const core::Status denied = core::Status::failure("Permission denied");
    EXPECT_FALSE(denied.ok());
    EXPECT_EQ(denied.error(), "Permission denied");
    const core::Status unexplained = core::Status::failure("");
    EXPECT_FALSE(unexplained.ok());
    EXPECT_FALSE(unexplained.error().empty());
}

} // namespace
} // namespace archplay::test
