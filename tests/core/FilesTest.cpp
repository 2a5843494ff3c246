// SPDX-License-Identifier: GPL-3.0-or-later
// The one rule for writing the user's files: checkWritableTarget() says what writeFileAtomically()
// would refuse, without writing, so that an export of several files checks them all first.
#include "core/io/Files.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace archplay::test {
namespace {

namespace fs = std::filesystem;

class Files : public ::testing::Test {
protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "archplay-files-XXXXXX").string();
        ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
        m_dir = pattern;
    }
    void TearDown() override { fs::remove_all(m_dir); }
    fs::path m_dir;
};

TEST_F(Files, TheCheckRefusesWhatTheWriteRefusesAndWritesNothing) {
    const fs::path fresh = m_dir / "report.md";
    EXPECT_TRUE(core::checkWritableTarget(fresh.string()).ok());
    EXPECT_FALSE(fs::exists(fresh)) << "checking creates nothing";

    fs::create_directory(m_dir / "folder.md");
    const core::Status directory = core::checkWritableTarget((m_dir / "folder.md").string());
    EXPECT_EQ(directory.error(), "it is a directory");
    EXPECT_FALSE(core::writeFileAtomically((m_dir / "folder.md").string(), "x").ok());

    EXPECT_FALSE(core::checkWritableTarget((m_dir / "missing" / "report.md").string()).ok());
    EXPECT_FALSE(core::checkWritableTarget("/dev/null").ok());

    const fs::path locked = m_dir / "locked.md";
    std::ofstream(locked) << "kept";
    fs::permissions(locked, fs::perms::owner_read);
    EXPECT_EQ(core::checkWritableTarget(locked.string()).error(), "it is read-only");
    EXPECT_TRUE(core::checkWritableTarget(locked.string(), core::ReadOnlyTarget::Replace).ok());
    std::ifstream in(locked);
    std::string text;
    in >> text;
    EXPECT_EQ(text, "kept");
}

} // namespace
} // namespace archplay::test
